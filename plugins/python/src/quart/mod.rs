//! Quart (`python_quart`): Flask's API on asyncio. Everything is Flask's
//! analysis ([`crate::flask`]) with `quart` as the package and `Quart` as
//! the application class: `@app.route` / `@bp.get` decorators,
//! `add_url_rule`, `MethodView` classes, blueprints with `url_prefix`
//! registered and nested across files, and parameters read from `request`
//! (also awaited: `await request.get_json()`, `(await request.form)['x']`).

use portolan_plugin_sdk::prelude::*;

use crate::flask::scan::{Flavor, FLASK};

pub const QUART: Flavor = Flavor {
    package: "quart",
    apps: &["Quart"],
    blueprints: &["Blueprint"],
    ..FLASK
};

crate::flask::flask_flavor!(Quart, QUART, "quart", "Quart");

#[cfg(test)]
mod tests {
    use super::*;

    crate::test_support::runner!(Quart, crate::test_support::NAMES);

    #[test]
    fn quart_apps_blueprints_and_awaited_requests() {
        let app = "from quart import Quart\nfrom api.users import bp\n\napp = Quart(__name__)\napp.register_blueprint(bp, url_prefix='/api/users')\n\n@app.route('/')\nasync def index():\n    return 'ok'\n";
        let users = "from quart import Blueprint, request\n\nbp = Blueprint('users', __name__)\n\n@bp.post('/')\nasync def create():\n    data = await request.get_json()\n    return data['name']\n\n@bp.route('/<int:id>', methods=['GET', 'DELETE'])\nasync def one(id):\n    form = (await request.form)['note']\n";
        let flask = "from flask import Flask\napp = Flask(__name__)\n@app.route('/flask-only')\ndef f(): pass\n";
        assert_eq!(
            run(&[
                ("app.py", app),
                ("api/users.py", users),
                ("other.py", flask)
            ]),
            vec![
                "DELETE /api/users/<int:id> [note]",
                "GET / []",
                "GET /api/users/<int:id> [note]",
                "POST /api/users/ [name]",
            ]
        );
    }
}
