"""mitmdump addon for tests/deliver.rs: one JSON line per request that goes
through the proxy (method, scheme, host, port, path, headers, body), in the
file named by $MITM_LOG."""
import json
import os

LOG = os.environ["MITM_LOG"]


def request(flow):
    r = flow.request
    entry = {
        "method": r.method,
        "scheme": r.scheme,
        "host": r.host,
        "port": r.port,
        "path": r.path,
        "headers": {k: v for k, v in r.headers.items()},
        "body": r.get_text(strict=False) or "",
    }
    with open(LOG, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry) + "\n")
