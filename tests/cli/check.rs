//! `ragcite check` on the real binary: exit codes, standard output and standard error for the
//! worked example, standard input, determinism, colour, input and usage errors, help, version
//! and `explain`, every chunk format, Markdown answers, the gates, unknown markers, the
//! threshold, warnings and a closed pipe.

use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::util::{Run, path, ragcite, strings};

const EIFFEL_ANSWER: &str = "testdata/eiffel/answer.md";
const EIFFEL_CHUNKS: &str = "testdata/eiffel/chunks.json";
const FORMATS_ANSWER: &str = "testdata/formats/answer.md";
const FORMATS_CHUNKS: &str = "testdata/formats/objects.json";
const MARKDOWN_ANSWER: &str = "testdata/markdown/answer.md";
const MARKDOWN_CHUNKS: &str = "testdata/markdown/chunks.json";
const WEAK_ANSWER: &str = "testdata/weak/answer.md";
const WEAK_CHUNKS: &str = "testdata/weak/chunks.json";

const ESC: &str = "\x1b[";

/// `ragcite check <args>`.
fn check(args: &[&str]) -> Run {
    ragcite(["check"]).args(args)
}

/// `check <args> --format json`: the exit code asserted, nothing on stderr, the document.
fn check_json(args: &[&str], code: i32) -> Value {
    check(args).args(["--format", "json"]).json(code)
}

/// One field of every sentence, as strings.
fn sentence_field(doc: &Value, field: &str) -> Vec<String> {
    doc["result"]["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| {
            s[field]
                .as_str()
                .unwrap_or_else(|| panic!("{field} of {s}"))
                .to_string()
        })
        .collect()
}

fn verdicts(doc: &Value) -> Vec<String> {
    sentence_field(doc, "verdict")
}

fn chunk_statuses(doc: &Value) -> Vec<String> {
    doc["result"]["chunks"]
        .as_array()
        .expect("chunks")
        .iter()
        .map(|c| c["status"].as_str().expect("status").to_string())
        .collect()
}

fn failing_limits(doc: &Value) -> Vec<String> {
    doc["gate"]["failures"]
        .as_array()
        .expect("gate.failures")
        .iter()
        .map(|f| f["limit"].as_str().expect("limit").to_string())
        .collect()
}

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

/// An input error (one `ragcite: error: ` line, exit 2, see `Output::input_error`) that names
/// the file and says `what`.
#[track_caller]
fn assert_input_error(run: Run, file: &str, what: &str) {
    let line = run.input_error();
    assert!(line.contains(file), "names {file}: {line:?}");
    assert!(line.contains(what), "says {what:?}: {line:?}");
}

/// A usage error (exit 2, nothing on stdout, no panic) that says `needle`.
#[track_caller]
fn assert_usage_error(run: Run, needle: &str) {
    let stderr = run.usage_error();
    assert!(stderr.contains(needle), "says {needle:?}: {stderr}");
}

/// A fixture's bytes.
fn read(relative: &str) -> Vec<u8> {
    std::fs::read(path(relative)).expect("the fixture exists")
}

// ---------------------------------------------------------------------------------------------
// The worked example (testdata/eiffel/)

#[test]
fn worked_example_fails_with_exit_code_1_and_a_table() {
    let table = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--color", "never"]).stdout(1);
    for part in [
        "number-mismatch",
        "missing numbers: 1888",
        "suggested citation: 4",
        "relevant-but-uncited",
    ] {
        assert!(table.contains(part), "{part}: {table}");
    }
    assert!(table.starts_with('┌'), "{table}");
}

#[test]
fn worked_example_json_verdicts_statuses_and_gate() {
    let doc = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS], 1);
    assert_eq!(doc["schemaVersion"], "3.5");
    assert_eq!(
        verdicts(&doc),
        [
            "supported",
            "number-mismatch",
            "unsupported-citation",
            "uncited-claim"
        ]
    );
    let sentences = &doc["result"]["sentences"];
    assert_eq!(
        strings(&sentences[0]["missingNumbers"]),
        Vec::<String>::new()
    );
    assert_eq!(strings(&sentences[1]["missingNumbers"]), ["1888"]);
    assert_eq!(sentences[2]["suggestedCitation"], "4");
    assert_eq!(sentences[0]["suggestedCitation"], Value::Null);
    assert_eq!(sentences[3]["suggestedCitation"], Value::Null);
    assert_eq!(strings(&sentences[3]["cited"]), Vec::<String>::new());
    assert_eq!(
        sentence_field(&doc, "sentence"),
        [
            "The Eiffel Tower is 330 metres tall [1].",
            "It was completed in 1888 for the World's Fair [2].",
            "It was designed by the engineering company of Gustave Eiffel [3].",
            "Around 7 million people visit it every year.",
        ]
    );
    assert_eq!(
        chunk_statuses(&doc),
        [
            "used",
            "used",
            "cited-but-not-supporting",
            "relevant-but-uncited",
            "unused"
        ]
    );
    assert_eq!(doc["gate"]["passed"], false);
    assert_eq!(
        failing_limits(&doc),
        ["max-uncited", "max-number-mismatch", "max-unsupported"]
    );
    for failure in doc["gate"]["failures"].as_array().unwrap() {
        assert_eq!(failure["found"], 1, "{failure}");
        assert_eq!(failure["allowed"], 0, "{failure}");
        assert_eq!(failure["over"], 1, "{failure}");
    }
    assert_eq!(doc["result"]["unknownMarkers"], serde_json::json!([]));
    assert_eq!(doc["inputs"]["answer"]["path"], EIFFEL_ANSWER);
    assert_eq!(doc["inputs"]["chunks"]["path"], EIFFEL_CHUNKS);
    assert_eq!(doc["inputs"]["chunks"]["format"], "json");
}

#[test]
fn worked_example_chunk_ids_and_numbers_are_strings() {
    let doc = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS], 1);
    let sentence = &doc["result"]["sentences"][0];
    assert_eq!(sentence["markers"], serde_json::json!(["1"]));
    assert_eq!(sentence["cited"], serde_json::json!(["1"]));
    assert_eq!(sentence["checkWorthy"], serde_json::json!(["330"]));
    assert_eq!(sentence["bestChunk"], "1");
    assert_eq!(doc["result"]["chunks"][4]["id"], "5");
    // `7 million` is one number, scale word included.
    assert_eq!(
        doc["result"]["sentences"][3]["checkWorthy"],
        serde_json::json!(["7 million"])
    );
}

#[test]
fn worked_example_passes_when_the_limits_equal_the_counts() {
    let table = check(&[
        EIFFEL_ANSWER,
        EIFFEL_CHUNKS,
        "--color",
        "never",
        "--max-uncited",
        "1",
        "--max-number-mismatch",
        "1",
        "--max-unsupported",
        "1",
    ])
    .stdout(0);
    assert!(table.contains("PASS"), "{table}");
}

