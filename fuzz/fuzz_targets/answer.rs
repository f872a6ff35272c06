//! The answer reader, with the format auto-detected (plain text, provider responses, NDJSON
//! and SSE streams) and with each format forced: never panics; the provider citations' byte
//! spans lie inside the answer's text on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::input::{AnswerFormat, read_answer};
use ragcite_fuzz::assert_span;

fn read(data: &[u8], format: Option<AnswerFormat>) {
    let Ok(answer) = read_answer(data, format) else {
        return;
    };
    if let Some(forced) = format {
        assert_eq!(answer.format, forced, "forced format not kept");
    }
    if answer.format == AnswerFormat::Text {
        assert!(
            answer.offset + answer.text.len() == data.len(),
            "text answer: offset {} + {} bytes of text != {} bytes of input",
            answer.offset,
            answer.text.len(),
            data.len()
        );
    }
    for (k, citation) in answer.citations.iter().enumerate() {
        if let Some(span) = &citation.span {
            assert_span(&answer.text, span, &format!("citation {k} ({:?})", answer.format));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    read(data, None);
    for format in AnswerFormat::every() {
        read(data, Some(format));
    }
});
