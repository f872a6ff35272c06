//! Languages on the real binary (`testdata/locale/`): the answer's language detected by
//! default (`--lang auto`) or warned about when another is given; decimal commas, currency
//! words and German ordinal dates read as one figure and one sentence.

use serde_json::Value;

use crate::util::ragcite;

/// `check --format json` of a `testdata/locale/` case with `extra` options (exit code 0 or 1).
fn check(case: &str, extra: &[&str]) -> Value {
    let answer = format!("testdata/locale/{case}/answer.md");
    let chunks = format!("testdata/locale/{case}/chunks.json");
    let out = ragcite(["check", &answer, &chunks, "--format", "json"])
        .args(extra)
        .output();
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    out.json()
}

fn verdicts(document: &Value) -> Vec<String> {
    document["result"]["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["verdict"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_french_answer_without_lang_is_read_as_french() {
    let document = check("fr", &[]);
    assert_eq!(document["inputs"]["lang"], "fr");
    assert_eq!(document["inputs"]["langDetected"], true);
    assert_eq!(verdicts(&document), ["supported"; 3]);
    assert_eq!(document["warnings"], serde_json::json!([]));
}

#[test]
fn a_french_answer_read_as_english_is_warned_about() {
    let document = check("fr", &["--lang", "en"]);
    assert_eq!(document["inputs"]["lang"], "en");
    assert!(document["inputs"].get("langDetected").is_none());
    assert_eq!(
        document["warnings"][0],
        "the answer looks written in French but is read as English: pass --lang fr (or --lang auto)"
    );
    // The warning reaches standard error in the table output too.
    let out = ragcite([
        "check",
        "testdata/locale/fr/answer.md",
        "testdata/locale/fr/chunks.json",
        "--lang",
        "en",
        "--color",
        "never",
    ])
    .output();
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("looks written in French"), "{all}");
}

#[test]
fn an_english_answer_is_read_as_english_without_a_field_or_warning() {
    let document = check("../eiffel", &[]);
    assert_eq!(document["inputs"]["lang"], "en");
    assert!(document["inputs"].get("langDetected").is_none());
    assert!(
        !document["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w.as_str().unwrap().contains("looks written"))
    );
}

#[test]
fn a_german_answer_keeps_its_dates_and_decimal_commas() {
    let document = check("de", &[]);
    assert_eq!(document["inputs"]["lang"], "de");
    let sentences = document["result"]["sentences"].as_array().unwrap();
    // `am 15. Februar 2024` and `z. B.` end no sentence.
    assert_eq!(sentences.len(), 3, "{document:#}");
    assert!(
        sentences[0]["sentence"]
            .as_str()
            .unwrap()
            .contains("15. Februar 2024 unterzeichnet")
    );
    // `1.250,50 €` is the chunk's `1250,50 Euro`; `15. Februar 2024` its `15.02.2024`.
    assert_eq!(verdicts(&document), ["supported"; 3], "{document:#}");
    for sentence in sentences {
        assert_eq!(sentence["missingNumbers"], serde_json::json!([]));
    }
}

#[test]
fn lang_auto_is_accepted_by_batch_and_reported_per_record() {
    let dir = tempfile::tempdir().unwrap();
    let answer =
        std::fs::read_to_string(crate::util::path("testdata/locale/fr/answer.md")).unwrap();
    let chunks: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::util::path("testdata/locale/fr/chunks.json")).unwrap(),
    )
    .unwrap();
    let contexts: Vec<&Value> = chunks
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["text"])
        .collect();
    let record = serde_json::json!({"id": "fr", "answer": answer, "contexts": contexts});
    std::fs::write(dir.path().join("records.jsonl"), format!("{record}\n")).unwrap();
    let out = ragcite([
        "batch",
        "records.jsonl",
        "--format",
        "jsonl",
        "--lang",
        "auto",
    ])
    .in_dir(dir.path())
    .output();
    let first: Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(first["lang"], "fr", "{}", out.stdout);
}

#[test]
fn german_table_snapshot() {
    let stdout = ragcite([
        "check",
        "testdata/locale/de/answer.md",
        "testdata/locale/de/chunks.json",
        "--color",
        "never",
    ])
    .stdout(0);
    insta::assert_snapshot!("german_table", stdout);
}
