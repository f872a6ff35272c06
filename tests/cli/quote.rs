//! End-to-end tests of quotation checking: `ragcite quote DOCUMENT [QUOTE]` (the quote as an
//! argument, from `--quote-file` or on standard input; text and JSON; normalisation; quotes that
//! must not match; bad input; a large document), and quotations inside answer sentences in
//! `ragcite check` (fixtures in `testdata/quotes/`).

use std::path::PathBuf;
use std::time::Duration;

use serde_json::{Value, json};

use crate::util::{self, Run, chars, pair, ragcite};

/// Chunks for the `check` tests: `report` holds multi-byte characters before the passage the
/// answers quote.
const CHUNKS: &str = "testdata/quotes/chunks.json";

/// A document with multi-byte characters (2, 3 and 4 bytes long) before the quoted passage.
const DOCUMENT: &str = "Zürich — «café» naïve 日本 𝄞. The committee said the results were not \
                        significant at all.\n";
const QUOTE: &str = "the results were not significant";

/// Runs are killed after this: the large document takes seconds, an endless search forever.
const TIMEOUT: Duration = Duration::from_secs(60);

/// `ragcite quote <args>`.
fn quote(args: &[&str]) -> Run {
    ragcite(["quote"]).args(args).timeout(TIMEOUT)
}

/// A temporary directory holding files written for one test.
struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Self {
        Files {
            dir: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path: PathBuf = self.dir.path().join(name);
        std::fs::write(&path, bytes).expect("written");
        path.to_str().expect("a UTF-8 path").to_string()
    }
}

/// Bytes `[start, end)` of `text`, which must be a whole number of characters.
fn bytes<'a>(text: &'a str, offsets: &Value) -> &'a str {
    let (start, end) = pair(offsets);
    text.get(start..end)
        .unwrap_or_else(|| panic!("{offsets} is not a character span of the text"))
}

fn keys(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value
        .as_object()
        .unwrap_or_else(|| panic!("not an object: {value}"))
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

fn similarity(closest: &Value) -> f64 {
    closest["similarity"].as_f64().expect("a similarity")
}

// ------------------------------------------------------------------------------------------
// Where the quote comes from

#[test]
fn the_quote_as_argument_file_or_stdin_gives_the_same_result() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let quote_file = files.write("quote.txt", format!("{QUOTE}\n"));
    for format in ["json", "text"] {
        let argument = quote(&[&document, QUOTE, "--format", format]).exits_quietly(0);
        let from_file =
            quote(&[&document, "--quote-file", &quote_file, "--format", format]).exits_quietly(0);
        let from_stdin = quote(&[&document, "--format", format])
            .stdin(format!("{QUOTE}\n").as_bytes())
            .exits_quietly(0);
        assert_eq!(argument.stdout, from_file.stdout, "{format}");
        assert_eq!(argument.stdout, from_stdin.stdout, "{format}");
    }
    // The same quote not in the document gives the same answer from each source too.
    let missing = "the results were significant";
    let missing_file = files.write("missing.txt", missing);
    let argument = quote(&[&document, missing, "--format", "json"]).exits_quietly(1);
    let from_file =
        quote(&[&document, "--quote-file", &missing_file, "--format", "json"]).exits_quietly(1);
    let from_stdin = quote(&[&document, "--format", "json"])
        .stdin(missing.as_bytes())
        .exits_quietly(1);
    assert_eq!(argument.stdout, from_file.stdout);
    assert_eq!(argument.stdout, from_stdin.stdout);
}

#[test]
fn the_document_may_come_from_stdin_when_the_quote_does_not() {
    let found = quote(&["-", QUOTE, "--format", "json"])
        .stdin(DOCUMENT.as_bytes())
        .json(0);
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let from_file = quote(&[&document, QUOTE, "--format", "json"]).json(0);
    assert_eq!(found, from_file);
}

// ------------------------------------------------------------------------------------------
// Offsets and output

