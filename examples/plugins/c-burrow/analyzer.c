/*
 * A portolan analyzer written in C, for "burrow", an invented C web
 * micro-framework. Built with clang --target=wasm32-wasi against the C
 * bindings of wit/analyzer.wit (world `plugin`), then wrapped into a
 * component; see docs/plugins-other-languages.md.
 *
 * burrow in one screen:
 *
 *     #include <burrow.h>
 *     #define API "/api/v1"
 *
 *     static int show_item(brw_req *req, brw_res *res) {
 *         const char *fields = brw_query(req, "fields");
 *         const char *lang = brw_header(req, "Accept-Language");
 *         long limit = atol(brw_query_or(req, "limit", "50"));
 *         ...   // brw_cookie, brw_form, brw_json, brw_file likewise
 *     }
 *
 *     static const brw_route ROUTES[] = {
 *         BRW_GET(API "/items/:id", show_item),   // GET POST PUT PATCH DELETE HEAD OPTIONS
 *         BRW_ROUTE("PATCH", API "/items/:id", patch_item),
 *         BRW_ANY("/echo", echo),                 // GET POST PUT PATCH DELETE (documented)
 *         BRW_WS("/events", events),              // WebSocket upgrade (GET, ws)
 *         BRW_END
 *     };
 *
 * Paths are string literals, `#define`d string constants or an adjacent
 * concatenation of both. Parameters are the brw_* accessor calls in the
 * handler's body when the handler is defined in the same file. Comments and
 * `#if 0` blocks are ignored; files under test directories are skipped.
 * Every route is complete within its file, so `analyze` returns no facts
 * and `link` returns an empty list.
 *
 * Memory: the generated post-return functions free what we return, so
 * every returned string is a heap copy (plugin_string_dup*) and nothing
 * else is freed. The host reuses an instance for later calls only while its
 * memory has grown by less than 8 MiB, so what is never freed stays bounded.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

typedef portolan_analyzer_types_endpoint_t endpoint_t;
typedef portolan_analyzer_types_param_t param_t;

#define TECH "c_burrow"

/* ---- small growable arrays and strings --------------------------------- */

static void *grow(void *ptr, size_t *cap, size_t len, size_t size) {
    if (len < *cap) return ptr;
    *cap = *cap ? *cap * 2 : 8;
    void *p = realloc(ptr, *cap * size);
    if (!p) abort();
    return p;
}

typedef struct {
    char *ptr;
    size_t len, cap;
} buf_t;

static void buf_push(buf_t *b, const char *s, size_t n) {
    while (b->len + n + 1 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        b->ptr = realloc(b->ptr, b->cap);
        if (!b->ptr) abort();
    }
    memcpy(b->ptr + b->len, s, n);
    b->len += n;
    b->ptr[b->len] = 0;
}

static void set_str(plugin_string_t *s, const char *c) { plugin_string_dup(s, c); }

static plugin_list_string_t str_list(const char **items, size_t n) {
    plugin_list_string_t l = {.ptr = calloc(n ? n : 1, sizeof(plugin_string_t)), .len = n};
    if (!l.ptr) abort();
    for (size_t i = 0; i < n; i++) set_str(&l.ptr[i], items[i]);
    return l;
}

/* ---- describe ---------------------------------------------------------- */

void exports_portolan_analyzer_analyzer_describe(exports_portolan_analyzer_analyzer_plugin_info_t *ret) {
    static const char *aliases[] = {"burrow"};
    static const char *files[] = {"*.c"};
    static const char *contains[] = {"<burrow.h>", "<burrow/"};

    portolan_analyzer_types_tech_info_t *t = calloc(1, sizeof *t);
    portolan_analyzer_types_detect_rule_t *rule = calloc(1, sizeof *rule);
    if (!t || !rule) abort();
    rule->files = str_list(files, 1);
    rule->contains = str_list(contains, 2);
    rule->regex = str_list(NULL, 0);

    set_str(&t->id, TECH);
    t->aliases = str_list(aliases, 1);
    set_str(&t->language, "C");
    set_str(&t->framework, "burrow");
    t->specification = false;
    t->files = str_list(files, 1);
    t->detect.ptr = rule;
    t->detect.len = 1;
    t->supports = (portolan_analyzer_types_supports_t){
        .method = true, .query = true, .path = true, .body = true,
        .header = true, .cookie = true, .websocket = true,
    };

    set_str(&ret->name, "c-burrow");
    set_str(&ret->version, "0.1.0");
    set_str(&ret->interface_version, "0.3.0");
    ret->techs.ptr = t;
    ret->techs.len = 1;
}