#[test]
fn each_limit_one_below_its_count_fails_alone() {
    let limits = ["max-uncited", "max-number-mismatch", "max-unsupported"];
    for failing in limits {
        let mut args = vec![EIFFEL_ANSWER.to_string(), EIFFEL_CHUNKS.to_string()];
        for limit in limits {
            args.push(format!("--{limit}"));
            args.push(if limit == failing { "0" } else { "1" }.to_string());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let doc = check_json(&args, 1);
        assert_eq!(doc["gate"]["passed"], false, "{failing}");
        assert_eq!(failing_limits(&doc), [failing]);
    }
}

// ---------------------------------------------------------------------------------------------
// Standard input

#[test]
fn answer_from_stdin_gives_the_same_table_as_from_the_file() {
    let from_file = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--color", "never"]).output();
    let from_stdin = check(&["-", EIFFEL_CHUNKS, "--color", "never"])
        .stdin(read(EIFFEL_ANSWER))
        .output();
    assert_eq!(from_file.code, Some(1));
    assert_eq!(from_stdin.code, Some(1));
    assert_eq!(from_stdin.stderr, "");
    assert!(from_file.stdout.contains("uncited-claim"));
    assert_eq!(from_stdin.stdout, from_file.stdout);
}

#[test]
fn answer_from_stdin_gives_the_same_json_result_as_from_the_file() {
    let from_file = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS], 1);
    let from_stdin = check(&["-", EIFFEL_CHUNKS, "--format", "json"])
        .stdin(read(EIFFEL_ANSWER))
        .json(1);
    assert_eq!(from_stdin["result"], from_file["result"]);
    assert_eq!(from_stdin["gate"], from_file["gate"]);
    assert_eq!(from_stdin["inputs"]["answer"]["path"], "<stdin>");
    assert_eq!(from_stdin["inputs"]["chunks"]["path"], EIFFEL_CHUNKS);
}

#[test]
fn chunks_from_stdin_give_the_same_output_as_from_the_file() {
    let table_file = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--color", "never"]).output();
    let table_stdin = check(&[EIFFEL_ANSWER, "-", "--color", "never"])
        .stdin(read(EIFFEL_CHUNKS))
        .output();
    assert_eq!(table_stdin.code, Some(1));
    assert_eq!(table_stdin.stdout, table_file.stdout);

    let from_file = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS], 1);
    // Without a `.json` name, the chunks are recognised as JSON by their content.
    let from_stdin = check(&[EIFFEL_ANSWER, "-", "--format", "json"])
        .stdin(read(EIFFEL_CHUNKS))
        .json(1);
    assert_eq!(from_stdin["result"], from_file["result"]);
    assert_eq!(from_stdin["inputs"]["chunks"]["path"], "<stdin>");
    assert_eq!(from_stdin["inputs"]["chunks"]["format"], "json");
}

#[test]
fn json_lines_from_stdin_are_recognised_by_content() {
    let doc = check(&[FORMATS_ANSWER, "-", "--format", "json"])
        .stdin(read("testdata/formats/lines.jsonl"))
        .json(1);
    assert_eq!(doc["inputs"]["chunks"]["format"], "json-lines");
    assert_eq!(doc["result"]["chunks"].as_array().unwrap().len(), 3);
}

#[test]
fn both_inputs_from_stdin_is_a_usage_error() {
    let line = check(&["-", "-"])
        .stdin("The tower is tall [1].")
        .input_error();
    assert!(line.contains("standard input"), "{line:?}");
}

// ---------------------------------------------------------------------------------------------
// Determinism

#[test]
fn two_runs_give_byte_identical_output() {
    for format in ["table", "json"] {
        for (answer, chunks) in [
            (EIFFEL_ANSWER, EIFFEL_CHUNKS),
            (MARKDOWN_ANSWER, MARKDOWN_CHUNKS),
            (FORMATS_ANSWER, "testdata/formats/bracket.txt"),
        ] {
            let args = [answer, chunks, "--format", format, "--color", "never"];
            let first = check(&args).output();
            let second = check(&args).output();
            assert!(!first.stdout.is_empty());
            assert_eq!(first.stdout, second.stdout, "{format} {answer}");
            assert_eq!(first.code, second.code);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Colour

fn table_with(color: &str, env: &[(&str, &str)]) -> String {
    let mut run = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--color", color]);
    for (key, value) in env {
        run = run.env(key, value);
    }
    let out = run.exits(1);
    assert!(out.stdout.contains("uncited-claim"), "{}", out.stdout);
    out.stdout
}

#[test]
fn color_never_has_no_escapes() {
    assert!(!table_with("never", &[]).contains(ESC));
}

#[test]
fn color_always_has_escapes() {
    let table = table_with("always", &[]);
    assert!(table.contains(ESC));
    // The summary's verdict word is coloured, and still readable without colour.
    assert!(last_line(&table).contains("FAIL"), "{}", last_line(&table));
}

#[test]
fn color_auto_without_a_terminal_has_no_escapes() {
    assert!(!table_with("auto", &[]).contains(ESC));
}

#[test]
fn color_auto_with_no_color_has_no_escapes() {
    assert!(!table_with("auto", &[("NO_COLOR", "1")]).contains(ESC));
    // NO_COLOR wins over CLICOLOR_FORCE.
    assert!(!table_with("auto", &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]).contains(ESC));
}

#[test]
fn color_auto_with_clicolor_force_or_force_color_has_escapes() {
    assert!(table_with("auto", &[("CLICOLOR_FORCE", "1")]).contains(ESC));
    assert!(table_with("auto", &[("FORCE_COLOR", "1")]).contains(ESC));
    // An empty NO_COLOR does not turn colour off.
    assert!(table_with("auto", &[("NO_COLOR", ""), ("CLICOLOR_FORCE", "1")]).contains(ESC));
}

#[test]
fn color_auto_with_no_color_zero_has_no_escapes() {
    assert!(!table_with("auto", &[("NO_COLOR", "0"), ("CLICOLOR_FORCE", "1")]).contains(ESC));
}

#[test]
fn the_default_color_choice_is_auto() {
    let forced = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS])
        .env("CLICOLOR_FORCE", "1")
        .output();
    assert!(forced.stdout.contains(ESC));
    let plain = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS]).output();
    assert!(!plain.stdout.contains(ESC));
}

#[test]
fn explicit_color_choices_win_over_the_environment() {
    assert!(!table_with("never", &[("CLICOLOR_FORCE", "1")]).contains(ESC));
    assert!(!table_with("never", &[("FORCE_COLOR", "1")]).contains(ESC));
    assert!(table_with("always", &[("NO_COLOR", "1")]).contains(ESC));
}

#[test]
fn json_output_is_never_coloured() {
    let out = check(&[
        EIFFEL_ANSWER,
        EIFFEL_CHUNKS,
        "--format",
        "json",
        "--color",
        "always",
    ])
    .env("CLICOLOR_FORCE", "1")
    .exits(1);
    assert!(!out.stdout.contains('\x1b'), "{}", out.stdout);
    serde_json::from_str::<Value>(&out.stdout).expect("still valid JSON");
}

