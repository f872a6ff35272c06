//! `--format concise` and `--format full`: the findings as linters write them, for a Markdown
//! answer, a JSON response and an SSE stream, with and without colour; the narrow widths; and
//! text from the inputs escaped in the snippets.
//!
//! Regenerate with `INSTA_UPDATE=always cargo test --test cli -- diagnostics::`, then read every
//! changed `tests/cli/snapshots/cli__diagnostics__*.snap` file against docs/formats.md before
//! keeping it.

use crate::util::{Tree, ragcite};

/// The three answers: (name, answer, chunks).
const ANSWERS: [(&str, &str, &str); 3] = [
    (
        "markdown",
        "testdata/eiffel/answer.md",
        "testdata/eiffel/chunks.json",
    ),
    (
        "json_response",
        "testdata/responses/openai-chat.json",
        "testdata/responses/chunks.json",
    ),
    (
        "sse_stream",
        "testdata/responses/openai-chat-stream.sse",
        "testdata/responses/chunks.json",
    ),
];

/// A snapshot of a coloured output shows each ESC as `␛`, so that the file reads as text.
fn snapshot_text(output: &str) -> String {
    output.replace('\x1b', "␛")
}

fn run(answer: &str, chunks: &str, format: &str, color: &str, columns: u16) -> String {
    let output = ragcite([
        "check", answer, chunks, "--format", format, "--color", color,
    ])
    .columns(columns)
    .output();
    assert!(
        matches!(output.code, Some(0 | 1)),
        "{format} of {answer}: {}",
        output.stderr
    );
    assert!(output.stderr.is_empty(), "{}", output.stderr);
    output.stdout
}

#[test]
fn concise_and_full_for_markdown_a_json_response_and_a_stream() {
    for (name, answer, chunks) in ANSWERS {
        for format in ["concise", "full"] {
            for color in ["never", "always"] {
                let output = run(answer, chunks, format, color, 100);
                if color == "never" {
                    assert!(!output.contains('\x1b'), "{output}");
                } else {
                    assert!(output.contains("\x1b["), "no colour: {output}");
                }
                insta::assert_snapshot!(
                    format!("{name}_{format}_colour_{color}"),
                    snapshot_text(&output)
                );
            }
        }
    }
}

#[test]
fn concise_lines_name_the_file_line_and_column_of_each_finding() {
    let output = run(ANSWERS[0].1, ANSWERS[0].2, "concise", "never", 100);
    let lines: Vec<&str> = output.lines().collect();
    assert!(lines[0].starts_with("testdata/eiffel/answer.md:1:42: number-mismatch 1888 "));
    assert!(lines[1].starts_with("testdata/eiffel/answer.md:1:93: unsupported-citation "));
    assert!(lines[2].starts_with("testdata/eiffel/answer.md:1:159: uncited-claim "));
    assert_eq!(
        lines[3],
        "decided with threshold 0.50 · model shipped · language en · no config (--isolated)"
    );
    assert!(lines[4].starts_with("FAIL · 4 sentences"));
    assert_eq!(lines.len(), 5);
}

#[test]
fn full_underlines_the_sentence_and_what_decided_within_the_width() {
    for columns in [60u16, 80, 100] {
        let output = run(ANSWERS[0].1, ANSWERS[0].2, "full", "never", columns);
        // The renderer keeps an underlined span whole, wider than a narrow terminal if it must;
        // at 100 columns everything fits.
        if columns == 100 {
            for line in output.lines().filter(|l| !l.starts_with("FAIL")) {
                assert!(
                    line.chars().count() <= usize::from(columns) || line.starts_with("error"),
                    "a line wider than {columns}: {line:?}\n{output}"
                );
            }
        }
        // The figure no chunk holds is underlined under where it stands in the line.
        let lines: Vec<&str> = output.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("1888 for the World"))
            .expect("the sentence's line");
        let column = lines[at].find("1888").unwrap();
        assert_eq!(&lines[at + 1][column..column + 4], "----", "{output}");
        assert!(
            output.contains(" --> testdata/eiffel/answer.md:1:42"),
            "{output}"
        );
        assert!(
            output.contains("note: chunk 2, the passage that decided:"),
            "{output}"
        );
        assert!(
            output.contains("help: chunk 4 holds more of it"),
            "{output}"
        );
    }
}

#[test]
fn text_from_the_inputs_is_escaped_in_the_snippets() {
    let dir = Tree::new();
    let answer = dir.write(
        "answer.md",
        "Paris has \u{1b}]0;pwned\u{7} 2.1 million people \u{202e}[1]. It has 99 bridges [1].",
    );
    let chunks = dir.write(
        "chunks.json",
        r#"[{"id": "1", "text": "Paris has a population of about 2.1 million inhabitants."}]"#,
    );
    for format in ["full", "concise"] {
        let output = run(
            answer.to_str().unwrap(),
            chunks.to_str().unwrap(),
            format,
            "never",
            100,
        );
        assert!(!output.contains('\u{1b}'), "{output}");
        assert!(!output.contains('\u{7}'), "{output}");
        assert!(!output.contains('\u{202e}'), "{output}");
        assert!(output.contains("99"), "{output}");
    }
}

#[test]
fn a_responses_positions_are_those_of_its_text_inside_the_file() {
    for (_, answer, chunks) in &ANSWERS[1..] {
        let file = std::fs::read_to_string(answer).unwrap();
        let lines: Vec<&str> = file.lines().collect();
        for format in ["concise", "full"] {
            let output = run(answer, chunks, format, "never", 100);
            let mut seen = 0;
            for line in output.lines() {
                let Some(at) = line.find(&format!("{answer}:")) else {
                    continue;
                };
                let rest = &line[at + answer.len() + 1..];
                let mut parts = rest.split(|c: char| !c.is_ascii_digit());
                let row: usize = parts.next().unwrap().parse().unwrap();
                let column: usize = parts.next().unwrap().parse().unwrap();
                let there: String = lines[row - 1].chars().skip(column - 1).take(2).collect();
                assert!(
                    ["It", "Ar"].contains(&there.as_str()),
                    "{format} of {answer}: {row}:{column} holds {there:?}"
                );
                seen += 1;
            }
            assert_eq!(seen, 3, "{format} of {answer}:\n{output}");
        }
    }
}
