"""A webhook receiver on the standard library: verifies each delivery before trusting it."""

from __future__ import annotations

import json
import os
from http.server import BaseHTTPRequestHandler, HTTPServer

from dataplatform.webhooks import WebhookVerificationError, verify

SECRET = os.environ.get("WEBHOOK_SECRET", "")


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            # The raw bytes, never a parsed and re-serialised body: the signature covers the bytes sent.
            verify(body, dict(self.headers.items()), SECRET)
        except WebhookVerificationError as error:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(error.code.encode())
            return
        event = json.loads(body)
        print("event", event["type"], event.get("documentId"))
        self.send_response(204)
        self.end_headers()


if __name__ == "__main__":
    port = int(os.environ.get("PORT", "8000"))
    print(f"listening on http://127.0.0.1:{port}", flush=True)
    HTTPServer(("127.0.0.1", port), Receiver).serve_forever()