#[test]
fn offsets_are_characters_and_bytes_into_the_document_as_given() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let found = quote(&[&document, QUOTE, "--format", "json"]).json(0);
    assert_eq!(found["found"], true);
    assert_eq!(chars(DOCUMENT, &found["offsets"]), QUOTE);
    assert_eq!(bytes(DOCUMENT, &found["byteOffsets"]), QUOTE);
    let start_char = DOCUMENT.find(QUOTE).map(|b| DOCUMENT[..b].chars().count());
    assert_eq!(
        found["offsets"],
        json!([start_char, start_char.map(|s| s + QUOTE.chars().count())])
    );
    // Multi-byte characters come before it: the two kinds of offsets differ.
    assert_ne!(found["offsets"], found["byteOffsets"]);
}

#[test]
fn the_json_is_exactly_found_offsets_byte_offsets_and_closest() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let found = quote(&[&document, QUOTE, "--format", "json"]).exits_quietly(0);
    assert!(found.stdout.ends_with("}\n"), "{:?}", found.stdout);
    let found = found.json();
    assert_eq!(
        keys(&found),
        ["byteOffsets", "closest", "end", "found", "offsets", "start"]
    );
    assert_eq!(found["closest"], Value::Null);
    // One line: the columns are the character offsets plus one.
    let (start, end) = pair(&found["offsets"]);
    assert_eq!(found["start"], json!({"line": 1, "column": start + 1}));
    assert_eq!(found["end"], json!({"line": 1, "column": end + 1}));

    let missing = quote(&[
        &document,
        "the results were significant",
        "--format",
        "json",
    ])
    .json(1);
    assert_eq!(
        keys(&missing),
        ["byteOffsets", "closest", "end", "found", "offsets", "start"]
    );
    assert_eq!(missing["found"], false);
    assert_eq!(missing["offsets"], Value::Null);
    assert_eq!(missing["byteOffsets"], Value::Null);
    assert_eq!(missing["start"], Value::Null);
    assert_eq!(missing["end"], Value::Null);
    let closest = &missing["closest"];
    assert_eq!(
        keys(closest),
        [
            "differingWords",
            "end",
            "offsets",
            "similarity",
            "start",
            "text"
        ]
    );
    assert_eq!(closest["start"], found["start"]);
    assert_eq!(closest["end"], found["end"]);
    assert_eq!(closest["text"], QUOTE);
    assert_eq!(chars(DOCUMENT, &closest["offsets"]), QUOTE);
    assert_eq!(closest["offsets"], found["offsets"]);
    assert_eq!(closest["differingWords"], 1);
    let similarity = similarity(closest);
    assert!(similarity > 0.0 && similarity < 1.0, "{similarity}");
}

#[test]
fn the_text_format_says_where() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let found = quote(&[&document, QUOTE, "--format", "json"]).json(0);
    let (start, end) = pair(&found["offsets"]);
    let text = quote(&[&document, QUOTE]).exits_quietly(0);
    let (from, to) = (start + 1, end + 1);
    assert_eq!(
        text.stdout,
        format!("found at 1:{from}–1:{to} (characters {start}..{end})\n")
    );

    let text = quote(&[&document, "the results were significant"]).exits_quietly(1);
    let line = text.stdout.trim_end();
    assert_eq!(text.stdout.lines().count(), 1, "{:?}", text.stdout);
    assert!(
        line.starts_with(&format!(
            "not found; closest passage at 1:{from}–1:{to} (characters {start}..{end}, similarity 0.80, 1 word"
        )),
        "{line}"
    );
    assert!(line.ends_with(&format!("): {QUOTE}")), "{line}");
}

/// A document of several lines, with a byte-order mark and multi-byte characters before the
/// quoted passage, which starts on line 3 and ends on line 4.
const LINES: &str = "\u{FEFF}Zürich — «café»\r\n\nIntro: the committee said the results\nwere not significant at all.\n";

