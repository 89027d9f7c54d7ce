//! What the map step records about one module for the link step.

use portolan_plugin_sdk::Param;
use serde::{Deserialize, Serialize};

use crate::py::call::ListPart;
use crate::py::context::Handler;
use crate::py::module::ModuleInfo;
use crate::py::strexpr::StrExpr;

/// One scanned module.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FlaskModule {
    pub info: ModuleInfo,
    /// The module imports from `flask` (so unknown receivers of `.route`
    /// are taken to be Flask objects).
    #[serde(default)]
    pub flask: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<Obj>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<Route>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub registrations: Vec<Registration>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<Func>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classes: Vec<Class>,
    /// Statement-level calls passing a name (`register_api(app, "tags")`),
    /// to instantiate routes declared inside functions with the arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calls: Vec<CallSite>,
    /// flask-classful `View.register(app, …)` calls.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub classy: Vec<ClassyReg>,
    /// `app.config['KEY'] = value` assignments (URL prefixes held in the
    /// application's configuration).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub config: Vec<ConfigValue>,
    /// Module-level sequences of strings (`FIELDS = ('a', 'b')`,
    /// `ALL = BASE + ('c',)`), for schema `Meta.fields` that name them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lists: Vec<(String, Vec<ListPart>)>,
    /// Sanic API versions (`version=1`): (blueprint or group name, or
    /// `@<line>` for a route decorator, version as written).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub versions: Vec<(String, String)>,
}

impl FlaskModule {
    /// Nothing another module or the link step could need.
    pub fn is_empty(&self) -> bool {
        self.objects.is_empty()
            && self.routes.is_empty()
            && self.registrations.is_empty()
            && self.functions.is_empty()
            && self.classes.is_empty()
            && self.info.consts.is_empty()
            && self.info.imports.is_empty()
            && self.calls.is_empty()
            && self.classy.is_empty()
            && self.config.is_empty()
            && self.lists.is_empty()
    }

    /// Does the module define `name` as an object, class or function?
    pub fn defines(&self, name: &str) -> bool {
        self.objects.iter().any(|o| o.name == name)
            || self.classes.iter().any(|c| c.name == name)
            || self.functions.iter().any(|f| f.name == name)
            || self.lists.iter().any(|(n, _)| n == name)
    }
}

/// A URL prefix argument.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Prefix {
    /// Not given, or `None`.
    Absent,
    Expr(StrExpr),
    /// Given but not understood (a call, …).
    Unknown,
    /// A configuration lookup (`app.config['PREFIX']`, `os.environ['X']`),
    /// with its default when one is given: resolved against
    /// `app.config[...] = …` assignments of the tree, else a placeholder.
    Config {
        key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        default: Option<StrExpr>,
    },
}

/// `x.config['KEY'] = value` (or `x.config.update(KEY=value)`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigValue {
    pub key: String,
    pub value: StrExpr,
}

/// What a name is bound to by `name = Callee(...)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ObjKind {
    /// `Flask(__name__)`.
    App,
    /// `Blueprint('name', __name__, url_prefix=…)`.
    Blueprint(Prefix),
    /// `SomeView.as_view('name')`: the dotted class name.
    AsView(String),
    /// An instance of another class (`Api(app)`, `Sock(app)`): its
    /// `.route` is not Flask's.
    Foreign,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Obj {
    pub name: String,
    pub kind: ObjKind,
}

/// What handles a route.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum View {
    /// A decorated function, with the parameters its body reads.
    Params(Vec<Param>),
    /// A class (decorated, or `Class.as_view(...)`): dotted name as seen
    /// from the module.
    Class(String),
    /// `view_func=name`: a function or an `as_view` result, resolved in link.
    Ref(String),
    /// No view (`add_url_rule('/', endpoint='index')`).
    None,
}

/// A route decorator or an `add_url_rule` call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Route {
    pub line: u32,
    /// Dotted receiver (`app`, `bp`, `users.bp`).
    pub receiver: String,
    pub rule: StrExpr,
    /// Explicit methods, upper-case; `None` = Flask's default.
    pub methods: Option<Vec<String>>,
    pub view: View,
    /// Declared with a method shortcut (`@app.get`) rather than `.route` /
    /// `add_url_rule`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shortcut: bool,
    /// The function the route is declared in, when the route uses that
    /// function's parameters (receiver, rule or view class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// Guards and callees of the decorated handler function, for the
    /// host's `ai_context`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler: Option<Handler>,
    /// Other decorators of the view function (`login_required`,
    /// `auth.token_required`): the request values their bodies read are
    /// read for the route too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decorators: Vec<String>,
    /// Schemas the view's decorators load the request with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<SchemaArg>,
}

