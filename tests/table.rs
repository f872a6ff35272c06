//! The terminal table of `check` and `batch`: colour that reaches the terminal as escape
//! sequences (never as escaped text), control characters from the inputs neutralised with colour
//! on, and the layout at the widths people use.
//!
//! Every command runs from the crate root with `--isolated` (no configuration file can change
//! the result), the colour variables removed and `COLUMNS` set by the test.
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test table`, then read every
//! changed `tests/snapshots/table__*.snap` file before keeping it.

use assert_cmd::Command;

const EIFFEL: [&str; 2] = ["testdata/eiffel/answer.md", "testdata/eiffel/chunks.json"];
const SMALL: &str = "testdata/batch/small.jsonl";

/// `ragcite <args> --isolated`, from the crate root, without colour variables, `columns` wide.
fn ragcite(columns: u16, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("ragcite").expect("the ragcite binary is built");
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .env("COLUMNS", columns.to_string())
        .args(args)
        .arg("--isolated");
    cmd
}

/// Runs the command, asserts exit code 1 (every input here fails its gate) and an empty stderr,
/// and returns stdout.
fn failing_stdout(mut cmd: Command) -> String {
    let output = cmd.output().expect("ragcite runs");
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert_eq!(output.status.code(), Some(1), "{stdout}\n{stderr}");
    assert_eq!(stderr, "", "nothing on stderr");
    stdout
}

fn check(columns: u16, color: &str) -> String {
    failing_stdout(ragcite(
        columns,
        &["check", EIFFEL[0], EIFFEL[1], "--color", color],
    ))
}

fn batch(columns: u16, color: &str) -> String {
    failing_stdout(ragcite(columns, &["batch", SMALL, "--color", color]))
}

/// Every escape sequence in `text` is a colour (SGR) sequence: `ESC [ <digits and ;> m`.
fn assert_only_colour_sequences(text: &str) {
    for (at, _) in text.match_indices('\x1b') {
        let rest = &text[at + 1..];
        let body: String = rest
            .chars()
            .skip(1)
            .take_while(|c| c.is_ascii_digit() || *c == ';')
            .collect();
        let sequence_end = rest.chars().nth(1 + body.len());
        assert!(
            rest.starts_with('[') && sequence_end == Some('m'),
            "an escape sequence that is no colour at byte {at}: {:?}",
            &rest[..rest.len().min(12)]
        );
    }
}

/// Colour reaches the terminal: real ESC bytes, and not one written out as text.
fn assert_real_colour(text: &str) {
    assert!(text.contains('\x1b'), "no escape sequence at all:\n{text}");
    assert!(
        !text.contains("\\u{1b}"),
        "colour written as text instead of applied:\n{text}"
    );
    assert_only_colour_sequences(text);
}

#[test]
fn batch_colour_is_applied_not_escaped() {
    let table = batch(120, "always");
    assert_real_colour(&table);
    // The coloured words are still whole words on their line.
    assert!(
        table.contains("\x1b[38;5;1mbad record\x1b[39m"),
        "{table:?}"
    );
}

#[test]
fn check_colour_is_applied_not_escaped() {
    let table = check(120, "always");
    assert_real_colour(&table);
    assert!(
        table.contains("\x1b[38;5;1munsupported-citation\x1b[39m"),
        "{table:?}"
    );
}

/// An answer, a chunk id and a record id that hold escape sequences (retitle the terminal,
/// erase a line, hide text) are written as visible `\u{1b}` text even when colour is on: the
/// only real escape sequences are the table's own colours.
#[test]
fn control_characters_from_the_inputs_are_neutralised_with_colour_on() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(
        dir.path().join("answer.md"),
        "The tower \u{1b}]0;pwned\u{7} is 330 metres \u{1b}[2K tall [t\u{1b}[8m1].\nParis is nice.\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("chunks.json"),
        r#"[{"id": "t\u001b[8m1", "text": "The tower \u001b[8m is 330 metres tall."}]"#,
    )
    .unwrap();
    std::fs::write(
        dir.path().join("records.jsonl"),
        "{\"id\": \"r\\u001b]0;pwned\\u0007\", \"answer\": \"The tower \\u001b[2K is 1 metre tall [1].\", \"contexts\": [\"The tower is 330 metres tall.\"]}\n",
    )
    .unwrap();
    let answer = dir.path().join("answer.md");
    let chunks = dir.path().join("chunks.json");
    let records = dir.path().join("records.jsonl");
    for args in [
        vec![
            "check",
            answer.to_str().unwrap(),
            chunks.to_str().unwrap(),
            "--color",
            "always",
        ],
        vec!["batch", records.to_str().unwrap(), "--color", "always"],
    ] {
        let out = ragcite(200, &args).output().expect("ragcite runs");
        let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
        assert_only_colour_sequences(&stdout);
        assert!(!stdout.contains('\u{7}'), "a BEL reached the terminal");
        assert!(
            stdout.contains("\\u{1b}"),
            "the input's escapes are shown as text:\n{stdout}"
        );
    }
}
