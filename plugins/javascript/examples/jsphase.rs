//! Native timing by phase of the JavaScript analyzers' shared work over a
//! directory: lexing, outline, module scan, then each analyzer's whole
//! `analyze` on a fresh file (so each again lexes, outlines and scans the
//! module, which the host shares between them through `SourceFile::memo`).
//! `cargo run --release --example jsphase -- DIR`.
use std::path::Path;
use std::time::Instant;

use portolan_plugin_javascript::js::{module, outline::Outline};
use portolan_plugin_javascript::{express, nestjs, nextjs};
use portolan_plugin_sdk::testing::load_tree;
use portolan_plugin_sdk::{Analyzer, Output, SourceFile, Syntax};

fn main() {
    let dir = std::env::args().nth(1).expect("usage: jsphase DIR");
    let mut files: Vec<(String, String)> = load_tree(&express::Express.tech(), Path::new(&dir))
        .into_iter()
        .map(|f| (f.path.clone(), f.content.clone()))
        .collect();
    files.sort();
    let mut t = [0f64; 6];
    let names = [
        "lex",
        "outline",
        "module",
        "express",
        "nest",
        "next",
        "lex-only-x3",
    ];
    for (path, content) in &files {
        let file = SourceFile::new(path.clone(), content.clone());
        let s = Instant::now();
        let code = file.code(Syntax::JAVASCRIPT);
        t[0] += s.elapsed().as_secs_f64();
        let s = Instant::now();
        let o = Outline::new(&code);
        t[1] += s.elapsed().as_secs_f64();
        let s = Instant::now();
        let _m = module::scan(&file.path, &code, &o);
        t[2] += s.elapsed().as_secs_f64();
        let analyzers: [&dyn Analyzer; 3] = [&express::Express, &nestjs::TS, &nextjs::NextJs];
        for (i, a) in analyzers.iter().enumerate() {
            let file = SourceFile::new(path.clone(), content.clone());
            let s = Instant::now();
            let mut out = Output::new();
            a.analyze(&file, &mut out);
            t[3 + i] += s.elapsed().as_secs_f64();
        }
    }
    for (n, v) in names.iter().zip(t) {
        eprintln!("{n:10} {v:.3} s");
    }
}
