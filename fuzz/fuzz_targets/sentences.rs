//! The sentence splitter on UTF-8 text: every span lies inside the text on character
//! boundaries, spans are in order and do not overlap, the prose keeps the text's byte offsets,
//! and line:column positions match the spans; in English and, by the first byte's parity, with
//! German's full stops (abbreviations and ordinals).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::marker::Resolver;
use ragcite::sentence::{Conventions, LineColumn, split_in};
use ragcite_fuzz::{assert_ordered_spans, assert_span};

/// Line and column (1-based, columns in characters) of byte `offset`, walking on from `at`.
fn advance(text: &str, from: usize, at: LineColumn, offset: usize) -> LineColumn {
    let mut at = at;
    for c in text[from..offset].chars() {
        if c == '\n' {
            at.line += 1;
            at.column = 1;
        } else {
            at.column += 1;
        }
    }
    at
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let resolver = Resolver::new(["1", "doc2"]);
    let code = if data.first().is_some_and(|b| b % 2 == 1) { "de" } else { "en" };
    let sentences = split_in(text, &resolver, &Conventions::for_code(code));
    assert_eq!(
        sentences.prose.len(),
        text.len(),
        "the prose does not keep the text's byte offsets"
    );
    assert_ordered_spans(text, sentences.spans.iter().map(|s| &s.span), "sentence");
    let mut offset = 0;
    let mut at = LineColumn { line: 1, column: 1 };
    for (k, sentence) in sentences.spans.iter().enumerate() {
        assert_span(&sentences.prose, &sentence.span, "sentence in the prose");
        assert!(
            sentence.span.start < sentence.span.end,
            "sentence {k}: empty span {:?}",
            sentence.span
        );
        at = advance(text, offset, at, sentence.span.start);
        assert_eq!(sentence.start, at, "sentence {k}: start position of {:?}", sentence.span);
        let end = advance(text, sentence.span.start, at, sentence.span.end);
        assert_eq!(sentence.end, end, "sentence {k}: end position of {:?}", sentence.span);
        at = end;
        offset = sentence.span.end;
    }
});
