"""The examples run against the reference server as a person would run them, with the environment set."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(name: str, server: tuple[str, str]) -> str:
    env = {**os.environ, "DATAPLATFORM_BASE_URL": server[0], "DATAPLATFORM_API_KEY": server[1]}
    result = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_quickstart(server: tuple[str, str]) -> None:
    output = run("quickstart.py", server)
    assert "created" in output and "gone: not_found req_" in output


def test_async_pages(server: tuple[str, str]) -> None:
    assert "pages of 2:" in run("async_pages.py", server)


def test_errors(server: tuple[str, str]) -> None:
    output = run("errors.py", server)
    assert "conflict: conflict" in output and "bad request: validation_error" in output


def test_the_webhook_receiver_accepts_a_signed_delivery_and_refuses_a_forged_one() -> None:
    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    port = _free_port()
    env = {**os.environ, "WEBHOOK_SECRET": secret, "PORT": str(port)}
    receiver = subprocess.Popen(
        [sys.executable, str(EXAMPLES / "webhook_receiver.py")], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert receiver.stdout is not None and "listening" in receiver.stdout.readline()
        body = b'{"id":"evt_1","type":"document.created","documentId":"d1"}'
        stamp = str(int(time.time()))
        signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        url = f"http://127.0.0.1:{port}/"
        signed = {"x-webhook-signature": signature, "x-webhook-timestamp": stamp}
        assert httpx.post(url, content=body, headers=signed).status_code == 204
        forged = httpx.post(url, content=body.replace(b"d1", b"d2"), headers=signed)
        assert (forged.status_code, forged.text) == (400, "invalid_signature")
    finally:
        receiver.terminate()
        receiver.wait(timeout=10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
