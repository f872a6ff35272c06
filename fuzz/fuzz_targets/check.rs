//! The whole check: the input is split into (answer, chunks) at its first 0xFF byte, or in
//! half; when both read, checking never panics, every sentence's span slices the answer's text
//! (after the answer's offset) into the sentence as reported, every score is in [0, 1], and the
//! result serialises to JSON; the deciding chunk is one the sentence cites, a contradiction
//! names a cited chunk and its span slices that chunk's text into the words reported, and
//! only a contradicted sentence carries one. Checked both sentence by sentence and as one
//! unit, and with the answer's first line as its question (its figures are context).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::input::{read_answer, read_chunks};
use ragcite::{Checker, Options, Report};
use ragcite_fuzz::split_bytes;
use std::sync::LazyLock;

static CHECKER: LazyLock<Checker> = LazyLock::new(|| Checker::new(Options::default()));

fn check_report(answer: &ragcite::Answer, chunks: &ragcite::Chunks, report: &Report) {
    let result = &report.result;
    let mut previous_end = answer.offset;
    for (k, sentence) in result.sentences.iter().enumerate() {
        let span = sentence.span.start..sentence.span.end;
        assert!(
            span.start >= answer.offset && span.start <= span.end,
            "sentence {k}: span {span:?} before the answer's offset {}",
            answer.offset
        );
        let local = span.start - answer.offset..span.end - answer.offset;
        let Some(text) = answer.text.get(local.clone()) else {
            panic!(
                "sentence {k}: span {span:?} does not slice the answer's {} bytes of text",
                answer.text.len()
            );
        };
        assert_eq!(sentence.sentence, text, "sentence {k}: text differs from its span");
        assert!(
            span.start >= previous_end,
            "sentence {k}: span {span:?} overlaps the previous one"
        );
        previous_end = span.end;
        if let Some(deciding) = &sentence.deciding_chunk {
            assert!(sentence.cited.contains(deciding), "sentence {k}: deciding chunk not cited");
        }
        if let Some(found) = &sentence.contradiction {
            assert_eq!(sentence.verdict, ragcite::Verdict::Contradicted, "sentence {k}");
            assert!(sentence.cited.contains(&found.chunk), "sentence {k}: contradiction");
            let text = chunks
                .chunks
                .iter()
                .find(|c| c.id == found.chunk)
                .map(|c| c.text.as_str())
                .unwrap_or_default();
            assert_eq!(
                text.get(found.chunk_span.start..found.chunk_span.end),
                Some(found.chunk_words.as_str()),
                "sentence {k}: the contradiction's span"
            );
        } else {
            assert_ne!(sentence.verdict, ragcite::Verdict::Contradicted, "sentence {k}");
        }
        for (name, score) in [
            ("coverage", sentence.coverage),
            ("support", sentence.support),
            ("best coverage", sentence.best_coverage),
        ] {
            assert!(
                (0.0..=1.0).contains(&score),
                "sentence {k}: {name} {score} outside [0, 1]"
            );
        }
    }
    for chunk in &result.chunks {
        assert!(
            (0.0..=1.0).contains(&chunk.best_coverage),
            "chunk {}: best coverage {} outside [0, 1]",
            chunk.id,
            chunk.best_coverage
        );
    }
    assert_eq!(result.counts.sentences, result.sentences.len(), "sentence count");
    if let Err(e) = serde_json::to_string(result) {
        panic!("the result does not serialise: {e}");
    }
}

fuzz_target!(|data: &[u8]| {
    let (answer, chunks) = split_bytes(data);
    let (Ok(answer), Ok(chunks)) = (read_answer(answer, None), read_chunks(chunks, false)) else {
        return;
    };
    let report = CHECKER.check(&answer, &chunks);
    check_report(&answer, &chunks, &report);
    let report = CHECKER.check_as_one(&answer, &chunks);
    check_report(&answer, &chunks, &report);
    let mut asked = answer.clone();
    asked.question = answer.text.lines().next().map(str::to_string);
    let report = CHECKER.check(&asked, &chunks);
    check_report(&asked, &chunks, &report);
});