#[test]
fn the_match_and_the_closest_passage_have_line_and_column() {
    let files = Files::new();
    let document = files.write("lines.txt", LINES);
    let found = quote(&[&document, QUOTE, "--format", "json"]).json(0);
    // Line 3 is `Intro: the committee said the results`: `the results` starts at column 27
    // (characters, the byte-order mark not counted); line 4's `significant` ends before column 21.
    assert_eq!(found["start"], json!({"line": 3, "column": 27}));
    assert_eq!(found["end"], json!({"line": 4, "column": 21}));
    let (start, end) = pair(&found["offsets"]);
    let text = quote(&[&document, QUOTE]).exits_quietly(0);
    assert_eq!(
        text.stdout,
        format!("found at 3:27–4:21 (characters {start}..{end})\n")
    );
    let missing = quote(&[
        &document,
        "the results were significant",
        "--format",
        "json",
    ])
    .json(1);
    assert_eq!(missing["closest"]["start"], found["start"]);
    assert_eq!(missing["closest"]["end"], found["end"]);
    let text = quote(&[&document, "the results were significant"]).exits_quietly(1);
    assert!(
        text.stdout
            .starts_with("not found; closest passage at 3:27–4:21 (characters "),
        "{}",
        text.stdout
    );
}

#[test]
fn below_half_the_words_no_passage_is_close() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    // Nothing in common: the search's first passage, similarity 0, is not shown.
    for unrelated in ["a bicycle crossed the bridge", "qwerty uiop asdf"] {
        let missing = quote(&[&document, unrelated, "--format", "json"]).json(1);
        assert_eq!(missing["closest"], Value::Null, "{unrelated}: {missing}");
        let text = quote(&[&document, unrelated]).exits_quietly(1);
        assert_eq!(
            text.stdout, "not found; no passage is close\n",
            "{unrelated}"
        );
    }
    // Half the words agree (2 of 4 differ): shown, at 0.5.
    let half = quote(&[
        &document,
        "the results are insignificant",
        "--format",
        "json",
    ])
    .json(1);
    assert_eq!(similarity(&half["closest"]), 0.5, "{half}");
    // Fewer than half (3 of 4 differ): not shown.
    let less = quote(&[
        &document,
        "the outcomes are insignificant",
        "--format",
        "json",
    ])
    .json(1);
    assert_eq!(less["closest"], Value::Null, "{less}");
}

// ------------------------------------------------------------------------------------------
// Normalisation

/// (what the case shows, document, quote, the passage of the document reported).
const NORMALISED: [(&str, &str, &str, &str); 10] = [
    (
        "ligatures",
        "The \u{FB01}rst \u{FB01}nding was signi\u{FB01}cant.",
        "the first finding was significant",
        "The \u{FB01}rst \u{FB01}nding was signi\u{FB01}cant",
    ),
    (
        "curly quotes",
        "He said \u{201C}the tower is tall\u{201D} today.",
        "said \"the tower is tall\" today",
        "said \u{201C}the tower is tall\u{201D} today",
    ),
    (
        "en dash",
        "The war lasted 1939\u{2013}1945 in Europe.",
        "lasted 1939-1945 in Europe",
        "lasted 1939\u{2013}1945 in Europe",
    ),
    (
        "white space",
        "The   tower\n   is \t  tall\u{A0}today.",
        "The tower is tall today",
        "The   tower\n   is \t  tall\u{A0}today",
    ),
    (
        "case",
        "THE TOWER IS TALL, SAID THE GUIDE.",
        "the tower is tall",
        "THE TOWER IS TALL",
    ),
    (
        "soft hyphen",
        "It was an extra\u{AD}ordinary result for them.",
        "an extraordinary result",
        "an extra\u{AD}ordinary result",
    ),
    (
        "word hyphenated across a line break",
        "Only the infor-\nmation was correct.",
        "the information was correct",
        "the infor-\nmation was correct",
    ),
    (
        "sup tags",
        "Einstein wrote E = mc<sup>2</sup> in 1905.",
        "E = mc2 in 1905",
        "E = mc<sup>2</sup> in 1905",
    ),
    (
        "ellipsis in order",
        "First we went home. Then we ate dinner. Finally we slept well.",
        "we went home \u{2026} we slept well",
        "we went home. Then we ate dinner. Finally we slept well",
    ),
    (
        "three dots",
        "First we went home. Then we ate dinner. Finally we slept well.",
        "we went home ... we ate dinner",
        "we went home. Then we ate dinner",
    ),
];

