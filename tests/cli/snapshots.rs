//! Snapshots of whole outputs: the worked example (`testdata/eiffel/`) as a table and as JSON, the Markdown
//! fixture's table, the figures fixture's table and JSON, the contradictions fixture's table, JSON and
//! explanation, and a table with warnings.
//!
//! Regenerate with `INSTA_UPDATE=always cargo test --test cli -- snapshots::`, then read every
//! changed `tests/cli/snapshots/cli__snapshots__*.snap` file against docs/methodology.md and
//! docs/formats.md before keeping it.

use crate::util::ragcite;

/// `ragcite check <args>`: the exit code asserted, nothing on stderr, stdout.
fn stdout_of(args: &[&str], code: i32) -> String {
    ragcite(["check"]).args(args).stdout(code)
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

/// Figures as people write them (`testdata/figures/`): dates in two forms, cents, basis
/// points, digits in code, a label, a version, a sum, a percentage change, a duration in words.
#[test]
fn figures_table() {
    let stdout = stdout_of(
        &[
            "testdata/figures/answer.md",
            "testdata/figures/chunks.json",
            "--color",
            "never",
        ],
        1,
    );
    insta::assert_snapshot!("figures_table", stdout);
}

#[test]
fn figures_json() {
    let stdout = stdout_of(
        &[
            "testdata/figures/answer.md",
            "testdata/figures/chunks.json",
            "--format",
            "json",
        ],
        1,
    );
    insta::assert_snapshot!("figures_json", stdout);
}

/// Reversed facts (`testdata/contradictions/`): a negation in the chunk or in the sentence, a
/// direction against the chunk's figures, an exclusivity; and a sentence the same chunk
/// supports beside a negation about something else.
#[test]
fn contradictions_table() {
    let stdout = stdout_of(
        &[
            "testdata/contradictions/answer.md",
            "testdata/contradictions/chunks.json",
            "--color",
            "never",
        ],
        1,
    );
    insta::assert_snapshot!("contradictions_table", stdout);
}

#[test]
fn contradictions_json() {
    let stdout = stdout_of(
        &[
            "testdata/contradictions/answer.md",
            "testdata/contradictions/chunks.json",
            "--format",
            "json",
        ],
        1,
    );
    insta::assert_snapshot!("contradictions_json", stdout);
}

#[test]
fn contradictions_explain() {
    let stdout = crate::util::ragcite([
        "explain",
        "testdata/contradictions/answer.md",
        "testdata/contradictions/chunks.json",
    ])
    .stdout(0);
    insta::assert_snapshot!("contradictions_explain", stdout);
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
