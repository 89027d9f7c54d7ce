"""Serve the example Flask shop (examples/flask-shop, unchanged) on loopback
for tests/deliver.rs, logging every request it receives as one JSON line.

    python3 serve_flask.py LOG_FILE [--tls]

Prints the chosen port on the first line of stdout once it listens. Each
log line: method, path, query (name -> list of values), form, files
(name -> {filename, content}), json, headers, cookies, the response status,
the time it arrived, and how many requests were in flight with it.

Test knobs (environment): SHOP_FAIL_PATHS (comma-separated paths that answer
500), SHOP_SLOW_PATHS (paths that take 3 s), SHOP_DELAY (seconds every
request takes). An admin user with the token `t0k:admin` is seeded so the
admin endpoints can be reached with `Authorization: Bearer t0k:admin`
(re-seeded on every request, so a replayed logout does not revoke it).
"""
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "examples", "flask-shop"))

from flask import g, request  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from shop import create_app  # noqa: E402
from shop.store import TOKENS, USERS  # noqa: E402

LOG = sys.argv[1]
TLS = "--tls" in sys.argv[2:]
FAIL = {p for p in os.environ.get("SHOP_FAIL_PATHS", "").split(",") if p}
SLOW = {p for p in os.environ.get("SHOP_SLOW_PATHS", "").split(",") if p}
DELAY = float(os.environ.get("SHOP_DELAY", "0"))



def seed_admin():
    USERS["admin@shop.test"] = {"email": "admin@shop.test", "name": "Admin", "admin": True}
    TOKENS["t0k:admin"] = "admin@shop.test"


app = create_app()
lock = threading.Lock()
state = {"inflight": 0}


@app.before_request
def record():
    with lock:
        state["inflight"] += 1
        g.inflight = state["inflight"]
    g.arrived = time.time()
    # Requests arrive concurrently: a logout must not revoke the token
    # for the requests after it.
    seed_admin()
    if DELAY:
        time.sleep(DELAY)
    if request.path in SLOW:
        time.sleep(3)
    if request.path in FAIL:
        return "boom", 500
    return None


@app.after_request
def log_response(response):
    files = {
        name: {"filename": f.filename, "content": f.read().decode("utf-8", "replace")}
        for name, f in request.files.items()
    }
    entry = {
        "method": request.method,
        "path": request.path,
        "query": request.args.to_dict(flat=False),
        "form": request.form.to_dict(flat=False),
        "files": files,
        "json": request.get_json(silent=True),
        "content_type": request.content_type,
        "headers": {k: v for k, v in request.headers.items()},
        "cookies": request.cookies.to_dict(),
        "status": response.status_code,
        "arrived": getattr(g, "arrived", time.time()),
        "inflight": getattr(g, "inflight", 0),
    }
    with lock:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
    return response


@app.teardown_request
def leave(_exc):
    with lock:
        state["inflight"] -= 1


def main():
    ssl_context = "adhoc" if TLS else None
    server = make_server("127.0.0.1", 0, app, threaded=True, ssl_context=ssl_context)
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
