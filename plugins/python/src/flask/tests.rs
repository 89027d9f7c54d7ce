use portolan_plugin_sdk::prelude::*;

use super::Flask;

/// Run map + link over in-memory files; (method, url, line, params) sorted.
fn run(files: &[(&str, &str)]) -> Vec<(String, String, u32, Vec<String>)> {
    let mut got: Vec<_> = crate::test_support::endpoints(&Flask, files)
        .into_iter()
        .map(|e| {
            let line = e.code_paths.first().and_then(|l| l.line).unwrap_or(0);
            let params = e
                .params
                .iter()
                .map(|p| {
                    format!(
                        "{}:{}",
                        p.name,
                        serde_json::to_value(p.kind).unwrap().as_str().unwrap()
                    )
                })
                .collect();
            (e.method, e.url, line, params)
        })
        .collect();
    got.sort();
    got
}

fn routes(files: &[(&str, &str)]) -> Vec<String> {
    run(files)
        .into_iter()
        .map(|(m, u, _, _)| format!("{m} {u}"))
        .collect()
}

#[test]
fn tech_declaration() {
    let tech = Flask.tech();
    assert_eq!(tech.id, "python_flask");
    assert_eq!(tech.files, vec!["*.py"]);
    assert_eq!(tech.detect.len(), 1);
}

#[test]
fn default_get_methods_and_shortcuts() {
    let src = "from flask import Flask\napp = Flask(__name__)\n\n@app.route('/a')\ndef a(): pass\n\n@app.route('/b', methods=['get', 'POST', 'GET'])\ndef b(): pass\n\n@app.delete('/c')\ndef c(): pass\n\n@app.route('/d', methods={'PUT'}, strict_slashes=False)\ndef d(): pass\n\n@app.route('/e', methods=METHODS)\ndef e(): pass\n";
    assert_eq!(
        routes(&[("app/main.py", src)]),
        vec![
            "DELETE /c",
            "GET /a",
            "GET /b",
            "GET /e",
            "POST /b",
            "PUT /d"
        ]
    );
}

#[test]
fn lines_are_those_of_the_decorator_or_call() {
    let src = "from flask import Flask\napp = Flask(__name__)\n\n@login_required\n@app.route(\n    '/a',\n)\ndef a(): pass\n\napp.add_url_rule(\n    '/b', 'b', a)\n";
    let got = run(&[("app/main.py", src)]);
    assert_eq!(got[0].2, 5);
    assert_eq!(got[1].2, 10);
}

#[test]
fn test_files_comments_strings_and_clients_are_ignored() {
    let app = "from flask import Flask\napp = Flask(__name__)\n# @app.route('/commented')\nDOC = '''\n@app.route('/in-string')\ndef f(): pass\n'''\ndef check(client):\n    client.get('/client')\n    client.post('/client', json={})\n    requests.delete('/x')\n";
    let test = "from main import app\n@app.route('/from-test')\ndef t(): pass\n";
    assert!(routes(&[
        ("app/main.py", app),
        ("app/tests/test_x.py", test),
        ("app/test_y.py", test),
        ("app/conftest.py", test)
    ])
    .is_empty());
}

#[test]
fn other_frameworks_objects_are_not_flask() {
    let src = "from flask import Flask\nfrom flask_sock import Sock\nfrom fastapi import FastAPI\napp = Flask(__name__)\nsock = Sock(app)\napi = FastAPI()\n\n@sock.route('/ws')\ndef ws(s): pass\n\n@api.get('/fastapi')\ndef f(): pass\n\n@app.route('/flask')\ndef g(): pass\n";
    assert_eq!(routes(&[("app/main.py", src)]), vec!["GET /flask"]);
}

#[test]
fn unknown_receivers_outside_flask_modules() {
    // No flask import: `.route` on an app-like name is accepted, method
    // shortcuts (shared with FastAPI and others) and other names are not.
    let src = "def init_routes(app):\n    @app.route('/a')\n    def a(): pass\n\n    @app.get('/b')\n    def b(): pass\n\n    @router.route('/c')\n    def c(): pass\n";
    assert_eq!(routes(&[("app/routes.py", src)]), vec!["GET /a"]);
}

#[test]
fn blueprint_registered_twice_and_cycles() {
    let bp = "from flask import Blueprint\nbp = Blueprint('v', __name__, url_prefix='/own')\n@bp.route('/x')\ndef x(): pass\n";
    let app = "from flask import Flask, Blueprint\nfrom .v import bp\napp = Flask(__name__)\napp.register_blueprint(bp, url_prefix='/v1')\napp.register_blueprint(bp, url_prefix='/v2', name='v2')\n\na = Blueprint('a', __name__, url_prefix='/a')\nb = Blueprint('b', __name__, url_prefix='/b')\na.register_blueprint(b)\nb.register_blueprint(a)\n@b.route('/y')\ndef y(): pass\n";
    let got = routes(&[("pkg/__init__.py", app), ("pkg/v.py", bp)]);
    // A registration cycle (which Flask itself would not survive) ends.
    assert_eq!(got, vec!["GET /a/b/y", "GET /v1/x", "GET /v2/x"]);
}