/* ---- the source, cleaned ----------------------------------------------- */

static bool at_line_start(const char *s, size_t i) {
    while (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) i--;
    return i == 0 || s[i - 1] == '\n';
}

/* A copy of the file where comments and `#if 0` blocks are spaces (newlines
 * kept, so offsets and lines stay those of the original) and string and
 * character literals are intact. */
static char *clean(const char *src, size_t n) {
    char *out = malloc(n + 1);
    if (!out) abort();
    memcpy(out, src, n);
    out[n] = 0;
    size_t i = 0;
    while (i < n) {
        char c = out[i];
        if (c == '/' && i + 1 < n && out[i + 1] == '/') {
            while (i < n && out[i] != '\n') out[i++] = ' ';
        } else if (c == '/' && i + 1 < n && out[i + 1] == '*') {
            out[i++] = ' ';
            out[i++] = ' ';
            while (i < n && !(out[i] == '*' && i + 1 < n && out[i + 1] == '/')) {
                if (out[i] != '\n') out[i] = ' ';
                i++;
            }
            if (i < n) out[i++] = ' ';
            if (i < n) out[i++] = ' ';
        } else if (c == '"' || c == '\'') {
            i++;
            while (i < n && out[i] != c && out[i] != '\n') i += (out[i] == '\\') ? 2 : 1;
            i++;
        } else if (c == '#' && at_line_start(out, i)) {
            /* `#if 0`: blank up to the matching #else/#elif/#endif */
            size_t j = i + 1;
            while (j < n && (out[j] == ' ' || out[j] == '\t')) j++;
            if (j + 2 < n && !strncmp(out + j, "if", 2) && (out[j + 2] == ' ' || out[j + 2] == '\t')) {
                size_t k = j + 2;
                while (k < n && (out[k] == ' ' || out[k] == '\t')) k++;
                if (k < n && out[k] == '0' && (k + 1 == n || out[k + 1] == '\n' || out[k + 1] == ' ')) {
                    int depth = 0;
                    size_t p = i;
                    while (p < n) {
                        /* p is at a line start inside the block */
                        size_t q = p;
                        while (q < n && (out[q] == ' ' || out[q] == '\t')) q++;
                        if (p != i && q < n && out[q] == '#') {
                            size_t d = q + 1;
                            while (d < n && (out[d] == ' ' || out[d] == '\t')) d++;
                            if (!strncmp(out + d, "if", 2)) depth++;
                            else if (!strncmp(out + d, "endif", 5) && depth-- == 0) break;
                            else if ((!strncmp(out + d, "else", 4) || !strncmp(out + d, "elif", 4)) && depth == 0) break;
                        }
                        while (p < n && out[p] != '\n') out[p++] = ' ';
                        if (p < n) p++;
                    }
                    i = p;
                    continue;
                }
            }
            i++;
        } else {
            i++;
        }
    }
    return out;
}

/* ---- lexing helpers over the cleaned text ------------------------------ */

typedef struct {
    const char *s;
    size_t n;
    /* #define NAME "literal" constants of the file */
    char **def_names, **def_values;
    size_t defs, defs_cap;
} file_t;

static bool is_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static size_t skip_ws(const file_t *f, size_t i) {
    while (i < f->n && (f->s[i] == ' ' || f->s[i] == '\t' || f->s[i] == '\n' || f->s[i] == '\r' || f->s[i] == '\\'))
        i++;
    return i;
}

static uint32_t line_of(const file_t *f, size_t at) {
    uint32_t line = 1;
    for (size_t i = 0; i < at && i < f->n; i++) line += f->s[i] == '\n';
    return line;
}

/* Reads one string literal at `i` (which must be `"`), appending its
 * contents (simple escapes resolved) to `out`; returns the index after it. */
