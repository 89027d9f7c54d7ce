//! Guard facts for the host's `auth` tagger and `ai_context`: the kind a
//! decorator, dependency, callback, mixin or middleware name stands for
//! (`auth_guard`, `authz_guard`, `rate_limit_guard`, `csrf_guard`), and
//! the `ai_context` entry that carries it. Shared by the analyzers of every
//! language so that `login_required`, `authenticate_user!` and
//! `auth:sanctum` are read the same way.

use crate::model::{AiContext, ContextEntry};

/// The guard kind a name stands for, from its last dotted segment.
/// `author`/`authors` (a model, not a guard) is not authentication.
pub fn kind(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    let last = lower.rsplit('.').next().unwrap_or(&lower);
    if last.contains("csrf") && !last.contains("exempt") {
        return Some("csrf_guard");
    }
    if last.contains("limit") || last.contains("throttle") {
        return Some("rate_limit_guard");
    }
    if [
        "role",
        "permission",
        "admin",
        "superuser",
        "staff",
        "scope",
        "authoriz",
        "passes_test",
    ]
    .iter()
    .any(|w| last.contains(w))
    {
        return Some("authz_guard");
    }
    let author = last.contains("author") && !last.contains("authoriz");
    if [
        "login_required",
        "loginrequired",
        "require_login",
        "jwt_required",
        "auth",
        "token_required",
        "current_user",
        "verify_jwt",
        "verify_token",
        "api_key",
        "signed_in",
        "logged_in",
    ]
    .iter()
    .any(|w| last.contains(w))
        && !author
    {
        return Some("auth_guard");
    }
    None
}

/// One guard entry located at `path:line`; `source` says how it applies
/// (`decorator`, `dependency`, `callback`, `middleware`, `class`,
/// `settings`).
pub fn entry(kind: &str, name: &str, source: &str, path: &str, line: u32) -> ContextEntry {
    ContextEntry {
        kind: kind.to_string(),
        name: name.to_string(),
        source: Some(source.to_string()),
        path: Some(path.to_string()),
        line: Some(line),
        ..ContextEntry::default()
    }
}

/// The `ai_context` of guard entries (`None` when there are none).
pub fn context(guards: Vec<ContextEntry>) -> Option<AiContext> {
    (!guards.is_empty()).then(|| AiContext {
        guards,
        ..AiContext::default()
    })
}

#[cfg(test)]
mod tests {
    use super::kind;

    #[test]
    fn kinds() {
        assert_eq!(kind("login_required"), Some("auth_guard"));
        assert_eq!(kind("authenticate_user!"), Some("auth_guard"));
        assert_eq!(kind("auth:sanctum"), Some("auth_guard"));
        assert_eq!(kind("LoginRequiredMixin"), Some("auth_guard"));
        assert_eq!(kind("require_login"), Some("auth_guard"));
        assert_eq!(kind("set_author"), None);
        assert_eq!(kind("authorize_admin!"), Some("authz_guard"));
        assert_eq!(kind("permission_required('x')"), Some("authz_guard"));
        assert_eq!(kind("limiter.limit('5/minute')"), Some("rate_limit_guard"));
        assert_eq!(kind("csrf_exempt"), None);
        assert_eq!(kind("set_post"), None);
        assert_eq!(
            kind("user_passes_test(lambda u: u.is_staff)"),
            Some("authz_guard")
        );
    }
}
