//! `scripts/fuzz`: a fuzz campaign over the plugin bundle (see `lib.rs`).
//!
//! ```text
//! portolan-fuzz [--seed N] [--mutants N] [--from N] [--trace] [--time SECS] [--jobs N]
//!               [--family a,b] [--hang SECS] [--sweep STRIDE]
//!               [--bin PATH --bin-sample N]
//! ```
//! Exit status 1 on any panic, hang or binary failure.

use std::path::PathBuf;
use std::time::Duration;

use portolan_fuzz::{check_binary, fuzz, select, sweep, Config};

fn main() {
    let mut cfg = Config {
        progress: 1000,
        ..Config::default()
    };
    let mut sweep_stride: Option<usize> = None;
    let mut bin: Option<PathBuf> = None;
    let mut bin_sample = 3usize;
    let mut probe: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| usage(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--seed" => cfg.seed = num(&value()),
            "--mutants" => cfg.mutants = num(&value()),
            "--from" => cfg.from = num(&value()),
            "--trace" => cfg.trace = true,
            "--time" => cfg.max_time = Some(Duration::from_secs(num(&value()))),
            "--jobs" => cfg.jobs = num(&value()) as usize,
            "--hang" => cfg.hang = Duration::from_secs(num(&value())),
            "--family" => {
                cfg.families = value()
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            }
            "--sweep" => sweep_stride = Some(num(&value()) as usize),
            "--bin" => bin = Some(PathBuf::from(value())),
            "--bin-sample" => bin_sample = num(&value()) as usize,
            "--out" => cfg.out_dir = PathBuf::from(value()),
            "--probe" => probe = Some(PathBuf::from(value())),
            "-h" | "--help" => usage(""),
            other => usage(&format!("unknown argument {other}")),
        }
    }
    if let Some(path) = probe {
        // CPU time of every analyzer of the families that wants the file.
        let content =
            String::from_utf8_lossy(&std::fs::read(&path).expect("readable")).into_owned();
        let display = format!(
            "app/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let file = portolan_plugin_sdk::SourceFile::new(display.clone(), content);
        for family in select(&cfg.families) {
            for a in portolan_fuzz::wanting(&family, &display) {
                if let Err(e) = portolan_fuzz::run_file(&[a], &file) {
                    println!("PANIC {e}");
                }
                println!(
                    "{:>10.1} ms {}",
                    portolan_fuzz::cost(a, &file, 1).as_secs_f64() * 1e3,
                    a.tech().id
                );
            }
        }
        return;
    }
    let mut failed = false;
    eprintln!(
        "fuzz: seed {}, {} mutants, {} jobs, families: {}",
        cfg.seed,
        cfg.mutants,
        cfg.jobs,
        if cfg.families.is_empty() {
            "all".to_string()
        } else {
            cfg.families.join(",")
        }
    );
    if cfg.mutants > 0 {
        let report = fuzz(&cfg);
        println!("{}", report.summary());
        failed |= !report.failures.is_empty();
    }
    if let Some(stride) = sweep_stride {
        let (runs, failures) = sweep(&select(&cfg.families), stride, cfg.hang);
        println!(
            "multi-byte sweep (stride {stride}): {runs} mutants, {} failures",
            failures.len()
        );
        for f in &failures {
            println!("  {f}");
        }
        failed |= !failures.is_empty();
    }
    if let Some(bin) = bin {
        match check_binary(
            &bin,
            &select(&cfg.families),
            cfg.seed,
            bin_sample,
            Duration::from_secs(600),
        ) {
            Ok(s) => println!("binary: {s}"),
            Err(e) => {
                println!("binary: FAILED {e}");
                failed = true;
            }
        }
    }
    std::process::exit(i32::from(failed));
}

fn num(s: &str) -> u64 {
    s.parse()
        .unwrap_or_else(|_| usage(&format!("not a number: {s}")))
}

fn usage(problem: &str) -> ! {
    if !problem.is_empty() {
        eprintln!("portolan-fuzz: {problem}");
    }
    eprintln!(
        "usage: portolan-fuzz [--seed N] [--mutants N] [--time SECS] [--jobs N] [--family a,b]\n\
         \x20                    [--hang SECS] [--sweep STRIDE] [--bin PATH --bin-sample N] [--out DIR]"
    );
    std::process::exit(2);
}
