//! The claim scorer on the real binary: `claimScore` where it decides (an English sentence
//! without a citation that no phrase rule names and that states no figure), `background` below
//! `--claim-threshold`, `--claim-model rules` and a model file of `ragcite train --claims`,
//! `explain` naming the features that moved the score, and `eval` reporting the best claim
//! threshold.

use crate::util::Tree;

/// A cited claim, a pointer that states nothing to source, a claim of fact, and a figure.
const ANSWER: &str = "The tower is 330 metres tall [1].\n\nYou can download it from the official \
                      website.\n\nThe tower was designed by Gustave Eiffel and his engineers.\n\n\
                      It opened in 1889.\n";
const CHUNKS: &str = r#"[{"id": "1", "text": "The Eiffel Tower is 330 metres tall."}]"#;

fn tree() -> Tree {
    let tree = Tree::new();
    tree.write("answer.md", ANSWER);
    tree.write("chunks.json", CHUNKS);
    tree
}

fn sentences(tree: &Tree, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["check", "answer.md", "chunks.json", "--format", "json"];
    args.extend_from_slice(extra);
    let doc = tree.ragcite(&tree.root, args).output().json();
    doc["result"]["sentences"].as_array().unwrap().clone()
}

#[test]
fn the_scorer_quiets_a_sentence_below_the_claim_threshold_and_scores_only_what_it_decides() {
    let tree = tree();
    let s = sentences(&tree, &[]);
    let verdicts: Vec<&str> = s.iter().map(|s| s["verdict"].as_str().unwrap()).collect();
    assert_eq!(
        verdicts,
        ["supported", "no-claim", "uncited-claim", "uncited-claim"]
    );
    assert_eq!(s[1]["kind"], "background");
    let low = s[1]["claimScore"].as_f64().unwrap();
    let high = s[2]["claimScore"].as_f64().unwrap();
    assert!(low < 0.4 && (0.4..=1.0).contains(&high), "{low} {high}");
    // Cited, or stating a figure: the scorer does not decide, and no score is written.
    assert!(s[0].get("claimScore").is_none());
    assert!(s[3].get("claimScore").is_none());
    // A threshold of 0 keeps every sentence a claim; one above the claim's score quiets it.
    let all = sentences(&tree, &["--claim-threshold", "0"]);
    assert_eq!(all[1]["verdict"], "uncited-claim");
    let above = format!("{}", (high + 1.0) / 2.0);
    let strict = sentences(&tree, &["--claim-threshold", &above]);
    assert_eq!(strict[2]["verdict"], "no-claim");
    assert_eq!(strict[2]["kind"], "background");
    assert_eq!(
        strict[3]["verdict"], "uncited-claim",
        "a figure stays a claim"
    );
    // The phrase rules alone: no score, no background.
    let rules = sentences(&tree, &["--claim-model", "rules"]);
    assert_eq!(rules[1]["verdict"], "uncited-claim");
    assert!(rules.iter().all(|s| s.get("claimScore").is_none()));
}

#[test]
fn explain_names_the_claim_score_and_the_features_that_moved_it() {
    let tree = tree();
    let text = tree
        .ragcite(&tree.root, ["explain", "answer.md", "chunks.json"])
        .output()
        .exits(0)
        .stdout;
    let quiet = text
        .split("\n\n")
        .find(|block| block.contains("official website"))
        .unwrap();
    assert!(quiet.contains("background"), "{quiet}");
    assert!(quiet.contains("< claim threshold 0.40"), "{quiet}");
    // Three features, each with its value and what it measures.
    let lines: Vec<&str> = quiet
        .lines()
        .filter(|l| l.trim_start().starts_with("up ") || l.trim_start().starts_with("down "))
        .collect();
    assert_eq!(lines.len(), 3, "{quiet}");
    assert!(lines.iter().all(|l| l.contains(" = ") && l.contains(": ")));
}

#[test]
fn a_wrong_claim_threshold_or_model_is_an_input_error() {
    let tree = tree();
    let error = tree
        .ragcite(
            &tree.root,
            [
                "check",
                "answer.md",
                "chunks.json",
                "--claim-threshold",
                "1.5",
            ],
        )
        .output()
        .usage_error();
    assert!(error.contains("1.5 is outside 0..1"), "{error}");
    tree.write(
        "support.json",
        include_str!("../../crates/ragcite/src/support/model/model.json"),
    );
    for (file, wanted) in [
        (
            "support.json",
            "support.json: not a ragcite claim model: `format` is",
        ),
        ("missing.json", "missing.json"),
        ("chunks.json", "chunks.json: not a ragcite claim model"),
    ] {
        let error = tree
            .ragcite(
                &tree.root,
                ["check", "answer.md", "chunks.json", "--claim-model", file],
            )
            .output()
            .input_error();
        assert!(error.contains(wanted), "{error}");
    }
}

/// Labelled answers for `train --claims`: claims, and sentences that need no source.
fn labelled() -> String {
    let mut lines = Vec::new();
    for k in 0..30u8 {
        // A name of letters, so that no sentence states a figure (which the scorer leaves).
        let k = format!("{}{}", char::from(b'A' + k % 26), char::from(b'A' + k / 26));
        let answer = format!(
            "Thanks for the question number {k}! The bridge over river {k} was built of steel \
             and opened to traffic early. Let me know if you need anything else. The ferry \
             across lake {k} carries cars and passengers every morning."
        );
        let record = serde_json::json!({
            "id": format!("a-{k}"),
            "answer": answer,
            "sentences": [
                {"text": format!("Thanks for the question number {k}!"), "kind": "pleasantry"},
                {"text": format!("The bridge over river {k} was built of steel and opened to traffic early."), "claim": true},
                {"text": "Let me know if you need anything else.", "kind": "pleasantry"},
                {"text": format!("The ferry across lake {k} carries cars and passengers every morning."), "worthy": true},
            ],
        });
        lines.push(record.to_string());
    }
    lines.join("\n") + "\n"
}