#[test]
fn the_table_fits_the_width_in_columns() {
    for width in [80u16, 100, 120] {
        let out = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--color", "never"])
            .columns(width)
            .exits(1);
        let width = usize::from(width);
        let lines: Vec<&str> = out.stdout.lines().collect();
        // Every table line, not the footer's single lines (what decided, the summary).
        let widest = lines[..lines.len() - 2]
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap();
        assert!(widest <= width, "COLUMNS={width}: a line is {widest} wide");
        // Below a full row's width (the blocks), every sentence whole on its line.
        if width < 115 {
            for sentence in [
                "The Eiffel Tower is 330 metres tall [1].",
                "It was completed in 1888 for the World's Fair [2].",
                "Around 7 million people visit it every year.",
            ] {
                assert!(
                    out.stdout.contains(sentence),
                    "COLUMNS={width}: {sentence:?} is not shown:\n{}",
                    out.stdout
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Input errors: exit 2 and one line on stderr naming the file

#[test]
fn a_missing_answer_file_is_an_input_error() {
    assert_input_error(
        check(&["testdata/no-such-answer.md", EIFFEL_CHUNKS]),
        "testdata/no-such-answer.md",
        "cannot read",
    );
}

#[test]
fn a_missing_chunks_file_is_an_input_error() {
    assert_input_error(
        check(&[EIFFEL_ANSWER, "testdata/no-such-chunks.json"]),
        "testdata/no-such-chunks.json",
        "cannot read",
    );
}

#[test]
fn a_directory_is_an_input_error() {
    assert_input_error(
        check(&["testdata/eiffel", EIFFEL_CHUNKS]),
        "testdata/eiffel",
        "is a directory",
    );
    assert_input_error(
        check(&[EIFFEL_ANSWER, "testdata/formats"]),
        "testdata/formats",
        "is a directory",
    );
}

#[test]
fn invalid_utf8_in_the_answer_names_the_byte_offset() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("broken-answer.md");
    std::fs::write(&answer, b"Paris \xff is the capital of France [1].").unwrap();
    assert_input_error(
        check(&[answer.to_str().unwrap(), EIFFEL_CHUNKS]),
        "broken-answer.md",
        "invalid UTF-8 at byte 6",
    );
}

#[test]
fn invalid_utf8_after_a_bom_counts_the_bom() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("bom-answer.md");
    std::fs::write(&answer, b"\xEF\xBB\xBFabc\xFFdef is here [1].").unwrap();
    assert_input_error(
        check(&[answer.to_str().unwrap(), EIFFEL_CHUNKS]),
        "bom-answer.md",
        "byte 6",
    );
}

#[test]
fn invalid_utf8_in_the_chunks_names_the_byte_offset() {
    let dir = tempfile::tempdir().unwrap();
    let chunks = dir.path().join("broken-chunks.json");
    // A three-byte character cut after two bytes, at byte 8.
    std::fs::write(&chunks, b"[\"Paris \xe2\x82\"]").unwrap();
    assert_input_error(
        check(&[EIFFEL_ANSWER, chunks.to_str().unwrap()]),
        "broken-chunks.json",
        "invalid UTF-8 at byte 8",
    );
}

#[test]
fn invalid_utf8_from_stdin_names_stdin() {
    assert_input_error(
        check(&["-", EIFFEL_CHUNKS]).stdin(b"ok \xC0 here".to_vec()),
        "<stdin>",
        "invalid UTF-8 at byte 3",
    );
}

#[test]
fn malformed_json_chunks_name_the_line_and_column() {
    assert_input_error(
        check(&[EIFFEL_ANSWER, "testdata/errors/malformed.json"]),
        "testdata/errors/malformed.json",
        "invalid JSON at line 3, column 3",
    );
}

#[test]
fn a_json_file_that_is_not_json_is_an_error_not_text() {
    let dir = tempfile::tempdir().unwrap();
    let chunks = dir.path().join("plain.json");
    std::fs::write(&chunks, "The tower is tall.\n\nThe tower is old.\n").unwrap();
    assert_input_error(
        check(&[EIFFEL_ANSWER, chunks.to_str().unwrap()]),
        "plain.json",
        "invalid JSON at line 1, column 1",
    );
}

#[test]
fn a_chunk_whose_text_is_not_a_string_is_an_input_error() {
    assert_input_error(
        check(&[EIFFEL_ANSWER, "testdata/errors/text-not-string.json"]),
        "testdata/errors/text-not-string.json",
        "chunk 2: its text is an array; expected a string",
    );
}

#[test]
fn duplicate_chunk_ids_are_an_input_error_naming_the_id() {
    assert_input_error(
        check(&[EIFFEL_ANSWER, "testdata/errors/duplicate-ids.json"]),
        "testdata/errors/duplicate-ids.json",
        "duplicate chunk id `intro` (chunks 1 and 3)",
    );
}

#[test]
fn a_number_id_and_the_same_string_id_are_duplicates() {
    assert_input_error(
        check(&[EIFFEL_ANSWER, "-"])
            .stdin(r#"[{"id": 7, "text": "a b c"}, {"id": "7", "text": "d e f"}]"#),
        "<stdin>",
        "duplicate chunk id `7`",
    );
}

#[test]
fn an_empty_answer_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("empty-answer.md");
    std::fs::write(&answer, b"").unwrap();
    assert_input_error(
        check(&[answer.to_str().unwrap(), EIFFEL_CHUNKS]),
        "empty-answer.md",
        "the answer is empty",
    );
}

#[test]
fn an_empty_chunks_file_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let chunks = dir.path().join("empty-chunks.txt");
    std::fs::write(&chunks, b"\n\n").unwrap();
    assert_input_error(
        check(&[EIFFEL_ANSWER, chunks.to_str().unwrap()]),
        "empty-chunks.txt",
        "the chunks file is empty",
    );
}

#[test]
fn a_whitespace_only_answer_from_stdin_is_an_input_error() {
    assert_input_error(
        check(&["-", EIFFEL_CHUNKS]).stdin(" \n\t \r\n"),
        "<stdin>",
        "the answer is empty",
    );
}

/// An answer of NUL, control and invisible characters has no text: the same error as an empty
/// one, not a pass with no sentences.
#[test]
fn an_answer_with_no_printable_text_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("control-answer.md");
    std::fs::write(
        &answer,
        "\0\0\u{1}\u{1b}\u{7} \n\t\u{200b}\u{feff}\u{202e}\0",
    )
    .unwrap();
    assert_input_error(
        check(&[answer.to_str().unwrap(), EIFFEL_CHUNKS]),
        "control-answer.md",
        "the answer is empty",
    );
    // A response whose text is only control characters.
    let response = dir.path().join("response.json");
    std::fs::write(
        &response,
        r#"{"choices": [{"message": {"role": "assistant", "content": "\u0000\u0007\u001b"}}]}"#,
    )
    .unwrap();
    assert_input_error(
        check(&[response.to_str().unwrap(), EIFFEL_CHUNKS]),
        "response.json",
        "the response holds no answer text",
    );
}

#[test]
fn the_answer_is_read_and_checked_before_the_chunks() {
    // Both inputs are wrong; the one message is about the answer.
    assert_input_error(
        check(&["testdata/no-such-answer.md", "testdata/no-such-chunks.json"]),
        "testdata/no-such-answer.md",
        "cannot read",
    );
}

#[test]
fn a_threshold_out_of_range_is_a_usage_error() {
    assert_usage_error(
        check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--threshold", "2"]),
        "invalid value '2' for '--threshold",
    );
    assert_usage_error(
        check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--threshold", "0.05"]),
        "0.05 is outside 0.1..1",
    );
    assert_usage_error(
        check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--threshold", "half"]),
        "`half` is not a number",
    );
}

#[test]
fn the_threshold_range_includes_its_ends() {
    for threshold in ["0.1", "1"] {
        let doc = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--threshold", threshold], 1);
        assert_eq!(
            doc["inputs"]["threshold"],
            threshold.parse::<f64>().unwrap()
        );
    }
}

#[test]
fn an_unknown_language_is_a_usage_error() {
    assert_usage_error(
        check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--lang", "xx"]),
        "invalid value 'xx' for '--lang",
    );
}

#[test]
fn a_known_language_is_reported_in_inputs() {
    let doc = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--lang", "fr"], 1);
    assert_eq!(doc["inputs"]["lang"], "fr");
    let doc = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS], 1);
    assert_eq!(doc["inputs"]["lang"], "en");
}

