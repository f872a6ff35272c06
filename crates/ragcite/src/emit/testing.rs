//! A check made by hand for the emitters' tests: three sentences judged by the checker, then
//! given what the contradiction detector would find, so that every output can be tested on a
//! `contradicted` sentence, a sentence with a citation that adds nothing, and an unsupported
//! sentence decided among two cited chunks, whatever the detector does today.

use super::{AnswerInput, InputFile, Inputs, Run};
use crate::gate::{GateOutcome, Limits};
use crate::report::{
    CitationFinding, Contradiction, ContradictionKind, Counts, Report, Span, Verdict,
};
use crate::{Checker, Options, input};

pub const ANSWER: &str = "Empagliflozin reduced all-cause mortality [2]. Hospital admissions for heart failure fell by a third in the trial [1][2]. The drug was approved for children in 2019 [1][2].";

const CHUNK_1: &str =
    "In the trial, hospital admissions for heart failure fell by a third with empagliflozin.";
pub const CHUNK_2: &str =
    "Empagliflozin did not significantly reduce all-cause mortality in the trial.";

/// The answer and chunks as read.
pub fn read() -> (input::Answer, input::Chunks) {
    let answer = input::read_answer(ANSWER.as_bytes(), None).expect("the answer reads");
    let chunks = serde_json::json!([
        {"id": "1", "text": CHUNK_1},
        {"id": "2", "text": CHUNK_2},
    ]);
    let chunks = input::read_chunks(chunks.to_string().as_bytes(), true).expect("chunks read");
    (answer, chunks)
}

/// The report: sentence 1 `contradicted` by chunk 2 ("did not significantly reduce",
/// polarity), sentence 2 supported by chunk 1 with chunk 2 adding nothing, sentence 3
/// `unsupported-citation` decided by chunk 1.
pub fn report() -> Report {
    let (answer, chunks) = read();
    let mut report = Checker::new(Options::default()).check(&answer, &chunks);
    let result = &mut report.result;
    let first = &mut result.sentences[0];
    let words = "did not significantly reduce";
    let at = CHUNK_2.find(words).expect("the words are in the chunk");
    first.verdict = Verdict::Contradicted;
    first.deciding_chunk = Some("2".to_string());
    first.contradiction = Some(Contradiction {
        kind: ContradictionKind::Polarity,
        chunk: "2".to_string(),
        sentence_words: "reduced".to_string(),
        chunk_words: words.to_string(),
        chunk_span: Span {
            start: at,
            end: at + words.len(),
        },
        passage: CHUNK_2.to_string(),
        reading: None,
    });
    let second = &mut result.sentences[1];
    assert_eq!(second.verdict, Verdict::Supported);
    assert_eq!(second.deciding_chunk.as_deref(), Some("1"));
    second.cited_chunks[1].finding = CitationFinding::AddsNothing;
    let third = &result.sentences[2];
    assert_eq!(third.verdict, Verdict::UnsupportedCitation);
    assert_eq!(third.deciding_chunk.as_deref(), Some("1"));
    result.counts = Counts::tally(
        &result.sentences,
        &result.chunks,
        &result.citations,
        result.unknown_markers.len(),
    );
    report
}

/// The inputs a run of [`report`] names.
pub fn inputs() -> Inputs {
    Inputs {
        answer: AnswerInput {
            path: "answer.md".to_string(),
            format: "text".to_string(),
            streamed: false,
            tokens: None,
        },
        chunks: InputFile {
            path: "chunks.json".to_string(),
            format: "json".to_string(),
        },
        threshold: crate::DEFAULT_THRESHOLD,
        model: "shipped".to_string(),
        lang: "en".to_string(),
        lang_detected: false,
        limits: Limits::default(),
        config: crate::emit::ConfigUsed::isolated(),
    }
}

/// Writes the report with `emitter`, under the default limits.
pub fn emitted(emitter: &dyn super::Emitter) -> String {
    let report = report();
    let gate: GateOutcome = Limits::default().evaluate(&report.result.counts);
    let inputs = inputs();
    let run = Run {
        report: &report,
        gate: &gate,
        inputs: &inputs,
    };
    let mut out = Vec::new();
    emitter.emit(&run, &mut out).expect("writes to memory");
    String::from_utf8(out).expect("UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::findings::check_findings;
    use crate::emit::{github, gitlab, junit, sarif};

    /// The message every CI format writes for the contradicted sentence.
    const CONTRADICTED: &str = "contradicted: chunk 2 says \"did not significantly reduce\" (polarity): \"Empagliflozin reduced all-cause mortality [2].\"";

    #[test]
    fn findings_name_the_contradicting_chunk_and_the_deciding_one() {
        let messages: Vec<String> = check_findings(&report(), "answer.md")
            .into_iter()
            .map(|f| f.message)
            .collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert_eq!(messages[0], CONTRADICTED);
        assert_eq!(
            messages[1],
            "unsupported-citation: 2019 is in none of the cited chunks (1, 2); the cited chunks (1, 2) hold few of its content words (coverage 0.00, support 0.00), missing drug, approved, children; decided by chunk 1: \"The drug was approved for children in 2019 [1][2].\""
        );
    }

    #[test]
    fn sarif_writes_the_contradiction() {
        let out = emitted(&sarif::SarifEmitter::default());
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let results = &doc["runs"][0]["results"];
        assert_eq!(results[0]["ruleId"], "contradicted");
        assert_eq!(results[0]["level"], "error");
        assert_eq!(results[0]["message"]["text"], CONTRADICTED);
        let rules = &doc["runs"][0]["tool"]["driver"]["rules"];
        assert_eq!(rules[0]["id"], "contradicted");
    }

    #[test]
    fn github_writes_the_contradiction() {
        let out = emitted(&github::GithubEmitter::default());
        let line = out
            .lines()
            .find(|l| l.contains("contradicted"))
            .expect("an annotation");
        assert!(line.starts_with("::error "), "{line}");
        assert!(
            line.contains("chunk 2 says \"did not significantly reduce\" (polarity)"),
            "{line}"
        );
    }

    #[test]
    fn gitlab_writes_the_contradiction() {
        let out = emitted(&gitlab::GitlabEmitter::default());
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc[0]["check_name"], "contradicted");
        assert_eq!(doc[0]["description"], CONTRADICTED);
    }

    #[test]
    fn the_html_report_carries_the_contradiction_and_styles_the_verdict() {
        let (answer, chunks) = read();
        let out = emitted(&crate::emit::html::HtmlEmitter {
            read: crate::emit::api::ReadInputs { answer, chunks },
        });
        for part in [
            "\"verdict\":\"contradicted\"",
            "\"chunkWords\":\"did not significantly reduce\"",
            "\"decidingChunk\":\"2\"",
            "\"finding\":\"adds-nothing\"",
            ".verdict-contradicted",
            "mark.contradicting",
            "function contradictionBox",
        ] {
            assert!(out.contains(part), "{part}");
        }
    }

    #[test]
    fn junit_has_a_contradicted_case_that_fails_with_the_finding() {
        let out = emitted(&junit::JunitEmitter::default());
        assert!(
            out.contains("name=\"contradicted\""),
            "a case for --max-contradicted:\n{out}"
        );
        assert!(
            out.contains("limit exceeded: 1 contradicted &gt; --max-contradicted 0 (+1)"),
            "{out}"
        );
        assert!(
            out.contains("chunk 2 says &quot;did not significantly reduce&quot; (polarity)"),
            "{out}"
        );
    }
}