#[test]
fn normalised_quotes_are_found() {
    let files = Files::new();
    for (k, (case, text, wanted, passage)) in NORMALISED.iter().enumerate() {
        let document = files.write(&format!("document-{k}.txt"), text);
        let outcome = quote(&[&document, wanted, "--format", "json"]).output();
        assert_eq!(outcome.code, Some(0), "{case}: {}", outcome.stdout);
        let found = outcome.json();
        assert_eq!(found["found"], true, "{case}");
        assert_eq!(chars(text, &found["offsets"]), *passage, "{case}");
        assert_eq!(bytes(text, &found["byteOffsets"]), *passage, "{case}");
    }
}

#[test]
fn an_ellipsis_quote_out_of_order_is_not_found() {
    let text = "First we went home. Then we ate dinner. Finally we slept well.";
    let files = Files::new();
    let document = files.write("document.txt", text);
    for wanted in [
        "we slept well \u{2026} we went home",
        "we ate dinner ... we went home",
    ] {
        let missing = quote(&[&document, wanted, "--format", "json"]).json(1);
        assert_eq!(missing["found"], false, "{wanted}");
        assert_eq!(missing["offsets"], Value::Null, "{wanted}");
    }
    // Each fragment alone is there.
    quote(&[&document, "we slept well"]).exits_quietly(0);
    quote(&[&document, "we went home"]).exits_quietly(0);
}

// ------------------------------------------------------------------------------------------
// Quotes that must not match

/// (what changed, document, quote, closest passage).
const CHANGED: [(&str, &str, &str, &str); 4] = [
    (
        "a dropped not",
        "The drug did not reduce mortality in the trial.",
        "the drug did reduce mortality",
        "The drug did not reduce mortality",
    ),
    (
        "a changed number",
        "The tower is 330 metres tall and made of iron.",
        "the tower is 324 metres tall",
        "The tower is 330 metres tall",
    ),
    (
        "one word replaced",
        "The committee said the results were not significant at all.",
        "the results were not important",
        "the results were not significant",
    ),
    (
        "a word replaced after multi-byte text",
        "Zürich — «café» 日本. The tower was painted brown in 1968.",
        "the tower was painted red in 1968",
        "The tower was painted brown in 1968",
    ),
];

#[test]
fn changed_quotes_are_not_found_and_show_the_closest_passage() {
    let files = Files::new();
    for (k, (case, text, wanted, passage)) in CHANGED.iter().enumerate() {
        let document = files.write(&format!("document-{k}.txt"), text);
        let missing = quote(&[&document, wanted, "--format", "json"]).output();
        assert_eq!(missing.code, Some(1), "{case}: {}", missing.stdout);
        let missing = missing.json();
        assert_eq!(missing["found"], false, "{case}");
        let closest = &missing["closest"];
        assert_eq!(closest["differingWords"], 1, "{case}: {closest}");
        assert_eq!(closest["text"], *passage, "{case}");
        assert_eq!(chars(text, &closest["offsets"]), *passage, "{case}");
        let similarity = similarity(closest);
        assert!(similarity > 0.0 && similarity < 1.0, "{case}: {similarity}");
    }
}

#[test]
fn a_quote_must_start_and_end_on_word_boundaries() {
    let files = Files::new();
    let document = files.write("document.txt", "Then the tower was built in 1950.");
    for wanted in ["he tower was built", "the tower was built in 195"] {
        let missing = quote(&[&document, wanted, "--format", "json"]).json(1);
        assert_eq!(missing["found"], false, "{wanted}");
    }
    quote(&[&document, "the tower was built in 1950"]).exits_quietly(0);
}

// ------------------------------------------------------------------------------------------
// Bad input