static size_t read_literal(const file_t *f, size_t i, buf_t *out) {
    i++;
    while (i < f->n && f->s[i] != '"' && f->s[i] != '\n') {
        if (f->s[i] == '\\' && i + 1 < f->n) {
            char e = f->s[i + 1];
            char c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            buf_push(out, &c, 1);
            i += 2;
        } else {
            buf_push(out, f->s + i, 1);
            i++;
        }
    }
    return i < f->n ? i + 1 : i;
}

/* A string expression: adjacent literals and #define'd constants, e.g.
 * `API "/items"`. Returns true and the index after it when at least one
 * part was read and the expression ends at `,` or `)`. */
static bool read_string_expr(const file_t *f, size_t i, buf_t *out, size_t *end) {
    bool any = false;
    out->len = 0;
    buf_push(out, "", 0);
    for (;;) {
        i = skip_ws(f, i);
        if (i < f->n && f->s[i] == '"') {
            i = read_literal(f, i, out);
            any = true;
            continue;
        }
        size_t j = i;
        while (j < f->n && is_ident(f->s[j])) j++;
        if (j == i) break;
        size_t k;
        for (k = 0; k < f->defs; k++)
            if (strlen(f->def_names[k]) == j - i && !strncmp(f->def_names[k], f->s + i, j - i)) break;
        if (k == f->defs) return false; /* a variable or a call: not a constant path */
        buf_push(out, f->def_values[k], strlen(f->def_values[k]));
        any = true;
        i = j;
    }
    *end = i;
    return any && i < f->n && (f->s[i] == ',' || f->s[i] == ')');
}

/* Collects `#define NAME "literal"` lines (adjacent literals and earlier
 * constants are concatenated). */
static void read_defines(file_t *f) {
    buf_t value = {0};
    for (size_t i = 0; i < f->n; i++) {
        if (f->s[i] != '#' || (i > 0 && f->s[i - 1] != '\n' && f->s[i - 1] != ' ' && f->s[i - 1] != '\t')) continue;
        size_t j = skip_ws(f, i + 1);
        if (strncmp(f->s + j, "define", 6) != 0) continue;
        j = skip_ws(f, j + 6);
        size_t name = j;
        while (j < f->n && is_ident(f->s[j])) j++;
        if (j == name || (j < f->n && f->s[j] == '(')) continue; /* function-like macro */
        size_t k = j, eol = j;
        while (eol < f->n && f->s[eol] != '\n') eol++;
        value.len = 0;
        bool ok = false;
        while (k < eol) {
            while (k < eol && (f->s[k] == ' ' || f->s[k] == '\t')) k++;
            size_t id = k;
            while (k < eol && is_ident(f->s[k])) k++;
            size_t known = f->defs;
            if (k > id) /* an earlier constant: `#define ITEMS API "/items"` */
                for (known = 0; known < f->defs; known++)
                    if (strlen(f->def_names[known]) == k - id && !strncmp(f->def_names[known], f->s + id, k - id))
                        break;
            if (k > id && known < f->defs) {
                buf_push(&value, f->def_values[known], strlen(f->def_values[known]));
                ok = true;
            } else if (k == id && k < eol && f->s[k] == '"') {
                k = read_literal(f, k, &value);
                ok = true;
            } else {
                ok = ok && k >= eol;
                break;
            }
        }
        if (!ok) continue;
        f->def_names = grow(f->def_names, &f->defs_cap, f->defs, sizeof(char *));
        size_t cap = f->defs_cap;
        f->def_values = realloc(f->def_values, cap * sizeof(char *));
        if (!f->def_values) abort();
        f->def_names[f->defs] = strndup(f->s + name, j - name);
        f->def_values[f->defs] = strdup(value.ptr ? value.ptr : "");
        f->defs++;
    }
    free(value.ptr);
}

/* ---- handlers and their parameters ------------------------------------- */

typedef struct {
    const char *call;
    portolan_analyzer_types_param_kind_t kind;
    bool with_default;
} accessor_t;

