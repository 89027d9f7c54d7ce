//! Profiling harness (native only): runs this plugin's analyzers over a
//! directory the way the host does (file by file, every requested
//! technology on the files its globs want, then `link`) and prints the time
//! spent per technology and the slowest files on stderr.
//!
//! `cargo run --release --example profile_jvm -- DIR tech1,tech2 [repeat]`

fn main() {
    portolan_plugin_sdk::testing::profile_main(portolan_plugin_jvm::portolan_analyzers());
}
