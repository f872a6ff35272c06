use serde_json::json;

use super::*;
use crate::batch::identity::Identities;
use crate::batch::identity::tests::outcomes;

/// A record of a side without findings: its id (named or not) and question.
fn side(id: Option<&str>, question: Option<&str>, index: usize) -> SideRecord {
    SideRecord {
        index,
        file: "t.jsonl".to_string(),
        line: index,
        id: Some(id.map_or_else(|| index.to_string(), str::to_string)),
        has_id: id.is_some(),
        question: question.map(str::to_string),
        counts: Some(Counts::default()),
        error: None,
        findings: Vec::new(),
    }
}

fn unreadable(index: usize) -> SideRecord {
    SideRecord {
        id: None,
        counts: None,
        error: Some("invalid JSON".to_string()),
        ..side(None, None, index)
    }
}

#[test]
fn records_match_by_id_then_question_then_position() {
    let a = [
        side(Some("q1"), Some("How tall?"), 1),
        side(Some("q2"), Some("Where is it?"), 2),
        side(None, Some("When was it built?"), 3),
        side(None, None, 4),
        side(Some("q9"), Some("Only here?"), 5),
        unreadable(6),
    ];
    let b = [
        // Another order, other ids for one question, an anonymous record, one only in B.
        side(None, Some("  when WAS it built? "), 1),
        side(Some("x2"), Some("Where is it?"), 2),
        side(Some("q1"), Some("How tall is it?"), 3),
        side(None, None, 4),
        side(Some("q7"), Some("New here?"), 5),
    ];
    let matching = match_records(&a, &b);
    assert_eq!(
        matching.pairs,
        [
            (0, 2, MatchedBy::Id),
            (1, 1, MatchedBy::Question),
            (2, 0, MatchedBy::Question),
            (3, 3, MatchedBy::Position),
        ]
    );
    assert_eq!(matching.only_a, [4, 5]);
    assert_eq!(matching.only_b, [4]);
}

#[test]
fn duplicate_ids_and_questions_match_in_order() {
    let a = [side(Some("d"), None, 1), side(Some("d"), None, 2)];
    let b = [
        side(Some("d"), None, 1),
        side(Some("d"), None, 2),
        side(Some("d"), None, 3),
    ];
    let matching = match_records(&a, &b);
    assert_eq!(
        matching.pairs,
        [(0, 0, MatchedBy::Id), (1, 1, MatchedBy::Id)]
    );
    assert_eq!(matching.only_b, [2]);
    // A record whose id has no match and whose question is blank stays unmatched.
    let a = [side(Some("e"), Some(" "), 1)];
    let b = [side(None, None, 1)];
    assert_eq!(match_records(&a, &b).pairs, []);
}

/// The records of two transcripts, each checked and kept as `compare` keeps them.
fn sides(a: &[serde_json::Value], b: &[serde_json::Value]) -> (Vec<SideRecord>, Vec<SideRecord>) {
    let keep = |records: &[serde_json::Value]| {
        outcomes(records, &mut Identities::default())
            .iter()
            .map(SideRecord::of)
            .collect::<Vec<_>>()
    };
    (keep(a), keep(b))
}

const CONTEXT: &str = "The Eiffel Tower is 330 metres tall and stands in Paris.";

fn record(id: &str, answer: &str) -> serde_json::Value {
    json!({"id": id, "question": format!("Question {id}?"), "answer": answer, "contexts": [CONTEXT]})
}

#[test]
fn findings_fixed_new_and_moved() {
    let painted = "It was painted brown in 1968.";
    let (a, b) = sides(
        &[
            record("q1", &format!("It is 330 metres tall [1]. {painted}")),
            record("q2", "It is 330 metres tall [1]. It opened in 1889."),
        ],
        &[
            // q2 first; q1's uncited sentence moved to the front; q2's fixed, a new one in q1.
            record("q2", "It is 330 metres tall [1]."),
            record(
                "q1",
                &format!("{painted} It is 330 metres tall [1]. It was sold in 1925."),
            ),
        ],
    );
    let comparison = compare("a.jsonl", &a, "b.jsonl", &b);
    assert_eq!(comparison.matching.by_id, 2);
    let q1 = &comparison.records[0];
    assert_eq!(q1.a.id.as_deref(), Some("q1"));
    assert_eq!(q1.unchanged, 1, "the moved sentence is the same finding");
    assert_eq!(q1.new.len(), 1);
    assert_eq!(q1.new[0].text, "It was sold in 1925.");
    assert_eq!(q1.new[0].sentence, Some(3));
    let q2 = &comparison.records[1];
    assert_eq!(q2.fixed.len(), 1);
    assert_eq!(q2.fixed[0].rule, "uncited-claim");
    assert_eq!(
        comparison.findings,
        FindingTotals {
            new: 1,
            fixed: 1,
            unchanged: 1
        }
    );
    // 2 problems of 4 claims in A, 2 of 4 in B.
    assert_eq!(comparison.better, Better::Tie);
    assert!(comparison.summary_line().starts_with("A and B tie: "));
}

#[test]
fn the_side_with_fewer_problems_per_claim_is_better() {
    let (a, b) = sides(
        &[record(
            "q1",
            "It is 330 metres tall [1]. It opened in 1889.",
        )],
        &[record(
            "q1",
            "It is 330 metres tall [1]. It stands in Paris [1].",
        )],
    );
    let comparison = compare("a.jsonl", &a, "b.jsonl", &b);
    assert_eq!(comparison.better, Better::B);
    assert_eq!(comparison.a.problem_rate, 0.5);
    assert_eq!(comparison.b.problem_rate, 0.0);
    let supported = &comparison.rates[0];
    assert_eq!(
        (supported.name, supported.a, supported.b, supported.better),
        ("supported", 1, 2, Some(Side::B))
    );
    let uncited = comparison
        .rates
        .iter()
        .find(|r| r.name == "uncited-claim")
        .unwrap();
    assert_eq!((uncited.difference, uncited.better), (-0.5, Some(Side::B)));
    assert_eq!(comparison.rates.last().unwrap().better, None);
    assert!(comparison.summary_line().starts_with(
        "B is better: problem sentences 50.0% of claims in A, 0.0% in B (-50.0 points) over 1 matched record"
    ));
    let reversed = compare("b.jsonl", &b, "a.jsonl", &a);
    assert_eq!(reversed.better, Better::A);
}

#[test]
fn shares_compare_exactly_and_nothing_is_zero() {
    assert_eq!(shares((1, 3), (2, 6)), Ordering::Equal);
    assert_eq!(shares((1, 3), (1, 2)), Ordering::Less);
    assert_eq!(shares((0, 0), (1, 2)), Ordering::Less);
    assert_eq!(shares((0, 0), (0, 5)), Ordering::Equal);
    assert_eq!(shares((1, 2), (0, 0)), Ordering::Greater);
}
