//! C#, VB.NET, F# (ASP.NET Core, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(Guard, "auth_guard", r#"\bRequireAuthorization\s*\(\s*\)"#),
        rule(
            Guard,
            "authz_guard",
            r#"(\[Authorize\s*\(\s*(Roles|Policy)|\bRequireAuthorization\s*\(\s*"|\bRequireRole\s*\()"#,
        ),
        rule(
            Guard,
            "rate_limit_guard",
            r#"\bRequireRateLimiting\s*\(|\[EnableRateLimiting"#,
        ),
        rule(
            Sink,
            "command_exec",
            r#"\bProcess\.Start\s*\(|\bProcessStartInfo\b"#,
        ),
        rule(
            Sink,
            "deserialization",
            r#"\b(BinaryFormatter|NetDataContractSerializer|LosFormatter|TypeNameHandling\.(All|Auto|Objects))\b"#,
        ),
        rule(
            Sink,
            "file_io",
            r#"\b(File\.(Open\w*|Read\w*|Write\w*|Delete|Copy)|PhysicalFile|new\s+FileStream)\s*\("#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"\b(HttpClient|WebClient|GetAsync|PostAsync|SendAsync)\b"#,
        ),
        rule(
            Sink,
            "sql",
            r#"\b(FromSqlRaw|ExecuteSqlRaw\w*|SqlCommand)\b"#,
        ),
        rule(Sink, "xss", r#"\b(Html\.Raw|HtmlString)\s*\("#),
    ],
    reads: &[
        read(Cookie, r#"\bCookies\[\s*"([^"]+)"\s*\]"#),
        read(Header, r#"\bHeaders\[\s*"([^"]+)"\s*\]"#),
        read(Header, r#"\[FromHeader\s*\(\s*Name\s*=\s*"([^"]+)""#),
    ],
};