#[test]
fn a_missing_document_is_an_input_error_naming_it() {
    let files = Files::new();
    let path = files.dir.path().join("no-such-document.txt");
    let path = path.to_str().expect("UTF-8");
    let line = quote(&[path, QUOTE]).input_error();
    assert!(
        line.starts_with(&format!("ragcite: error: {path}: cannot read")),
        "{line}"
    );
}

#[test]
fn a_missing_quote_file_is_an_input_error_naming_it() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let path = files.dir.path().join("no-such-quote.txt");
    let path = path.to_str().expect("UTF-8");
    let line = quote(&[&document, "--quote-file", path]).input_error();
    assert!(
        line.starts_with(&format!("ragcite: error: {path}: cannot read")),
        "{line}"
    );
}

#[test]
fn the_document_and_the_quote_cannot_both_come_from_stdin() {
    let line = quote(&["-"]).stdin(DOCUMENT.as_bytes()).input_error();
    assert!(line.contains("standard input"), "{line}");
    let line = quote(&["-", "--format", "json"])
        .stdin(DOCUMENT.as_bytes())
        .input_error();
    assert!(line.contains("standard input"), "{line}");
}

#[test]
fn an_empty_quote_is_an_input_error() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let empty_file = files.write("empty.txt", " \n\t\n");
    let cases: [(Vec<&str>, Option<&[u8]>); 4] = [
        (vec![&document, ""], None),
        (vec![&document, "   "], None),
        (vec![&document], Some(b"\n  \n")),
        (vec![&document, "--quote-file", &empty_file], None),
    ];
    for (args, stdin) in cases {
        let mut run = quote(&args);
        if let Some(bytes) = stdin {
            run = run.stdin(bytes);
        }
        let line = run.input_error();
        assert_eq!(line, "ragcite: error: the quote is empty", "{args:?}");
    }
}

#[test]
fn an_invalid_utf8_document_is_an_input_error_at_its_byte_offset() {
    let files = Files::new();
    let document = files.write("latin1.txt", b"The caf\xE9 was open late.");
    let line = quote(&[&document, "the cafe was open"]).input_error();
    assert_eq!(
        line,
        format!("ragcite: error: {document}: invalid UTF-8 at byte 7")
    );
    let quote_file = files.write("quote.txt", b"ok \xC3");
    let good = files.write("document.txt", DOCUMENT);
    let line = quote(&[&good, "--quote-file", &quote_file]).input_error();
    assert_eq!(
        line,
        format!("ragcite: error: {quote_file}: invalid UTF-8 at byte 3")
    );
}

#[test]
fn a_quote_argument_and_a_quote_file_together_are_a_usage_error() {
    let files = Files::new();
    let document = files.write("document.txt", DOCUMENT);
    let quote_file = files.write("quote.txt", QUOTE);
    let line = quote(&[&document, QUOTE, "--quote-file", &quote_file]).input_error();
    assert!(line.contains("--quote-file"), "{line}");
}

/// `check` reports spans into the answer as given, BOM included; `quote` should do the same
/// for the document it was given.
#[test]
fn offsets_count_a_byte_order_mark_of_the_document() {
    let text = "\u{FEFF}abc the tower is tall.";
    let files = Files::new();
    let document = files.write("bom.txt", text);
    let found = quote(&[&document, "the tower is tall", "--format", "json"]).json(0);
    assert_eq!(chars(text, &found["offsets"]), "the tower is tall");
    assert_eq!(bytes(text, &found["byteOffsets"]), "the tower is tall");
}

// ------------------------------------------------------------------------------------------
// Quotations in answer sentences (`ragcite check`)

/// `ragcite check ANSWER CHUNKS <extra>`.
fn check(answer: &str, extra: &[&str]) -> Run {
    ragcite(["check", answer, CHUNKS])
        .args(extra)
        .timeout(TIMEOUT)
}

/// `check ANSWER CHUNKS --format json`: the exit code asserted, nothing on stderr, the document.
fn check_json(answer: &str, code: i32) -> Value {
    check(answer, &["--format", "json"]).json(code)
}

