"""The Python runner of spec/conformance: each case's requests go through the client's own request method.

The format is spec/conformance/README.md. Requests are sent with ``DataPlatform.request_raw`` (no retries, no
credentials of the client's own), so the client's request building, error classes and request ids are what is
checked; an error answer is read back from the APIError the client raised.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import httpx

import dataplatform
from dataplatform import APIStatusError, DataPlatform

from .match import MISSING, interpolate, json_text, lookup, mismatches, path_value, show

CASES = Path(__file__).resolve().parents[4] / "spec" / "conformance"
SETUP_PASSWORD = "correct horse battery staple"


def load_cases() -> List[Tuple[str, Dict[str, Any]]]:
    """Every case as (id, case), the id being its path under spec/conformance without ``.json``."""
    found = []
    for file in sorted(CASES.glob("*/*.json")):
        found.append((str(file.relative_to(CASES).with_suffix("")), json.loads(file.read_text("utf-8"))))
    return found


@dataclass
class Answer:
    status: int
    headers: httpx.Headers
    body: Any


class ConformanceFailure(AssertionError):
    """A step that did not get the answer it expects."""


def _send(client: DataPlatform, step: Dict[str, Any], variables: Dict[str, Any], kinds: Dict[str, str]) -> Answer:
    request = step["request"]
    headers: Dict[str, Optional[str]] = {}
    auth = request.get("auth")
    if auth:
        kind = kinds.get(auth)
        if kind == "account":
            headers["authorization"] = f"Bearer {lookup(variables, auth + '.token')}"
        elif kind == "key":
            headers["x-api-key"] = str(lookup(variables, auth + ".secret"))
        else:
            raise LookupError(f"auth names {auth}, which the setup does not make")
    content: Optional[bytes] = None
    if "json" in request:
        content = json_text(interpolate(request["json"], variables)).encode()
        headers["content-type"] = "application/json"
    elif "body" in request:
        content = (str(interpolate(request["body"], variables)) * request.get("repeatBody", 1)).encode()
    for name, value in (request.get("headers") or {}).items():
        headers[name.lower()] = str(interpolate(value, variables))
    # A step sends only the headers it names: the client's own Accept and Idempotency-Key are taken out, unless
    # the step names them (the client keeps its X-Request-Id, which every answer must echo).
    for own in ("accept", "idempotency-key", "user-agent"):
        headers.setdefault(own, None)
    path = str(interpolate(request["path"], variables))
    try:
        if request.get("stream"):
            return _open_stream(client, request["method"], path, headers)
        response = client.request_raw(request["method"], path, content=content, headers=headers)
    except APIStatusError as error:
        _check_error_class(error)
        response = error.response
    text = response.text
    body: Any = text if text else MISSING
    if "json" in response.headers.get("content-type", "") and text:
        body = json.loads(text)
    return Answer(response.status_code, response.headers, body)


def _open_stream(client: DataPlatform, method: str, path: str, headers: Dict[str, Optional[str]]) -> Answer:
    """An endless event stream: its status and headers are read, then it is closed."""
    request = client._http.build_request(method, client.base_url + path, headers=client._headers("stream"))
    for name, value in headers.items():
        if value is None:
            request.headers.pop(name, None)
        else:
            request.headers[name] = value
    request.headers["x-request-id"] = dataplatform._request_id.new_request_id()
    response = client._http.send(request, stream=True)
    try:
        if response.status_code >= 400:
            response.read()
            return Answer(response.status_code, response.headers, json.loads(response.content))
        return Answer(response.status_code, response.headers, MISSING)
    finally:
        response.close()


def _check_error_class(error: APIStatusError) -> None:
    """The client's error for an answer: the class of its status, and the code and id of its body."""
    expected = dataplatform._errors.make_status_error(error.response, error.body)
    if type(error) is not type(expected):
        raise ConformanceFailure(f"{error.status} raised {type(error).__name__}, not {type(expected).__name__}")
    body = error.body if isinstance(error.body, dict) else {}
    if error.code != body.get("code") or (body.get("requestId") and error.request_id != body["requestId"]):
        raise ConformanceFailure(f"the error's code or request id differs from its body: {error!r}")


