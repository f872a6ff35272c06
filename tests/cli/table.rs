//! The terminal table of `check` and `batch`: colour that reaches the terminal as escape sequences
//! (never as escaped text), control characters from the inputs neutralised with colour on, the
//! layout at every width from 60 to 200 columns, and a run in a pseudo-terminal that reports a
//! width of 0 (`script` from util-linux; those tests say so and pass when it is not installed).
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test cli -- table::`, then read
//! every changed `tests/cli/snapshots/cli__table__*.snap` file before keeping it. In the snapshots
//! of coloured output each ESC is written `␛`, so that the files read as text.

use crate::util::ragcite;

const EIFFEL: [&str; 2] = ["testdata/eiffel/answer.md", "testdata/eiffel/chunks.json"];
const SMALL: &str = "testdata/batch/small.jsonl";

/// The table of `ragcite <args>` laid out for `columns`: exit 1 (every input here fails its gate)
/// and nothing on stderr asserted.
fn failing_stdout(columns: u16, args: &[&str]) -> String {
    ragcite(args).columns(columns).stdout(1)
}

fn check(columns: u16, color: &str) -> String {
    failing_stdout(columns, &["check", EIFFEL[0], EIFFEL[1], "--color", color])
}

fn batch(columns: u16, color: &str) -> String {
    failing_stdout(columns, &["batch", SMALL, "--color", color])
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
        let stdout = ragcite(&args).columns(200).output().stdout;
        assert_only_colour_sequences(&stdout);
        assert!(!stdout.contains('\u{7}'), "a BEL reached the terminal");
        assert!(
            stdout.contains("\\u{1b}"),
            "the input's escapes are shown as text:\n{stdout}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Layout at the widths people use

/// The lines of the tables and of the sentence blocks: every line but the footer's (the
/// warnings, what decided, the summary), which are single lines however wide.
fn table_lines(output: &str) -> Vec<&str> {
    output
        .lines()
        .filter(|line| !line.starts_with("PASS") && !line.starts_with("FAIL"))
        .filter(|line| !line.starts_with("warning:") && !line.starts_with("decided with"))
        .collect()
}

/// `text` with its colour sequences removed: what the terminal shows.
fn shown(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\x1b') {
        out.push_str(&rest[..at]);
        let end = rest[at..].find('m').map_or(rest.len(), |m| at + m + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The tables fit `columns`, and each word that must never wrap is whole in them.
fn assert_laid_out(output: &str, columns: usize, words: &[&str]) {
    let plain = shown(output);
    let lines = table_lines(&plain);
    assert!(!lines.is_empty(), "no table:\n{plain}");
    for line in &lines {
        assert!(
            line.chars().count() <= columns,
            "a line wider than {columns}:\n{plain}"
        );
    }
    for word in words {
        assert!(
            lines.iter().any(|line| line.contains(word)),
            "`{word}` is not whole at {columns} columns:\n{plain}"
        );
    }
}

/// What `check` on the worked example must show whole at any width.
const CHECK_WORDS: [&str; 8] = [
    "unsupported-citation",
    "number-mismatch",
    "uncited-claim",
    "supported",
    "cited-but-not-supporting",
    "relevant-but-uncited",
    "1:159",
    "1.00",
];

/// What `batch` on the small transcript must show whole at any width.
const BATCH_WORDS: [&str; 5] = [
    "tower-built",
    "bad record",
    "1 unsupported-citation",
    "1 number-mismatch,",
    "1 uncited-claim",
];

/// The worked example's sentences, each of which every width must show in full.
const EIFFEL_SENTENCES: [&str; 4] = [
    "The Eiffel Tower is 330 metres tall [1].",
    "It was completed in 1888 for the World's Fair [2].",
    "It was designed by the engineering company of Gustave Eiffel [3].",
    "Around 7 million people visit it every year.",
];

/// The text of the sentence cells or blocks, read in order: each table row's sentence cell (the
/// seventh column), or each block's indented lines, joined by spaces.
fn sentences_shown(output: &str) -> String {
    let mut words = Vec::new();
    for line in output.lines() {
        if line.starts_with('│') {
            let cells: Vec<&str> = line.split(['│', '┆']).collect();
            if cells.len() == 10 {
                words.push(cells[7].trim());
            }
        } else if line.starts_with("   ") && !line.trim_start().starts_with("- ") {
            words.push(line.trim());
        }
    }
    words.join(" ")
}

#[test]
fn every_width_from_60_to_200_fits_and_wraps_no_fixed_word() {
    for columns in 60..=200 {
        let output = check(columns, "never");
        let shown = sentences_shown(&output);
        for sentence in EIFFEL_SENTENCES {
            assert!(
                shown.contains(sentence),
                "at {columns} columns, the sentence {sentence:?} is not shown whole:\n{output}"
            );
        }
        assert_laid_out(&output, usize::from(columns), &CHECK_WORDS);
        assert_laid_out(&batch(columns, "never"), usize::from(columns), &BATCH_WORDS);
    }
}

/// A snapshot of a coloured output shows each ESC as `␛`, so that the file reads as text.
fn snapshot_text(output: &str) -> String {
    output.replace('\x1b', "␛")
}

#[test]
fn check_tables_at_60_80_100_and_200_columns() {
    for columns in [60, 80, 100, 200] {
        for color in ["never", "always"] {
            let output = check(columns, color);
            if color == "always" {
                assert_real_colour(&output);
            } else {
                assert!(!output.contains('\x1b'), "{output}");
            }
            assert_laid_out(&output, usize::from(columns), &CHECK_WORDS);
            insta::assert_snapshot!(
                format!("check_{columns}_colour_{color}"),
                snapshot_text(&output)
            );
        }
    }
}

#[test]
fn batch_tables_at_60_80_100_and_200_columns() {
    for columns in [60, 80, 100, 200] {
        for color in ["never", "always"] {
            let output = batch(columns, color);
            if color == "always" {
                assert_real_colour(&output);
            } else {
                assert!(!output.contains('\x1b'), "{output}");
            }
            assert_laid_out(&output, usize::from(columns), &BATCH_WORDS);
            insta::assert_snapshot!(
                format!("batch_{columns}_colour_{color}"),
                snapshot_text(&output)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A pseudo-terminal (script from util-linux)

/// Runs `ragcite check` on the worked example inside a pseudo-terminal made by `script`, after
/// `stty cols <tty_columns>`, with `COLUMNS` set; returns its output with the terminal's line
/// ends made `\n`. `None` when `script` is not installed.
fn check_in_a_pseudo_terminal(tty_columns: u16, columns: u16) -> Option<String> {
    let run = ragcite(["check", EIFFEL[0], EIFFEL[1]]).columns(columns);
    let (code, stdout) = crate::util::in_a_pseudo_terminal(&run, tty_columns)?;
    assert_eq!(code, Some(1), "{stdout}");
    Some(stdout)
}

/// The widest line of the tables, as the terminal shows it.
fn widest(output: &str) -> usize {
    let plain = shown(output);
    table_lines(&plain)
        .iter()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
}

/// A pseudo-terminal that reports 0 columns (script, CI runners, pre-commit) gets a table laid
/// out for `COLUMNS`, not one squeezed to a character a column; it is a terminal, so colour is
/// on, and reaches it as escape sequences.
#[test]
fn a_terminal_of_width_zero_is_laid_out_for_columns() {
    let Some(output) = check_in_a_pseudo_terminal(0, 90) else {
        return;
    };
    assert_laid_out(&output, 90, &CHECK_WORDS);
    assert!(widest(&output) > 80, "not laid out for 90:\n{output}");
    assert!(output.lines().count() < 40, "{output}");
    assert_real_colour(&output);
}

/// A terminal that reports its width wins over `COLUMNS`.
#[test]
fn a_terminal_width_wins_over_columns() {
    let Some(output) = check_in_a_pseudo_terminal(110, 200) else {
        return;
    };
    assert_laid_out(&output, 110, &CHECK_WORDS);
    assert!(widest(&output) > 100, "not laid out for 110:\n{output}");
}

/// A megabyte-long word and number, in the answer, the chunk and the chunk's id, give a table
/// of bounded size: every cell is cut before layout, whose cost grows faster than a cell's
/// length (a 100 kB word took seconds, a 10 MB one did not finish). The timeout only bounds a
/// hang.
#[test]
fn a_megabyte_word_gives_a_small_table() {
    let word = "x".repeat(1 << 20);
    let number = "9".repeat(1 << 20);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let answer = dir.path().join("answer.md");
    std::fs::write(
        &answer,
        format!("The tower is {word} tall and {number} metres high [1].\n"),
    )
    .unwrap();
    let chunks = dir.path().join("chunks.json");
    std::fs::write(
        &chunks,
        serde_json::json!([
            {"id": "1", "text": format!("The tower {word}y is 330 metres high.")},
            {"id": word, "text": format!("Another {word}.")},
        ])
        .to_string(),
    )
    .unwrap();
    let out = ragcite(["check", answer.to_str().unwrap(), chunks.to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(120))
        .output();
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(out.stdout.len() < 20_000, "{} bytes", out.stdout.len());
    assert!(out.stdout.contains("missing numbers:"), "{}", out.stdout);
    assert!(
        out.stdout.contains("9…"),
        "the number is cut: {}",
        out.stdout
    );
    assert!(
        out.stdout.contains("x…"),
        "the word and the id are cut: {}",
        out.stdout
    );
}
