"""A write whose answer is lost on the way back is retried with its Idempotency-Key and stored once."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, List

import httpx
import pytest

from dataplatform import DataPlatform


@pytest.fixture
def lossy_proxy(server: tuple[str, str]) -> Iterator[List[str]]:
    """A proxy to the reference server that forwards every request but drops the answer of the first write."""
    upstream = httpx.Client(base_url=server[0])
    forwarded: List[str] = []

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: Any) -> None:
            pass

        def _forward(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length") or 0))
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "content-length")}
            answer = upstream.request(self.command, self.path, content=body, headers=headers)
            forwarded.append(f"{self.command} {answer.status_code} {self.headers.get('idempotency-key')}")
            if self.command == "POST" and len([f for f in forwarded if f.startswith("POST")]) == 1:
                # The server stored the write; its answer never reaches the client.
                self.close_connection = True
                self.connection.shutdown(2)
                return
            self.send_response(answer.status_code)
            for name, value in answer.headers.items():
                if name.lower() not in ("content-length", "transfer-encoding", "connection", "content-encoding"):
                    self.send_header(name, value)
            self.send_header("content-length", str(len(answer.content)))
            self.end_headers()
            self.wfile.write(answer.content)

        do_GET = do_POST = _forward

    proxy = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=proxy.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    forwarded.insert(0, f"http://127.0.0.1:{proxy.server_address[1]}")
    try:
        yield forwarded
    finally:
        proxy.shutdown()
        proxy.server_close()
        upstream.close()


def test_the_retry_replays_the_stored_write(lossy_proxy: List[str], server: tuple[str, str], collection: str) -> None:
    url = lossy_proxy.pop(0)
    with DataPlatform(base_url=url, api_key=server[1], max_retries=2) as client:
        created = client.data.create(collection, {"total": 42})
        posts = [line for line in lossy_proxy if line.startswith("POST")]
        # Two attempts reached the server, with one key; the second was answered from the first one's record.
        assert len(posts) == 2 and len({line.split(" ")[2] for line in posts}) == 1
        page = client.data.list(collection)
        assert page.total == 1 and page.data[0]["_id"] == created["_id"]