#[test]
fn url_prefix_none_falls_back_and_env_lookup_is_a_placeholder() {
    let src = "import os\nfrom flask import Flask, Blueprint\napp = Flask(__name__)\nbp = Blueprint('b', __name__, url_prefix='/own')\nother = Blueprint('o', __name__, url_prefix=os.environ['P'])\napp.register_blueprint(bp, url_prefix=None)\napp.register_blueprint(other)\n@bp.route('/x')\ndef x(): pass\n@other.route('/y')\ndef y(): pass\n";
    assert_eq!(
        routes(&[("app/main.py", src)]),
        vec!["GET /own/x", "GET /{P}/y"]
    );
}

#[test]
fn module_attribute_blueprints_and_reexports() {
    let init = "from flask import Flask\nfrom .api import v1\nimport shop.web\n\ndef create_app():\n    app = Flask(__name__)\n    app.register_blueprint(v1.bp)\n    app.register_blueprint(shop.web.site.bp, url_prefix='/site')\n    return app\n";
    let v1 = "from flask import Blueprint\nbp = Blueprint('v1', __name__)\nfrom . import users  # noqa\n";
    let users = "from . import bp\nBASE = '/users'\n@bp.route(BASE)\ndef users(): pass\n";
    let site = "from flask import Blueprint\nbp = Blueprint('site', __name__)\n@bp.route('/home')\ndef home(): pass\n";
    let got = routes(&[
        ("src/shop/__init__.py", init),
        ("src/shop/api/v1/__init__.py", v1),
        ("src/shop/api/v1/users.py", users),
        ("src/shop/web/site.py", site),
    ]);
    assert_eq!(got, vec!["GET /site/home", "GET /users"]);
}

#[test]
fn decorated_class_views() {
    // flask-smorest style: `@blp.route` on a MethodView class.
    let src = "from flask import Blueprint, request\nfrom flask.views import MethodView\nblp = Blueprint('pets', __name__, url_prefix='/pets')\n\n@blp.route('/')\nclass Pets(MethodView):\n    def get(self):\n        return request.args.get('kind')\n    def post(self):\n        return request.json['name']\n";
    assert_eq!(
        run(&[("app/pets.py", src)]),
        vec![
            ("GET".into(), "/pets/".into(), 5, vec!["kind:query".into()]),
            ("POST".into(), "/pets/".into(), 5, vec!["name:json".into()]),
        ]
    );
}

#[test]
fn method_view_inheritance_head_and_unknown_classes() {
    let src = "from flask import Flask, request\nfrom flask.views import MethodView\nfrom somewhere import External\napp = Flask(__name__)\n\nclass Base(MethodView):\n    def get(self):\n        return request.args['q']\n\nclass Mid(Base):\n    pass\n\nclass Leaf(Mid):\n    def head(self):\n        return ''\n\nclass Explicit(Base):\n    methods = ['HEAD']\n\napp.add_url_rule('/leaf', view_func=Leaf.as_view('leaf'))\napp.add_url_rule('/explicit', view_func=Explicit.as_view('e'))\napp.add_url_rule('/ext', view_func=External.as_view('x'))\napp.add_url_rule('/none', endpoint='none')\n";
    assert_eq!(
        run(&[("app/main.py", src)]),
        vec![
            ("GET".into(), "/ext".into(), 22, vec![]),
            ("GET".into(), "/leaf".into(), 20, vec!["q:query".into()]),
            ("GET".into(), "/none".into(), 23, vec![]),
            (
                "HEAD".into(),
                "/explicit".into(),
                21,
                vec!["q:query".into()]
            ),
            ("HEAD".into(), "/leaf".into(), 20, vec![]),
        ]
    );
}

#[test]
fn request_alias_import_and_flask_module_access() {
    let src = "import flask\nfrom flask import request as req\napp = flask.Flask(__name__)\n@app.route('/a')\ndef a():\n    return req.args.get('x'), flask.request.headers['Y']\n";
    assert_eq!(
        run(&[("app/main.py", src)]),
        vec![(
            "GET".into(),
            "/a".into(),
            4,
            vec!["x:query".into(), "Y:header".into()]
        )]
    );
}

#[test]
fn params_stop_at_the_end_of_the_handler() {
    let src = "from flask import Flask, request\napp = Flask(__name__)\n@app.route('/a')\ndef a():\n    x = request.args.get('in')\n\n    return x\ndef helper():\n    return request.args.get('out')\n";
    assert_eq!(
        run(&[("app/main.py", src)])[0].3,
        vec!["in:query".to_string()]
    );
}

#[test]
fn relative_imports_of_constants_with_continuations() {
    let consts = "BASE = '/api' \\\n    + '/v2'\nITEMS = (\n    BASE\n    + '/items'\n)\n";
    let app = "from flask import Flask\nfrom .consts import ITEMS, BASE as B\napp = Flask(__name__)\n@app.route(ITEMS + '/<int:id>')\ndef a(id): pass\n@app.route(f'{B}/x/{{literal}}')\ndef b(): pass\n";
    assert_eq!(
        routes(&[("app/pkg/consts.py", consts), ("app/pkg/main.py", app)]),
        vec!["GET /api/v2/items/<int:id>", "GET /api/v2/x/{literal}"]
    );
}

