//! Helpers shared by the fuzz targets: splitting one input in two and checking spans.

use std::ops::Range;

/// Splits `data` at its first 0xFF byte (which never occurs in UTF-8, so it is a natural
/// separator), dropping that byte; without one, in half.
pub fn split_bytes(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == 0xFF) {
        Some(k) => (&data[..k], &data[k + 1..]),
        None => data.split_at(data.len() / 2),
    }
}

/// Splits `data` into two strings: at its first 0xFF byte, each part decoded lossily; without
/// one, the whole input decoded lossily and cut at the character boundary nearest its middle.
pub fn split_text(data: &[u8]) -> (String, String) {
    if let Some(k) = data.iter().position(|&b| b == 0xFF) {
        return (
            String::from_utf8_lossy(&data[..k]).into_owned(),
            String::from_utf8_lossy(&data[k + 1..]).into_owned(),
        );
    }
    let text = String::from_utf8_lossy(data);
    let mut middle = text.len() / 2;
    while !text.is_char_boundary(middle) {
        middle -= 1;
    }
    (text[..middle].to_string(), text[middle..].to_string())
}

/// Asserts that `span` lies inside `text` with both ends on character boundaries.
#[track_caller]
pub fn assert_span(text: &str, span: &Range<usize>, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what}: span {span:?} outside text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what}: span {span:?} not on character boundaries"
    );
}

/// Asserts that every span lies inside `text` on character boundaries, and that the spans are
/// in order without overlapping.
#[track_caller]
pub fn assert_ordered_spans<'a>(
    text: &str,
    spans: impl IntoIterator<Item = &'a Range<usize>>,
    what: &str,
) {
    let mut previous_end = 0;
    for (k, span) in spans.into_iter().enumerate() {
        assert_span(text, span, what);
        assert!(
            span.start >= previous_end,
            "{what}: span #{k} {span:?} starts before the previous one ends ({previous_end})"
        );
        previous_end = span.end;
    }
}