/// The text of a chunk of [`CHUNKS`].
fn chunk_text(id: &str) -> String {
    util::chunk_text(CHUNKS, id)
}

fn sentence(document: &Value, index: usize) -> &Value {
    &document["result"]["sentences"][index - 1]
}

/// The text of the "what is wrong" column of the sentence table, one string per row, wrapped
/// lines joined with a space.
fn what_is_wrong(table: &str) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for line in table.lines() {
        if line.starts_with('┌') || line.starts_with('╞') {
            continue;
        }
        if line.starts_with('└') {
            break;
        }
        let cells: Vec<&str> = line
            .trim_start_matches('│')
            .trim_end_matches('│')
            .split('┆')
            .map(str::trim)
            .collect();
        if cells.first() == Some(&"#") {
            continue;
        }
        let last = cells.last().copied().unwrap_or("");
        if cells.first().is_some_and(|c| !c.is_empty()) {
            rows.push(last.to_string());
        } else if let Some(row) = rows.last_mut()
            && !last.is_empty()
        {
            if !row.is_empty() {
                row.push(' ');
            }
            row.push_str(last);
        }
    }
    rows
}

#[test]
fn a_quotation_found_in_the_cited_chunk_is_supported() {
    let document = check_json("testdata/quotes/quoted.md", 0);
    let first = sentence(&document, 1);
    assert_eq!(first["verdict"], "supported");
    let quotes = first["quotes"].as_array().expect("quotes");
    assert_eq!(quotes.len(), 1);
    let quote = &quotes[0];
    assert_eq!(
        keys(quote),
        [
            "byteOffsets",
            "chunk",
            "closest",
            "found",
            "offsets",
            "origin",
            "text"
        ]
    );
    assert_eq!(quote["text"], "the tower was repainted every seven years");
    assert_eq!(quote["origin"], "sentence");
    assert_eq!(quote["chunk"], "report");
    assert_eq!(quote["found"], true);
    assert_eq!(quote["closest"], Value::Null);
    let chunk = chunk_text("report");
    assert_eq!(
        chars(&chunk, &quote["offsets"]),
        "the tower was repainted every seven years"
    );
    assert_eq!(
        bytes(&chunk, &quote["byteOffsets"]),
        "the tower was repainted every seven years"
    );
    // `é` and `’` come before it in the chunk.
    assert_ne!(quote["offsets"], quote["byteOffsets"]);
    assert_eq!(document["result"]["counts"]["misquote"], 0);
    assert_eq!(document["result"]["citations"], json!([]));
}

#[test]
fn a_quotation_with_one_word_changed_is_a_misquote() {
    let answer = "testdata/quotes/misquoted.md";
    let document = check_json(answer, 1);
    let first = sentence(&document, 1);
    assert_eq!(first["verdict"], "misquote");
    let quote = &first["quotes"][0];
    assert_eq!(quote["text"], "the tower was repainted every five years");
    assert_eq!(quote["origin"], "sentence");
    assert_eq!(quote["chunk"], "report");
    assert_eq!(quote["found"], false);
    assert_eq!(quote["offsets"], Value::Null);
    let closest = &quote["closest"];
    assert_eq!(closest["text"], "the tower was repainted every seven years");
    assert_eq!(closest["differingWords"], 1);
    assert_eq!(
        chars(&chunk_text("report"), &closest["offsets"]),
        "the tower was repainted every seven years"
    );
    assert_eq!(document["result"]["counts"]["misquote"], 1);
    assert_eq!(
        document["gate"]["failures"],
        json!([{"limit": "max-misquotes", "counts": "misquotes", "found": 1, "allowed": 0, "over": 1}])
    );

    let table = check(answer, &["--color", "never"]).exits_quietly(1);
    let wrong = what_is_wrong(&table.stdout);
    assert_eq!(wrong.len(), 1, "{}", table.stdout);
    assert!(
        wrong[0].starts_with(
            "misquote: “the tower was repainted every five years” not in chunk report; closest (0.86, 1 word"
        ),
        "{wrong:?}"
    );
    assert!(
        wrong[0].ends_with(": “the tower was repainted every seven years”"),
        "{wrong:?}"
    );

    check(answer, &["--max-misquotes", "1"]).exits_quietly(0);
}

