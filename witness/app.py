"""The witness's HTTP interface, a plain WSGI application (served by the standard library's wsgiref):

    GET  /key                the witness's public key (PEM): pin it in the project's WITNESS_PUBLIC_KEY
    POST /heads              a checkpoint line of the project, as signed → 200/201 the countersigned line;
                             400 not a checkpoint, 403 not signed by the project's key, 409 backwards
                             or out of order ({"expected": seq} when earlier ones must come first),
                             413 too large, 503 a torn log, 507 a full disk (nothing recorded)
    GET  /heads/latest       the newest countersigned line (404 when none yet)
    GET  /heads?after=N      the countersigned lines of checkpoints after N (at most 1000; "more")
    GET  /healthz            {"ok", "latest", "problem"}

Every answer is JSON but /key's; an error is {"error": "…"}.
"""

import json
from urllib.parse import parse_qs

from .store import Refused, Store, public_pem

MAX_BODY = 4 * 1024 * 1024  # a checkpoint of some thousand tables' heads


def _answer(start_response, status: int, body: dict | list | None, content_type="application/json") -> list[bytes]:
    reasons = {
        200: "OK",
        201: "Created",
        400: "Bad Request",
        403: "Forbidden",
        404: "Not Found",
        405: "Method Not Allowed",
        409: "Conflict",
        411: "Length Required",
        413: "Content Too Large",
        503: "Service Unavailable",
        507: "Insufficient Storage",
    }
    data = body if isinstance(body, bytes) else json.dumps(body, ensure_ascii=False).encode()
    start_response(
        f"{status} {reasons.get(status, '')}".strip(),
        [("Content-Type", content_type), ("Content-Length", str(len(data)))],
    )
    return [data]


def make_app(store: Store):
    def app(environ, start_response):
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "/")
        if path == "/key" and method == "GET":
            return _answer(start_response, 200, public_pem(store.public), "application/x-pem-file")
        if path == "/healthz" and method == "GET":
            latest = store.latest
            return _answer(
                start_response,
                200 if store.problem is None else 503,
                {
                    "ok": store.problem is None,
                    "problem": store.problem,
                    "latest": None if latest is None else latest["checkpoint"]["seq"],
                    "key": store.fingerprint,
                },
            )
        if path == "/heads/latest" and method == "GET":
            if store.latest is None:
                return _answer(start_response, 404, {"error": "no checkpoint countersigned yet"})
            return _answer(start_response, 200, store.latest)
        if path == "/heads" and method == "GET":
            query = parse_qs(environ.get("QUERY_STRING", ""))
            try:
                after = int(query.get("after", ["0"])[0])
            except ValueError:
                return _answer(start_response, 400, {"error": "after: a whole number of a checkpoint"})
            lines = store.after(after, limit=1001)
            return _answer(start_response, 200, {"heads": lines[:1000], "more": len(lines) > 1000})
        if path == "/heads" and method == "POST":
            try:
                length = int(environ.get("CONTENT_LENGTH") or "")
            except ValueError:
                return _answer(start_response, 411, {"error": "Content-Length is required"})
            if length < 0:
                return _answer(start_response, 400, {"error": "Content-Length: a whole number of bytes"})
            if length > MAX_BODY:
                return _answer(start_response, 413, {"error": f"a checkpoint is at most {MAX_BODY} bytes"})
            try:
                checkpoint = json.loads(environ["wsgi.input"].read(length))
            except (ValueError, UnicodeDecodeError):
                return _answer(start_response, 400, {"error": "the body is not JSON"})
            try:
                line, new = store.countersign(checkpoint)
            except Refused as refused:
                return _answer(start_response, refused.status, {"error": str(refused), **refused.extra})
            return _answer(start_response, 201 if new else 200, line)
        if path in ("/key", "/healthz", "/heads/latest", "/heads"):
            return _answer(start_response, 405, {"error": f"{method} is not allowed here"})
        return _answer(start_response, 404, {"error": "not found"})

    return app
