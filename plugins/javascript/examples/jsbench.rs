//! Native timing of the JavaScript analyzers over a directory (what the host's
//! most common JavaScript group runs: Express + Next.js + NestJS, file by
//! file). `cargo run --release --example jsbench -- DIR [passes]`: prints the
//! first pass (which also builds every lazily compiled pattern, as each
//! fresh wasm instance does), the next passes, and the slowest files.
use std::path::Path;
use std::time::Instant;

use portolan_plugin_javascript::{express, nestjs, nextjs};
use portolan_plugin_sdk::testing::load_tree;
use portolan_plugin_sdk::{Analyzer, Output, SourceFile};

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().expect("usage: jsbench DIR [passes]");
    let passes: usize = args.next().and_then(|p| p.parse().ok()).unwrap_or(2);
    let analyzers: [&dyn Analyzer; 3] = [&express::Express, &nextjs::NextJs, &nestjs::TS];
    let mut files: Vec<(String, String)> = Vec::new();
    for a in analyzers {
        for f in load_tree(&a.tech(), Path::new(&dir)) {
            files.push((f.path.clone(), f.content.clone()));
        }
    }
    files.sort();
    files.dedup();
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    eprintln!("{} files, {} bytes", files.len(), bytes);
    let mut endpoints = 0;
    for pass in 0..passes {
        let mut per_file: Vec<(f64, String)> = Vec::new();
        let start = Instant::now();
        endpoints = 0;
        for (path, content) in &files {
            let t = Instant::now();
            let file = SourceFile::new(path.clone(), content.clone());
            for a in analyzers {
                if a.tech().files.iter().any(|g| {
                    portolan_plugin_sdk::testing::glob_matches(g, path.trim_start_matches("app/"))
                }) {
                    let mut out = Output::new();
                    a.analyze(&file, &mut out);
                    endpoints += out.into_parts().0.len();
                }
            }
            per_file.push((t.elapsed().as_secs_f64(), path.clone()));
        }
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "pass {pass}: {secs:.3} s, {:.2} MB/s, {endpoints} endpoints",
            bytes as f64 / secs / 1e6
        );
        if pass + 1 == passes {
            per_file.sort_by(|a, b| b.0.total_cmp(&a.0));
            for (s, p) in per_file.iter().take(8) {
                eprintln!("  {s:.4} s {p}");
            }
        }
    }
    let _ = endpoints;
}
