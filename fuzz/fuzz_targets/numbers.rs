//! The number scanner (with a decimal point and with a decimal comma), and the figures a sentence writes in words: spans are non-empty, in
//! order, do not overlap, lie inside the text on character boundaries, and each number's text
//! is the text of its span.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::words::{Decimal, numbers, numbers_in, spelled_figures};
use ragcite_fuzz::assert_ordered_spans;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for found in [numbers(text), numbers_in(text, Decimal::Comma), spelled_figures(text)] {
    assert_ordered_spans(text, found.iter().map(|n| &n.span), "number");
    for (k, number) in found.iter().enumerate() {
        assert!(!number.span.is_empty(), "number {k}: empty span {:?}", number.span);
        assert_eq!(
            number.text,
            &text[number.span.clone()],
            "number {k}: text differs from its span {:?}",
            number.span
        );
    }
    }
});
