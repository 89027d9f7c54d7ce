//! Ruby (Rails, Sinatra, Grape, Hanami, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(
            Guard,
            "auth_guard",
            r#"\b(authenticate_\w+!?|require_login|require_user|doorkeeper_authorize!)"#,
        ),
        rule(
            Guard,
            "authz_guard",
            r#"\b(authorize!|can\?|policy_scope|verify_authorized|require_admin\w*)"#,
        ),
        rule(
            Sink,
            "command_exec",
            r#"(\b(system|exec|spawn|IO\.popen|Open3\.\w+|Kernel\.\w+)\s*\(|`[^`]*#\{|%x\()"#,
        ),
        rule(
            Sink,
            "code_eval",
            r#"\b(eval|instance_eval|class_eval|send|public_send|constantize)\s*\(?"#,
        ),
        rule(
            Sink,
            "deserialization",
            r#"\b(Marshal\.load|YAML\.load|YAML\.unsafe_load|Oj\.load)\s*\(?"#,
        ),
        rule(
            Sink,
            "file_io",
            r#"\b(File\.(open|read|write|delete)|send_file|send_data|IO\.read)\b"#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"\b(Net::HTTP\.\w+|HTTParty\.\w+|Faraday\.\w+|RestClient\.\w+|open-uri|URI\.open)\b"#,
        ),
        rule(Sink, "xss", r#"(\.html_safe\b|\braw\s*\(|<%==)"#),
        rule(
            Sink,
            "mass_assignment",
            r#"(\.permit!|params\.to_unsafe_h)"#,
        ),
        rule(Sink, "redirect", r#"\bredirect_to\b"#),
    ],
    reads: &[
        read(
            Cookie,
            r#"\bcookies(?:\.signed|\.encrypted|\.permanent)?\[\s*:?['"]?(\w+)"#,
        ),
        read(Header, r#"\brequest\.headers\[\s*['"]([^'"]+)['"]"#),
        read(Header, r#"\bheaders\[\s*['"]([^'"]+)['"]"#),
    ],
};
