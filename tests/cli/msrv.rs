//! The Rust version that `Cargo.toml` asks for (`rust-version`) is what the code and its locked
//! dependencies need, and the README says the same. Clippy's `incompatible_msrv` lint (on in
//! `.ci/run`) checks the standard library calls against it; `.ci/run` also builds with that
//! toolchain when the machine has it.

use std::process::Command;

/// `major.minor` of a version like `1.88` or `1.85.0`.
fn major_minor(version: &str) -> (u32, u32) {
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

fn declared() -> String {
    let manifest = include_str!("../../Cargo.toml");
    let line = manifest
        .lines()
        .find(|l| l.starts_with("rust-version"))
        .expect("Cargo.toml sets rust-version");
    line.split('"')
        .nth(1)
        .expect("a quoted version")
        .to_string()
}

#[test]
fn rust_version_covers_every_locked_dependency() {
    let declared = declared();
    // The dependencies of this platform: the others' sources are never downloaded to build.
    let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()))
        .arg("-vV")
        .output()
        .expect("rustc -vV runs");
    let host = String::from_utf8_lossy(&rustc.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata writes JSON");
    let needs: Vec<(String, String)> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter_map(|p| {
            Some((
                p["name"].as_str()?.to_string(),
                p["rust_version"].as_str()?.to_string(),
            ))
        })
        .filter(|(name, _)| name != "ragcite")
        .collect();
    let highest = needs
        .iter()
        .max_by_key(|(_, version)| major_minor(version))
        .expect("some dependency declares its rust-version");
    assert!(
        major_minor(&declared) >= major_minor(&highest.1),
        "rust-version {declared} is older than {} needs ({}): raise it in Cargo.toml and the README",
        highest.0,
        highest.1
    );
}

#[test]
fn the_readme_states_the_same_rust_version() {
    let readme = include_str!("../../README.md");
    let declared = declared();
    assert!(
        readme.contains(&format!("Rust {declared} or newer")),
        "the README should say `Rust {declared} or newer`, as Cargo.toml's rust-version does"
    );
}
