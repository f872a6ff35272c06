//! The Rust version that `Cargo.toml` asks for (`rust-version`) is what the code and its locked
//! dependencies need, and the README says the same. Clippy's `incompatible_msrv` lint (on in
//! `.ci/run`) checks the standard library calls against it; `.ci/run` also builds with that
//! toolchain when the machine has it.

use std::path::Path;
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

/// The package without the workspace's other member (the Python extension, `python/`): a copy
/// of its manifest and lock file beside links to its sources, in the target directory. `cargo
/// metadata` reads the manifest of every package it resolves, so on the whole workspace it
/// would need the Python extension's dependencies (PyO3), which `cargo test` never downloads:
/// run offline after the README's two commands, it failed on a fresh machine. The package's own
/// dependencies, normal and dev, are all on the machine once its tests are built.
fn package_alone() -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a temporary folder");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let alone = manifest.replace(", \"python\"]", "]");
    assert_ne!(
        alone, manifest,
        "Cargo.toml names python/ as a workspace member"
    );
    std::fs::write(dir.path().join("Cargo.toml"), alone).expect("the manifest's copy");
    std::fs::copy(root.join("Cargo.lock"), dir.path().join("Cargo.lock")).expect("Cargo.lock");
    // The other members' manifests, as they are.
    for member in ["crates/ragcite", "crates/xtask"] {
        let to = dir.path().join(member);
        std::fs::create_dir_all(&to).expect("the member's folder");
        std::fs::copy(root.join(member).join("Cargo.toml"), to.join("Cargo.toml"))
            .expect("the member's manifest");
    }
    // Cargo reads the targets' files only to find them: empty ones stand for the sources.
    for target in [
        "src/lib.rs",
        "src/main.rs",
        "crates/ragcite/src/lib.rs",
        "crates/ragcite/benches/ragcite.rs",
        "crates/xtask/src/main.rs",
    ] {
        let path = dir.path().join(target);
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("the target's folder");
        std::fs::write(path, "").expect("the target's file");
    }
    dir
}

/// Every `(name, version)` of Cargo.lock.
fn locked_packages() -> Vec<(String, String)> {
    let lock = include_str!("../../Cargo.lock");
    let lock: toml::Table = toml::from_str(lock).expect("Cargo.lock is TOML");
    lock["package"]
        .as_array()
        .expect("Cargo.lock lists packages")
        .iter()
        .map(|p| {
            (
                p["name"].as_str().expect("a name").to_string(),
                p["version"].as_str().expect("a version").to_string(),
            )
        })
        .collect()
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
    let package = package_alone();
    let output = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(package.path())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo metadata writes JSON");
    // Resolved offline from the copy of the lock file: the same versions, none added.
    let locked = locked_packages();
    for p in metadata["packages"].as_array().expect("packages") {
        let (name, version) = (p["name"].as_str().unwrap(), p["version"].as_str().unwrap());
        assert!(
            name == "ragcite" || locked.contains(&(name.to_string(), version.to_string())),
            "{name} {version} is not in Cargo.lock"
        );
    }
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
