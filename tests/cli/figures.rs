//! Figures as the command line reads them: a figure the question states is context (`check
//! --question`, a batch record's question), and a figure in words before a unit is checked.

use serde_json::{Value, json};

use crate::util::ragcite;

/// A figure the question states is context, not a claim the answer must cite: `--question` on
/// `check`, a record's `question` (or `user_input`, `input`, `query`) in `batch`.
#[test]
fn a_figure_the_question_states_is_context() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.md");
    let chunks = dir.path().join("chunks.json");
    const ANSWER: &str =
        "A 12 year old who attempted suicide should see a psychiatrist at once [1].";
    const CHUNK: &str = "A child who attempted suicide should see a psychiatrist at once.";
    std::fs::write(&answer, ANSWER).unwrap();
    std::fs::write(&chunks, json!([{"id": "1", "text": CHUNK}]).to_string()).unwrap();
    let (answer, chunks) = (answer.to_str().unwrap(), chunks.to_str().unwrap());
    let verdict = |doc: &Value| doc["result"]["sentences"][0]["verdict"].clone();
    let without = ragcite(["check", answer, chunks, "--format", "json"]).json(1);
    assert_eq!(verdict(&without), "number-mismatch");
    let question = "Should a 12 year old who attempted suicide see a psychiatrist?";
    let with = ragcite([
        "check",
        answer,
        chunks,
        "--format",
        "json",
        "--question",
        question,
    ])
    .json(0);
    assert_eq!(verdict(&with), "supported");
    assert_eq!(with["result"]["sentences"][0]["checkWorthy"], json!([]));
    // Another figure is still a claim.
    let other = ragcite([
        "check",
        answer,
        chunks,
        "--format",
        "json",
        "--question",
        "Should a 13 year old see a psychiatrist?",
    ])
    .json(1);
    assert_eq!(verdict(&other), "number-mismatch");
    // In a batch, the record's question.
    let records = dir.path().join("records.jsonl");
    let record = |key: &str| {
        let mut record = json!({"id": key, "answer": ANSWER, "contexts": [CHUNK]});
        if key != "none" {
            record[key] = json!(question);
        }
        record.to_string()
    };
    let lines: Vec<String> = ["question", "user_input", "input", "query", "none"]
        .iter()
        .map(|k| record(k))
        .collect();
    std::fs::write(&records, lines.join("\n")).unwrap();
    let out = ragcite(["batch", records.to_str().unwrap(), "--format", "jsonl"]).stdout(1);
    let passed: Vec<(String, bool)> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "record")
        .map(|v| {
            (
                v["id"].as_str().unwrap().to_string(),
                v["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        passed,
        [
            ("question".to_string(), true),
            ("user_input".to_string(), true),
            ("input".to_string(), true),
            ("query".to_string(), true),
            ("none".to_string(), false),
        ]
    );
}

/// A figure in words before a unit is a figure: `one hour` is not in a chunk that says `30
/// minutes`, and is in one that says `60 minutes` or `an hour`.
#[test]
fn figures_in_words_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let answer = dir.path().join("answer.md");
    std::fs::write(&answer, "The reset link stays valid for one hour [1].").unwrap();
    let verdict = |chunk: &str| {
        let chunks = dir.path().join("chunks.json");
        std::fs::write(&chunks, json!([{"id": "1", "text": chunk}]).to_string()).unwrap();
        let out = ragcite([
            "check",
            answer.to_str().unwrap(),
            chunks.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        doc["result"]["sentences"][0]["verdict"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        verdict("The reset link stays valid for 30 minutes."),
        "number-mismatch"
    );
    assert_eq!(
        verdict("The reset link stays valid for 60 minutes."),
        "supported"
    );
    assert_eq!(
        verdict("The reset link stays valid for an hour."),
        "supported"
    );
}