static const accessor_t ACCESSORS[] = {
    {"brw_query_or", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_QUERY, true},
    {"brw_query", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_QUERY, false},
    {"brw_header", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_HEADER, false},
    {"brw_cookie", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_COOKIE, false},
    {"brw_form", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_FORM, false},
    {"brw_json", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_JSON, false},
    {"brw_file", PORTOLAN_ANALYZER_TYPES_PARAM_KIND_FILE, false},
};

typedef struct {
    param_t *ptr;
    size_t len, cap;
} params_t;

static size_t match_paren(const file_t *f, size_t open, char o, char c) {
    int depth = 0;
    for (size_t i = open; i < f->n; i++) {
        char ch = f->s[i];
        if (ch == '"' || ch == '\'') {
            i++;
            while (i < f->n && f->s[i] != ch && f->s[i] != '\n') i += f->s[i] == '\\' ? 2 : 1;
        } else if (ch == o) {
            depth++;
        } else if (ch == c && --depth == 0) {
            return i;
        }
    }
    return f->n;
}

/* The body `{ ... }` of the function `name` defined at top level, as
 * [*start, *end); false when the file does not define it. */
static bool find_body(const file_t *f, const char *name, size_t *start, size_t *end) {
    size_t len = strlen(name);
    int depth = 0;
    for (size_t i = 0; i < f->n; i++) {
        char ch = f->s[i];
        if (ch == '"' || ch == '\'') {
            i++;
            while (i < f->n && f->s[i] != ch && f->s[i] != '\n') i += f->s[i] == '\\' ? 2 : 1;
            continue;
        }
        if (ch == '{') depth++;
        else if (ch == '}') depth--;
        if (depth != 0 || i + len > f->n || strncmp(f->s + i, name, len) != 0) continue;
        if ((i > 0 && is_ident(f->s[i - 1])) || (i + len < f->n && is_ident(f->s[i + len]))) continue;
        size_t p = skip_ws(f, i + len);
        if (p >= f->n || f->s[p] != '(') continue;
        size_t close = match_paren(f, p, '(', ')');
        size_t b = skip_ws(f, close + 1);
        if (b < f->n && f->s[b] == '{') {
            *start = b;
            *end = match_paren(f, b, '{', '}');
            return true;
        }
    }
    return false;
}

static void handler_params(const file_t *f, const char *handler, params_t *out) {
    size_t start, end;
    if (!find_body(f, handler, &start, &end)) return;
    buf_t name = {0}, value = {0};
    for (size_t i = start; i < end; i++) {
        if (i > 0 && is_ident(f->s[i - 1])) continue;
        for (size_t a = 0; a < sizeof ACCESSORS / sizeof *ACCESSORS; a++) {
            const accessor_t *acc = &ACCESSORS[a];
            size_t len = strlen(acc->call);
            if (strncmp(f->s + i, acc->call, len) != 0 || is_ident(f->s[i + len])) continue;
            size_t p = skip_ws(f, i + len);
            if (p >= end || f->s[p] != '(') break;
            /* skip the request argument */
            size_t q = p + 1;
            while (q < end && f->s[q] != ',' && f->s[q] != ')') q++;
            size_t after;
            if (q >= end || f->s[q] != ',' || !read_string_expr(f, q + 1, &name, &after)) break;
            value.len = 0;
            buf_push(&value, "", 0);
            if (acc->with_default && f->s[after] == ',') {
                size_t after2;
                if (!read_string_expr(f, after + 1, &value, &after2)) {
                    value.len = 0;
                    value.ptr[0] = 0;
                }
            }
            bool dup = false;
            for (size_t k = 0; k < out->len; k++)
                if (out->ptr[k].kind == acc->kind && out->ptr[k].name.len == name.len &&
                    !memcmp(out->ptr[k].name.ptr, name.ptr, name.len))
                    dup = true;
            if (!dup) {
                out->ptr = grow(out->ptr, &out->cap, out->len, sizeof(param_t));
                param_t *prm = &out->ptr[out->len++];
                plugin_string_dup_n(&prm->name, name.ptr, name.len);
                plugin_string_dup_n(&prm->value, value.ptr, value.len);
                prm->kind = acc->kind;
            }
            break;
        }
    }
    free(name.ptr);
    free(value.ptr);
}

/* ---- routes ------------------------------------------------------------- */

typedef struct {
    endpoint_t *ptr;
    size_t len, cap;
} endpoints_t;