def _check(step: Dict[str, Any], answer: Answer, variables: Dict[str, Any]) -> List[str]:
    expect = step["expect"]
    problems: List[str] = []
    if answer.status != expect["status"]:
        problems.append(f"status: expected {expect['status']}, got {answer.status}")
    if answer.status >= 400:
        shape = {
            "error": {"$type": "string"},
            "code": expect.get("code", {"$type": "string"}),
            "requestId": answer.headers.get("x-request-id", {"$any": True}),
        }
        problems.extend(mismatches(answer.body, shape, variables, "body"))
    elif "code" in expect:
        problems.append(f"code: expected {expect['code']}, but the answer is a success")
    for name, matcher in (expect.get("headers") or {}).items():
        value = answer.headers.get(name, MISSING)
        problems.extend(mismatches(value, matcher, variables, f"headers.{name.lower()}"))
    if "body" in expect:
        problems.extend(mismatches(answer.body, expect["body"], variables, "body"))
    return problems


def _captured(answer: Answer, source: str) -> Any:
    if source == "status":
        return answer.status
    if source == "body":
        return answer.body
    if source.startswith("body."):
        return path_value(answer.body, source[len("body."):])
    if source.startswith("headers."):
        return answer.headers.get(source[len("headers."):], MISSING)
    raise ValueError(f"cannot capture {source}: use body, body.<path>, headers.<name> or status")


def run_case(case: Dict[str, Any], base_url: str) -> None:
    """Runs one case against the server at ``base_url``; raises ConformanceFailure at the first wrong answer."""
    variables: Dict[str, Any] = {"$unique": secrets.token_hex(8)}
    kinds: Dict[str, str] = {}
    steps: List[Tuple[str, Dict[str, Any]]] = []
    for fixture in case.get("setup", []):
        if "account" in fixture:
            name = fixture["account"]
            email = f"{name}-{variables['$unique']}@example.com"
            steps.append((f"setup: account {name}", {
                "request": {"method": "POST", "path": "/api/auth/signup",
                            "json": {"email": email, "password": SETUP_PASSWORD, "name": name}},
                "expect": {"status": 201},
                "capture": {name: "body"},
            }))
            kinds[name] = "account"
            variables[f"${name}"] = {"email": email, "password": SETUP_PASSWORD}
        else:
            steps.append((f"setup: key {fixture['key']}", {
                "request": {"method": "POST", "path": "/api/keys", "auth": fixture["owner"],
                            "json": {"name": fixture["key"], "scopes": fixture["scopes"]}},
                "expect": {"status": 201},
                "capture": {fixture["key"]: "body"},
            }))
            kinds[fixture["key"]] = "key"
    for i, step in enumerate(case["steps"]):
        steps.append((f"step {i + 1}" + (f" ({step['title']})" if step.get("title") else ""), step))

    # No credentials and no retries of the client's own: a case says exactly what each request carries.
    # Cases run on worker threads while pytest's own thread sets and unsets PYTEST_CURRENT_TEST; httpx reading
    # proxy settings walks os.environ, which must not happen beside that, and a local server needs no proxy.
    with httpx.Client(follow_redirects=False, trust_env=False) as http, DataPlatform(
        base_url=base_url, api_key="", token="", max_retries=0, http_client=http
    ) as client:
        for label, step in steps:
            try:
                answer = _send(client, step, variables, kinds)
            except (LookupError, ValueError) as error:
                raise ConformanceFailure(f"{case['title']}\n{label}: {error}") from error
            for name, source in (step.get("capture") or {}).items():
                value = _captured(answer, source)
                extra = variables.get(f"${name}")
                variables[name] = {**value, **extra} if extra and isinstance(value, dict) else value
            problems = _check(step, answer, variables)
            if problems:
                request = f"{step['request']['method']} {step['request']['path']}"
                raise ConformanceFailure(
                    f"{case['title']}\n{label}: {request}\n  " + "\n  ".join(problems)
                    + f"\n  answer: {answer.status} {show(answer.body)[:600]}"
                )
