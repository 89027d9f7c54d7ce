//! PHP (Laravel, Symfony, Slim, WordPress, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(
            Guard,
            "auth_guard",
            r#"(->middleware\(\s*\[?\s*['"]auth|\bAuth::check\s*\(|\bis_user_logged_in\s*\(|#\[IsGranted)"#,
        ),
        rule(
            Guard,
            "authz_guard",
            r#"(\bGate::\w+|->can\s*\(|\bcurrent_user_can\s*\(|->authorize\s*\(|#\[IsGranted\(\s*'ROLE_)"#,
        ),
        rule(
            Sink,
            "command_exec",
            r#"\b(exec|shell_exec|system|passthru|proc_open|popen|pcntl_exec)\s*\(|`[^`]*\$"#,
        ),
        rule(
            Sink,
            "code_eval",
            r#"\b(eval|assert|create_function|preg_replace\s*\(\s*['\x22].*/e)\s*\("#,
        ),
        rule(Sink, "deserialization", r#"\bunserialize\s*\("#),
        rule(
            Sink,
            "file_io",
            r#"\b(fopen|file_get_contents|file_put_contents|readfile|unlink|include|require|include_once|require_once|move_uploaded_file)\s*\("#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"\b(curl_exec|curl_init|Http::\w+|wp_remote_\w+|Guzzle\w*)\s*\("#,
        ),
        rule(Sink, "xss", r#"(\{!!|\becho\s+\$_(GET|POST|REQUEST))"#),
        rule(
            Sink,
            "mass_assignment",
            r#"(\$request->all\(\)|->fill\s*\(\s*\$request)"#,
        ),
    ],
    reads: &[
        read(Cookie, r#"\$_COOKIE\[\s*['"]([^'"]+)['"]"#),
        read(Cookie, r#"->cookie\(\s*['"]([^'"]+)['"]"#),
        read(Header, r#"->header\(\s*['"]([^'"]+)['"]"#),
        read(Header, r#"\$_SERVER\[\s*['"]HTTP_(\w+)['"]"#),
    ],
};