typedef struct {
    const char *macro;
    const char *methods[5];
    bool ws;
} route_macro_t;

static const route_macro_t MACROS[] = {
    {"BRW_GET", {"GET"}, false},
    {"BRW_POST", {"POST"}, false},
    {"BRW_PUT", {"PUT"}, false},
    {"BRW_PATCH", {"PATCH"}, false},
    {"BRW_DELETE", {"DELETE"}, false},
    {"BRW_HEAD", {"HEAD"}, false},
    {"BRW_OPTIONS", {"OPTIONS"}, false},
    /* burrow documents BRW_ANY as these five methods */
    {"BRW_ANY", {"GET", "POST", "PUT", "PATCH", "DELETE"}, false},
    {"BRW_WS", {"GET"}, true},
    {"BRW_ROUTE", {NULL}, false}, /* method given as the first argument */
};

static void add_endpoint(endpoints_t *eps, const char *method, const buf_t *url, const params_t *params,
                         bool ws, const plugin_string_t *path, uint32_t line) {
    eps->ptr = grow(eps->ptr, &eps->cap, eps->len, sizeof(endpoint_t));
    endpoint_t *e = &eps->ptr[eps->len++];
    memset(e, 0, sizeof *e);
    plugin_string_dup_n(&e->url, url->ptr, url->len);
    set_str(&e->method, method);
    set_str(&e->protocol, ws ? "ws" : "http");
    e->params.len = params->len;
    e->params.ptr = calloc(params->len ? params->len : 1, sizeof(param_t));
    if (!e->params.ptr) abort();
    for (size_t i = 0; i < params->len; i++) {
        param_t *p = &e->params.ptr[i];
        plugin_string_dup_n(&p->name, (const char *)params->ptr[i].name.ptr, params->ptr[i].name.len);
        plugin_string_dup_n(&p->value, (const char *)params->ptr[i].value.ptr, params->ptr[i].value.len);
        p->kind = params->ptr[i].kind;
    }
    e->code_paths.len = 1;
    e->code_paths.ptr = calloc(1, sizeof *e->code_paths.ptr);
    if (!e->code_paths.ptr) abort();
    plugin_string_dup_n(&e->code_paths.ptr[0].path, (const char *)path->ptr, path->len);
    e->code_paths.ptr[0].line = (plugin_option_u32_t){.is_some = true, .val = line};
}

static void scan_file(const plugin_string_t *path, const plugin_string_t *content, endpoints_t *eps) {
    file_t f = {0};
    f.s = clean((const char *)content->ptr, content->len);
    f.n = content->len;
    read_defines(&f);
    buf_t method = {0}, url = {0}, handler = {0};
    for (size_t i = 0; i < f.n; i++) {
        if (f.s[i] == '"' || f.s[i] == '\'') { /* never look inside literals */
            char q = f.s[i++];
            while (i < f.n && f.s[i] != q && f.s[i] != '\n') i += f.s[i] == '\\' ? 2 : 1;
            continue;
        }
        if (f.s[i] != 'B' || (i > 0 && is_ident(f.s[i - 1]))) continue;
        for (size_t m = 0; m < sizeof MACROS / sizeof *MACROS; m++) {
            const route_macro_t *mac = &MACROS[m];
            size_t len = strlen(mac->macro);
            if (strncmp(f.s + i, mac->macro, len) != 0 || is_ident(f.s[i + len])) continue;
            size_t p = skip_ws(&f, i + len);
            if (p >= f.n || f.s[p] != '(') break;
            size_t at = p + 1;
            if (!mac->methods[0]) {
                if (!read_string_expr(&f, at, &method, &at) || f.s[at] != ',') break;
                at++;
            }
            if (!read_string_expr(&f, at, &url, &at) || f.s[at] != ',') break;
            /* the handler: an identifier */
            size_t h = skip_ws(&f, at + 1), he = h;
            while (he < f.n && is_ident(f.s[he])) he++;
            handler.len = 0;
            buf_push(&handler, f.s + h, he - h);
            params_t params = {0};
            if (he > h) handler_params(&f, handler.ptr, &params);
            uint32_t line = line_of(&f, i);
            if (mac->methods[0]) {
                for (size_t k = 0; k < 5 && mac->methods[k]; k++)
                    add_endpoint(eps, mac->methods[k], &url, &params, mac->ws, path, line);
            } else {
                for (size_t k = 0; k < method.len; k++)
                    if (method.ptr[k] >= 'a' && method.ptr[k] <= 'z') method.ptr[k] -= 32;
                add_endpoint(eps, method.ptr, &url, &params, false, path, line);
            }
            i = p;
            break;
        }
    }
    /* everything allocated here dies with the instance after this call */
}

