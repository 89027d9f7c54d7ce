//! `powershell`: one `Invoke-WebRequest` per HTTP endpoint (WebSocket
//! endpoints are skipped):
//!
//! ``Invoke-WebRequest -Method "POST" -Uri "/users/{id}?page=" -Headers @{"Cookie"="session="; "X-API-Key"=""} -Body "{`"name`":`"`"}" -ContentType "application/json"``
//!
//! Strings are double-quoted with backtick escapes (`` ` ``, `$`, `"`,
//! CR/LF); the cookie header comes first in `-Headers`; verbs PowerShell's
//! `-Method` does not know go through `-CustomMethod`.

use super::bake::bake;
use super::quote::powershell as q;
use crate::model::{Endpoint, Report};

/// Values of `Microsoft.PowerShell.Commands.WebRequestMethod`.
const KNOWN: &[&str] = &[
    "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "MERGE",
];

pub fn render(report: &Report) -> String {
    super::commands(report, command)
}

pub fn command(e: &Endpoint) -> String {
    let b = bake(e);
    let method_flag = if KNOWN.contains(&e.method.as_str()) {
        "-Method"
    } else {
        "-CustomMethod"
    };
    let mut cmd = format!(
        "Invoke-WebRequest {method_flag} {} -Uri {}",
        q(&e.method),
        q(&b.url)
    );
    let mut headers: Vec<(String, String)> = Vec::new();
    if !b.cookies.is_empty() {
        let jar: Vec<String> = b.cookies.iter().map(|(n, v)| format!("{n}={v}")).collect();
        headers.push(("Cookie".into(), jar.join("; ")));
    }
    headers.extend(b.headers.iter().cloned());
    if !headers.is_empty() {
        let pairs: Vec<String> = headers
            .iter()
            .map(|(n, v)| format!("{}={}", q(n), q(v)))
            .collect();
        cmd.push_str(&format!(" -Headers @{{{}}}", pairs.join("; ")));
    }
    if let (Some(body), Some(kind)) = (&b.body, b.body_kind) {
        cmd.push_str(&format!(
            " -Body {} -ContentType {}",
            q(body),
            q(kind.content_type())
        ));
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::testing::example;

    #[test]
    fn output_md_example() {
        assert_eq!(
            command(&example()),
            "Invoke-WebRequest -Method \"POST\" -Uri \"/users/{id}?page=\" -Headers @{\"Cookie\"=\"session=\"; \"X-API-Key\"=\"\"} -Body \"{`\"name`\":`\"`\"}\" -ContentType \"application/json\""
        );
        let e = Endpoint::new("CONNECT", "/$x");
        assert_eq!(
            command(&e),
            "Invoke-WebRequest -CustomMethod \"CONNECT\" -Uri \"/`$x\""
        );
    }
}