/// A schema class a decorator loads part of the request with:
/// flask-smorest's `@blp.arguments(S, location=…)`, APIFlask's
/// `@app.input(S, location=…)`, webargs' `@use_args(S(), location=…)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaArg {
    /// Dotted class name as seen from the module.
    pub schema: String,
    pub kind: portolan_plugin_sdk::ParamKind,
}

/// A function whose parameters a route depends on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    pub function: String,
    /// Parameter names in order.
    pub params: Vec<String>,
}

/// `callee(args…)` as a statement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallSite {
    pub callee: String,
    pub args: Vec<CallArg>,
}

/// One argument of a [`CallSite`]: a string expression or a (dotted) name
/// (a name is a one-reference expression); `None` when neither.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallArg {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    pub value: Option<StrExpr>,
}

/// `receiver.register_blueprint(blueprint, url_prefix=…)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registration {
    pub receiver: String,
    pub blueprint: String,
    pub prefix: Prefix,
}

/// A function whose body reads request parameters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Func {
    pub name: String,
    pub params: Vec<Param>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schemas: Vec<SchemaArg>,
}

/// A class that may be a view (`MethodView`, `View`) or a base of one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Class {
    pub name: String,
    /// Dotted base class names as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bases: Vec<String>,
    /// A `methods = [...]` class attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<String>>,
    /// HTTP method functions (`get`, `post`, …) and `dispatch_request`,
    /// with the parameters their bodies read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub funcs: Vec<Func>,
    /// What flask-classful reads from the class, recorded in modules that
    /// could declare `FlaskView`s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classy: Option<Classy>,
    /// String class attributes (`settings_id = "dashboard"`), for values
    /// such as `route_base = DashboardSettings.settings_id`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strings: Vec<crate::py::module::Const>,
    /// Marshmallow-style schema fields a client may send
    /// (`name = fields.String()`, not `dump_only=True`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schema_fields: Vec<String>,
    /// Every field the schema declares (loadable or not): names a
    /// `Meta.fields` reference must not add again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub declared: Vec<String>,
    /// `class Meta: fields = NAME` (or `A + (...)`): resolved in the link
    /// step against the module-level sequences of the tree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schema_fields_ref: Vec<ListPart>,
    /// SQLAlchemy model columns declared in the class body (foreign keys
    /// left out).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    /// The schema's `class Meta` options that shape an auto schema.
    #[serde(default, skip_serializing_if = "SchemaMeta::is_empty")]
    pub meta: SchemaMeta,
}

/// `class Meta: model = X; exclude = (...); fields = ...` of a schema.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaMeta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// `fields` is given: it, not the model, lists the fields.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fields: bool,
}

impl SchemaMeta {
    pub fn is_empty(&self) -> bool {
        self.model.is_none() && self.exclude.is_empty() && !self.fields
    }
}

/// A class as flask-classful sees it: routing attributes and the public
/// methods that become routes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Classy {
    /// `route_base`, `route_prefix`, `trailing_slash`, `base_args`,
    /// `excluded_methods`, `method_dashified`, `default_methods`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrs: Vec<(String, AttrValue)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<Member>,
}

/// The value of a class attribute or a `register(...)` keyword.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttrValue {
    Str(StrExpr),
    Bool(bool),
    List(Vec<String>),
    /// A dict literal of names (`{'a': ASchema, 'b': BSchema}`): the names.
    Names(Vec<String>),
    None,
    /// Anything else (a call, a name we do not follow).
    Other,
}

/// A public method of a class (a flask-classful route candidate).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub name: String,
    pub line: u32,
    /// Positional parameters (up to `*` / `*args` / `**kw`), `self` included.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<MemberArg>,
    /// `@route(rule, methods=[…])` decorators, top to bottom.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<MemberRule>,
    /// `@method('POST')` decorators.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub http_methods: Vec<String>,
    /// Parameters the body reads from `request`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<Param>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberArg {
    pub name: String,
    /// Last segment of the annotation (`int`, `UUID`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberRule {
    pub line: u32,
    pub rule: StrExpr,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<String>>,
}

/// `View.register(app_or_blueprint, route_base=…, route_prefix=…,
/// trailing_slash=…)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassyReg {
    pub class: String,
    pub receiver: String,
    /// Keyword arguments that override class attributes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, AttrValue)>,
}
