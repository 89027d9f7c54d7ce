//! Native profiling harness for whole plugins (see [`profile_main`]).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::model::{Output, SourceFile};
use crate::Analyzer;

use super::{glob_matches, walk};

/// `main` of a plugin's profiling example (`examples/profile_<plugin>.rs`): `profile_<plugin> DIR tech1,tech2
/// [repeat]` runs the named analyzers (all of them when the list is `all`)
/// over every file below `DIR` their globs want, file by file like the
/// host's `analyze-many` (memos forgotten after each file), then `link`
/// on each technology's facts, `repeat` times. Prints the time per
/// technology and phase, the slowest files and the endpoint counts on
/// stderr. Build it with `--release` (and `CARGO_PROFILE_RELEASE_DEBUG=1`
/// for `perf`).
pub fn profile_main(analyzers: &[&dyn Analyzer]) {
    let args: Vec<String> = std::env::args().collect();
    let (Some(dir), Some(techs)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: profile_<plugin> DIR tech1,tech2|all [repeat]");
        std::process::exit(2);
    };
    let repeat: usize = args.get(3).and_then(|r| r.parse().ok()).unwrap_or(1);
    let chosen: Vec<&dyn Analyzer> = analyzers
        .iter()
        .copied()
        .filter(|a| techs == "all" || techs.split(',').any(|t| t == a.tech().id))
        .collect();
    let globs: Vec<Vec<String>> = chosen.iter().map(|a| a.tech().files.clone()).collect();
    let mut listed = Vec::new();
    walk(Path::new(dir), "", &mut listed);
    listed.sort();
    let mut files = Vec::new();
    let mut wanted: Vec<Vec<usize>> = vec![Vec::new(); chosen.len()];
    let mut bytes = 0usize;
    for (relative, path) in listed {
        let hits: Vec<usize> = (0..chosen.len())
            .filter(|&k| globs[k].iter().any(|g| glob_matches(g, &relative)))
            .collect();
        if hits.is_empty() {
            continue;
        }
        let content = std::fs::read(&path).unwrap_or_default();
        bytes += content.len();
        for k in hits {
            wanted[k].push(files.len());
        }
        files.push(SourceFile::new(
            relative,
            String::from_utf8_lossy(&content).into_owned(),
        ));
    }
    eprintln!("{} files, {} bytes", files.len(), bytes);
    let mut per_file: HashMap<usize, Duration> = HashMap::new();
    for round in 0..repeat {
        let mut outs: Vec<Output> = chosen.iter().map(|_| Output::new()).collect();
        let mut analyze_time = vec![Duration::ZERO; chosen.len()];
        let mut next = vec![0usize; chosen.len()];
        for (i, file) in files.iter().enumerate() {
            for k in 0..chosen.len() {
                if wanted[k].get(next[k]) == Some(&i) {
                    next[k] += 1;
                    let start = Instant::now();
                    chosen[k].analyze(file, &mut outs[k]);
                    let spent = start.elapsed();
                    analyze_time[k] += spent;
                    *per_file.entry(i).or_default() += spent;
                }
            }
            file.forget_memos();
        }
        for (k, out) in outs.into_iter().enumerate() {
            let (endpoints, facts) = out.into_parts();
            let start = Instant::now();
            let linked = chosen[k].link(&facts).map(|e| e.len()).unwrap_or(0);
            eprintln!(
                "round {round} {:<24} analyze {:>8.3} s  link {:>8.3} s  endpoints {} + {}",
                chosen[k].tech().id,
                analyze_time[k].as_secs_f64(),
                start.elapsed().as_secs_f64(),
                endpoints.len(),
                linked
            );
        }
    }
    let mut slow: Vec<(usize, Duration)> = per_file.into_iter().collect();
    slow.sort_by_key(|b| std::cmp::Reverse(b.1));
    for (i, spent) in slow.iter().take(15) {
        eprintln!(
            "{:>8.3} s  {:>9} bytes  {}",
            spent.as_secs_f64(),
            files[*i].content.len(),
            files[*i].path
        );
    }
}
