"""A portolan analyzer written in Python, for "Pennant", an invented web
micro-framework. Built into a WebAssembly component with componentize-py
(see docs/plugins-other-languages.md); the WIT bindings (`wit_world`) are
generated at build time from wit/analyzer.wit.

Pennant in one screen::

    from pennant import Pennant, Scope, Query, Header, Cookie, Json, Form, Upload

    app = Pennant(prefix="/api")      # prefix for every route of this app
    admin = Scope("/admin")           # a route group, possibly in another module
    app.include(admin)                # -> /api/admin/...

    @app.get("/items")                # get post put patch delete head options
    @app.route("/x", methods=["GET", "POST"])   # methods default to ["GET"]
    @app.websocket("/live")           # WebSocket (GET, protocol ws)
    def handler(q: Query, page: Query = 1, x_api_key: Header,
                sid: Cookie("session_id"), name: Json, note: Form, avatar: Upload): ...

Handler parameters annotated with a Pennant marker are request parameters;
the default value is the example value; `Marker("wire-name")` renames it;
header names default to the parameter name in Header-Case (`x_api_key` ->
`X-Api-Key`). Path placeholders (`{id}`) are left to the host, which adds a
path parameter for each.

The analyzer parses each file with the standard library's `ast` module (it
is a whole CPython in the component), so comments, docstrings and strings
never produce routes. Routes on a `Pennant` app are complete endpoints;
routes on a `Scope` and `app.include(scope)` calls are recorded as facts
(JSON lines) and joined in `link`, because the scope and the app usually
live in different modules. A scope that no app includes is reported under
its own prefix.
"""

import ast
import json
import posixpath
from typing import Dict, List, Optional, Tuple

from componentize_py_types import Err
from wit_world import exports
from wit_world.imports import types

TECH = "python_pennant"
VERSION = "0.1.0"
INTERFACE_VERSION = "0.3.0"

SHORTHANDS = ("get", "post", "put", "patch", "delete", "head", "options")
MARKERS = {
    "Query": types.ParamKind.QUERY,
    "Header": types.ParamKind.HEADER,
    "Cookie": types.ParamKind.COOKIE,
    "Json": types.ParamKind.JSON,
    "Form": types.ParamKind.FORM,
    "Upload": types.ParamKind.FILE,
}
TEST_DIRS = {"test", "tests", "spec", "specs", "__tests__", "testing"}


class Analyzer(exports.Analyzer):
    def describe(self) -> types.PluginInfo:
        tech = types.TechInfo(
            id=TECH,
            aliases=["pennant"],
            language="Python",
            framework="Pennant",
            specification=False,
            files=["*.py"],
            detect=[
                types.DetectRule(
                    files=["*.py"],
                    contains=["from pennant import", "import pennant"],
                    regex=[],
                )
            ],
            requires_any=[],
            supports=types.Supports(
                method=True, query=True, path=True, body=True,
                header=True, cookie=True, websocket=True,
            ),
        )
        return types.PluginInfo(
            name="python-pennant",
            version=VERSION,
            interface_version=INTERFACE_VERSION,
            techs=[tech],
            settings=[],
        )

    def analyze(self, tech: str, files: List[types.SourceFile]) -> types.BatchOutput:
        if tech != TECH:
            raise Err(f"this plugin has no analyzer for technology `{tech}`")
        endpoints: List[types.Endpoint] = []
        facts: List[dict] = []
        for f in files:
            if is_test_path(f.path):
                continue
            try:
                tree = ast.parse(f.content, filename=f.path)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue  # not Python we can read; nothing to report
            scan_module(f.path, tree, endpoints, facts)
        blob = "".join(json.dumps(fact) + "\n" for fact in facts).encode()
        return types.BatchOutput(endpoints=endpoints, facts=blob)

    def analyze_many(self, techs: List[str], files: List[types.SourceFile],
                     wanted: List[List[int]]) -> List[types.BatchOutput]:
        # One technology here: each runs over the files it wants.
        return [self.analyze(t, [files[i] for i in idx]) for t, idx in zip(techs, wanted)]

    def link(self, tech: str, facts: List[bytes]) -> List[types.Endpoint]:
        if tech != TECH:
            raise Err(f"this plugin has no analyzer for technology `{tech}`")
        routes, includes = [], []
        for blob in facts:
            for line in blob.decode("utf-8", "replace").splitlines():
                try:
                    fact = json.loads(line)
                except ValueError:
                    continue
                (routes if fact.get("kind") == "route" else includes).append(fact)
        out = []
        for r in routes:
            mounts = [i["app_prefix"] for i in includes if same_scope(i, r)] or [""]
            for app_prefix in mounts:
                url = join(app_prefix, r["scope_prefix"], r["path"])
                out.extend(build(url, r["methods"], r["params"], r["file"], r["line"], r["ws"]))
        return out


# --- scanning one module ------------------------------------------------------