/* Directories and names that hold tests, which are not attack surface. */
static bool is_test_path(const plugin_string_t *path) {
    static const char *dirs[] = {"test/", "tests/", "spec/", "__tests__/", "testdata/"};
    const char *s = (const char *)path->ptr;
    size_t n = path->len;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s[i - 1] != '/') continue;
        for (size_t d = 0; d < sizeof dirs / sizeof *dirs; d++) {
            size_t len = strlen(dirs[d]);
            if (i + len <= n && !strncmp(s + i, dirs[d], len)) return true;
        }
    }
    size_t base = n;
    while (base > 0 && s[base - 1] != '/') base--;
    return (n - base > 5 && !strncmp(s + base, "test_", 5)) ||
           (n - base > 7 && !strncmp(s + n - 7, "_test.c", 7));
}

static bool is_tech(const plugin_string_t *tech, plugin_string_t *err) {
    if (tech->len == strlen(TECH) && !memcmp(tech->ptr, TECH, tech->len)) return true;
    set_str(err, "this plugin has no analyzer for that technology");
    return false;
}

bool exports_portolan_analyzer_analyzer_analyze(plugin_string_t *tech,
                                               exports_portolan_analyzer_analyzer_list_source_file_t *files,
                                               exports_portolan_analyzer_analyzer_batch_output_t *ret,
                                               plugin_string_t *err) {
    if (!is_tech(tech, err)) return false;
    endpoints_t eps = {0};
    for (size_t i = 0; i < files->len; i++) {
        if (is_test_path(&files->ptr[i].path)) continue;
        scan_file(&files->ptr[i].path, &files->ptr[i].content, &eps);
    }
    ret->endpoints.ptr = eps.ptr;
    ret->endpoints.len = eps.len;
    ret->facts.ptr = NULL;
    ret->facts.len = 0;
    return true;
}

/* Several technologies at once: this plugin has one, so each entry of `techs`
 * is analyzed over the files `wanted` lists for it, like `analyze`. */
bool exports_portolan_analyzer_analyzer_analyze_many(plugin_list_string_t *techs,
                                                    exports_portolan_analyzer_analyzer_list_source_file_t *files,
                                                    plugin_list_list_u32_t *wanted,
                                                    exports_portolan_analyzer_analyzer_list_batch_output_t *ret,
                                                    plugin_string_t *err) {
    if (techs->len != wanted->len) {
        set_str(err, "analyze-many: as many file lists as technologies expected");
        return false;
    }
    ret->len = 0;
    ret->ptr = techs->len ? calloc(techs->len, sizeof *ret->ptr) : NULL;
    for (size_t t = 0; t < techs->len; t++) {
        if (!is_tech(&techs->ptr[t], err)) return false;
        endpoints_t eps = {0};
        for (size_t k = 0; k < wanted->ptr[t].len; k++) {
            uint32_t i = wanted->ptr[t].ptr[k];
            if (i >= files->len || is_test_path(&files->ptr[i].path)) continue;
            scan_file(&files->ptr[i].path, &files->ptr[i].content, &eps);
        }
        ret->ptr[t].endpoints.ptr = eps.ptr;
        ret->ptr[t].endpoints.len = eps.len;
        ret->len = t + 1;
    }
    return true;
}

bool exports_portolan_analyzer_analyzer_link(plugin_string_t *tech, plugin_list_list_u8_t *facts,
                                            exports_portolan_analyzer_analyzer_list_endpoint_t *ret,
                                            plugin_string_t *err) {
    (void)facts;
    if (!is_tech(tech, err)) return false;
    ret->ptr = NULL;
    ret->len = 0;
    return true;
}
