//! JavaScript and TypeScript (Express, Koa, NestJS, Fastify, …).

use super::{read, rule, Bucket::*, Table};
use crate::model::ParamType::{Cookie, Header};

pub static TABLE: Table = Table {
    rules: &[
        rule(
            Guard,
            "auth_guard",
            r#"(\b(authenticated|requireLogin|requireUser|checkJwt|expressjwt|jwtAuth|authMiddleware|isLoggedIn|ensureLoggedIn)\b)"#,
        ),
        rule(
            Guard,
            "authz_guard",
            r#"(\b(requireRole|requireAdmin|isAdmin|checkRole|permit|can)\s*\(|@Roles\s*\()"#,
        ),
        rule(Guard, "rate_limit_guard", r#"\b(rateLimit|slowDown)\s*\("#),
        rule(
            Sink,
            "command_exec",
            r#"\b(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork)\s*\(|\bchild_process\b"#,
        ),
        rule(
            Sink,
            "code_eval",
            r#"(\beval\s*\(|\bnew\s+Function\s*\(|\bvm\.runIn\w+\s*\(|\bsetTimeout\s*\(\s*['`\x22])"#,
        ),
        rule(
            Sink,
            "deserialization",
            r#"\b(unserialize|deserialize|yaml\.load|v8\.deserialize)\s*\("#,
        ),
        rule(
            Sink,
            "template_injection",
            r#"\b(ejs\.render|Handlebars\.compile|_\.template|pug\.render|nunjucks\.renderString)\s*\("#,
        ),
        rule(
            Sink,
            "file_io",
            r#"\b(readFile|readFileSync|writeFile|writeFileSync|createReadStream|createWriteStream|unlink|unlinkSync|sendFile|download|appendFile)\s*\("#,
        ),
        rule(
            Sink,
            "outbound_http",
            r#"(\bfetch\s*\(|\baxios(\.\w+)?\s*\(|\bhttps?\.(get|request)\s*\(|\bgot(\.\w+)?\s*\(|\bsuperagent\b|\bneedle\s*\()"#,
        ),
        rule(
            Sink,
            "xss",
            r#"(\bdangerouslySetInnerHTML\b|\.innerHTML\s*=|\bres\.send\s*\(\s*`[^`]*\$\{|\bv-html\b)"#,
        ),
        rule(
            Sink,
            "mass_assignment",
            r#"(\bObject\.assign\s*\(\s*\w+\s*,\s*req\.body|\.(create|update|updateOne|findByIdAndUpdate)\s*\(\s*req\.body\b|\.\.\.req\.body)"#,
        ),
    ],
    reads: &[
        read(
            Cookie,
            r#"\b(?:req|request|ctx)\.(?:cookies|signedCookies)\.([A-Za-z_$][\w$]*)"#,
        ),
        read(
            Cookie,
            r#"\b(?:req|request|ctx)\.(?:cookies|signedCookies)(?:\.get\(\s*|\[\s*)['"`]([^'"`]+)['"`]"#,
        ),
        read(
            Header,
            r#"\b(?:req|request|ctx)\.(?:headers\[\s*|get\(\s*|header\(\s*|headers\.get\(\s*)['"`]([^'"`]+)['"`]"#,
        ),
        read(
            Header,
            r#"\b(?:req|request|ctx)\.headers\.([A-Za-z_$][\w$]*)"#,
        ),
    ],
};
