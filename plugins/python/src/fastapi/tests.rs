use super::FastApi;

crate::test_support::runner!(
    FastApi,
    crate::test_support::Style {
        ws: true,
        ..crate::test_support::LINES
    }
);

#[test]
fn tech_declaration() {
    crate::test_support::assert_tech(&FastApi, "python_fastapi", "fastapi");
}

#[test]
fn methods_api_route_add_api_route_and_websockets() {
    let src = "from fastapi import FastAPI\napp = FastAPI()\n\n@app.get('/a')\ndef a(): pass\n\n@app.api_route('/b', methods=['GET', 'post'])\nasync def b(): pass\n\n@app.api_route('/c')\ndef c(): pass\n\n@app.websocket('/ws')\nasync def ws(websocket: WebSocket): pass\n\ndef d(q: str): pass\napp.add_api_route('/d', d, methods=['PUT'])\napp.add_api_websocket_route('/ws2', ws)\n\n# @app.get('/gone')\n@pytest.mark.get('/no')\ndef e(): pass\n";
    assert_eq!(
        run(&[("main.py", src)]),
        vec![
            "GET /a @4 []",
            "GET /b @7 []",
            "GET /c @10 []",
            "GET /ws ws @13 []",
            "GET /ws2 ws @18 []",
            "POST /b @7 []",
            "PUT /d @17 [query:q]",
        ]
    );
}

#[test]
fn include_router_chains_across_modules() {
    let main = "from fastapi import FastAPI\nfrom app.api.api import api_router\nfrom app.core.config import settings\n\napp = FastAPI(title='x')\napp.include_router(api_router, prefix=settings.API_V1_STR)\n";
    let config = "from pydantic_settings import BaseSettings\n\nclass Settings(BaseSettings):\n    API_V1_STR: str = '/api/v1'\n\nsettings = Settings()\n";
    let api = "from fastapi import APIRouter\nfrom app.api.routes import items, users\n\napi_router = APIRouter()\napi_router.include_router(users.router, prefix='/users', tags=['users'])\napi_router.include_router(items.router)\n";
    let users = "from fastapi import APIRouter\n\nrouter = APIRouter()\n\n@router.get('/')\ndef list_users(skip: int = 0, limit: int = 100): pass\n\n@router.get('/{user_id}')\ndef get_user(user_id: int): pass\n";
    let items = "from fastapi import APIRouter\nITEMS = '/items'\nrouter = APIRouter(prefix=ITEMS)\n\n@router.delete('/{id}')\ndef delete(id: str): pass\n\n@router.post('')\ndef create(): pass\n";
    assert_eq!(
        urls(&[
            ("app/main.py", main),
            ("app/core/config.py", config),
            ("app/api/api.py", api),
            ("app/api/routes/users.py", users),
            ("app/api/routes/items.py", items),
        ]),
        vec![
            "DELETE /api/v1/items/{id}",
            "GET /api/v1/users/",
            "GET /api/v1/users/{user_id}",
            "POST /api/v1/items",
        ]
    );
}

#[test]
fn settings_from_factories() {
    let config = "from functools import lru_cache\nfrom pydantic import Field\nfrom pydantic_settings import BaseSettings\n\nclass Settings(BaseSettings):\n    api_prefix: str = Field('/api', env='API_PREFIX')\n\n@lru_cache\ndef get_settings():\n    return Settings()\n";
    let main = "from fastapi import FastAPI\nfrom config import get_settings\n\nsettings = get_settings()\napp = FastAPI()\napp.include_router(r, prefix=settings.api_prefix)\nr = APIRouter()\n\n@r.get('/x')\ndef x(): pass\n";
    assert_eq!(
        urls(&[("config.py", config), ("main.py", main)]),
        vec!["GET /api/x"]
    );
}

#[test]
fn mounts_root_path_and_unincluded_routers() {
    let src = "from fastapi import FastAPI, APIRouter\napp = FastAPI(root_path='/svc')\nv1 = FastAPI()\nr = InferringRouter(prefix='/r')\nlone = APIRouter(prefix='/lone')\n\n@v1.get('/x')\ndef x(): pass\n\n@r.get('/y')\ndef y(): pass\n\n@lone.get('/z')\ndef z(): pass\n\n@app.get('/files/{file_path:path}')\ndef f(file_path: str): pass\n\nv1.include_router(r)\napp.mount('/v1', v1)\napp.mount('/static', StaticFiles(directory='static'))\n";
    assert_eq!(
        urls(&[("main.py", src)]),
        vec![
            "GET /lone/z",
            "GET /svc/files/{file_path}",
            "GET /svc/v1/r/y",
            "GET /svc/v1/x",
        ]
    );
}

