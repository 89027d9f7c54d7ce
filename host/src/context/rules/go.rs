//! Go (net/http, Gin, Echo, Fiber, Chi, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(
            Guard,
            "auth_guard",
            r#"\b(AuthRequired|RequireAuth|JWTAuth|BasicAuth|middleware\.JWT\w*|echojwt\.\w+|jwtware\.\w+)\b"#,
        ),
        rule(Sink, "command_exec", r#"\bexec\.Command(Context)?\s*\("#),
        rule(
            Sink,
            "file_io",
            r#"\b(os\.(Open|OpenFile|Create|ReadFile|WriteFile|Remove|RemoveAll)|ioutil\.(ReadFile|WriteFile)|c\.File|c\.SaveUploadedFile|http\.ServeFile)\s*\("#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"\bhttp\.(Get|Post|PostForm|Head|NewRequest\w*)\s*\(|\bclient\.Do\s*\("#,
        ),
        rule(
            Sink,
            "template_injection",
            r#"\btemplate\.(New|Must)\s*\(.*Parse\s*\("#,
        ),
        rule(Sink, "xss", r#"\btemplate\.HTML\s*\("#),
        rule(Sink, "deserialization", r#"\bgob\.NewDecoder\s*\("#),
    ],
    reads: &[
        read(Cookie, r#"\.Cookie\(\s*"([^"]+)""#),
        read(
            Header,
            r#"\b(?:GetHeader|Header\.Get|Get\w*Header)\(\s*"([^"]+)""#,
        ),
    ],
};
