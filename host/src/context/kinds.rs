//! The kinds this tool emits: base confidence and the one fixed sentence
//! written as `description`. The vocabulary is open (consumers accept
//! unknown kinds); docs/ai-context.md lists these.

/// Base confidence of a sink kind (source-scan hits use base − 12).
pub fn sink_confidence(kind: &str) -> u8 {
    match kind {
        "data_store_query" => 76,
        "sql" => 78,
        "command_exec" => 82,
        "file_io" => 68,
        "redirect" => 74,
        "template_render" => 62,
        "outbound_http" => 64,
        "xss" => 75,
        "deserialization" => 86,
        "template_injection" => 80,
        "code_eval" => 84,
        "mass_assignment" => 60,
        "crypto_weak" => 56,
        _ => 60,
    }
}

/// Base confidence of a validator kind (source-scan hits use base − 12).
pub fn validator_confidence(kind: &str) -> u8 {
    match kind {
        "validation" => 64,
        "expiry_validation" => 72,
        "uniqueness_validation" => 70,
        "existence_validation" => 70,
        "credential_hashing" => 74,
        "credential_verification" => 74,
        "cookie_httponly" => 72,
        "cookie_secure" => 72,
        "query_parameter_binding" => 74,
        "sanitization" => 68,
        "schema_validation" => 78,
        "type_coercion" => 50,
        "allowlist_check" => 62,
        _ => 60,
    }
}

/// Confidence of a guard or signal found by the route-scope scan.
pub fn scan_confidence(kind: &str) -> u8 {
    match kind {
        "auth_guard" => 56,
        "authz_guard" => 60,
        "csrf_guard" => 70,
        "rate_limit_guard" => 64,
        "csrf_exempt" => 80,
        "jwt_unsafe" => 82,
        "cors_open" => 84,
        _ => 50,
    }
}

/// The fixed description of a kind; `None` for kinds the tool does not
/// know (a plugin's own), which then carry no description unless the
/// plugin gave one.
pub fn description(kind: &str) -> Option<&'static str> {
    Some(match kind {
        // signals
        "route_definition" => "Where the route is registered or its handler is declared.",
        "technology" => "Framework whose analyzer reported the route.",
        "state_change" => "The HTTP method changes server state.",
        "internal_endpoint" => "An outbound or internal endpoint rather than a served route.",
        "path_param" => "A path segment chosen by the client.",
        "credential_input" => "Input that carries a credential or session secret.",
        "identifier_input" => "Input that names an object or account; check ownership.",
        "redirect_input" => "Input that looks like a URL or redirect target.",
        "file_input" => "Input that names or carries a file.",
        "query_builder_input" => "Input that shapes a query (sort, filter, column).",
        "pii_input" => "Input that carries personal data.",
        "html_content_input" => "Free text that may be rendered as HTML.",
        "code_input" => "Input that looks like code, a command or an expression.",
        "csrf_exempt" => "CSRF protection is switched off for this handler.",
        "jwt_unsafe" => "JWT verification is weakened (signature, algorithm or expiry).",
        "cors_open" => "CORS allows any origin together with credentials.",
        "authz_absence" => {
            "Authenticated state-changing route on an object id without an authorization check."
        }
        "rate_limit_absence" => "Route taking credentials without a rate limit.",
        "idor_review" => "Unguarded state-changing route on an object id.",
        "guard_absence" => {
            "State-changing route with no authentication or authorization guard found."
        }
        "open_redirect" => "A redirect sink and a redirect-like input on the same route.",
        "ssrf" => "An outbound HTTP sink and a URL-like input on the same route.",
        "path_traversal" => "A file sink and a file-name input on the same route.",
        "unsafe_method" => "A safe HTTP method whose handler calls a mutating function.",
        "priority_review" => "Several risk signals on one route: review it early.",
        // guards
        "auth_guard" => "Authentication gate (login, token or session check).",
        "authz_guard" => "Authorization gate (role, permission or policy check).",
        "csrf_guard" => "CSRF protection.",
        "rate_limit_guard" => "Rate limiting or throttling.",
        // callees
        "callee" => "Direct one-hop callee of the handler.",
        // sources
        "request_input" => "Attacker-controlled request input read by the handler.",
        // sinks
        "sql" => "SQL text or a raw SQL call.",
        "data_store_query" => "ORM or data-store lookup.",
        "command_exec" => "Runs an operating-system command.",
        "file_io" => "Reads, writes or serves a file.",
        "redirect" => "Redirects the client.",
        "template_render" => "Renders a template.",
        "outbound_http" => "Makes an outbound HTTP request.",
        "xss" => "Writes unescaped HTML.",
        "deserialization" => "Deserializes data with an unsafe decoder.",
        "template_injection" => "Compiles a template from a string.",
        "code_eval" => "Evaluates code at run time.",
        "mass_assignment" => "Copies the whole request body onto a model.",
        "crypto_weak" => "Uses a weak hash or cipher.",
        // validators
        "validation" => "Validates input.",
        "schema_validation" => "Validates input against a schema or typed model.",
        "sanitization" => "Escapes or sanitizes input.",
        "query_parameter_binding" => "Binds query parameters instead of concatenating SQL.",
        "credential_hashing" => "Hashes a credential.",
        "credential_verification" => "Verifies a credential against its hash.",
        "existence_validation" => "Fails when the looked-up object does not exist.",
        "uniqueness_validation" => "Checks that a value is unique.",
        "expiry_validation" => "Checks an expiry.",
        "cookie_httponly" => "Sets a cookie HttpOnly.",
        "cookie_secure" => "Sets a cookie Secure.",
        "allowlist_check" => "Checks input against an allowlist.",
        "type_coercion" => "Converts input to a number or other type.",
        _ => return None,
    })
}
