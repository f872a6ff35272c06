//! `ragcite eval` on the real binary: labelled records of both schemas, groups, the lenient
//! labels, bad records, and the JSON document.

use serde_json::Value;

use crate::util::{Run, ragcite};

const LABELLED: &str = "testdata/eval/labelled.jsonl";

/// `ragcite eval <args>`.
fn eval(args: &[&str]) -> Run {
    ragcite(["eval"]).args(args)
}

fn group<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["groups"]
        .as_array()
        .and_then(|groups| groups.iter().find(|g| g["group"] == name))
        .map(|g| &g["agreement"])
        .unwrap_or_else(|| panic!("no group {name} in {doc}"))
}

/// `eval LABELLED --format json <args>`: exit 0 asserted, the document.
fn json(args: &[&str]) -> Value {
    eval(&[LABELLED, "--format", "json"])
        .args(args)
        .exits(0)
        .json()
}

#[test]
fn units_are_grouped_and_counted() {
    let doc = json(&[]);
    assert_eq!(doc["records"], 7);
    // The records without a `dataset` field form the group `all`.
    let towers = group(&doc, "towers");
    assert_eq!(
        (towers["positives"].as_u64(), towers["negatives"].as_u64()),
        (Some(2), Some(1))
    );
    // The changed height is a number mismatch, which people also rejected.
    assert_eq!(towers["numberMismatch"]["flagged"], 1);
    assert_eq!(towers["numberMismatch"]["precision"], 1.0);
    // A claim whose marker stands only after a line break is one unit: supported.
    assert_eq!(towers["confusion"]["truePositive"], 2);
    let all = group(&doc, "all");
    assert_eq!(all["sentences"], 3, "two `labels` and one `label`");
    assert_eq!(all["confusion"]["trueNegative"], 1);
    assert_eq!(group(&doc, "(all)")["sentences"], 8);
}

#[test]
fn lenient_labels_replace_strict_ones_where_present() {
    let strict = json(&[]);
    let lenient = json(&["--lenient"]);
    assert_eq!(group(&strict, "museums")["positives"], 1);
    assert_eq!(group(&lenient, "museums")["positives"], 2);
}

#[test]
fn bad_records_are_listed_with_their_line() {
    let doc = json(&[]);
    let bad = doc["badRecords"].as_array().expect("a list");
    assert_eq!(bad.len(), 1);
    assert!(
        bad[0].as_str().unwrap().contains("line 7: invalid JSON"),
        "{bad:?}"
    );
    let table = eval(&[LABELLED]).exits(0).stdout;
    assert!(
        table.contains("bad record: testdata/eval/labelled.jsonl: line 7"),
        "{table}"
    );
    assert!(table.ends_with("7 records read, 1 bad\n"), "{table}");
}

#[test]
fn the_table_shows_metrics_and_histograms() {
    let table = eval(&[LABELLED, "--threshold", "0.5"]).output().stdout;
    for heading in [
        "AUC",
        "macro-F1",
        "TP/FP/FN/TN",
        "best t (macro-F1)",
        "score distribution",
    ] {
        assert!(table.contains(heading), "{heading} in {table}");
    }
    assert_eq!(
        table.matches("supported").count(),
        20,
        "ten bins, two classes: {table}"
    );
}

#[test]
fn the_threshold_changes_predictions_not_scores() {
    let low = json(&["--threshold", "0.3"]);
    let high = json(&["--threshold", "1"]);
    assert_eq!(
        group(&low, "(all)")["rocAuc"],
        group(&high, "(all)")["rocAuc"]
    );
    assert_ne!(
        group(&low, "(all)")["confusion"],
        group(&high, "(all)")["confusion"]
    );
}

#[test]
fn input_errors_exit_2() {
    let line = eval(&["testdata/eval/missing.jsonl"]).input_error();
    assert!(line.contains("testdata/eval/missing.jsonl"), "{line}");
    eval(&[]).exits(2);
}

