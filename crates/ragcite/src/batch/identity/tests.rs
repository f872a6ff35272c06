use std::io::Cursor;
use std::sync::Arc;

use serde_json::json;

use super::*;
use crate::batch::baseline::KnownFinding;
use crate::batch::scan::RecordScanner;
use crate::batch::traces::Records;
use crate::batch::{Fields, run};
use crate::{Checker, Options};

/// The outcomes of checking these records (one JSON object a line) with the default limits,
/// marked by `identities`.
pub(crate) fn outcomes(
    records: &[serde_json::Value],
    identities: &mut Identities,
) -> Vec<RecordOutcome> {
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    let scanner = RecordScanner::new(Cursor::new(text.into_bytes()), true);
    let checker = Checker::new(Options::default());
    let (mut index, mut aggregate, mut seen) = (0, Aggregate::default(), Vec::new());
    run(
        Records::new(scanner),
        &Arc::from("t.jsonl"),
        &Fields::default(),
        &checker,
        &Limits::default(),
        &mut index,
        &mut aggregate,
        identities,
        |outcome| {
            seen.push(outcome.clone());
            Ok(())
        },
    )
    .expect("the records are read");
    seen
}

const CONTEXT: &str = "The Eiffel Tower is 330 metres tall and stands in Paris.";

fn record(id: Option<&str>, question: &str, answer: &str) -> serde_json::Value {
    let mut record = json!({"question": question, "answer": answer, "contexts": [CONTEXT]});
    if let Some(id) = id {
        record["id"] = json!(id);
    }
    record
}

fn fingerprints(outcome: &RecordOutcome) -> Vec<(&'static str, String)> {
    outcome
        .findings
        .iter()
        .map(|f| (f.rule, f.fingerprint.clone()))
        .collect()
}

