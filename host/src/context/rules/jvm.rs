//! Java, Kotlin, Scala, Groovy (Spring, JAX-RS, Micronaut, Ktor, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(
            Guard,
            "auth_guard",
            r#"(\bauthenticated\(\)|\bauthenticate\s*\(|@PermitAll\b)"#,
        ),
        rule(
            Sink,
            "command_exec",
            r#"(\bRuntime\.getRuntime\(\)\.exec\s*\(|\bnew\s+ProcessBuilder\s*\(|\bProcessBuilder\b)"#,
        ),
        rule(
            Sink,
            "code_eval",
            r#"(\bScriptEngine\w*|\bGroovyShell\b|\bSpelExpressionParser\b|\bparseExpression\s*\()"#,
        ),
        rule(
            Sink,
            "deserialization",
            r#"(\bObjectInputStream\b|\breadObject\s*\(|\bXMLDecoder\b|\benableDefaultTyping\s*\(|\bnew\s+Yaml\s*\(\s*\))"#,
        ),
        rule(
            Sink,
            "file_io",
            r#"(\bnew\s+File(InputStream|OutputStream|Reader|Writer)?\s*\(|\bFiles\.(read\w*|write\w*|newInputStream|newOutputStream|delete\w*|copy)\s*\(|\bPaths\.get\s*\()"#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"(\bRestTemplate\b|\bWebClient\b|\bHttpClient\b|\bnew\s+URL\s*\(|\bOkHttpClient\b|\bHttpURLConnection\b|\.getForObject\s*\(|\.postForObject\s*\()"#,
        ),
        rule(
            Sink,
            "mass_assignment",
            r#"\bBeanUtils\.copyProperties\s*\("#,
        ),
    ],
    reads: &[
        read(
            Cookie,
            r#"@CookieValue\s*\(\s*(?:(?:value|name)\s*=\s*)?"([^"]+)""#,
        ),
        read(
            Header,
            r#"@(?:RequestHeader|HeaderParam|Header)\s*\(\s*(?:(?:value|name)\s*=\s*)?"([^"]+)""#,
        ),
        read(Cookie, r#"@CookieParam\s*\(\s*"([^"]+)""#),
        read(Header, r#"\.getHeader\(\s*"([^"]+)""#),
    ],
};
