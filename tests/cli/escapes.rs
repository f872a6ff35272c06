//! What the inputs hold never reaches a terminal or a log raw: escape sequences (a title change,
//! a screen clear, an OSC 8 link), C1 codes, BEL, bidirectional controls and invisible
//! characters are written as visible `\u{…}` escapes by every text output and every error
//! line; and no JSON output holds U+0085, U+2028 or U+2029 raw, so that a reader that splits on
//! Unicode line ends sees one line per record.

use serde_json::Value;

use crate::util::ragcite;

/// Everything a hostile input could try on a terminal: a title change, a screen clear, an
/// OSC 8 link, a C1 CSI, a BEL, a right-to-left override, an isolate, a zero-width space, a
/// byte order mark.
const HOSTILE: &str = "\u{1b}]0;title\u{7} \u{1b}[2J \u{1b}]8;;http://evil.example/\u{1b}\\link\u{1b}]8;;\u{1b}\\ \u{9b}31m \u{7} \u{202e}evil\u{202c} \u{2066}x\u{2069} zero\u{200b}width \u{feff}";

/// The characters that must never reach a terminal raw: control characters but the line
/// break, bidirectional controls, invisible characters, line and paragraph separators.
fn harmful(c: char) -> bool {
    (c.is_control() && c != '\n')
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

fn assert_safe(text: &str, what: &str) {
    if let Some((at, c)) = text.char_indices().find(|(_, c)| harmful(*c)) {
        panic!(
            "{what}: U+{:04X} reached the terminal raw at byte {at}:\n{text}",
            u32::from(c)
        );
    }
}

/// An answer, its chunks and a document that hold [`HOSTILE`] in sentences, numbers, ids
/// and passages.
fn hostile_inputs() -> (tempfile::TempDir, String, String, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let answer = dir.path().join("answer.md");
    std::fs::write(
        &answer,
        format!("The tower {HOSTILE} is 331 metres tall [t{HOSTILE}1].\nThe tower {HOSTILE} is 330 metres [9].\n"),
    )
    .unwrap();
    let chunks = dir.path().join("chunks.json");
    let id = format!("t{HOSTILE}1");
    std::fs::write(
        &chunks,
        serde_json::json!([{"id": id, "text": format!("The tower {HOSTILE} is 330 metres tall.")}])
            .to_string(),
    )
    .unwrap();
    let document = dir.path().join("document.txt");
    std::fs::write(
        &document,
        format!("The tower {HOSTILE} is 330 metres tall and was built in 1889."),
    )
    .unwrap();
    let [a, c, d] = [answer, chunks, document].map(|p| p.to_str().unwrap().to_string());
    (dir, a, c, d)
}

#[test]
fn explain_escapes_the_answer_and_its_numbers() {
    let (_dir, answer, chunks, _) = hostile_inputs();
    let out = ragcite(["explain", &answer, &chunks]).exits(0);
    assert_safe(&out.stdout, "explain");
    assert_safe(&out.stderr, "explain's stderr");
    assert!(
        out.stdout.contains("\\u{1b}]0;title\\u{7}"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("\\u{202e}evil"), "{}", out.stdout);
}

#[test]
fn quote_escapes_the_closest_passage() {
    let (_dir, _, _, document) = hostile_inputs();
    let out = ragcite(["quote", &document, "The tower is 331 metres tall"]).exits(1);
    assert_safe(&out.stdout, "quote");
    assert!(out.stdout.contains("closest passage"), "{}", out.stdout);
    assert!(out.stdout.contains("zero\\u{200b}width"), "{}", out.stdout);
}

#[test]
fn check_and_batch_tables_escape_bidi_and_invisible_characters() {
    let (dir, answer, chunks, _) = hostile_inputs();
    let out = ragcite(["check", &answer, &chunks]).columns(200).output();
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_safe(&out.stdout, "check");
    assert!(out.stdout.contains("\\u{202e}"), "{}", out.stdout);

    let records = dir.path().join("records.jsonl");
    let record = serde_json::json!({
        "id": format!("r{HOSTILE}"),
        "answer": format!("The tower {HOSTILE} is 1 metre tall [1]."),
        "contexts": [format!("The tower {HOSTILE} is 330 metres tall.")],
    });
    let bad = serde_json::json!({"id": format!("b{HOSTILE}"), "answer": "No contexts."});
    std::fs::write(&records, format!("{record}\n{bad}\n")).unwrap();
    let out = ragcite(["batch", records.to_str().unwrap()])
        .columns(200)
        .output();
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_safe(&out.stdout, "batch");
    assert!(out.stdout.contains("\\u{200b}"), "{}", out.stdout);

    let out = ragcite(["check", &answer, &chunks, "--format", "github"]).output();
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert_safe(&out.stdout, "github");
    assert!(out.stdout.starts_with("::error "), "{}", out.stdout);
}

#[test]
fn eval_escapes_the_dataset_name_and_bad_records() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let labelled = dir.path().join("labelled.jsonl");
    let record = serde_json::json!({
        "dataset": format!("d{HOSTILE}"),
        "sentences": [{"text": "The tower is 330 metres tall [1].", "label": true}],
        "chunks": [{"id": "1", "text": "The tower is 330 metres tall."}],
    });
    let bad = serde_json::json!({"dataset": format!("d{HOSTILE}"), "nothing": HOSTILE});
    std::fs::write(&labelled, format!("{record}\n{bad}\n")).unwrap();
    let out = ragcite(["eval", labelled.to_str().unwrap()]).exits(0);
    assert_safe(&out.stdout, "eval");
    assert_safe(&out.stderr, "eval's stderr");
    assert!(out.stdout.contains("d\\u{1b}]0;title"), "{}", out.stdout);
    assert!(out.stdout.contains("bad record:"), "{}", out.stdout);
}

#[test]
fn error_lines_escape_file_names_and_values() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // A duplicate chunk id is quoted by the error.
    let chunks = dir.path().join("chunks.json");
    let id = format!("a{HOSTILE}");
    std::fs::write(
        &chunks,
        serde_json::json!([{"id": id, "text": "x"}, {"id": id, "text": "y"}]).to_string(),
    )
    .unwrap();
    let answer = dir.path().join("answer.md");
    std::fs::write(&answer, "The tower is 330 metres tall [1].\n").unwrap();
    let out = ragcite(["check", answer.to_str().unwrap(), chunks.to_str().unwrap()]).exits(2);
    assert_safe(&out.stderr, "a duplicate id's error");
    assert!(out.stderr.contains("\\u{202e}"), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    // A file name.
    let missing = dir.path().join(format!("missing{HOSTILE}.md"));
    for command in ["check", "explain"] {
        let out = ragcite([command, missing.to_str().unwrap(), chunks.to_str().unwrap()]).output();
        assert_eq!(out.code, Some(2), "{command}: {}", out.stderr);
        assert_safe(&out.stderr, command);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    }
    // A usage error quotes the argument.
    let out = ragcite(["check", &format!("--no-such{HOSTILE}")]).output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_safe(&out.stderr, "a usage error");
}

/// Lines as Python's `str.splitlines` splits them: also at U+000B, U+000C, U+001C–U+001E,
/// U+0085, U+2028 and U+2029.
fn splitlines(text: &str) -> Vec<&str> {
    let breaks = |c: char| {
        matches!(
            c,
            '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'
                ..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}'
        )
    };
    let mut lines: Vec<&str> = text.split(breaks).collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

#[test]
fn json_lines_hold_no_unicode_line_ends() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let records = dir.path().join("records.jsonl");
    let ends = [
        "a\u{85}b",
        "c\u{2028}d",
        "e\u{2029}f",
        "g\u{2028}\u{2029}\u{85}h",
    ];
    let lines: Vec<String> = ends
        .iter()
        .map(|end| {
            serde_json::json!({
                "id": end,
                "answer": format!("The tower {end} is 330 metres tall [1]."),
                "contexts": [format!("The tower {end} is 1 metre tall.")],
            })
            .to_string()
        })
        .collect();
    std::fs::write(&records, lines.join("\n") + "\n").unwrap();
    let out = ragcite(["batch", records.to_str().unwrap(), "--format", "jsonl"]).output();
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let read = splitlines(&out.stdout);
    assert_eq!(read.len(), 5, "4 records and the summary:\n{}", out.stdout);
    for (line, end) in read.iter().zip(ends) {
        let record: Value = serde_json::from_str(line).expect("each line is one record");
        assert_eq!(record["id"], end);
    }

    // The other JSON outputs, and the escapes read back to the same strings.
    let answer = dir.path().join("answer.md");
    std::fs::write(
        &answer,
        "The tower\u{2028}is 330 metres\u{85}tall [1\u{2029}x].\n",
    )
    .unwrap();
    let chunks = dir.path().join("chunks.json");
    std::fs::write(
        &chunks,
        serde_json::json!([{"id": "1\u{2029}x", "text": "The tower is 1 metre\u{2028}tall."}])
            .to_string(),
    )
    .unwrap();
    let (answer, chunks) = (answer.to_str().unwrap(), chunks.to_str().unwrap());
    for format in ["json", "sarif", "gitlab", "api"] {
        let out = ragcite(["check", answer, chunks, "--format", format]).output();
        assert!(
            !out.stdout.contains(['\u{85}', '\u{2028}', '\u{2029}']),
            "{format}: {}",
            out.stdout
        );
        let doc: Value = serde_json::from_str(&out.stdout).expect(format);
        if format == "json" || format == "api" {
            // The sentence as it was (SARIF's and GitLab's messages are escaped for a log).
            let sentence = doc
                .pointer("/result/sentences/0/sentence")
                .or(doc.pointer("/sentences/0/sentence"));
            assert_eq!(
                sentence.and_then(Value::as_str),
                Some("The tower\u{2028}is 330 metres\u{85}tall [1\u{2029}x]."),
                "{format}: {doc}"
            );
        }
    }
    for format in ["json", "sarif", "gitlab"] {
        let out = ragcite(["batch", records.to_str().unwrap(), "--format", format]).output();
        assert!(
            !out.stdout.contains(['\u{85}', '\u{2028}', '\u{2029}']),
            "batch {format}"
        );
        serde_json::from_str::<Value>(&out.stdout).expect(format);
    }
    let out = ragcite(["quote", chunks, "metre\u{2028}tall", "--format", "json"]).output();
    assert!(
        !out.stdout.contains(['\u{85}', '\u{2028}', '\u{2029}']),
        "{}",
        out.stdout
    );
    assert_eq!(splitlines(&out.stdout).len(), 1);
}