def scan_module(path: str, tree: ast.Module, endpoints: list, facts: list) -> None:
    module = module_key(path)
    apps: Dict[str, str] = {}  # variable -> prefix
    scopes: Dict[str, str] = {}
    imported: Dict[str, Tuple[str, str]] = {}  # local name -> (origin module key, name there)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = resolve_import(path, node.module, node.level)
            for alias in node.names:
                imported[alias.asname or alias.name] = (origin, alias.name)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
            if isinstance(target, ast.Name) and isinstance(value, ast.Call):
                ctor = last_name(value.func)
                if ctor == "Pennant":
                    apps[target.id] = str_kwarg(value, "prefix") or ""
                elif ctor == "Scope":
                    scopes[target.id] = first_str(value) or ""
    for node in ast.walk(tree):
        # app.include(scope)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "include"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in apps
            and node.args
            and isinstance(node.args[0], ast.Name)
        ):
            name = node.args[0].id
            origin, scope = (module, name) if name in scopes else imported.get(name, ("", name))
            facts.append({
                "kind": "include",
                "app_prefix": apps[node.func.value.id],
                "scope_module": origin,
                "scope": scope,
            })
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for deco in node.decorator_list:
            route = parse_route(deco)
            if route is None:
                continue
            owner, route_path, methods, ws = route
            params = handler_params(node.args)
            if owner in apps:
                url = join(apps[owner], "", route_path)
                endpoints.extend(build(url, methods, params, path, deco.lineno, ws))
            elif owner in scopes:
                facts.append({
                    "kind": "route", "module": module, "scope": owner,
                    "scope_prefix": scopes[owner], "path": route_path, "methods": methods,
                    "params": params, "file": path, "line": deco.lineno, "ws": ws,
                })


def parse_route(deco: ast.expr) -> Optional[Tuple[str, str, List[str], bool]]:
    """`@owner.get("/p")`, `@owner.route("/p", methods=[...])`, `@owner.websocket("/p")`."""
    if not (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)):
        return None
    if not isinstance(deco.func.value, ast.Name):
        return None
    owner, verb = deco.func.value.id, deco.func.attr
    path = first_str(deco)
    if path is None:
        return None
    if verb in SHORTHANDS:
        return owner, path, [verb.upper()], False
    if verb == "websocket":
        return owner, path, ["GET"], True
    if verb == "route":
        methods = ["GET"]
        for kw in deco.keywords:
            if kw.arg == "methods" and isinstance(kw.value, (ast.List, ast.Tuple)):
                methods = [
                    e.value.upper() for e in kw.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
        return owner, path, methods, False
    return None


def handler_params(args: ast.arguments) -> List[list]:
    """[[name, value, kind-name], ...] in signature order."""
    positional = args.posonlyargs + args.args
    defaults: Dict[str, ast.expr] = {}
    for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
        defaults[arg.arg] = default
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        if default is not None:
            defaults[arg.arg] = default
    out = []
    for arg in positional + args.kwonlyargs:
        ann = arg.annotation
        if ann is None:
            continue
        marker = last_name(ann.func if isinstance(ann, ast.Call) else ann)
        if marker not in MARKERS:
            continue
        name = (first_str(ann) if isinstance(ann, ast.Call) else None) or (
            header_case(arg.arg) if marker == "Header" else arg.arg
        )
        out.append([name, literal_text(defaults.get(arg.arg)), marker])
    return out


# --- building endpoints -------------------------------------------------------


def build(url, methods, params, file, line, ws) -> List[types.Endpoint]:
    return [
        types.Endpoint(
            url=url,
            method=m,
            params=[types.Param(name=n, value=v, kind=MARKERS[k]) for n, v, k in params],
            protocol="ws" if ws else "http",
            tags=[],
            code_paths=[types.CodeLocation(path=file, line=line)],
            internal=False,
            ai_context=None,
        )
        for m in methods
    ]


def same_scope(include: dict, route: dict) -> bool:
    if include["scope"] != route["scope"]:
        return False
    mod, want = route["module"], include["scope_module"]
    # `from shop.admin import admin` names the module from some package root
    # we do not know; accept any suffix match on path components.
    return bool(want) and (mod == want or mod.endswith("/" + want))


def join(*parts: str) -> str:
    """Prefixes and a route path joined with exactly one `/` between them
    (Pennant accepts `prefix="/api/"` and `@app.get("items")` alike); a
    trailing slash on the route path is kept, as the framework serves it."""
    segments = [p.strip("/") for p in parts if p.strip("/")]
    url = "/" + "/".join(segments)
    if len(url) > 1 and parts and parts[-1].endswith("/"):
        url += "/"
    return url


# --- small helpers ------------------------------------------------------------


def last_name(node: ast.expr) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def first_str(call: ast.Call) -> Optional[str]:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def str_kwarg(call: ast.Call, name: str) -> Optional[str]:
    for kw in call.keywords:
        if kw.arg == name and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
            return kw.value.value
    return None


def literal_text(node: Optional[ast.expr]) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) \
            and not isinstance(node.value, bool):
        return str(node.value)
    return ""


def header_case(name: str) -> str:
    return "-".join(w.capitalize() for w in name.split("_") if w)


def module_key(path: str) -> str:
    """`app/shop/admin.py` -> `app/shop/admin`; `app/shop/__init__.py` -> `app/shop`."""
    key = path[:-3] if path.endswith(".py") else path
    return key[: -len("/__init__")] if key.endswith("/__init__") else key


def resolve_import(path: str, name: Optional[str], level: int) -> str:
    """The module key an import in file `path` refers to (`from .admin import x`)."""
    target = (name or "").replace(".", "/")
    if level == 0:
        return target
    base = posixpath.dirname(path)  # the package the importing file is in
    for _ in range(level - 1):
        base = posixpath.dirname(base)
    return posixpath.join(base, target) if target else base


def is_test_path(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    return (
        any(p in TEST_DIRS for p in parts[:-1])
        or name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
    )
