//! Contradictions on the real binary: each reversed fact of the issue is `contradicted`, with
//! the chunk's words that contradict it; what is not a contradiction stays `supported`; `eval`
//! counts a contradicted sentence as not supported.

use serde_json::{Value, json};

use crate::util::{check_sentences, ragcite};

/// `check` of one sentence against chunks given as (id, text), in `--lang lang`: the first
/// sentence's result.
fn sentence(answer: &str, chunks: &[(&str, &str)], lang: &str) -> Value {
    check_sentences(answer, chunks, lang).swap_remove(0)
}

/// The sentence is contradicted by `chunk` (of id `id`) with these words of the chunk.
fn contradicted(answer: &str, id: &str, chunk: &str, lang: &str, kind: &str, words: &str) {
    let result = sentence(answer, &[(id, chunk)], lang);
    assert_eq!(result["verdict"], "contradicted", "{answer}: {result:#}");
    let found = &result["contradiction"];
    assert_eq!(found["kind"], kind, "{answer}: {found:#}");
    assert_eq!(found["chunkWords"], words, "{answer}: {found:#}");
    assert_eq!(found["chunk"], id);
    let (start, end) = (
        found["chunkSpan"]["start"].as_u64().unwrap() as usize,
        found["chunkSpan"]["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&chunk[start..end], words);
    assert_eq!(result["decidingChunk"], id);
}

#[test]
fn a_chunk_that_did_not_significantly_reduce_contradicts_reduced() {
    contradicted(
        "Empagliflozin reduced all-cause mortality [2].",
        "2",
        "In the EMPA trial, empagliflozin did not significantly reduce all-cause mortality in \
         patients with heart failure.",
        "en",
        "polarity",
        "did not significantly reduce",
    );
}

/// The same predicate denied (`offered`). `SMS codes can be used as a second factor` against
/// the same chunk is left alone since issue 39: `used` is another predicate than `offered`,
/// and a negation of one says nothing of the other.
#[test]
fn a_feature_not_offered_contradicts_offered() {
    contradicted(
        "SMS codes are offered as a second factor [1].",
        "1",
        "SMS codes are not offered as a second factor.",
        "en",
        "polarity",
        "are not offered",
    );
}

#[test]
fn a_negation_in_the_sentence_contradicts_the_chunk() {
    contradicted(
        "VACUUM FULL does not need an exclusive lock [1].",
        "1",
        "VACUUM FULL requires an ACCESS EXCLUSIVE lock on the table.",
        "en",
        "polarity",
        "requires an ACCESS EXCLUSIVE lock",
    );
}

#[test]
fn a_direction_against_the_chunks_own_figures() {
    contradicted(
        "Operating margin fell in 2023 [1].",
        "1",
        "Operating margin was 12.1% in 2022 and 14.3% in 2023.",
        "en",
        "direction",
        "12.1% in 2022 and 14.3% in 2023",
    );
}

#[test]
fn french_negation_words_are_read_although_they_are_stop_words() {
    contradicted(
        "Le billet n'est pas valable le dimanche [1].",
        "1",
        "Le billet est valable du lundi au dimanche.",
        "fr",
        "polarity",
        "valable du lundi au dimanche",
    );
}

#[test]
fn a_chunk_that_limits_to_another_plan_contradicts() {
    contradicted(
        "SSO is available on the Pro plan [1].",
        "1",
        "SSO: Enterprise plan only.",
        "en",
        "exclusivity",
        "Enterprise plan only",
    );
}

#[test]
fn antonyms_both_ways() {
    contradicted(
        "Quarterly profits rose sharply [1].",
        "1",
        "Quarterly profits fell sharply.",
        "en",
        "antonym",
        "fell",
    );
    contradicted(
        "Quarterly profits fell sharply [1].",
        "1",
        "Quarterly profits rose sharply.",
        "en",
        "antonym",
        "rose",
    );
}

#[test]
fn an_unrelated_negation_and_a_copied_sentence_stay_supported() {
    for (answer, chunk) in [
        (
            "Empagliflozin reduced all-cause mortality in the trial [1].",
            "Empagliflozin reduced all-cause mortality in the trial. It did not change blood \
             pressure.",
        ),
        (
            "The update fixes the crash and improves speed [1].",
            "The update not only fixes the crash but also improves speed.",
        ),
        (
            "The old API is no longer supported after version 3 [1].",
            "The old API is no longer supported after version 3.",
        ),
    ] {
        let result = sentence(answer, &[("1", chunk)], "en");
        assert_eq!(result["verdict"], "supported", "{answer}: {result:#}");
        assert!(result["contradiction"].is_null());
    }
}

#[test]
fn eval_counts_a_contradicted_sentence_as_not_supported() {
    let dir = tempfile::tempdir().unwrap();
    let record = json!({
        "sentences": [{"text": "Quarterly profits rose sharply [1].", "label": false}],
        "chunks": [{"id": "1", "text": "Quarterly profits fell sharply."}],
    });
    std::fs::write(dir.path().join("labelled.jsonl"), format!("{record}\n")).unwrap();
    let doc = ragcite(["eval", "labelled.jsonl", "--format", "json"])
        .in_dir(dir.path())
        .json(0);
    let confusion = &doc["groups"][0]["agreement"]["confusion"];
    assert_eq!(confusion["trueNegative"], 1, "{doc:#}");
    assert_eq!(confusion["falsePositive"], 0, "{doc:#}");
}

/// The regression set cut from real answers (`testdata/contradictions/real.jsonl`: every
/// `contradicted` verdict a build before issue 39 gave on AttributionBench's and ExpertQA's dev
/// sets, read by hand): each is contradicted exactly when the hand judgement says the chunk
/// says the opposite.
#[test]
fn real_answers_are_contradicted_only_where_people_read_a_contradiction() {
    let set = std::fs::read_to_string(crate::util::path("testdata/contradictions/real.jsonl"))
        .expect("the regression set");
    let judged: Vec<Value> = set
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert!(judged.len() >= 20);
    let out = ragcite([
        "batch",
        "--isolated",
        "testdata/contradictions/real.jsonl",
        "--format",
        "jsonl",
        "--all",
    ])
    .stdout(1);
    let records: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["type"] == "record")
        .collect();
    assert_eq!(records.len(), judged.len());
    for (record, judgement) in records.iter().zip(&judged) {
        assert_eq!(record["id"], judgement["id"]);
        let flagged = record["counts"]["contradicted"].as_u64().unwrap() > 0;
        assert_eq!(
            flagged,
            judgement["contradicts"].as_bool().unwrap(),
            "{}: {}",
            judgement["id"],
            judgement["note"]
        );
    }
}

/// `explain` reads the predicate on both sides and says why they agree or not: an implicit
/// negative and a plain one deny the same predicate (`ruled out raising` against `could not
/// raise`, `is unlikely … deletes` against `will not delete`) and agree; a negation against a
/// statement is opposite.
#[test]
fn explain_shows_both_readings_of_the_predicate() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "The ministry ruled out raising taxes this year [1].",
            "The ministry said it could not raise taxes this year.",
            "the predicate: sentence “raising”, denied (“ruled out”); chunk 1 “raise”, denied \
             (“could not raise”): agree (two negatives)",
        ),
        (
            "It is unlikely that the update deletes user data [1].",
            "The update will not delete user data.",
            "the predicate: sentence “deletes”, denied (“is unlikely”); chunk 1 “delete”, denied \
             (“will not delete”): agree (two negatives)",
        ),
        (
            "SMS codes are offered as a second factor [1].",
            "SMS codes are not offered as a second factor.",
            "the predicate: sentence “offered”, stated; chunk “offered”, denied (“are not \
             offered”): opposite",
        ),
    ];
    for (answer, chunk, line) in cases {
        std::fs::write(dir.path().join("answer.md"), answer).unwrap();
        let chunks = json!([{"id": "1", "text": chunk}]);
        std::fs::write(dir.path().join("chunks.json"), chunks.to_string()).unwrap();
        let out = ragcite(["explain", "answer.md", "chunks.json"])
            .in_dir(dir.path())
            .stdout(0);
        assert!(out.contains(line), "{answer}\n{out}");
    }
}
