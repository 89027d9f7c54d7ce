"""A loopback stand-in for an Elasticsearch/OpenSearch node, for
tests/deliver.rs: no real ES-compatible server can be installed here from
a package registry (Elasticsearch and OpenSearch ship as downloads, not as
PyPI, npm, crates.io or Debian packages), so this implements the part of
the documented REST contract that `--send-es` uses, strictly:

    python3 fake_es.py LOG_FILE

- `GET /`: cluster info.
- `POST /_bulk` and `POST /<index>/_bulk`: the body is NDJSON and must end
  with a newline; `Content-Type` must be `application/x-ndjson` or
  `application/json` (else 406); each `index`/`create` action line is
  followed by its source line; `_index` comes from the action or the path
  (else the item fails with `action_request_validation_exception`). The
  answer is `{"took", "errors", "items": [{"index": {"_index", "_id",
  "_version", "result", "status"}}]}`, with per-item `error` objects.
- `GET /<index>/_count`: the number of stored documents.
- Authentication: with $FAKE_ES_AUTH=`user:pass`, every request needs that
  HTTP Basic authentication, else 401 with a `security_exception`.
- $FAKE_ES_REJECT: documents whose `url` contains this text are rejected
  (item status 400, `mapper_parsing_exception`), as a mapping conflict would.

Prints its port on the first line of stdout. Every bulk request is logged
as one JSON line: path, headers, and the parsed (action, source) pairs.
"""
import base64
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = sys.argv[1]
AUTH = os.environ.get("FAKE_ES_AUTH")
REJECT = os.environ.get("FAKE_ES_REJECT")
STORE = {}
LOCK = threading.Lock()


def error(kind, reason):
    return {"type": kind, "reason": reason}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, extra=None):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def authorized(self):
        if not AUTH:
            return True
        want = "Basic " + base64.b64encode(AUTH.encode()).decode()
        if self.headers.get("Authorization") == want:
            return True
        self.reply(
            401,
            {
                "error": error(
                    "security_exception",
                    f"missing authentication credentials for REST request [{self.path}]",
                ),
                "status": 401,
            },
            {"WWW-Authenticate": 'Basic realm="security" charset="UTF-8"'},
        )
        return False

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n).decode("utf-8")

    def do_GET(self):
        if not self.authorized():
            return
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        if not parts:
            self.reply(200, {"name": "fake-es", "cluster_name": "portolan-tests",
                             "version": {"number": "8.13.0", "distribution": "fake"},
                             "tagline": "You Know, for Search"})
        elif len(parts) == 2 and parts[1] == "_count":
            with LOCK:
                count = len(STORE.get(parts[0], {}))
            self.reply(200, {"count": count})
        else:
            self.reply(404, {"error": error("index_not_found_exception", "no such index"), "status": 404})

    def do_POST(self):
        if not self.authorized():
            return
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        if not parts or parts[-1] != "_bulk" or len(parts) > 2:
            self.reply(405, {"error": "Incorrect HTTP method for uri [" + self.path + "]", "status": 405})
            return
        path_index = parts[0] if len(parts) == 2 else None
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip()
        if ctype not in ("application/x-ndjson", "application/json"):
            self.reply(406, {"error": f"Content-Type header [{ctype}] is not supported", "status": 406})
            return
        text = self.body()
        if not text.endswith("\n"):
            self.reply(400, {"error": error("illegal_argument_exception",
                                            "The bulk request must be terminated by a newline [\\n]"),
                             "status": 400})
            return
        lines = text.split("\n")[:-1]
        items, pairs, errors = [], [], False
        i = 0
        while i < len(lines):
            try:
                action = json.loads(lines[i])
            except ValueError:
                self.reply(400, {"error": error("x_content_parse_exception", f"line {i + 1}: not JSON"), "status": 400})
                return
            if not isinstance(action, dict) or len(action) != 1:
                self.reply(400, {"error": error("illegal_argument_exception", f"Malformed action/metadata line [{i + 1}]"), "status": 400})
                return
            (op, meta), = action.items()
            if op not in ("index", "create"):
                self.reply(400, {"error": error("illegal_argument_exception", f"Unsupported action [{op}]"), "status": 400})
                return
            if i + 1 >= len(lines):
                self.reply(400, {"error": error("action_request_validation_exception", "source is missing"), "status": 400})
                return
            try:
                source = json.loads(lines[i + 1])
            except ValueError:
                self.reply(400, {"error": error("x_content_parse_exception", f"line {i + 2}: not JSON"), "status": 400})
                return
            i += 2
            index = meta.get("_index") or path_index
            doc_id = meta.get("_id") or f"auto-{len(pairs)}"
            pairs.append({"action": action, "source": source})
            if not index:
                item = {"_index": None, "_id": doc_id, "status": 400,
                        "error": error("action_request_validation_exception", "index is missing")}
            elif REJECT and REJECT in str(source.get("url", "")):
                item = {"_index": index, "_id": doc_id, "status": 400,
                        "error": error("mapper_parsing_exception", "failed to parse field [url]")}
            else:
                with LOCK:
                    docs = STORE.setdefault(index, {})
                    created = doc_id not in docs
                    docs[doc_id] = source
                item = {"_index": index, "_id": doc_id, "_version": 1,
                        "result": "created" if created else "updated",
                        "status": 201 if created else 200}
            errors = errors or item["status"] >= 300
            items.append({op: item})
        with LOCK:
            with open(LOG, "a", encoding="utf-8") as f:
                f.write(json.dumps({"path": self.path, "headers": dict(self.headers.items()),
                                    "docs": pairs}) + "\n")
        self.reply(200, {"took": 1, "errors": errors, "items": items})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
