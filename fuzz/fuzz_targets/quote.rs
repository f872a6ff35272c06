//! Quotation search: the input is split into (document, quotation) at its first 0xFF byte, or
//! in half. A match's character offsets lie within the document's character count, its byte
//! offsets are on character boundaries and name the same characters, and the closest passage's
//! similarity is in [0, 1] and its text is the document's text at its offsets. The search is
//! deterministic (a second search gives the same result). `quotations` gives ordered,
//! non-overlapping spans inside the sentence.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::quote::{QuoteMatch, QuoteSearch, quotations};
use ragcite_fuzz::{assert_ordered_spans, split_text};

/// The byte offset of character `n` of `text` (its length for `n` = the character count).
fn byte_of_char(text: &str, n: usize) -> Option<usize> {
    text.char_indices()
        .map(|(b, _)| b)
        .chain(std::iter::once(text.len()))
        .nth(n)
}

fn check_match(document: &str, chars: usize, quote: &str, found: &QuoteMatch) {
    if found.found {
        let [start, end] = found.offsets.expect("found without character offsets");
        let [byte_start, byte_end] = found.byte_offsets.expect("found without byte offsets");
        assert!(
            start <= end && end <= chars,
            "offsets {start}..{end} outside a document of {chars} characters"
        );
        assert!(
            byte_start <= byte_end && byte_end <= document.len(),
            "byte offsets {byte_start}..{byte_end} outside a document of {} bytes",
            document.len()
        );
        assert!(
            document.is_char_boundary(byte_start) && document.is_char_boundary(byte_end),
            "byte offsets {byte_start}..{byte_end} not on character boundaries"
        );
        assert_eq!(
            byte_of_char(document, start),
            Some(byte_start),
            "character offset {start} and byte offset {byte_start} disagree"
        );
        assert_eq!(
            byte_of_char(document, end),
            Some(byte_end),
            "character offset {end} and byte offset {byte_end} disagree"
        );
        assert!(found.closest.is_none(), "a found quotation has a closest passage");
    } else {
        assert!(
            found.offsets.is_none() && found.byte_offsets.is_none(),
            "not found but with offsets"
        );
    }
    if let Some(closest) = &found.closest {
        assert!(
            (0.0..=1.0).contains(&closest.similarity),
            "similarity {} outside [0, 1] for quote {quote:?}",
            closest.similarity
        );
        let [start, end] = closest.offsets;
        assert!(
            start <= end && end <= chars,
            "closest offsets {start}..{end} outside a document of {chars} characters"
        );
        let bytes = byte_of_char(document, start).unwrap()..byte_of_char(document, end).unwrap();
        assert_eq!(
            closest.text,
            &document[bytes.clone()],
            "closest passage's text is not the document's text at {start}..{end} (bytes {bytes:?})"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let (document, quote) = split_text(data);
    let chars = document.chars().count();
    let search = QuoteSearch::new(&document);
    let found = search.find(&quote);
    check_match(&document, chars, &quote, &found);
    assert_eq!(search.find(&quote), found, "a second search gave another result");

    for text in [&quote, &document] {
        let found = quotations(text);
        assert_ordered_spans(text, found.iter().map(|q| &q.span), "quotation");
    }
    // The quotations of the quote side, looked up as the checker does.
    for quotation in quotations(&quote).iter().take(8) {
        let found = search.find(&quotation.text);
        check_match(&document, chars, &quotation.text, &found);
    }
});
