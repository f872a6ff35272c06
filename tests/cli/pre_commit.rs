//! The pre-commit hooks (`.pre-commit-hooks.yaml`, `language: python`) install the placeholder
//! package of the root `setup.py`, whose one dependency is `ragcite==RAGCITE_VERSION`: the wheel
//! that holds the `ragcite` command. That version must be the one this commit builds, the
//! `[workspace.package] version` of `Cargo.toml` (which the wheel takes too), or a tag's hooks
//! would run another release of ragcite. `scripts/ci/pre-commit-hooks.sh` runs the hooks themselves.

/// The `version` of `[workspace.package]` in the root `Cargo.toml`.
fn workspace_version() -> &'static str {
    let manifest = include_str!("../../Cargo.toml");
    let (_, section) = manifest
        .split_once("\n[workspace.package]\n")
        .expect("Cargo.toml has a [workspace.package] table");
    section
        .lines()
        .take_while(|line| !line.starts_with('['))
        .find_map(|line| line.strip_prefix("version = "))
        .expect("[workspace.package] sets version")
        .trim_matches('"')
}

/// `RAGCITE_VERSION` in the root `setup.py`.
fn placeholder_version() -> &'static str {
    include_str!("../../setup.py")
        .lines()
        .find_map(|line| line.strip_prefix("RAGCITE_VERSION = "))
        .expect("setup.py sets RAGCITE_VERSION")
        .trim_matches('"')
}

#[test]
fn the_placeholder_package_pins_the_workspace_version() {
    let workspace = workspace_version();
    let pinned = placeholder_version();
    assert_eq!(
        pinned, workspace,
        "setup.py pins ragcite=={pinned} but Cargo.toml's [workspace.package] version is \
         {workspace}: set RAGCITE_VERSION = \"{workspace}\" in setup.py"
    );
}

#[test]
fn the_placeholder_package_requires_that_version_and_nothing_else() {
    let setup = include_str!("../../setup.py");
    assert!(
        setup.contains("    install_requires=[f\"ragcite=={RAGCITE_VERSION}\"],\n"),
        "setup.py's install_requires must be [f\"ragcite=={{RAGCITE_VERSION}}\"], the one \
         version the hooks run"
    );
}