#[test]
fn an_unknown_format_is_a_usage_error() {
    assert_usage_error(
        check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--format", "xml"]),
        "invalid value 'xml' for '--format",
    );
}

#[test]
fn missing_arguments_and_unknown_options_are_usage_errors() {
    assert_usage_error(
        check(&[EIFFEL_ANSWER]),
        "carries no sources: pass the chunks",
    );
    assert_usage_error(
        check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--no-such-option"]),
        "--no-such-option",
    );
    // No subcommand at all.
    assert_usage_error(ragcite([""; 0]), "Usage");
}

// ---------------------------------------------------------------------------------------------
// Help, version, explain

#[test]
fn help_describes_the_commands_and_the_lexical_caveat() {
    let help = ragcite(["--help"]).stdout(0);
    for part in ["check", "explain", "Lexical overlap is not entailment"] {
        assert!(help.contains(part), "{part}: {help}");
    }
}

#[test]
fn version_prints_the_package_version() {
    assert_eq!(
        ragcite(["--version"]).stdout(0),
        format!("ragcite {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn help_check_mentions_every_option_and_the_exit_codes() {
    let out = ragcite(["help", "check"]).output();
    assert_eq!(out.code, Some(0));
    for option in [
        "<ANSWER>",
        "[CHUNKS]",
        "--format",
        "--threshold",
        "--max-uncited",
        "--max-number-mismatch",
        "--max-unsupported",
        "--max-unknown-markers",
        "--max-weak",
        "--lang",
        "--color",
        "Exit codes",
    ] {
        assert!(out.stdout.contains(option), "help check mentions {option}");
    }
    // `check --help` says the same.
    let direct = ragcite(["check", "--help"]).output();
    assert_eq!(direct.code, Some(0));
    assert_eq!(direct.stdout, out.stdout);
}

#[test]
fn explain_one_verdict() {
    let out = ragcite(["explain", "uncited-claim"]).output();
    assert_eq!(out.code, Some(0));
    assert_eq!(out.stderr, "");
    assert!(out.stdout.starts_with("uncited-claim: "), "{}", out.stdout);
    assert!(
        !out.stdout.contains("weak-support:"),
        "only the verdict asked for"
    );
}

#[test]
fn explain_contradicted() {
    let out = ragcite(["explain", "contradicted"]).exits_quietly(0);
    assert!(out.stdout.starts_with("contradicted: "), "{}", out.stdout);
    assert!(out.stdout.contains("says the opposite"), "{}", out.stdout);
}

#[test]
fn explain_lists_every_verdict() {
    let out = ragcite(["explain"]).output();
    assert_eq!(out.code, Some(0));
    let headings: Vec<&str> = out
        .stdout
        .lines()
        .filter_map(|line| line.split_once(": ").map(|(name, _)| name))
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
        .collect();
    assert_eq!(
        headings,
        [
            "supported",
            "contradicted",
            "number-mismatch",
            "misquote",
            "weak-support",
            "unsupported-citation",
            "uncited-claim",
            "no-claim"
        ]
    );
}

#[test]
fn explain_an_unknown_verdict_is_a_usage_error() {
    assert_usage_error(
        ragcite(["explain", "bogus"]),
        "`bogus` is neither a verdict (supported, ",
    );
}

#[test]
fn explain_an_answer_names_each_sentences_verdict_and_features() {
    let text = ragcite(["explain", EIFFEL_ANSWER, EIFFEL_CHUNKS])
        .output()
        .exits_quietly(0)
        .stdout;
    // Every sentence, its verdict, and for the cited ones the features that moved support.
    for wanted in [
        "1. The Eiffel Tower is 330 metres tall [1].",
        "   supported: support ",
        "2. It was completed in 1888",
        "   number-mismatch: support ",
        "   numbers no cited chunk holds: 1888",
        "missing_numbers = 1: numbers of the sentence that no cited chunk holds",
        "   unsupported-citation: support 0.00 < threshold 0.50",
        "4. Around 7 million people visit it every year.\n   uncited-claim: ",
        // The passage that decided, the sentence's words in it marked.
        "   decided by chunk 1:\n     …*Eiffel* *Tower* is a wrought-iron lattice *tower* in Paris. It is 330 *metres* (1,083 ft) *tall*…",
        "   numbers found in a cited chunk: 330",
        "   decided by chunk 3, which holds none of its words\n   words no cited chunk holds: designed, engineering, company, gustave, eiffel",
    ] {
        assert!(text.contains(wanted), "{wanted:?} not in:\n{text}");
    }
    // Factors that say nothing about a sentence are left out: lengths, and numbers for a
    // sentence without any.
    assert!(!text.contains("chunk_words ="), "{text}");
    assert!(!text.contains("sentence_words ="), "{text}");
    let third = text.split("3. It was designed").nth(1).unwrap();
    let third = third.split("\n\n").next().unwrap();
    assert!(!third.contains("numbers"), "{third}");
    // The missing number pushes sentence 2's support down.
    let line = text
        .lines()
        .find(|l| l.contains("missing_numbers = 1"))
        .unwrap();
    assert!(line.trim_start().starts_with("down -"), "{line}");
    // Under the formula there is nothing to attribute.
    let formula = ragcite([
        "explain",
        EIFFEL_ANSWER,
        EIFFEL_CHUNKS,
        "--model",
        "formula",
    ])
    .output()
    .exits_quietly(0)
    .stdout;
    assert!(!formula.contains(" = "), "{formula}");
    assert!(
        formula.contains("support 0.42 < threshold 0.50"),
        "{formula}"
    );
}

#[test]
fn explain_features_lists_every_feature_of_the_json_factors() {
    let text = ragcite(["explain", "--features"])
        .output()
        .exits_quietly(0)
        .stdout;
    assert_eq!(text.lines().count(), 17, "{text}");
    let doc = check_json(&[EIFFEL_ANSWER, EIFFEL_CHUNKS], 1);
    for sentence in doc["result"]["sentences"].as_array().unwrap() {
        for factor in sentence["factors"].as_array().unwrap() {
            let name = factor["feature"].as_str().unwrap();
            assert!(
                text.lines()
                    .any(|l| l.split_whitespace().next() == Some(name)),
                "{name} is not listed by explain --features"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Chunk formats, end to end

const FORMATS_VERDICTS: [&str; 5] = [
    "supported",
    "number-mismatch",
    "unsupported-citation",
    "weak-support",
    "uncited-claim",
];

#[test]
fn every_chunk_format_gives_the_same_result() {
    let reference = check_json(&[FORMATS_ANSWER, FORMATS_CHUNKS], 1);
    assert_eq!(verdicts(&reference), FORMATS_VERDICTS);
    assert_eq!(
        chunk_statuses(&reference),
        ["used", "used", "cited-but-not-supporting"]
    );
    assert_eq!(
        strings(&reference["result"]["sentences"][1]["missingNumbers"]),
        ["1,233"]
    );
    assert_eq!(
        reference["result"]["sentences"][2]["suggestedCitation"],
        "2"
    );
    for (file, format) in [
        ("objects.json", "json"),
        ("strings.json", "json"),
        ("documents.json", "json"),
        ("lines.jsonl", "json-lines"),
        ("bracket.txt", "bracket-blocks"),
        ("colon.txt", "colon-blocks"),
        ("dashes.txt", "dash-separated"),
        ("blank.txt", "blank-line-separated"),
    ] {
        let path = format!("testdata/formats/{file}");
        let doc = check_json(&[FORMATS_ANSWER, &path], 1);
        assert_eq!(doc["inputs"]["chunks"]["format"], format, "{file}");
        assert_eq!(verdicts(&doc), FORMATS_VERDICTS, "{file}");
        let ids: Vec<&str> = doc["result"]["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, ["1", "2", "3"], "{file}");
        assert_eq!(doc["result"], reference["result"], "{file}");
    }
}

#[test]
fn named_ids_resolve_markers_by_their_trailing_number() {
    // `[2]` cites `doc2`, `[source_3]` cites itself, `(source: intro)` cites `intro`.
    let chunks = "[intro] The Rhine flows from the Swiss Alps to the North Sea.\n\
                  [doc2] The Rhine is about 1,230 kilometres long.\n\
                  [source_3] Barges on the Rhine carry coal and grain.\n";
    let answer = "The Rhine flows from the Swiss Alps to the North Sea (source: intro).\n\
                  The Rhine is about 1,230 kilometres long [2].\n\
                  Barges on the Rhine carry coal and grain [source_3].\n";
    let dir = tempfile::tempdir().unwrap();
    let chunk_path = dir.path().join("named.txt");
    std::fs::write(&chunk_path, chunks).unwrap();
    let doc = check(&["-", chunk_path.to_str().unwrap(), "--format", "json"])
        .stdin(answer)
        .json(0);
    assert_eq!(doc["inputs"]["chunks"]["format"], "bracket-blocks");
    assert_eq!(verdicts(&doc), ["supported", "supported", "supported"]);
    let cited: Vec<Vec<String>> = doc["result"]["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| strings(&s["cited"]))
        .collect();
    assert_eq!(cited, [["intro"], ["doc2"], ["source_3"]]);
    assert_eq!(chunk_statuses(&doc), ["used", "used", "used"]);
}

// ---------------------------------------------------------------------------------------------
// Markdown answers

#[test]
fn markdown_structure_is_not_prose() {
    // The formula's scores, which the expected verdicts were worked out with.
    let doc = check_json(&[MARKDOWN_ANSWER, MARKDOWN_CHUNKS, "--model", "formula"], 1);
    assert_eq!(
        sentence_field(&doc, "sentence"),
        [
            "About honey bees",
            "Honey bees live in colonies of up to 60,000 workers [1].",
            "A single queen lays about 2,000 eggs per day [2].",
            "Drones exist only to mate with a queen.[2][3]",
            "Drones do not collect *nectar*. [2]",
            "Workers build hexagonal wax cells for storing honey.",
            "See the [bee biology overview](https://example.org/bees/biology-2024.html) for the colony lifecycle [1].",
            "| Caste | Lifespan |",
            "| Worker | about six weeks in summer [4] |",
            "Beekeepers harvest roughly 25 kilograms of honey per hive each year[^1].",
        ]
    );
    assert_eq!(
        verdicts(&doc),
        [
            "no-claim",
            "supported",
            "supported",
            "supported",
            "supported",
            "uncited-claim",
            // The link counts as its text: `see`, `bee`, `biology`, `overview`, `colony`,
            // `lifecycle`; chunk 1 holds only the last three (support 0.44).
            "weak-support",
            "no-claim",
            "supported",
            "unsupported-citation",
        ]
    );
    let sentences = doc["result"]["sentences"].as_array().unwrap();
    // Markers after the full stop belong to the sentence before them.
    assert_eq!(strings(&sentences[3]["markers"]), ["2", "3"]);
    assert_eq!(strings(&sentences[4]["markers"]), ["2"]);
    // The footnote reference is a marker, and the `1` in it is not a number of the sentence.
    assert_eq!(strings(&sentences[9]["markers"]), ["1"]);
    assert_eq!(strings(&sentences[9]["checkWorthy"]), ["25"]);
    // The link's URL holds no number of the sentence.
    assert_eq!(strings(&sentences[6]["checkWorthy"]), Vec::<String>::new());
    // Thousands separators are one number.
    assert_eq!(strings(&sentences[1]["checkWorthy"]), ["60,000"]);
    // The checkbox is not part of the sentence's position; the bullet is not either.
    assert_eq!(
        sentences[5]["start"],
        serde_json::json!({"line": 7, "column": 7})
    );
    assert_eq!(
        sentences[2]["start"],
        serde_json::json!({"line": 5, "column": 3})
    );
    assert_eq!(
        sentences[4]["start"],
        serde_json::json!({"line": 6, "column": 49})
    );
    assert_eq!(sentences[5]["suggestedCitation"], "3");
}

#[test]
fn markdown_code_blocks_and_footnote_definitions_make_no_sentences() {
    let doc = check_json(&[MARKDOWN_ANSWER, MARKDOWN_CHUNKS], 1);
    for sentence in sentence_field(&doc, "sentence") {
        for inside in [
            "80,000",
            "80000",
            "hive holds",
            "6 weeks",
            "python",
            "```",
            "Harvest figures",
            "[^1]:",
        ] {
            assert!(!sentence.contains(inside), "{sentence:?} holds {inside:?}");
        }
    }
    let numbers: Vec<String> = doc["result"]["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| strings(&s["checkWorthy"]))
        .collect();
    // `six weeks`: a figure in words before a unit.
    assert_eq!(numbers, ["60,000", "2,000", "six", "25"]);
}

#[test]
fn sentence_spans_point_into_the_answer() {
    let answer = String::from_utf8(read(MARKDOWN_ANSWER)).unwrap();
    let doc = check_json(&[MARKDOWN_ANSWER, MARKDOWN_CHUNKS], 1);
    for s in doc["result"]["sentences"].as_array().unwrap() {
        let start = s["span"]["start"].as_u64().unwrap() as usize;
        let end = s["span"]["end"].as_u64().unwrap() as usize;
        assert_eq!(&answer[start..end], s["sentence"].as_str().unwrap());
        let line = s["start"]["line"].as_u64().unwrap() as usize;
        let column = s["start"]["column"].as_u64().unwrap() as usize;
        let line_text = answer.lines().nth(line - 1).unwrap();
        let rest: String = line_text.chars().skip(column - 1).collect();
        assert!(rest.starts_with(s["sentence"].as_str().unwrap()), "{s}");
    }
}

#[test]
fn spans_count_the_byte_order_mark_like_the_utf8_error_offset() {
    let mut answer = b"\xEF\xBB\xBF".to_vec();
    answer.extend_from_slice(b"The Eiffel Tower is 330 metres tall [1].");
    let doc = check(&["-", EIFFEL_CHUNKS, "--format", "json"])
        .stdin(answer)
        .json(0);
    // The sentence starts after the 3 bytes of the BOM in the answer as given.
    assert_eq!(
        doc["result"]["sentences"][0]["span"],
        serde_json::json!({"start": 3, "end": 43})
    );
}

// ---------------------------------------------------------------------------------------------
// Gates

#[test]
fn max_weak_is_unlimited_by_default() {
    let doc = check_json(&[WEAK_ANSWER, WEAK_CHUNKS], 0);
    assert_eq!(verdicts(&doc), ["weak-support", "supported"]);
    assert_eq!(doc["inputs"]["limits"]["maxWeak"], Value::Null);
    assert_eq!(doc["gate"]["passed"], true);
}

#[test]
fn max_weak_zero_fails_on_a_weak_sentence_and_the_summary_says_so() {
    let out = check(&[
        WEAK_ANSWER,
        WEAK_CHUNKS,
        "--max-weak",
        "0",
        "--color",
        "never",
    ])
    .output();
    assert_eq!(out.code, Some(1));
    let summary = last_line(&out.stdout);
    assert!(summary.starts_with("FAIL"), "{summary}");
    assert!(summary.contains("--max-weak"), "{summary}");
    assert!(
        summary.contains("1 weak-support > --max-weak 0 (+1)"),
        "{summary}"
    );
    assert!(!summary.contains("--max-uncited"), "{summary}");
}

#[test]
fn max_weak_at_the_count_passes() {
    let out = check(&[
        WEAK_ANSWER,
        WEAK_CHUNKS,
        "--max-weak",
        "1",
        "--color",
        "never",
    ])
    .output();
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let summary = last_line(&out.stdout);
    assert!(summary.starts_with("PASS"), "{summary}");
    assert!(summary.ends_with("all limits held"), "{summary}");
    let doc = check_json(&[WEAK_ANSWER, WEAK_CHUNKS, "--max-weak", "1"], 0);
    assert_eq!(doc["inputs"]["limits"]["maxWeak"], 1);
}

#[test]
fn max_contradicted_is_zero_by_default_and_takes_a_count() {
    let doc = check_json(&[WEAK_ANSWER, WEAK_CHUNKS], 0);
    assert_eq!(doc["inputs"]["limits"]["maxContradicted"], 0);
    let doc = check_json(&[WEAK_ANSWER, WEAK_CHUNKS, "--max-contradicted", "4"], 0);
    assert_eq!(doc["inputs"]["limits"]["maxContradicted"], 4);
    let error = check(&[WEAK_ANSWER, WEAK_CHUNKS, "--max-contradicted", "many"]).usage_error();
    assert!(error.contains("--max-contradicted"), "{error}");
}

#[test]
fn the_summary_names_every_limit_exceeded_and_by_how_much() {
    let out = check(&[EIFFEL_ANSWER, EIFFEL_CHUNKS, "--color", "never"]).output();
    assert_eq!(out.code, Some(1));
    let summary = last_line(&out.stdout);
    assert!(summary.starts_with("FAIL · 4 sentences"), "{summary}");
    for part in [
        "1 uncited-claim > --max-uncited 0 (+1)",
        "1 number-mismatch > --max-number-mismatch 0 (+1)",
        "1 unsupported-citation > --max-unsupported 0 (+1)",
    ] {
        assert!(summary.contains(part), "{summary}");
    }
}

#[test]
fn a_limit_above_the_count_passes() {
    check(&[WEAK_ANSWER, WEAK_CHUNKS, "--max-weak", "2"])
        .output()
        .no_panic()
        .exits(0);

    check(&[
        EIFFEL_ANSWER,
        EIFFEL_CHUNKS,
        "--max-uncited",
        "5",
        "--max-number-mismatch",
        "1",
        "--max-unsupported",
        "1",
    ])
    .output()
    .no_panic()
    .exits(0);
}

// ---------------------------------------------------------------------------------------------
// Unknown markers

const UNKNOWN_MARKER_ANSWER: &str =
    "The Rhine flows through Basel, Strasbourg and Cologne to the North Sea [9].\n";

#[test]
fn a_marker_beyond_the_chunks_is_unknown() {
    let doc = check(&["-", FORMATS_CHUNKS, "--format", "json"])
        .stdin(UNKNOWN_MARKER_ANSWER)
        .json(1);
    assert_eq!(verdicts(&doc), ["unsupported-citation"]);
    let sentence = &doc["result"]["sentences"][0];
    assert_eq!(strings(&sentence["markers"]), ["9"]);
    assert_eq!(strings(&sentence["cited"]), Vec::<String>::new());
    assert_eq!(strings(&sentence["unknownMarkers"]), ["9"]);
    assert_eq!(strings(&doc["result"]["unknownMarkers"]), ["9"]);
    assert_eq!(doc["result"]["counts"]["unknownMarkers"], 1);
    assert_eq!(sentence["suggestedCitation"], "1");
    assert_eq!(
        failing_limits(&doc),
        ["max-unsupported", "max-unknown-markers"]
    );
}

#[test]
fn unknown_markers_within_their_limits_pass() {
    let out = check(&[
        "-",
        FORMATS_CHUNKS,
        "--max-unknown-markers",
        "1",
        "--max-unsupported",
        "1",
        "--color",
        "never",
    ])
    .stdin(UNKNOWN_MARKER_ANSWER)
    .exits(0);
    for part in ["1 unknown marker", "all limits held"] {
        assert!(out.stdout.contains(part), "{part}: {}", out.stdout);
    }
    // Allowing the unsupported citation is not enough: the unknown marker still fails.
    let doc = check(&[
        "-",
        FORMATS_CHUNKS,
        "--format",
        "json",
        "--max-unsupported",
        "1",
    ])
    .stdin(UNKNOWN_MARKER_ANSWER)
    .json(1);
    assert_eq!(failing_limits(&doc), ["max-unknown-markers"]);
}

#[test]
fn an_unknown_label_is_listed_once() {
    let answer = "The Rhine flows to the North Sea [9].\nBarges carry coal and grain [9][1].\n";
    let doc = check(&["-", FORMATS_CHUNKS, "--format", "json"])
        .stdin(answer)
        .json(1);
    assert_eq!(strings(&doc["result"]["unknownMarkers"]), ["9"]);
    assert_eq!(doc["result"]["counts"]["unknownMarkers"], 1);
    // The second sentence cites a known chunk too, so it is judged against it.
    assert_eq!(strings(&doc["result"]["sentences"][1]["cited"]), ["1"]);
}

// ---------------------------------------------------------------------------------------------
// Threshold

#[test]
fn the_threshold_changes_verdicts() {
    // Coverages: 2 of 5 content words (0.4) and 4 of 5 (0.8); under the formula, supports
    // 0.31 and 0.62 (general words count half, few word pairs stand together in the chunk).
    // Verdicts follow support.
    let at = |threshold: &str, code: i32| {
        verdicts(&check_json(
            &[
                WEAK_ANSWER,
                WEAK_CHUNKS,
                "--threshold",
                threshold,
                "--model",
                "formula",
            ],
            code,
        ))
    };
    assert_eq!(at("0.5", 0), ["weak-support", "supported"]);
    assert_eq!(at("0.6", 0), ["weak-support", "supported"]);
    assert_eq!(at("0.62", 0), ["weak-support", "weak-support"]);
    assert_eq!(at("0.9", 1), ["unsupported-citation", "weak-support"]);
    assert_eq!(at("0.3", 0), ["supported", "supported"]);
}

#[test]
fn coverages_are_reported_as_fractions_of_content_words() {
    let doc = check_json(&[WEAK_ANSWER, WEAK_CHUNKS], 0);
    let sentences = doc["result"]["sentences"].as_array().unwrap();
    assert_eq!(sentences[0]["coverage"], 0.4);
    assert_eq!(sentences[0]["contentWords"], 5);
    assert_eq!(
        strings(&sentences[0]["missingWords"]),
        ["quickly", "tropical", "climates"]
    );
    assert_eq!(sentences[1]["coverage"], 0.8);
}

// ---------------------------------------------------------------------------------------------
// Warnings

#[test]
fn empty_chunks_are_kept_with_a_warning() {
    let doc = check_json(
        &[
            "testdata/warnings/answer.md",
            "testdata/warnings/chunks.json",
        ],
        1,
    );
    assert_eq!(
        strings(&doc["warnings"]),
        ["chunk seaice is empty", "chunk permafrost is empty"]
    );
    assert_eq!(
        chunk_statuses(&doc),
        ["used", "cited-but-not-supporting", "unused"]
    );
    let table = check(&[
        "testdata/warnings/answer.md",
        "testdata/warnings/chunks.json",
        "--color",
        "never",
    ])
    .stdout(1);
    assert!(
        table.contains("warning: chunk seaice is empty\n"),
        "{table}"
    );
}

// ---------------------------------------------------------------------------------------------
// A closed pipe

fn large_answer(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("large-answer.md");
    let text: String = (0..600)
        .map(|k| format!("The Eiffel Tower is {k} metres tall and made of iron [1].\n"))
        .collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `check` on a large answer with stdout into a pipe whose reading end is closed at once
/// (spawned by hand: the runner reads every pipe to its end).
fn run_into_closed_pipe(format: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let answer = large_answer(dir.path());
    let mut child = check(&[answer.to_str().unwrap(), EIFFEL_CHUNKS, "--format", format])
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ragcite starts");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("ragcite ends");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    for format in ["table", "json"] {
        let (code, stderr) = run_into_closed_pipe(format);
        assert!(code.is_some(), "{format}: killed by a signal");
        assert_ne!(code, Some(2), "{format}: {stderr}");
        assert_ne!(code, Some(101), "{format}: {stderr}");
        assert!(!stderr.contains("panicked"), "{format}: {stderr}");
        assert!(!stderr.contains("error"), "{format}: {stderr}");
    }
}

#[test]
fn a_closed_pipe_keeps_the_gates_exit_code() {
    let (code, _) = run_into_closed_pipe("table");
    assert_eq!(code, Some(1));
}

// ---------------------------------------------------------------------------------------------
// What an answer cannot hide from the check

/// The worked example's four sentences, one per line, each line prefixed.
fn eiffel_lines(prefix: &str) -> String {
    [
        "The Eiffel Tower is 330 metres tall [1].",
        "It was completed in 1888 for the World's Fair [2].",
        "It was designed by the engineering company of Gustave Eiffel [3].",
        "Around 7 million people visit it every year.",
    ]
    .iter()
    .map(|line| format!("{prefix}{line}\n"))
    .collect()
}

/// An answer that opens a fence or a comment it never closes, or is indented as plain-text
/// models write, is checked whole: once `PASS · 0 sentences`, exit 0.
#[test]
fn an_answer_cannot_opt_out_of_the_gate() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let chunks = path(EIFFEL_CHUNKS).display().to_string();
    let cases = [
        (
            "fence.md",
            format!("```\n{}", eiffel_lines("")),
            Some("the code fence opened at line 1 never closes"),
        ),
        (
            "tildes.md",
            format!("Intro.\n~~~ text\n{}", eiffel_lines("")),
            Some("the code fence opened at line 2 never closes"),
        ),
        (
            "comment.md",
            format!("<!--\n{}", eiffel_lines("")),
            Some("the HTML comment opened at line 1 never closes"),
        ),
        ("spaces.md", eiffel_lines("    "), None),
        ("tabs.md", eiffel_lines("\t"), None),
    ];
    for (name, text, warning) in &cases {
        std::fs::write(dir.path().join(name), text).expect("written");
        let doc = check(&[name, &chunks, "--format", "json"])
            .in_dir(dir.path())
            .json(1);
        let found = verdicts(&doc);
        assert_eq!(
            found[found.len() - 4..],
            [
                "supported",
                "number-mismatch",
                "unsupported-citation",
                "uncited-claim"
            ],
            "{name}"
        );
        assert_eq!(doc["result"]["counts"]["uncheckedLines"], 0, "{name}");
        let warnings = doc["warnings"].to_string();
        match warning {
            Some(warning) => assert!(warnings.contains(warning), "{name}: {warnings}"),
            None => assert!(!warnings.contains("never closes"), "{name}: {warnings}"),
        }
    }
    // A response whose content starts with tabs.
    let response = String::from_utf8(read("testdata/responses/openai-chat.json")).unwrap();
    let content = eiffel_lines("\t").replace('\n', "\\n").replace('\t', "\\t");
    let response = response.replace(
        "\"The Eiffel Tower is 330 metres tall [1]. It was completed in 1888 for the World's Fair [2]. It was designed by the engineering company of Gustave Eiffel [3]. Around 7 million people visit it every year.\"",
        &format!("\"{content}\""),
    );
    assert!(response.contains("\\t"), "the content was replaced");
    std::fs::write(dir.path().join("response.json"), response).expect("written");
    let doc = check(&["response.json", &chunks, "--format", "json"])
        .in_dir(dir.path())
        .json(1);
    assert_eq!(doc["result"]["counts"]["sentences"], 4);
    // And in a batch, the record fails as the check does.
    let record = serde_json::json!({"id": "q1", "answer": format!("```\n{}", eiffel_lines("")),
        "contexts": ["It was completed in 1889."]});
    std::fs::write(dir.path().join("t.jsonl"), format!("{record}\n")).expect("written");
    let doc = ragcite(["batch", "t.jsonl", "--format", "json"])
        .in_dir(dir.path())
        .json(1);
    assert_eq!(doc["records"][0]["counts"]["sentences"], 4);
    assert_eq!(doc["records"][0]["passed"], false);
}

/// Text hidden in Markdown that is not shown as prose (a footnote definition, a comment after a
/// sentence, a link definition's title, a fence's info string) is counted as not checked, and
/// text in angle brackets is checked; ordinary markup and references are neither. Each hiding
/// place once passed silently (`PASS`, `uncheckedLines` 0, no warning).
#[test]
fn an_answer_cannot_hide_its_claims_in_markup() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let chunks = path(EIFFEL_CHUNKS).display().to_string();
    let cited = "The Eiffel Tower is 330 metres tall [1].";
    let run = |name: &str, text: &str| -> (Option<i32>, Value) {
        std::fs::write(dir.path().join(name), text).expect("written");
        let out = check(&[name, &chunks, "--format", "json"])
            .in_dir(dir.path())
            .output();
        let doc = serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{name}: {e}"));
        (out.code, doc)
    };
    let hidden = [
        (
            "footnote.md",
            format!(
                "{cited}\n\n[^1]: Around 7 million people visit it every year.\n    It was painted \
                 gold in 1950 and is 500 metres tall.\n\n    The tower was moved to London in 1999.\n"
            ),
            "3 lines of the answer (lines 3-4 and 6)",
        ),
        (
            "only-footnote.md",
            "[^1]: Around 7 million people visit it every year.\n".to_string(),
            "1 line of the answer (line 1)",
        ),
        (
            "comment.md",
            format!("{cited} <!-- Around 7 million people visit it every year. -->\n"),
            "1 line of the answer (line 1)",
        ),
        (
            "title.md",
            format!("{cited}\n[t]: http://x \"The tower is 500 metres tall.\"\n"),
            "1 line of the answer (line 2)",
        ),
        (
            "info.md",
            format!(
                "```Around 7 million people visit it every year, and it was painted gold.\n{cited}\n"
            ),
            "1 line of the answer (line 1)",
        ),
    ];
    for (name, text, lines) in &hidden {
        let (_, doc) = run(name, text);
        let counted = lines.split(' ').next().unwrap().parse::<u64>().unwrap();
        assert_eq!(doc["result"]["counts"]["uncheckedLines"], counted, "{name}");
        let warning = format!("{lines} hold");
        let warning = if counted == 1 {
            warning.replace(" hold", " holds")
        } else {
            warning
        };
        let warnings = doc["warnings"].to_string();
        assert!(
            warnings.contains(&format!("{warning} code, comments or hidden text")),
            "{name}: {warnings}"
        );
    }
    // Text in angle brackets is no tag: it is checked, and fails as an uncited claim.
    let (code, doc) = run(
        "tag.md",
        &format!("{cited} <b It was painted gold in 1950 and moved to London.>\n"),
    );
    assert_eq!(code, Some(1));
    assert_eq!(verdicts(&doc), ["supported", "uncited-claim"]);
    // Ordinary markup and references: nothing counted.
    let quiet = [
        format!("{cited}<br> <!-- prettier-ignore -->\n"),
        "The Eiffel Tower is 330 metres tall.<sup>1</sup> It is <a href=\"https://x.org\">tall</a>.\n"
            .to_string(),
        format!("<video controls muted src=\"a.mp4\"></video>\n{cited}\n"),
        format!("```python\n{cited}\n"),
        format!("{cited}\n\n[1]: https://example.com \"Example\"\n"),
        "The Eiffel Tower is 330 metres tall [^1].\n\n[^1]: https://example.com/eiffel\n[^2]: \
         Eiffel Tower, Paris Tourist Office, 2020\n[^3]: Smith, J. (2020). The Eiffel Tower. \
         Paris Press.\n"
            .to_string(),
    ];
    for (k, text) in quiet.iter().enumerate() {
        let (code, doc) = run(&format!("quiet-{k}.md"), text);
        assert_ne!(code, Some(2), "{text}");
        assert_eq!(doc["result"]["counts"]["uncheckedLines"], 0, "{text}");
        assert!(
            !doc["warnings"].to_string().contains("hidden text"),
            "{text}"
        );
    }
}

/// Code that is code stays out of the check, and every output says how many lines it took.
#[test]
fn every_output_counts_the_lines_not_checked() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let chunks = path(EIFFEL_CHUNKS).display().to_string();
    let answer = format!(
        "{}\n```python\nprint(height)\n```\n\nThen:\n\n    let x = tower();\n\n<!-- a note\nover two lines -->\n",
        eiffel_lines("")
    );
    std::fs::write(dir.path().join("answer.md"), answer).expect("written");
    let run = |format: &str| {
        check(&["answer.md", &chunks, "--format", format])
            .in_dir(dir.path())
            .output()
            .stdout
    };
    let doc: Value = serde_json::from_str(&run("json")).unwrap();
    assert_eq!(doc["result"]["counts"]["uncheckedLines"], 6);
    assert_eq!(doc["result"]["counts"]["sentences"], 5);
    assert!(
        doc["warnings"].to_string().contains(
            "6 lines of the answer (lines 6-8, 12 and 14-15) hold code, comments or hidden text: \
             not checked"
        ),
        "{}",
        doc["warnings"]
    );
    for format in ["table", "concise", "full", "github", "junit", "html"] {
        let out = run(format);
        assert!(
            out.contains("6 lines not checked (code, comments or hidden text)"),
            "--format {format}: {out}"
        );
    }
    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    assert_eq!(
        sarif["runs"][0]["invocations"][0]["properties"]["uncheckedLines"],
        6
    );
    let gitlab: Value = serde_json::from_str(&run("gitlab")).unwrap();
    let entry = gitlab
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["check_name"] == "unchecked-lines")
        .unwrap_or_else(|| panic!("{gitlab}"));
    assert_eq!(entry["location"]["lines"]["begin"], 6);
    assert_eq!(entry["severity"], "info");
    let api: Value = serde_json::from_str(&run("api")).unwrap();
    assert!(
        api["summary"]
            .as_str()
            .unwrap()
            .contains("6 lines not checked")
    );
}

/// A sentence supported by its three cited chunks together, none of them alone, makes each
/// chunk that adds words of its own `used` (issue 39, item 6): the chunk statuses agree with
/// the verdict. It read `supported` while all three chunks were `cited-but-not-supporting`.
#[test]
fn chunks_that_support_a_sentence_together_are_used() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.md");
    let chunks = dir.path().join("chunks.json");
    std::fs::write(
        &answer,
        "The Eiffel Tower, designed by Gustave Eiffel, opened in Paris in 1889 and received two \
         million visitors during the World Fair [1][2][3].\n",
    )
    .unwrap();
    std::fs::write(
        &chunks,
        r#"[{"id": "1", "text": "The tower was designed by the engineer Gustave Eiffel."},
            {"id": "2", "text": "The tower opened in 1889 in Paris."},
            {"id": "3", "text": "About two million people visited the tower during the World Fair."}]"#,
    )
    .unwrap();
    let (answer, chunks) = (answer.to_str().unwrap(), chunks.to_str().unwrap());
    let doc = check_json(&[answer, chunks, "--isolated"], 0);
    let sentence = &doc["result"]["sentences"][0];
    assert_eq!(sentence["verdict"], "supported");
    // None supports it alone: it is the three together.
    for cited in sentence["citedChunks"].as_array().unwrap() {
        assert_eq!(cited["finding"], "partly", "{cited}");
    }
    for chunk in doc["result"]["chunks"].as_array().unwrap() {
        assert_eq!(chunk["status"], "used", "{chunk}");
        assert_eq!(chunk["supportedSentences"], 1, "{chunk}");
    }
    assert_eq!(doc["result"]["counts"]["used"], 3);
}
