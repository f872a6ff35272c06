//! Snapshots of whole outputs: the worked example of SPEC.md as a table and as JSON, the Markdown
//! fixture's table, and a table with warnings.
//!
//! Regenerate with `INSTA_UPDATE=always cargo test --test cli -- snapshots::`, then read every
//! changed `tests/cli/snapshots/cli__snapshots__*.snap` file against SPEC.md before keeping it.

use assert_cmd::Command;

/// Runs `ragcite check <args>` from the crate root, without colour variables, 120 columns wide,
/// and returns its stdout after checking the exit code and that stderr is empty.
fn stdout_of(args: &[&str], code: i32) -> String {
    let output = Command::cargo_bin("ragcite")
        .expect("the ragcite binary is built")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .env("COLUMNS", "120")
        .arg("check")
        .args(args)
        .output()
        .expect("ragcite runs");
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert_eq!(
        output.status.code(),
        Some(code),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert_eq!(stderr, "");
    stdout
}

#[test]
fn worked_example_table() {
    let stdout = stdout_of(
        &[
            "testdata/eiffel/answer.md",
            "testdata/eiffel/chunks.json",
            "--color",
            "never",
        ],
        1,
    );
    insta::assert_snapshot!("worked_example_table", stdout);
}

#[test]
fn worked_example_json() {
    let stdout = stdout_of(
        &[
            "testdata/eiffel/answer.md",
            "testdata/eiffel/chunks.json",
            "--format",
            "json",
        ],
        1,
    );
    insta::assert_snapshot!("worked_example_json", stdout);
}

#[test]
fn markdown_table() {
    let stdout = stdout_of(
        &[
            "testdata/markdown/answer.md",
            "testdata/markdown/chunks.json",
            "--color",
            "never",
        ],
        1,
    );
    insta::assert_snapshot!("markdown_table", stdout);
}

#[test]
fn table_with_warnings() {
    let stdout = stdout_of(
        &[
            "testdata/warnings/answer.md",
            "testdata/warnings/chunks.json",
            "--color",
            "never",
        ],
        1,
    );
    insta::assert_snapshot!("table_with_warnings", stdout);
}