/// Every prefix of every fixture file (and some noise) goes through map and
/// link without panicking.
#[test]
fn truncated_and_odd_inputs_do_not_panic() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/python_flask");
    let mut sources: Vec<String> = vec![
        "@".into(),
        "@app.route(".into(),
        "@app.route('/x', methods=[".into(),
        "def".into(),
        "class A(".into(),
        "x = '''".into(),
        "app.add_url_rule(".into(),
        ".register_blueprint(".into(),
        "from . import".into(),
        "from .... import x".into(),
        "import".into(),
        "@app.route(f'{')\ndef f(): pass".into(),
        "@app.route('/é/ü')\ndef f():\n    request.args.get('ñ')\n".into(),
        "\u{feff}from flask import Flask\r\napp = Flask(__name__)\r\n@app.route('/crlf')\r\ndef f():\r\n    return request.form['a']\r\n".into(),
    ];
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "py") {
                sources.push(std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    for src in &sources {
        let mut facts = Facts::new(Vec::new());
        let cuts: Vec<usize> = (0..=src.len())
            .step_by(3)
            .filter(|i| src.is_char_boundary(*i))
            .collect();
        for cut in cuts {
            let file = SourceFile::new("app/x.py", &src[..cut]);
            let mut out = Output::new();
            Flask.analyze(&file, &mut out);
            facts.extend(out.into_parts().1);
        }
        Flask.link(&facts).unwrap();
    }
    // The crlf sample still works.
    let crlf = &sources[13];
    assert_eq!(
        run(&[("app/x.py", crlf)]),
        vec![("GET".into(), "/crlf".into(), 3, vec!["a:form".into()])]
    );
}

#[test]
fn large_generated_module() {
    let mut src = String::from("from flask import Flask, Blueprint, request\nfrom flask.views import MethodView\napp = Flask(__name__)\nbp = Blueprint('b', __name__, url_prefix='/b')\napp.register_blueprint(bp)\n");
    for i in 0..3000 {
        src.push_str(&format!(
            "\n@bp.route('/r{i}/<int:id>', methods=['GET', 'POST'])\n@login_required\ndef r{i}(id):\n    \"\"\"Doc {i}.\"\"\"\n    x = request.args.get('q{i}')\n    data = request.get_json()\n    return data['k'], x\n\nclass V{i}(MethodView):\n    def get(self):\n        return request.headers.get('H')\n\napp.add_url_rule('/v{i}', view_func=V{i}.as_view('v{i}'))\n"
        ));
    }
    let started = std::time::Instant::now();
    let got = run(&[("app/big.py", &src)]);
    assert_eq!(got.len(), 9000);
    eprintln!("large module: {:?}", started.elapsed());
}

#[test]
fn routes_declared_from_function_parameters_are_instantiated_per_call() {
    let helpers = "from flask import request\n\ndef crud(bp, name, view=None):\n    @bp.route(f'/{name}', methods=['GET', 'POST'])\n    def collection():\n        return request.args.get('page')\n\ndef init_health(app):\n    app.add_url_rule('/health', 'health', lambda: 'ok')\n\ndef never_called(app, name):\n    app.add_url_rule('/' + name, 'x', lambda: 'x')\n";
    let app = "from flask import Flask, Blueprint\nfrom .helpers import crud, init_health\napp = Flask(__name__)\nusers = Blueprint('users', __name__, url_prefix='/users')\napp.register_blueprint(users)\ncrud(users, 'admins')\ncrud(app, name='teams')\ninit_health(users)\n";
    assert_eq!(
        run(&[("pkg/helpers.py", helpers), ("pkg/main.py", app)]),
        vec![
            ("GET".into(), "/teams".into(), 4, vec!["page:query".into()]),
            (
                "GET".into(),
                "/users/admins".into(),
                4,
                vec!["page:query".into()]
            ),
            ("GET".into(), "/users/health".into(), 9, vec![]),
            ("POST".into(), "/teams".into(), 4, vec!["page:query".into()]),
            (
                "POST".into(),
                "/users/admins".into(),
                4,
                vec!["page:query".into()]
            ),
        ]
    );
}

#[test]
fn view_classes_passed_as_arguments() {
    let src = "from flask import Flask, request\nfrom flask.views import MethodView\n\nclass Things(MethodView):\n    def delete(self, id):\n        return request.args['why']\n\ndef register(app, view, url):\n    app.add_url_rule(url, view_func=view.as_view(url))\n\napp = Flask(__name__)\nregister(app, Things, '/things/<int:id>')\n";
    assert_eq!(
        run(&[("app/main.py", src)]),
        vec![(
            "DELETE".into(),
            "/things/<int:id>".into(),
            9,
            vec!["why:query".into()]
        )]
    );
}