#[test]
fn fnv1a_matches_the_published_vectors() {
    assert_eq!(fnv1a_bytes(*b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a_bytes(*b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a_bytes(*b"foobar"), 0x8594_4171_f739_67e8);
    assert_ne!(fnv1a_hex(&["ab", "c"]), fnv1a_hex(&["a", "bc"]));
    assert_eq!(fnv1a_hex(&["x"]).len(), 16);
}

#[test]
fn a_finding_keeps_its_fingerprint_when_its_sentence_moves() {
    let uncited = "The tower was painted brown in 1968.";
    let before = outcomes(
        &[record(
            Some("q1"),
            "How tall?",
            &format!("It is 330 metres tall [1]. {uncited}"),
        )],
        &mut Identities::default(),
    );
    let after = outcomes(
        &[record(
            Some("q1"),
            "How tall?",
            &format!("{uncited} It   is 330 metres tall [1]. It stands in Paris [1]."),
        )],
        &mut Identities::default(),
    );
    assert_eq!(before[0].findings[0].at, At::Sentence(2));
    assert_eq!(after[0].findings[0].at, At::Sentence(1));
    assert_eq!(fingerprints(&before[0]), fingerprints(&after[0]));
    assert_eq!(before[0].findings[0].rule, "uncited-claim");
}

#[test]
fn a_finding_keeps_its_fingerprint_when_its_record_moves() {
    let a = record(Some("a"), "Q a?", "It was built in 1740.");
    let b = record(None, "Where is it?", "It is in Lyon [1].");
    let c = record(None, "", "It was opened in 1801.");
    let first = outcomes(
        &[a.clone(), b.clone(), c.clone()],
        &mut Identities::default(),
    );
    let second = outcomes(&[b, a, c], &mut Identities::default());
    // By id, and by question when there is no id.
    assert_eq!(fingerprints(&first[0]), fingerprints(&second[1]));
    assert_eq!(fingerprints(&first[1]), fingerprints(&second[0]));
    // Neither an id nor a question: the position is all there is.
    assert_eq!(RecordKey::of(&first[2]), RecordKey::Position(3));
    assert_eq!(
        RecordKey::of(&first[1]),
        RecordKey::Question("where is it?".to_string())
    );
}

#[test]
fn findings_alike_in_every_part_are_numbered() {
    let same = "It was built in 1740.";
    let found = outcomes(
        &[record(Some("q"), "Q?", &format!("{same} {same}"))],
        &mut Identities::default(),
    );
    let [first, second] = &found[0].findings[..] else {
        panic!("two findings: {:?}", found[0].findings);
    };
    assert_eq!(first.key, second.key);
    assert_ne!(first.fingerprint, second.fingerprint);
    // The same sentence in another record is another finding.
    let other = outcomes(&[record(Some("r"), "Q?", same)], &mut Identities::default());
    assert_ne!(other[0].findings[0].fingerprint, first.fingerprint);
}

#[test]
fn unreadable_records_are_findings_named_by_their_text() {
    let found = outcomes(
        &[
            json!({"id": "x", "answer": "no contexts"}),
            json!({"id": "y", "answer": "A."}),
        ],
        &mut Identities::default(),
    );
    assert_eq!(found[0].findings[0].rule, "bad-record");
    assert_eq!(found[0].findings[0].at, At::Record);
    assert_ne!(
        found[0].findings[0].fingerprint,
        found[1].findings[0].fingerprint
    );
}

fn known(fingerprint: &str) -> KnownFinding {
    KnownFinding {
        fingerprint: fingerprint.to_string(),
        rule: "uncited-claim".to_string(),
        file: "t.jsonl".to_string(),
        line: 1,
        record: Some("q1".to_string()),
        sentence: Some(1),
        text: "gone".to_string(),
    }
}

fn baseline_of(fingerprints: &[&str]) -> Baseline {
    let mut baseline = Baseline::default();
    baseline.file = "b.json".to_string();
    for fingerprint in fingerprints {
        baseline.push(known(fingerprint));
    }
    baseline
}

#[test]
fn with_a_baseline_only_new_findings_count_against_the_limits() {
    let records = [
        record(
            Some("q1"),
            "Q1?",
            "It was built in 1740. It is 330 metres tall [1].",
        ),
        record(
            Some("q2"),
            "Q2?",
            "It was opened in 1801. It was sold in 1925.",
        ),
    ];
    let plain = outcomes(&records, &mut Identities::default());
    let old = plain[0].findings[0].fingerprint.clone();
    let other = plain[1].findings[0].fingerprint.clone();
    let mut identities =
        Identities::with_baseline(baseline_of(&[&old, &other, "0123456789abcdef"]));
    let marked = outcomes(&records, &mut identities);
    // q1's one finding is known: the record passes.
    assert_eq!(marked[0].findings[0].new, Some(false));
    let Ok(q1) = &marked[0].result else { panic!() };
    assert!(q1.gate.passed, "{:?}", q1.gate);
    // q2 has a known finding and a new one: it fails on the new one alone.
    let new: Vec<Option<bool>> = marked[1].findings.iter().map(|f| f.new).collect();
    assert_eq!(new, [Some(false), Some(true)]);
    let Ok(q2) = &marked[1].result else { panic!() };
    assert_eq!(q2.gate.failures[0].found, 1);
    let outcome = identities.outcome().expect("a baseline");
    assert_eq!((outcome.new, outcome.unchanged, outcome.fixed), (1, 2, 1));
    assert_eq!(outcome.fixed_findings[0].fingerprint, "0123456789abcdef");
    assert_eq!(outcome.line(), "baseline: 1 new, 1 fixed, 2 unchanged");
}

#[test]
fn the_batch_gate_with_a_baseline_reads_the_new_findings() {
    let records = [
        record(Some("q1"), "Q1?", "It was built in 1740."),
        json!({"id": "bad", "answer": "no contexts"}),
    ];
    let plain = outcomes(&records, &mut Identities::default());
    let known: Vec<&str> = plain
        .iter()
        .map(|o| o.findings[0].fingerprint.as_str())
        .collect();
    let limits = BatchLimits::new(
        Limits::default(),
        [Some(0.0), None, None, None, None],
        None,
        0,
    );
    let aggregate = |outcomes: &[RecordOutcome]| {
        let mut aggregate = Aggregate::default();
        for outcome in outcomes {
            aggregate.add(outcome);
        }
        aggregate
    };
    // Without a baseline: a bad record and an uncited rate of 1.
    let without = Identities::default().gate(&aggregate(&plain), &limits);
    assert!(!without.passed);
    assert_eq!(without.failures[0].limit, "max-bad-records");
    assert_eq!(without.rate_failures[0].limit, "max-uncited-rate");
    // With both findings in the baseline, the gate passes.
    let mut identities = Identities::with_baseline(baseline_of(&known));
    let marked = outcomes(&records, &mut identities);
    assert!(identities.gate(&aggregate(&marked), &limits).passed);
}

#[test]
fn unknown_markers_count_by_the_findings_that_carry_them() {
    // Sentence 1 is supported with an unknown marker; sentence 2 is uncited.
    let records = [record(
        Some("q1"),
        "Q?",
        "It is 330 metres tall [1][7]. It was painted brown in 1968.",
    )];
    let plain = outcomes(&records, &mut Identities::default());
    let rules: Vec<&str> = plain[0].findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, ["unknown-marker", "uncited-claim"]);
    let marker = plain[0].findings[0].fingerprint.clone();
    let mut identities = Identities::with_baseline(baseline_of(&[&marker]));
    let marked = outcomes(&records, &mut identities);
    let Ok(checked) = &marked[0].result else {
        panic!()
    };
    let limits: Vec<&str> = checked.gate.failures.iter().map(|f| f.limit).collect();
    assert_eq!(limits, ["max-uncited"]);
}
