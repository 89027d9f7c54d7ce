//! Python (Flask, FastAPI, Django, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(
            Guard,
            "auth_guard",
            r#"(\bDepends\(\s*\w*(current_user|auth|token|login)\w*|\bSecurity\(|@\w*auth\w*_required\b|\bIsAuthenticated\b|\bLoginRequiredMixin\b)"#,
        ),
        rule(
            Guard,
            "authz_guard",
            r#"(\bIsAdminUser\b|\bPermissionRequiredMixin\b|\bUserPassesTestMixin\b|@\w*(role|permission|admin)\w*_required\b|@roles_accepted\b)"#,
        ),
        rule(
            Guard,
            "rate_limit_guard",
            r#"(@limiter\.limit|\bslowapi\b|\bRateLimiter\b)"#,
        ),
        rule(
            Sink,
            "command_exec",
            r#"\b(os\.system|os\.popen|subprocess\.\w+|commands\.getoutput|pty\.spawn|os\.exec\w*)\s*\("#,
        ),
        rule(Sink, "code_eval", r#"\b(eval|exec|compile)\s*\("#),
        rule(
            Sink,
            "deserialization",
            r#"\b(pickle\.loads?|cPickle\.loads?|yaml\.load|yaml\.unsafe_load|marshal\.loads|jsonpickle\.decode|shelve\.open|dill\.loads?)\s*\("#,
        ),
        rule(
            Sink,
            "template_injection",
            r#"\b(render_template_string|Template|from_string|Environment\(\)\.from_string)\s*\("#,
        ),
        rule(
            Sink,
            "file_io",
            r#"\b(open|send_file|send_from_directory|FileResponse|os\.remove|os\.unlink|shutil\.\w+|Path\([^)]*\)\.(read|write)_\w+)\s*\("#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"\b(requests\.(get|post|put|patch|delete|head|request)|httpx\.(get|post|put|patch|delete|request)|urllib\.request\.urlopen|urlopen|aiohttp\.ClientSession)\s*\("#,
        ),
        rule(
            Sink,
            "xss",
            r#"(\bMarkup\s*\(|\bmark_safe\s*\(|\|\s*safe\b|\bHTMLResponse\s*\()"#,
        ),
        rule(
            Sink,
            "mass_assignment",
            r#"\*\*(request\.(json|form|args|get_json\(\))|payload\.dict\(\)|\w+\.model_dump\(\))"#,
        ),
    ],
    reads: &[
        read(
            Cookie,
            r#"\brequest\.cookies(?:\.get\(\s*|\[\s*)['"]([^'"]+)['"]"#,
        ),
        read(
            Header,
            r#"\brequest\.headers(?:\.get\(\s*|\[\s*)['"]([^'"]+)['"]"#,
        ),
        read(Cookie, r#"\bCOOKIES(?:\.get\(\s*|\[\s*)['"]([^'"]+)['"]"#),
        read(Header, r#"\bMETA(?:\.get\(\s*|\[\s*)['"]HTTP_([^'"]+)['"]"#),
    ],
};
