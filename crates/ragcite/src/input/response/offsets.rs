//! Offsets that providers give (bytes, characters, positions) turned into byte spans of the
//! answer's text, kept inside it and on character boundaries.

use std::ops::Range;

/// `start..end`, byte offsets into `part`, kept inside it and moved onto character boundaries
/// (the start back, the end forward, so the span still covers every byte it named); `None` when
/// nothing is left.
pub(super) fn byte_span(part: &str, start: u64, end: u64) -> Option<Range<usize>> {
    let len = part.len();
    let mut end = usize::try_from(end).map_or(len, |e| e.min(len));
    let mut start = usize::try_from(start).map_or(len, |s| s.min(len));
    // Offset 0 and `len` are boundaries, so neither loop leaves the text.
    while !part.is_char_boundary(start) {
        start -= 1;
    }
    while !part.is_char_boundary(end) {
        end += 1;
    }
    (start < end).then_some(start..end)
}

/// The byte offset of every character of `text`, then `text.len()`: character offsets become
/// byte offsets by one lookup each, and the table costs one pass.
pub(super) fn char_starts(text: &str) -> Vec<usize> {
    text.char_indices()
        .map(|(at, _)| at)
        .chain(std::iter::once(text.len()))
        .collect()
}

/// The byte span of characters `start..end` counted from `within.start` (character offsets),
/// kept inside `within`; `None` when nothing is left.
pub(super) fn char_span(
    char_starts: &[usize],
    within: &Range<usize>,
    start: u64,
    end: u64,
) -> Option<Range<usize>> {
    let len = within.end.saturating_sub(within.start);
    let clamp = |c: u64| usize::try_from(c).map_or(len, |c| c.min(len));
    let (start, end) = (clamp(start), clamp(end));
    if start >= end {
        return None;
    }
    let byte = |c: usize| char_starts.get(within.start + c).copied();
    Some(byte(start)?..byte(end)?)
}

/// A citation given as a position and no span (OpenAI `file_citation`, a Mistral reference
/// chunk) cites the sentence it ends: the span of the last character before byte `at` that is not
/// white space. `None` when there is none.
pub(super) fn ending_at(text: &str, at: usize) -> Option<Range<usize>> {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let (start, c) = text[..at]
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_whitespace())?;
    Some(start..start + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_spans_are_clamped_onto_character_boundaries() {
        let text = "aé€😀z"; // a(1) é(2) €(3) 😀(4) z(1): bytes 0, 1, 3, 6, 10, 11
        assert_eq!(byte_span(text, 0, 11), Some(0..11));
        assert_eq!(byte_span(text, 1, 3), Some(1..3));
        // Inside a character: the start moves back, the end forward.
        assert_eq!(byte_span(text, 2, 4), Some(1..6));
        assert_eq!(byte_span(text, 7, 8), Some(6..10));
        // Past the end: clamped, or nothing left.
        assert_eq!(byte_span(text, 10, 500), Some(10..11));
        assert_eq!(byte_span(text, 11, 500), None);
        assert_eq!(byte_span(text, 40, 500), None);
        assert_eq!(byte_span(text, u64::MAX, u64::MAX), None);
        // Empty or backwards.
        assert_eq!(byte_span(text, 3, 3), None);
        assert_eq!(byte_span(text, 6, 3), None);
        assert_eq!(byte_span("", 0, 5), None);
    }

    #[test]
    fn character_offsets_become_byte_offsets() {
        let text = "é€😀 tall";
        let starts = char_starts(text);
        assert_eq!(starts, [0, 2, 5, 9, 10, 11, 12, 13, 14]);
        let whole = 0..8;
        assert_eq!(char_span(&starts, &whole, 1, 3), Some(2..9));
        assert_eq!(&text[2..9], "€😀");
        assert_eq!(char_span(&starts, &whole, 4, 99), Some(10..14));
        assert_eq!(char_span(&starts, &whole, 8, 99), None);
        assert_eq!(char_span(&starts, &whole, 5, 2), None);
        // Counted from an item that starts at character 3, and kept inside it.
        assert_eq!(char_span(&starts, &(3..5), 0, 9), Some(9..11));
    }

    #[test]
    fn a_position_cites_the_character_before_it() {
        let text = "Tall. Old [x] \n\nNext";
        assert_eq!(ending_at(text, 5), Some(4..5));
        assert_eq!(&text[ending_at(text, 15).unwrap()], "]");
        assert_eq!(ending_at(text, 999), Some(text.len() - 1..text.len()));
        assert_eq!(ending_at(text, 0), None);
        assert_eq!(ending_at("  ", 2), None);
        assert_eq!(ending_at("é", 1), None);
        assert_eq!(ending_at("aé", 3), Some(1..3));
    }
}
