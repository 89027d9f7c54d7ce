//! Patterns that mean the same thing in every language: SQL text, generic
//! database handles, guard and validator vocabulary.

use super::{rule, Bucket::*, Table};

pub static TABLE: Table = Table {
    rules: &[
        // Guards.
        rule(
            Guard,
            "auth_guard",
            r#"(?i)(\bauthenticate\w*|passport\.authenticate|\blogin_required|\bjwt_required|\brequireAuth\w*|\bverifyToken|\bisAuthenticated|\bis_authenticated|\bensureAuthenticated|\bauth_required|\btoken_required|\bbefore_action\s+:\w*auth\w*|@Authenticated\b|\[Authorize\b|\bAuthGuard\b|\bUseGuards\s*\(|\bmiddleware\(\s*\[?\s*['"]auth)"#,
        ),
        rule(
            Guard,
            "authz_guard",
            r#"(?i)(\bauthorize(_\w+|!|\s*\()|\bcheckPermission\w*|\bhasAuthority|\bhasRole|\bhasPermission|\bpermission_required|\broles?_required|\badmin_required|\brequires?_(role|permission|admin)\w*|@PreAuthorize|@RolesAllowed|@Secured|\bpermission_classes\b|\bRolesGuard\b)"#,
        ),
        rule(
            Guard,
            "csrf_guard",
            r#"(?i)(\bprotect_from_forgery|\bcsrf_protect|\bcsrf\.protect|\bcsrfProtection|\bcsurf\b|\bcsrf_token|\bCsrfFilter|\bValidateAntiForgeryToken|SameSite\s*[=:]\s*['\x22]?Strict)"#,
        ),
        rule(
            Guard,
            "rate_limit_guard",
            r#"(?i)(\bThrottle\w*|\bRateLimit\w*|\brate_limit\w*|\bratelimit\w*|@limits\b|\blimiter\b)"#,
        ),
        // Signals.
        rule(
            Signal,
            "csrf_exempt",
            r#"(?i)(\bcsrf_exempt|@csrf\.exempt|\bskip_forgery_protection|\bskip_before_action\s+:verify_authenticity_token|\bIgnoreAntiforgeryToken|csrf\(\)\.disable|\bwithoutMiddleware\(.*Csrf)"#,
        ),
        rule(
            Signal,
            "jwt_unsafe",
            r#"(?i)(verify_signature['"]?\s*:\s*false|\bverify\s*=\s*false|algorithms?['"]?\s*[=:]\s*\[?\s*['"]none['"]|ignoreExpiration['"]?\s*:\s*true|\balg['"]?\s*:\s*['"]none['"])"#,
        ),
        // Sinks.
        rule(
            Sink,
            "sql",
            r#"(?i)(\b(raw_sql|find_by_sql|executeQuery|executeUpdate|execute_sql|rawQuery|raw_query|queryRaw\w*|executeRaw\w*|createNativeQuery|queryForObject|queryForList|get_results)\s*\(|\bselect\b[^;]{0,120}\bfrom\b|\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+\w+\s+set\b|\b(cursor|db|conn|connection|session|pool|client|knex|sequelize|jdbcTemplate|entityManager|em|pdo|wpdb|DB)\s*(\.|->|::)\s*(execute|executemany|query|raw|exec|prepare|select|statement)\s*\()"#,
        ),
        rule(
            Sink,
            "data_store_query",
            r#"(\b\w+\.objects\.(get|filter|exclude|raw|extra)\s*\(|\b\w+\.query\.(filter|filter_by|get)\s*\(|\b(find_one|findOne|findById|findAll|findOneBy|find_by|findByPk|findUnique|findFirst|findMany)\s*\()"#,
        ),
        rule(
            Sink,
            "redirect",
            r#"(\b(redirect|redirect_to|RedirectResponse|HttpResponseRedirect|sendRedirect|RedirectToAction|Redirect)\s*\(|\.redirect\s*\(|\bLocation['\x22]?\s*[:,]\s*)"#,
        ),
        rule(
            Sink,
            "template_render",
            r#"\b(render_template|render_to_string|TemplateResponse|ModelAndView|render)\s*\("#,
        ),
        rule(
            Sink,
            "crypto_weak",
            r#"(?i)(\bhashlib\.(md5|sha1)\b|createHash\(\s*['"](md5|sha1)['"]|MessageDigest\.getInstance\(\s*"(MD5|SHA-?1)"|\b(md5|sha1)\s*\(|\bDES\b|\bRC4\b|/ECB/)"#,
        ),
        // Validators.
        rule(
            Validator,
            "schema_validation",
            r#"(\bBaseModel\b|\bSchema\(\)\.load|\bz\.object\s*\(|\byup\.object\s*\(|\bJoi\.object\s*\(|\bajv\b|\bjsonschema\.validate|@Valid\b|@Validated\b|\bclass-validator\b|\bValidationPipe\b)"#,
        ),
        rule(
            Validator,
            "validation",
            r#"(?i)(\bvalidate\w*\s*\(|\bis_valid\s*\(|\bvalidator\b|\bvalidates\b|\bcheck_\w+\s*\()"#,
        ),
        rule(
            Validator,
            "sanitization",
            r#"(?i)(\bescape\w*\s*\(|\bsanitize\w*\s*\(|\bbleach\.clean|\bDOMPurify|\bstrip_tags\s*\(|\bhtmlspecialchars\s*\(|\bsecure_filename\s*\(|\bfilepath\.(Clean|Base)\s*\(|\bpath\.basename\s*\(|\bos\.path\.basename\s*\(|\brealpath\s*\()"#,
        ),
        rule(
            Validator,
            "query_parameter_binding",
            r#"(\b(prepareStatement|PreparedStatement|bindParam|bindValue|bind_param|setParameter|setString|setInt)\s*\(|\bexecute\s*\(\s*['"][^'"]*(\?|%s|:\w+)[^'"]*['"]\s*,)"#,
        ),
        rule(
            Validator,
            "credential_hashing",
            r#"(\bgenerate_password_hash|\bmake_password|\bhashpw|\bbcrypt\.(hash|genSalt)\w*|\bargon2\b|\bpassword_hash\s*\(|\bBCryptPasswordEncoder|\bpasswordEncoder\.encode)"#,
        ),
        rule(
            Validator,
            "credential_verification",
            r#"(\bcheck_password_hash|\bcheck_password\s*\(|\bbcrypt\.compare|\bverify_password\s*\(|\bpassword_verify\s*\(|\bpasswordEncoder\.matches|\bcheckpw\s*\()"#,
        ),
        rule(
            Validator,
            "existence_validation",
            r#"(\bget_object_or_404\s*\(|\b(first|get|one)_or_404\s*\(|\bfindOrFail\s*\(|\bfirstOrFail\s*\(|\borElseThrow\s*\(|\babort\(\s*404\b)"#,
        ),
        rule(
            Validator,
            "uniqueness_validation",
            r#"(?i)(\bvalidates_uniqueness_of\b|\balready exists\b|\bunique\s*[=:]\s*true)"#,
        ),
        rule(
            Validator,
            "expiry_validation",
            r#"(?i)(\bis_expired\b|\bexpires?_at\b|\bisExpired\b|\bexpired\b)"#,
        ),
        rule(
            Validator,
            "cookie_httponly",
            r#"(?i)\bhttp_?only['\x22]?\s*[=:]\s*true"#,
        ),
        rule(
            Validator,
            "cookie_secure",
            r#"(?i)\bsecure['\x22]?\s*[=:]\s*true"#,
        ),
        rule(
            Validator,
            "allowlist_check",
            r#"(?i)(\ballow_?list\w*|\bwhite_?list\w*|\bALLOWED_[A-Z_]+)"#,
        ),
        rule(
            Validator,
            "type_coercion",
            r#"(\b(int|float|parseInt|parseFloat|Number|Integer\.parseInt|Long\.parseLong|strconv\.Atoi|intval)\s*\()"#,
        ),
    ],
    reads: &[],
};
