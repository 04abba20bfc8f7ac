"""A local HTTP server that answers from a script (say, two 503s and then a 201) and records every request."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, Iterator, List, Optional, Tuple

#: One scripted answer: status, headers, JSON body; or "drop" to close the connection without an answer.
Scripted = Tuple[int, Dict[str, str], Any]
DROP: Scripted = (0, {}, None)


@dataclass
class Recorded:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes


@dataclass
class FlakyServer:
    url: str
    script: List[Scripted]
    requests: List[Recorded] = field(default_factory=list)


def _handler(server: FlakyServer) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: Any) -> None:
            pass

        def _answer(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = self.rfile.read(length) if length else b""
            server.requests.append(
                Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            status, headers, payload = server.script.pop(0) if server.script else (500, {}, {"error": "unscripted"})
            if status == 0:
                self.close_connection = True
                self.connection.shutdown(2)
                return
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

    return Handler


def serve(script: Optional[List[Scripted]] = None) -> Iterator[FlakyServer]:
    """Starts the server on a free loopback port; stops it when the generator is closed."""
    state = FlakyServer(url="", script=list(script or []))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
