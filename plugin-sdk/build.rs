//! Reads the interface version from the `package` line of `wit/analyzer.wit`
//! (the one place it is written) and hands it to the crate as
//! `PORTOLAN_INTERFACE_VERSION`. Also checks that the crate's own version
//! has the same major.minor: the SDK is versioned with the interface.

fn main() {
    let wit = std::path::Path::new("wit").join("analyzer.wit");
    println!("cargo:rerun-if-changed={}", wit.display());
    let text = std::fs::read_to_string(&wit)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", wit.display()));
    let version = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("package portolan:analyzer@"))
        .and_then(|rest| rest.strip_suffix(';'))
        .unwrap_or_else(|| {
            panic!(
                "{} has no `package portolan:analyzer@X.Y.Z;` line",
                wit.display()
            )
        });
    let crate_version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let minor = |v: &str| v.split('.').take(2).collect::<Vec<_>>().join(".");
    if minor(version) != minor(&crate_version) {
        panic!(
            "portolan-plugin-sdk {crate_version} must carry the interface's major.minor ({version}, {})",
            wit.display()
        );
    }
    println!("cargo:rustc-env=PORTOLAN_INTERFACE_VERSION={version}");
}
