use super::Starlette;

crate::test_support::runner!(
    Starlette,
    crate::test_support::Style {
        ws: true,
        ..crate::test_support::LINES
    }
);

#[test]
fn routes_mounts_and_endpoints_across_modules() {
    let app = "from starlette.applications import Starlette\nfrom starlette.routing import Mount, Route, WebSocketRoute\nfrom api import users\nfrom api.views import homepage, Items, feed\n\nroutes = [\n    Route('/', homepage),\n    Mount('/api', routes=[\n        Mount('/users', routes=users.routes),\n        Route('/items', Items),\n    ]),\n    WebSocketRoute('/ws', feed),\n    # Route('/old', homepage),\n]\n\napp = Starlette(debug=True, routes=routes)\napp.add_route('/extra', homepage, methods=['POST'])\n";
    let users = "from starlette.routing import Route\nfrom .views import list_users, create_user\n\nroutes = [\n    Route('/', list_users),\n    Route('/', create_user, methods=['POST']),\n]\n";
    let views = "from starlette.endpoints import HTTPEndpoint\n\nasync def homepage(request):\n    return None\n\nasync def list_users(request):\n    page = request.query_params.get('page')\n\nasync def create_user(request):\n    data = await request.json()\n    name = data['name']\n\nclass Items(HTTPEndpoint):\n    async def get(self, request):\n        token = request.headers['X-Token']\n    async def delete(self, request):\n        pass\n\nasync def feed(websocket):\n    pass\n";
    assert_eq!(
        run(&[
            ("app.py", app),
            ("api/users.py", users),
            ("api/views.py", views)
        ]),
        vec![
            "DELETE /api/items @10 []",
            "GET / @7 []",
            "GET /api/items @10 [header:X-Token]",
            "GET /api/users/ @5 [query:page]",
            "GET /ws ws @12 []",
            "POST /api/users/ @6 [json:name]",
            "POST /extra @17 []",
        ]
    );
}
