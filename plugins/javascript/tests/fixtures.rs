//! Runs each JavaScript/TypeScript analyzer natively on every
//! `tests/fixtures/<tech>/<case>/app` tree of its technology and compares
//! the report with the hand-written `expected.json`, through the SDK's
//! shared runner (`portolan_plugin_sdk::testing`, a mirror of the host's
//! post-processing).

use std::path::{Path, PathBuf};

use portolan_plugin_javascript as js;
use portolan_plugin_sdk::{testing, Analyzer};

fn fixtures_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn check_all(analyzer: &dyn Analyzer, cases: &[&str]) {
    testing::Fixtures::new(&[analyzer], fixtures_root())
        .cases(&analyzer.tech().id, cases)
        .check();
}

#[test]
fn js_cli_fixtures() {
    check_all(
        &js::cli::JsCli,
        &["commander_tree", "yargs_commands", "yargs_modules"],
    );
}

#[test]
fn ts_nestjs_fixtures() {
    check_all(&js::nestjs::TS, &["shop"]);
}

#[test]
fn js_nestjs_fixtures() {
    check_all(&js::nestjs::JS, &["monorepo"]);
}

#[test]
fn js_fastify_fixtures() {
    check_all(
        &js::fastify::Fastify,
        &["api", "autoload", "nested-prefixes", "route-options"],
    );
}

#[test]
fn js_koa_fixtures() {
    check_all(
        &js::koa::Koa,
        &[
            "blog",
            "chained-routers",
            "crud-subclass",
            "guarded-routers",
            "mounted-apps",
            "zod-guards",
        ],
    );
}

#[test]
fn js_nextjs_fixtures() {
    check_all(
        &js::nextjs::NextJs,
        &[
            "handler-maps",
            "helper-schemas",
            "request-helpers",
            "storefront",
            "validated-routes",
        ],
    );
}

#[test]
fn js_hono_fixtures() {
    check_all(
        &js::hono::Hono,
        &[
            "bound-bodies",
            "chained-subapps",
            "shared-schemas",
            "worker",
        ],
    );
}

#[test]
fn js_restify_fixtures() {
    check_all(&js::restify::Restify, &["inventory"]);
}

#[test]
fn js_hapi_fixtures() {
    check_all(&js::hapi::Hapi, &["library"]);
}

#[test]
fn js_express_fixtures() {
    check_all(
        &js::express::Express,
        &[
            "controller-objects",
            "mount-table",
            "route-helpers",
            "router-chains",
            "routers",
            "server-class",
            "service-forwarding",
            "uploads",
            "validation-objects",
            "validator-chains",
        ],
    );
}

#[test]
fn js_sveltekit_fixtures() {
    check_all(&js::sveltekit::SvelteKit, &["blog", "form-actions"]);
}

#[test]
fn js_nuxtjs_fixtures() {
    check_all(&js::nitro::Nuxt, &["shop", "validated-reads"]);
}

#[test]
fn js_nitro_fixtures() {
    check_all(&js::nitro::Nitro, &["edge"]);
}

#[test]
fn js_remix_fixtures() {
    check_all(&js::remix::Remix, &["notes", "route-config"]);
}

#[test]
fn js_astro_fixtures() {
    check_all(&js::astro::Astro, &["site"]);
}

#[test]
fn js_fresh_fixtures() {
    check_all(&js::fresh::Fresh, &["todo"]);
}

#[test]
fn js_elysia_fixtures() {
    check_all(&js::elysia::Elysia, &["bun-api", "guarded-groups"]);
}

#[test]
fn js_socketio_fixtures() {
    check_all(&js::socketio::SocketIo, &["chat"]);
}

#[test]
fn js_apollo_fixtures() {
    check_all(&js::apollo::Apollo, &["gateway"]);
}

#[test]
fn js_graphql_yoga_fixtures() {
    check_all(&js::yoga::Yoga, &["yoga"]);
}

#[test]
fn ts_trpc_fixtures() {
    check_all(&js::trpc::Trpc, &["t3"]);
}

