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
