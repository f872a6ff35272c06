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

/// Math notation is no figure: exponents, bounds and indices of a variable are not numbers a
/// chunk must hold; a p-value, a sample size and a quantity with a unit beside them still are.
#[test]
fn math_notation_is_no_figure_but_statistics_are() {
    let dir = tempfile::tempdir().unwrap();
    const CHUNK: &str = "Fermat's Last Theorem: no positive integers satisfy the equation for \
                         larger exponents. The polynomial has no real roots. The cohomology \
                         group vanishes for a simply connected space. The trial found the drug \
                         lowered blood pressure in patients.";
    std::fs::write(
        dir.path().join("chunks.json"),
        json!([{"id": "1", "text": CHUNK}]).to_string(),
    )
    .unwrap();
    let verdicts = |answer: &str, code: i32| -> Vec<Value> {
        std::fs::write(dir.path().join("answer.md"), answer).unwrap();
        let doc = ragcite(["check", "answer.md", "chunks.json", "--format", "json"])
            .in_dir(dir.path())
            .json(code);
        doc["result"]["sentences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s["verdict"], s["missingNumbers"]]))
            .collect()
    };
    let math = verdicts(
        "For n > 2, no positive integers a, b and c satisfy a^n + b^n = c^n [1].\n\
         The polynomial x^2 + 1 has no real roots [1].\n\
         The cohomology group H^1(X) vanishes for a simply connected space X [1].\n",
        0,
    );
    for found in &math {
        assert_eq!(found[0], "supported", "{math:?}");
        assert_eq!(found[1], json!([]), "{math:?}");
    }
    let statistics = verdicts(
        "The trial found the drug lowered blood pressure in patients (n = 120, p < 0.05) [1].\n",
        1,
    );
    assert_eq!(statistics[0][0], "number-mismatch", "{statistics:?}");
    assert_eq!(statistics[0][1], json!(["120", "0.05"]), "{statistics:?}");
}

/// A figure derived from a rate the chunk states and a quantity of the sentence, the units
/// agreeing (`70 kg × 5 mg/kg = 350 mg`), is no mismatch, with `derived` naming the inputs; a
/// figure the rate does not give is one, and so is the quantity it was not derived from.
#[test]
fn a_figure_from_a_rate_and_the_sentences_quantity_is_derived() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("answer.md"),
        "For a 70 kg adult, the usual dose is 350 to 700 mg a day [1].\n\
         For a 70 kg adult, the usual dose is 400 mg a day [1].\n\
         For a 70 kg adult, the usual dose is 350 ml a day [1].\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("chunks.json"),
        json!([{"id": "1", "text": "The usual dose is 5–10 mg/kg a day."}]).to_string(),
    )
    .unwrap();
    let doc = ragcite(["check", "answer.md", "chunks.json", "--format", "json"])
        .in_dir(dir.path())
        .json(1);
    let sentences = &doc["result"]["sentences"];
    assert_eq!(sentences[0]["verdict"], "supported", "{doc:#}");
    assert_eq!(
        sentences[0]["derived"],
        json!([
            {"number": "350", "how": "70 kg × 5 mg/kg = 350 mg"},
            {"number": "700", "how": "70 kg × 10 mg/kg = 700 mg"},
        ])
    );
    assert_eq!(sentences[1]["verdict"], "number-mismatch");
    assert_eq!(sentences[1]["missingNumbers"], json!(["70", "400"]));
    // The units must agree: millilitres are no milligrams.
    assert_eq!(sentences[2]["verdict"], "number-mismatch");
    assert_eq!(sentences[2]["missingNumbers"], json!(["70", "350"]));
}

/// Figures in another form are held, names are no figures: a figure the sentence rounds
/// (`around 189 pounds` of the chunk's `188.6 lb`), a decade the chunk writes in two digits
/// (`'40s`) or whose year it gives (`1897`), a code section's subdivision (`501(c)(3)`). The
/// near cases stay mismatches: a figure given without `around`, a decade no year of which the
/// chunk gives, a `20th-century` that dates nothing.
#[test]
fn figures_in_another_form_are_held_and_names_are_no_figures() {
    let dir = tempfile::tempdir().unwrap();
    const CHUNK: &str = "The average man in his twenties weighs 188.6 lb. Birthrates were low \
                         during the 1930s and early '40s. He qualified as an engineer in 1897. \
                         Spirit of America is a charity. The Civil Rights Act of 1964 passed.";
    std::fs::write(
        dir.path().join("chunks.json"),
        json!([{"id": "1", "text": CHUNK}]).to_string(),
    )
    .unwrap();
    let verdicts = |answer: &str, code: i32| -> Vec<Value> {
        std::fs::write(dir.path().join("answer.md"), answer).unwrap();
        let doc = ragcite(["check", "answer.md", "chunks.json", "--format", "json"])
            .in_dir(dir.path())
            .json(code);
        doc["result"]["sentences"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["missingNumbers"].clone())
            .collect()
    };
    let held = verdicts(
        "The average man in his twenties weighs around 189 pounds [1].\n\
         Birthrates were low during the 1930s and early 1940s [1].\n\
         He qualified as an engineer in the late 1890s [1].\n\
         Spirit of America is a 501(c)(3) charity [1].\n",
        0,
    );
    assert!(held.iter().all(|m| m == &json!([])), "{held:?}");
    let missing = verdicts(
        "The average man in his twenties weighs 189 pounds [1].\n\
         Birthrates were low during the 1930s and early 1950s [1].\n\
         The Civil Rights Act passed, a 20th-century landmark [1].\n",
        1,
    );
    assert_eq!(
        missing,
        [json!(["189"]), json!(["1950s"]), json!(["20th"])],
        "{missing:?}"
    );
}
