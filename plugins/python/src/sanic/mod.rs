//! Sanic (`python_sanic`), analysed with Flask's code paths
//! ([`crate::flask`]): `Sanic('name')` apps, `@app.route(uri,
//! methods=[…])` and `@app.get/post/put/patch/delete` decorators,
//! `Blueprint('name', url_prefix=…)` registered with `app.blueprint(bp,
//! url_prefix=…)` (across files), `Blueprint.group(a, b, url_prefix=…)`
//! groups (nested prefixes), constants in paths, and parameters read from
//! `request.args` / `form` / `json` / `files` / `headers` / `cookies`.
//! Typed placeholders are written name first (`<id:int>`) and reported as
//! `<id>`.

use portolan_plugin_sdk::prelude::*;

use crate::flask::scan::{Flavor, FLASK};

pub const SANIC: Flavor = Flavor {
    package: "sanic",
    apps: &["Sanic"],
    blueprints: &["Blueprint"],
    url_prefix_position: 1,
    register: "blueprint",
    name_first_placeholders: true,
    ..FLASK
};

crate::flask::flask_flavor!(Sanic, SANIC, "sanic", "Sanic");

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Sanic, crate::test_support::NAMES);

    #[test]
    fn sanic_blueprints_groups_and_typed_params() {
        let server = "from sanic import Sanic\nfrom routes import api\n\napp = Sanic('shop')\napp.blueprint(api)\n\n@app.get('/health')\nasync def health(request):\n    return text('ok')\n";
        let routes = "from sanic import Blueprint\nfrom sanic.response import json\n\nitems = Blueprint('items', url_prefix='/items')\nusers = Blueprint('users', '/users')\napi = Blueprint.group(items, users, url_prefix='/api')\n\n@items.route('/<item_id:int>', methods=['GET', 'PUT'])\nasync def item(request, item_id):\n    q = request.args.get('fields')\n\n@users.post('/')\nasync def create(request):\n    name = request.json.get('name')\n";
        assert_eq!(
            run(&[("server.py", server), ("routes.py", routes)]),
            vec![
                "GET /api/items/<item_id> [fields]",
                "GET /health []",
                "POST /api/users/ [name]",
                "PUT /api/items/<item_id> [fields]",
            ]
        );
    }
}