#[test]
fn js_adonisjs_fixtures() {
    check_all(&js::adonisjs::AdonisJs, &["blog"]);
}

#[test]
fn ts_loopback_fixtures() {
    check_all(&js::loopback::LoopBack, &["shop"]);
}

#[test]
fn js_oak_fixtures() {
    check_all(&js::oak::Oak, &["deno"]);
}

#[test]
fn js_sails_fixtures() {
    check_all(&js::sails::Sails, &["todo"]);
}

#[test]
fn js_http_fixtures() {
    check_all(&js::nodehttp::NodeHttp, &["plain-node"]);
}

#[test]
fn js_feathers_fixtures() {
    check_all(&js::feathers::Feathers, &["chat"]);
}

#[test]
fn ts_tanstack_router_fixtures() {
    check_all(&js::tanstack::TanStackRouter, &["start-app"]);
}

/// Every prefix of the fixture sources of the plain-http, Feathers and
/// TanStack analyzers is analyzed and linked without panicking.
#[test]
fn http_feathers_tanstack_survive_truncated_sources() {
    testing::check_truncations(
        &[
            &js::nodehttp::NodeHttp,
            &js::feathers::Feathers,
            &js::tanstack::TanStackRouter,
        ],
        &fixtures_root(),
        7,
    );
}

/// Non-ASCII identifiers and text in code positions do not panic.
#[test]
fn http_feathers_tanstack_survive_non_ascii() {
    use portolan_plugin_sdk::{Facts, Output, SourceFile};
    let src = "import http from 'node:http';\nimport { feathers } from '@feathersjs/feathers';\nconst app = feathers();\nconst é = (req, res) => { switch (req.url) { case '/é': ü(); caseé: break; default: } if (req.method === 'É' && req.url === '/ü') { JSON.parse(b).ö } };\nhttp.createServer(é);\napp.use('/ü', { find(p) { return p.query.é } });\nexport const Route = createFileRoute('/é/$ü')({ validateSearch: z.object({ ä: z.string() }) });\n";
    for analyzer in [
        &js::nodehttp::NodeHttp as &dyn Analyzer,
        &js::feathers::Feathers,
        &js::tanstack::TanStackRouter,
    ] {
        let mut out = Output::new();
        analyzer.analyze(&SourceFile::new("src/routes/é.ts", src), &mut out);
        let (_, facts) = out.into_parts();
        let mut all = Facts::new(Vec::new());
        all.extend(facts);
        assert!(analyzer.link(&all).is_ok());
    }
}

/// Every analyzer of the plugin, over every fixture source of its
/// technology with multi-byte characters (2, 3 and 4 bytes) inserted
/// around every offset (one variant per residue class), analyzes and links
/// without panicking: no slicing at a non-char boundary anywhere.
#[test]
fn every_analyzer_survives_multibyte_chars_at_any_offset() {
    const PERIOD: usize = 19;
    let all: [&dyn Analyzer; 28] = [
        &js::express::Express,
        &js::fastify::Fastify,
        &js::koa::Koa,
        &js::nextjs::NextJs,
        &js::hono::Hono,
        &js::restify::Restify,
        &js::hapi::Hapi,
        &js::nestjs::TS,
        &js::nestjs::JS,
        &js::sveltekit::SvelteKit,
        &js::nitro::Nuxt,
        &js::nitro::Nitro,
        &js::remix::Remix,
        &js::astro::Astro,
        &js::fresh::Fresh,
        &js::elysia::Elysia,
        &js::socketio::SocketIo,
        &js::apollo::Apollo,
        &js::yoga::Yoga,
        &js::trpc::Trpc,
        &js::adonisjs::AdonisJs,
        &js::loopback::LoopBack,
        &js::oak::Oak,
        &js::sails::Sails,
        &js::nodehttp::NodeHttp,
        &js::feathers::Feathers,
        &js::tanstack::TanStackRouter,
        &js::cli::JsCli,
    ];
    testing::check_multibyte(&all, &fixtures_root(), PERIOD);
}
