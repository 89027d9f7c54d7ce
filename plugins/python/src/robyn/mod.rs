//! Robyn (`python_robyn`), analysed with Flask's code paths
//! ([`crate::flask`]): `app = Robyn(__file__)` with `@app.get/post/put/
//! patch/delete(path)` decorators, `SubRouter(__file__, prefix=…)` routers
//! included with `app.include_router(router)` across files, constants in
//! paths. Placeholders are written `:id`. Parameters: `request.query_params`
//! → query, `request.headers` → header, `request.json()` → json,
//! `request.form_data` → form, `request.files` → file.

use portolan_plugin_sdk::prelude::*;

use crate::flask::scan::{Flavor, FLASK};

fn sources(attr: &str) -> Option<ParamKind> {
    Some(match attr {
        "query_params" => ParamKind::Query,
        "headers" => ParamKind::Header,
        "json" => ParamKind::Json,
        "form_data" => ParamKind::Form,
        "files" => ParamKind::File,
        _ => return None,
    })
}

pub const ROBYN: Flavor = Flavor {
    package: "robyn",
    apps: &["Robyn"],
    blueprints: &["SubRouter"],
    url_prefix_position: 1,
    prefix_keyword: "prefix",
    sources,
    register: "include_router",
    ..FLASK
};

crate::flask::flask_flavor!(Robyn, ROBYN, "robyn", "Robyn");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robyn_app_and_subrouters() {
        let app = "from robyn import Robyn\nfrom routers.users import users\n\napp = Robyn(__file__)\napp.include_router(users)\n\n@app.get('/')\nasync def index(request):\n    return 'hi'\n";
        let users = "from robyn import SubRouter\n\nusers = SubRouter(__file__, prefix='/users')\n\n@users.get('/:id')\nasync def one(request):\n    fields = request.query_params.get('fields', None)\n\n@users.post('/')\nasync def create(request):\n    body = request.json()\n    name = body['name']\n";
        let got = crate::test_support::run_with(
            &Robyn,
            &[("app.py", app), ("routers/users.py", users)],
            crate::test_support::NAMES,
        );
        assert_eq!(
            got,
            vec!["GET / []", "GET /users/:id [fields]", "POST /users/ [name]"]
        );
    }
}