#[test]
fn a_quotation_in_an_uncited_sentence_is_not_checked() {
    let document = check_json("testdata/quotes/uncited-quote.md", 1);
    let first = sentence(&document, 1);
    assert_eq!(first["verdict"], "uncited-claim");
    assert_eq!(first["quotes"], json!([]));
    assert_eq!(document["result"]["counts"]["misquote"], 0);
    // Without the uncited-claim limit it passes: the quotation was never a misquote.
    check(
        "testdata/quotes/uncited-quote.md",
        &["--max-uncited", "1", "--format", "json"],
    )
    .exits_quietly(0);
}

#[test]
fn every_kind_of_quote_mark_is_checked() {
    let document = check_json("testdata/quotes/quote-marks.md", 1);
    let sentences = document["result"]["sentences"]
        .as_array()
        .expect("sentences");
    let verdicts: Vec<&str> = sentences
        .iter()
        .map(|s| s["verdict"].as_str().expect("a verdict"))
        .collect();
    assert_eq!(
        verdicts,
        [
            "misquote",
            "misquote",
            "misquote",
            "misquote",
            "misquote",
            "misquote",
            "supported",
            "supported"
        ]
    );
    for s in &sentences[..6] {
        let quotes = s["quotes"].as_array().expect("quotes");
        assert_eq!(quotes.len(), 1, "{}", s["sentence"]);
        assert_eq!(
            quotes[0]["text"], "the flagpole of Spain",
            "{}",
            s["sentence"]
        );
        assert_eq!(quotes[0]["closest"]["text"], "the flagpole of France");
    }
    // One quoted word is a term, not a quotation.
    assert_eq!(sentences[6]["quotes"], json!([]));
    // Guillemets in the answer, straight quotes in the chunk: found.
    assert_eq!(sentences[7]["quotes"][0]["found"], true);
    assert_eq!(sentences[7]["quotes"][0]["text"], "the flagpole of France");
    assert_eq!(document["result"]["counts"]["misquote"], 6);
}

// ------------------------------------------------------------------------------------------
// A large document

/// About 5 MB of generated sentences with a passage planted near the end, after multi-byte
/// characters.
fn large_document(passage: &str) -> String {
    const WORDS: [&str; 16] = [
        "the", "of", "tower", "iron", "café", "paint", "visitors", "year", "lattice", "metres",
        "built", "fair", "naïve", "century", "rust", "and",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut text = String::with_capacity(5_100_000);
    let mut planted = false;
    while text.len() < 5_000_000 {
        if !planted && text.len() > 4_500_000 {
            text.push_str(passage);
            text.push(' ');
            planted = true;
        }
        for k in 0..12 {
            if k > 0 {
                text.push(' ');
            }
            text.push_str(WORDS[(next() % WORDS.len() as u64) as usize]);
        }
        text.push_str(". ");
    }
    text
}

#[test]
fn a_quote_not_in_a_large_document_gets_its_closest_passage() {
    let passage = "The committee concluded that the bridge was structurally sound.";
    let text = large_document(passage);
    let files = Files::new();
    let document = files.write("large.txt", &text);
    let missing = quote(&[
        &document,
        "the committee concluded that the bridge was structurally unsound",
        "--format",
        "json",
    ])
    .json(1);
    assert_eq!(missing["found"], false);
    let closest = &missing["closest"];
    let reported = "The committee concluded that the bridge was structurally sound";
    assert_eq!(closest["text"], reported);
    assert_eq!(closest["differingWords"], 1);
    assert_eq!(chars(&text, &closest["offsets"]), reported);
    let (start, _) = pair(&closest["offsets"]);
    let byte_start = text.find(passage).expect("planted");
    assert!(
        start < byte_start,
        "multi-byte characters come before the passage"
    );
}
