"""`python -m witness --port 8765 --data /var/lib/casino-witness --project-key /etc/casino-witness/checkpoint-public.pem`

Serves the witness (witness/app.py) until stopped; `--repair-tail` instead removes a torn last line
of its log (a write cut by a full disk or a power loss) and exits. The project's checkpoint public
key(s) may also be given as WITNESS_PROJECT_KEY (comma-separated PEM paths)."""

import argparse
import logging
import os
import sys
from pathlib import Path
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from .app import make_app
from .store import Store, load_public_keys

log = logging.getLogger("witness")


class Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class Handler(WSGIRequestHandler):
    timeout = 10  # a client that stops sending mid-request does not hold a thread for ever

    def log_message(self, format, *args):
        log.info("%s %s", self.address_string(), format % args)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m witness", description="The project's checkpoint witness.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--data", type=Path, default=Path("/var/lib/casino-witness"))
    parser.add_argument(
        "--project-key",
        action="append",
        default=[],
        help="the project's checkpoint public key (PEM path); repeat for old keys",
    )
    parser.add_argument("--repair-tail", action="store_true", help="cut a torn last line of the log, then exit")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s witness %(levelname)s %(message)s")
    paths = args.project_key or [p.strip() for p in os.environ.get("WITNESS_PROJECT_KEY", "").split(",") if p.strip()]
    if not paths and not args.repair_tail:
        parser.error("the project's checkpoint public key is required (--project-key or WITNESS_PROJECT_KEY)")
    try:
        store = Store(args.data, load_public_keys(paths))
    except (OSError, ValueError) as exc:
        print(f"witness: cannot start: {exc}", file=sys.stderr)
        return 1
    if args.repair_tail:
        print(f"repair: {store.repair_tail()}")
        return 0
    if store.problem is not None:
        log.critical("%s", store.problem)
    server = make_server(args.host, args.port, make_app(store), server_class=Server, handler_class=Handler)
    log.info("listening on %s:%s, data %s, key %s", args.host, server.server_port, args.data, store.fingerprint)
    print(f"witness listening on {args.host}:{server.server_port} key {store.fingerprint}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
