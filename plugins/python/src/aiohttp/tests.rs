use super::Aiohttp;

crate::test_support::runner!(Aiohttp, crate::test_support::LINES);

#[test]
fn router_tables_lists_views_and_subapps() {
    let main = "from aiohttp import web\nfrom shop.api import create_api\nfrom shop import views\n\napp = web.Application()\napp.router.add_get('/', views.index)\napp.router.add_route('*', '/any', views.index)\napp.add_routes([web.post('/login', views.login), web.view('/cart', views.Cart)])\napi = create_api()\napp.add_subapp('/api/', api)\n";
    let api = "from aiohttp import web\n\nroutes = web.RouteTableDef()\n\n@routes.get('/items/{id}')\nasync def item(request):\n    fields = request.query.get('fields')\n\n@routes.route('DELETE', '/items/{id}')\nasync def drop(request):\n    pass\n\ndef create_api():\n    api = web.Application()\n    api.add_routes(routes)\n    return api\n";
    let views = "from aiohttp import web\n\nparts = [info.get('type', REGTYPE)]\n\nasync def index(request):\n    return web.Response(text='hi')\n\nasync def login(request):\n    data = await request.post()\n    user = data['user']\n\nclass Cart(web.View):\n    async def get(self):\n        sid = self.request.cookies.get('sid')\n    async def post(self):\n        body = await self.request.json()\n        qty = body['qty']\n";
    assert_eq!(
        run(&[
            ("shop/main.py", main),
            ("shop/api.py", api),
            ("shop/views.py", views)
        ]),
        vec![
            "DELETE /any @7 []",
            "DELETE /api/items/{id} @9 []",
            "GET / @6 []",
            "GET /any @7 []",
            "GET /api/items/{id} @5 [query:fields]",
            "GET /cart @8 [cookie:sid]",
            "PATCH /any @7 []",
            "POST /any @7 []",
            "POST /cart @8 [json:qty]",
            "POST /login @8 [form:user]",
            "PUT /any @7 []",
        ]
    );
}