#[test]
fn signature_params() {
    let models = "from pydantic import BaseModel, Field\n\nclass Base(BaseModel):\n    name: str\n\nclass Item(Base):\n    price: float\n    owner_id: int = Field(alias='ownerId')\n\nclass Kind(str, Enum):\n    a = 'a'\n";
    let deps = "from fastapi import Header, Depends\n\nasync def token(x_token: str = Header()):\n    pass\n\ndef common(q: str | None = None, skip: int = 0, t=Depends(token)):\n    pass\n\nclass Pager:\n    def __init__(self, page: int = 1, size: int = 10):\n        pass\n";
    let main = "from typing import Annotated\nfrom fastapi import FastAPI, Query, Header, Cookie, Body, Form, File, UploadFile, Depends, Request\nfrom .models import Item, Kind\nfrom .deps import common, Pager\nfrom sqlalchemy.orm import Session\n\napp = FastAPI()\nCommonDep = Annotated[dict, Depends(common)]\n\n@app.put('/items/{item_id}')\nasync def update(\n    item_id: int,\n    item: Item,\n    request: Request,\n    db: Session,\n    kind: Kind,\n    when: datetime,\n    q: Annotated[str | None, Query(alias='query')] = None,\n    user_agent: str | None = Header(default=None),\n    x_raw: str = Header(convert_underscores=False),\n    session: str = Cookie(None),\n):\n    pass\n\n@app.post('/multi')\ndef multi(item: Item, importance: int = Body(), commons: CommonDep = None, p: Pager = Depends()): pass\n\n@app.post('/upload')\ndef upload(f: UploadFile, note: str = Form(...), extra: bytes = File(...), e: Item = Body(embed=True)): pass\n";
    assert_eq!(
        run(&[("app/models.py", models), ("app/deps.py", deps), ("app/main.py", main)]),
        vec![
            "POST /multi @25 [json:item, json:importance, query:q, query:skip, header:x-token, query:page, query:size]",
            "POST /upload @28 [file:f, form:note, file:extra, json:e]",
            "PUT /items/{item_id} @10 [json:name, json:price, json:ownerId, query:kind, query:when, query:query, header:user-agent, header:x_raw, cookie:session]",
        ]
    );
}

#[test]
fn router_and_route_dependencies() {
    let src = "from fastapi import APIRouter, Depends, FastAPI, Header\n\ndef key(api_key: str = Header(alias='X-API-Key')): pass\ndef trace(trace_id: str = Header()): pass\n\nrouter = APIRouter(prefix='/admin', dependencies=[Depends(key)])\n\n@router.get('/stats', dependencies=[Depends(trace)])\ndef stats(): pass\n\napp = FastAPI()\napp.include_router(router, prefix='/v1', dependencies=[Security(trace)])\n";
    assert_eq!(
        run(&[("main.py", src)]),
        vec!["GET /v1/admin/stats @8 [header:trace-id, header:X-API-Key]"]
    );
}

#[test]
fn test_files_and_foreign_receivers_are_ignored() {
    let test = "from fastapi import FastAPI\napp = FastAPI()\n@app.get('/t')\ndef t(): pass\n";
    let other = "import requests\n@cache.get('/nope')\ndef n(): pass\nclient.get('/x')\n";
    assert!(run(&[("tests/test_api.py", test), ("app/x.py", other)]).is_empty());
}

#[test]
fn security_schemes_and_oauth_forms() {
    let src = "from fastapi import Depends, FastAPI, Security\nfrom fastapi.security import APIKeyHeader, OAuth2PasswordBearer, OAuth2PasswordRequestForm\n\napp = FastAPI()\noauth2 = OAuth2PasswordBearer(tokenUrl='token')\napi_key = APIKeyHeader(name='X-Key', auto_error=False)\n\n@app.post('/token')\ndef login(form: OAuth2PasswordRequestForm = Depends()): pass\n\n@app.get('/me')\ndef me(token: str = Depends(oauth2), key: str = Security(api_key)): pass\n";
    assert_eq!(
        run(&[("main.py", src)]),
        vec![
            "GET /me @11 [header:Authorization, header:X-Key]",
            "POST /token @8 [form:grant_type, form:username, form:password, form:scope, form:client_id, form:client_secret]",
        ]
    );
}

#[test]
fn annotated_aliases_resolve_in_their_own_module() {
    let deps = "from typing import Annotated\nfrom fastapi import Depends, Header\n\ndef current(authorization: str = Header()): pass\n\nCurrentUser = Annotated[dict, Depends(current)]\n";
    let main = "from fastapi import FastAPI\nfrom deps import CurrentUser\napp = FastAPI()\n\n@app.get('/me')\ndef me(user: CurrentUser): pass\n";
    assert_eq!(
        run(&[("deps.py", deps), ("main.py", main)]),
        vec!["GET /me @5 [header:authorization]"]
    );
}

#[test]
fn raw_request_reads() {
    let src = "from fastapi import FastAPI, Request\napp = FastAPI()\n\n@app.post('/hook')\nasync def hook(req: Request, q: int = 0):\n    sig = req.headers.get('X-Signature')\n    body = await req.json()\n    return body['event']\n";
    assert_eq!(
        run(&[("main.py", src)]),
        vec!["POST /hook @4 [query:q, header:X-Signature, json:event]"]
    );
}