#[test]
fn train_claims_fits_a_model_that_check_and_eval_read_and_the_same_labels_give_the_same_bytes() {
    let tree = tree();
    tree.write("labelled.jsonl", &labelled());
    for out in ["one.json", "two.json"] {
        let error = tree
            .ragcite(
                &tree.root,
                [
                    "train",
                    "--claims",
                    "labelled.jsonl",
                    "-o",
                    out,
                    "--min-leaf",
                    "5",
                ],
            )
            .output()
            .exits(0)
            .stderr;
        assert!(
            error.contains("trained a claim model on 120 sentences (60 claims)"),
            "{error}"
        );
    }
    let read = |name: &str| std::fs::read_to_string(tree.root.join(name)).unwrap();
    let one = read("one.json");
    assert_eq!(one, read("two.json"));
    assert!(
        one.starts_with(r#"{"format":"ragcite-claim-model","#),
        "{one}"
    );
    // The model is read by check (a score on each sentence it decides) and by eval.
    let s = sentences(&tree, &["--claim-model", "one.json"]);
    assert!(s[2]["claimScore"].as_f64().is_some());
    let doc = tree
        .ragcite(
            &tree.root,
            [
                "eval",
                "labelled.jsonl",
                "--format",
                "json",
                "--claim-model",
                "one.json",
            ],
        )
        .output()
        .exits(0)
        .json();
    let detection = &doc["groups"][0]["agreement"]["claimDetection"];
    // Every labelled sentence cites nothing: each is measured.
    assert_eq!(detection["labelled"], 120, "{detection}");
    let best = &detection["best"];
    assert!(best["threshold"].as_f64().unwrap() >= 0.05, "{best}");
    assert!(best["f1"].as_f64().unwrap() > 0.0, "{best}");
}

#[test]
fn train_claims_without_claim_labels_writes_nothing() {
    let tree = tree();
    tree.write(
        "labelled.jsonl",
        "{\"answer\": \"The tower is tall.\", \"chunks\": [], \"sentences\": [{\"text\": \"The tower is tall.\", \"label\": true}]}\n",
    );
    let error = tree
        .ragcite(
            &tree.root,
            ["train", "--claims", "labelled.jsonl", "-o", "model.json"],
        )
        .output()
        .input_error();
    assert!(
        error.contains("no labelled sentence with claim features"),
        "{error}"
    );
    assert!(!tree.root.join("model.json").exists());
}

#[test]
fn the_configuration_file_sets_the_claim_threshold_and_model_from_its_folder() {
    let tree = tree();
    tree.write(".ragcite.toml", "claim-threshold = 0\n");
    let s = tree
        .ragcite(
            &tree.root,
            ["check", "answer.md", "chunks.json", "--format", "json"],
        )
        .output()
        .json();
    assert_eq!(s["result"]["sentences"][1]["verdict"], "uncited-claim");
    assert_eq!(s["inputs"]["config"]["source"], "found");
    // A relative claim model is read from the file's folder.
    tree.write(
        "models/claims.json",
        include_str!("../../crates/ragcite/src/support/model/claims.json"),
    );
    tree.write(
        "sub/.ragcite.toml",
        "claim-model = \"../models/claims.json\"\n",
    );
    let error = tree
        .ragcite(
            &tree.root.join("sub"),
            ["check", "../answer.md", "../chunks.json"],
        )
        .output();
    assert_ne!(error.code, Some(2), "{}", error.stderr);
    tree.write(
        "sub/.ragcite.toml",
        "claim-model = \"../models/none.json\"\n",
    );
    let error = tree
        .ragcite(
            &tree.root.join("sub"),
            ["check", "../answer.md", "../chunks.json"],
        )
        .output()
        .input_error();
    assert!(error.contains("models/none.json"), "{error}");
}

#[test]
fn labelled_sentences_out_of_order_or_not_in_the_answer_are_bad_records() {
    let tree = tree();
    for (sentences, wanted) in [
        (
            r#"[{"text": "The ferry runs daily.", "claim": true}, {"text": "The bridge is old.", "claim": true}]"#,
            "`sentences[1].text` is not in the answer after the sentence before it",
        ),
        (
            r#"[{"text": "The tunnel is new.", "claim": true}]"#,
            "`sentences[0].text` is not in the answer",
        ),
        (
            r#"[{"text": "The bridge is old.", "kind": "opinion"}]"#,
            "`sentences[0].kind` is \"opinion\"",
        ),
    ] {
        tree.write(
            "bad.jsonl",
            &format!(
                "{{\"answer\": \"The bridge is old. The ferry runs daily.\", \"sentences\": {sentences}}}\n"
            ),
        );
        let error = tree
            .ragcite(
                &tree.root,
                ["train", "--claims", "bad.jsonl", "-o", "model.json"],
            )
            .output()
            .input_error();
        assert!(error.contains(wanted), "{error}");
        assert!(!tree.root.join("model.json").exists());
    }
}