#[test]
fn a_given_model_is_reported_beside_the_shipped_one() {
    let doc = json(&["--model", "formula"]);
    assert_eq!(doc["inputs"]["model"], "formula");
    assert_eq!(
        doc["inputs"]["models"],
        serde_json::json!(["shipped", "formula"])
    );
    let rows: Vec<(String, String)> = doc["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["group"].as_str().unwrap().to_string(),
                g["model"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Group by group, the shipped model first.
    assert_eq!(rows[0], ("all".to_string(), "shipped".to_string()));
    assert_eq!(rows[1], ("all".to_string(), "formula".to_string()));
    assert_eq!(rows.len(), 8, "{rows:?}");
    // Each model's scores are its own: the formula's match a run of the formula alone.
    let alone = json(&["--model", "formula"]);
    assert_eq!(alone["groups"][1], doc["groups"][1]);
    let shipped = json(&[]);
    assert_eq!(shipped["inputs"]["models"], serde_json::json!(["shipped"]));
    assert_eq!(
        shipped["groups"][0]["agreement"],
        doc["groups"][0]["agreement"]
    );
    assert_ne!(
        doc["groups"][0]["agreement"]["positiveScores"],
        doc["groups"][1]["agreement"]["positiveScores"]
    );
    // The table names the model of each row.
    let table = eval(&[LABELLED, "--model", "formula"]).stdout(0);
    assert!(
        table.contains("towers (shipped)") && table.contains("towers (formula)"),
        "{table}"
    );
}

#[test]
fn features_are_exported_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("features.jsonl");
    let path = path.to_str().unwrap();
    eval(&[LABELLED, "--features", path]).exits(0);
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // One line per labelled unit, with the label, the source ids and every feature named.
    assert_eq!(lines.len(), 8);
    let names = ragcite(["explain", "--features"]).stdout(0);
    for line in &lines {
        assert!(line["label"].is_boolean() && line["document"].is_string());
        if let Some(features) = line["features"].as_object() {
            assert_eq!(features.len(), 17);
            for name in features.keys() {
                assert!(
                    names.lines().any(|l| l.starts_with(name.as_str())),
                    "{name}"
                );
            }
        }
    }
    // A directory is refused before anything is read, and nothing is left behind.
    let refused = eval(&[LABELLED, "--features", dir.path().to_str().unwrap()]).exits(2);
    assert!(
        refused.stderr.contains("is a directory"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// Records whose sentences carry `worthy` and `abstention` labels, written for this test.
const DETECTION: &str = concat!(
    r#"{"id": "d1", "chunks": [{"id": "1", "text": "The Eiffel Tower is 330 metres tall."}], "sentences": ["#,
    r#"{"text": "The Eiffel Tower is 330 metres tall.", "label": false, "worthy": true}, "#,
    r#"{"text": "The tower was painted red in 1889 by its builders.", "label": false, "worthy": false}, "#,
    r#"{"text": "Let me know if you need anything else!", "worthy": false}, "#,
    r#"{"text": "The tower is 330 metres tall [1].", "label": true, "worthy": true}, "#,
    r#"{"text": "The provided documents do not say how many people visit it each year.", "abstention": true}, "#,
    r#"{"text": "The tower stands in Paris.", "abstention": false}]}"#,
    "\n"
);

#[test]
fn claim_and_abstention_detection_where_sentences_are_labelled_for_them() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("detection.jsonl"), DETECTION).unwrap();
    let doc = ragcite(["eval", "detection.jsonl", "--format", "json"])
        .in_dir(dir.path())
        .exits(0)
        .json();
    let a = group(&doc, "all");
    // Three uncited sentences labelled `worthy` (the cited one is not counted): two claims
    // flagged, one of them worthy; the pleasantry is quiet.
    let claims = &a["claimDetection"];
    assert_eq!(claims["labelled"], 3, "{claims}");
    assert_eq!(claims["positives"], 1, "{claims}");
    assert_eq!(claims["flagged"], 2, "{claims}");
    assert_eq!(claims["correct"], 1, "{claims}");
    assert_eq!(claims["precision"], 0.5, "{claims}");
    assert_eq!(claims["recall"], 1.0, "{claims}");
    let abstentions = &a["abstentionDetection"];
    assert_eq!(abstentions["labelled"], 2, "{abstentions}");
    assert_eq!(abstentions["flagged"], 1, "{abstentions}");
    assert_eq!(abstentions["precision"], 1.0, "{abstentions}");
    assert_eq!(abstentions["recall"], 1.0, "{abstentions}");
    // The support figures count only the sentences with a `label`.
    assert_eq!(a["sentences"], 3);

    let table = ragcite(["eval", "detection.jsonl"])
        .in_dir(dir.path())
        .columns(300)
        .exits(0)
        .stdout;
    for column in ["claim prec", "claim rec", "abst prec", "abst rec"] {
        assert!(table.contains(column), "{column}:\n{table}");
    }
    assert!(table.contains("0.500 (2)"), "{table}");
}

#[test]
fn sets_without_those_labels_have_no_detection_columns() {
    let doc = json(&[]);
    assert!(group(&doc, "towers").get("claimDetection").is_none());
    let table = eval(&[LABELLED]).columns(300).exits(0).stdout;
    assert!(!table.contains("claim prec"), "{table}");
    assert!(!table.contains("abst prec"), "{table}");
}

/// The table at `COLUMNS` 60, 80, 120 (the tests' default) and 200: every line within the width,
/// every figure whole on its line, the columns that do not fit left out in their order and named
/// under the table.
#[test]
fn the_table_fits_the_width() {
    // (columns, columns shown, named as left out)
    let cases: [(u16, &[&str], &[&str]); 4] = [
        (
            60,
            &["group", "n", "AUC", "P", "R", "F1", "macro-F1"],
            &[
                "pos/neg",
                "TP/FP/FN/TN",
                "nm prec",
                "mq prec",
                "ct prec",
                "best t (macro-F1)",
            ],
        ),
        (
            80,
            &["group", "n", "pos/neg", "AUC", "macro-F1"],
            &[
                "TP/FP/FN/TN",
                "nm prec",
                "mq prec",
                "ct prec",
                "best t (macro-F1)",
            ],
        ),
        (
            120,
            &[
                "pos/neg",
                "macro-F1",
                "TP/FP/FN/TN",
                "nm prec",
                "best t (macro-F1)",
            ],
            &["mq prec", "ct prec"],
        ),
        (200, &["TP/FP/FN/TN", "ct prec", "best t (macro-F1)"], &[]),
    ];
    for (columns, shown, left_out) in cases {
        let output = eval(&[LABELLED]).columns(columns).exits(0).stdout;
        for line in output.lines() {
            assert!(
                line.chars().count() <= usize::from(columns),
                "{columns}: {line:?} is wider:\n{output}"
            );
        }
        let header = output.lines().nth(1).unwrap_or_default();
        for column in shown {
            assert!(
                header.contains(&format!("┆ {column} "))
                    || header.starts_with(&format!("│ {column} ")),
                "{columns}: {column} in the header:\n{output}"
            );
        }
        if shown.contains(&"best t (macro-F1)") {
            assert!(output.contains("┆ 0.10 (1.000) "), "{columns}:\n{output}");
        }
        let note = output
            .split("not shown at this width: ")
            .nth(1)
            .map(|rest| {
                rest.split(" (a wider")
                    .next()
                    .unwrap_or("")
                    .replace('\n', " ")
            });
        if left_out.is_empty() {
            assert_eq!(note, None, "{columns}:\n{output}");
        } else {
            assert_eq!(note, Some(left_out.join(", ")), "{columns}:\n{output}");
            for column in left_out {
                assert!(!header.contains(column), "{columns}: {column} in {header}");
            }
        }
        insta::assert_snapshot!(format!("eval_table_{columns}_columns"), output);
    }
}

/// Issue 38: labels written as `"true"` or `1`, or under a misspelled key, were dropped without
/// a word: `eval` reported n = 0, every metric 0.000 and a best threshold, exit 0. A label that
/// is neither a boolean nor null makes its record bad, named with the label's place; `null` is
/// "not judged", skipped and counted; no unit at all is an input error.
#[test]
fn labels_that_are_no_booleans_are_bad_records_and_null_is_not_judged() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let chunks = r#"[{"id": "1", "text": "The Eiffel Tower in Paris is 330 metres tall."}]"#;
    let sentence = |label: &str| {
        format!(
            r#"{{"dataset": "d", "sentences": [{{"text": "The Eiffel Tower is 330 metres tall [1].", {label}}}], "chunks": {chunks}}}"#
        )
    };
    let file = dir.path().join("labels.jsonl");
    let lines = [
        sentence(r#""label": true"#),
        sentence(r#""label": "true""#),
        sentence(r#""label": 1"#),
        sentence(r#""lable": true"#),
        sentence(r#""label": null"#),
        format!(
            r#"{{"answer": "The Eiffel Tower is 330 metres tall [1].", "labels": [null], "chunks": {chunks}}}"#
        ),
        format!(
            r#"{{"answer": "The Eiffel Tower is 330 metres tall [1].", "labels": ["yes"], "chunks": {chunks}}}"#
        ),
        format!(
            r#"{{"answer": "The Eiffel Tower is 330 metres tall [1].", "label": null, "chunks": {chunks}}}"#
        ),
    ];
    std::fs::write(&file, lines.join("\n")).expect("written");
    let path = file.to_str().expect("UTF-8");
    let doc = eval(&[path, "--format", "json"]).exits(0).json();
    assert_eq!(doc["records"], 8);
    assert_eq!(doc["notJudged"], 3, "{doc}");
    let bad: Vec<String> = crate::util::strings(&doc["badRecords"]);
    assert_eq!(bad.len(), 4, "{bad:?}");
    for (bad, wanted) in bad.iter().zip([
        "line 2: `sentences[0].label` is a string; expected true, false or null",
        "line 3: `sentences[0].label` is a number",
        "line 4: `sentences[0]` has no `label`",
        "line 7: `labels[0]` is a string",
    ]) {
        assert!(bad.contains(wanted), "{bad} (wanted {wanted})");
    }
    assert_eq!(group(&doc, "d")["sentences"], 1);
    let table = eval(&[path]).exits(0).stdout;
    assert!(
        table.ends_with("8 records read, 4 bad, 3 units not judged (label null)\n"),
        "{table}"
    );
    // Nothing left to measure: an input error, not a table of zeros.
    let none = dir.path().join("none.jsonl");
    std::fs::write(
        &none,
        [&lines[1], &lines[3], &lines[4]]
            .map(String::as_str)
            .join("\n"),
    )
    .expect("written");
    let line = eval(&[none.to_str().expect("UTF-8")]).input_error();
    assert!(
        line.contains("no labelled unit to measure (3 records read, 2 bad, 1 unit not judged)"),
        "{line}"
    );
    assert!(
        line.contains("line 1: `sentences[0].label` is a string"),
        "{line}"
    );
}
