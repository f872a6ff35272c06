//! Quotations in a sentence: which quote marks open and close one, and which pairs hold a
//! quotation worth verifying (three words or more; not a possessive's apostrophe).

use super::words::{is_word_char, word_spans};
use super::*;

/// Fewer words than this between quote marks is a title, a term or a scare quote, not a
/// quotation worth verifying.
pub(crate) const MIN_QUOTATION_WORDS: usize = 3;

/// A pair of quote marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Marks {
    /// “…”
    Double,
    /// „…“ and „…”
    Low,
    /// «…»
    Guillemets,
    /// 「…」
    Corner,
    /// 『…』
    WhiteCorner,
    /// ‘…’
    Single,
    /// "…"
    StraightDouble,
    /// '…'
    StraightSingle,
}

const ALL_MARKS: [Marks; 8] = [
    Marks::Double,
    Marks::Low,
    Marks::Guillemets,
    Marks::Corner,
    Marks::WhiteCorner,
    Marks::Single,
    Marks::StraightDouble,
    Marks::StraightSingle,
];

/// Characters after which a straight quote mark can open a quotation, besides white space and
/// the start of the sentence. After a letter or digit it is an apostrophe or an inch sign.
const BEFORE_OPENING: &[char] = &[
    '(', '[', '{', '<', '-', '‐', '–', '—', '/', '“', '‘', '«', '„', '"', '\'', ':',
];

/// The quotations of a sentence: text between “…”, "…", «…», „…“ (also „…”), 「…」, 『…』,
/// ‘…’ and '…' holding three or more words.
///
/// A quotation's closing mark is the first one after its opening mark, so a nested quotation
/// stays inside the one around it and is not reported on its own; an opening mark that opens
/// again before any closing one (`“a “b c d”`) was left unclosed. Straight marks pair only
/// where they open after a space or bracket and close before a space or punctuation, which
/// keeps apostrophes (`don't`, `the students' books`) and inch signs out. A ’ or ' that looks
/// like a plural possessive (`students’ books`) closes a quotation only when no other closing
/// mark follows. An opening mark without a closing one is skipped.
pub fn quotations(sentence: &str) -> Vec<Quotation> {
    // Most sentences quote nothing: skip them without decoding when no opening mark occurs.
    // A straight single quote opens only after white space or punctuation (`'word`), never
    // inside a word (`it's`).
    let bytes = sentence.as_bytes();
    let may_quote = bytes.iter().enumerate().any(|(k, &b)| {
        b == b'"' || (b == b'\'' && (k == 0 || !bytes[k - 1].is_ascii_alphanumeric()))
    }) || (!sentence.is_ascii()
        && sentence
            .chars()
            .any(|c| matches!(c, '“' | '„' | '«' | '「' | '『' | '‘')));
    if !may_quote {
        return Vec::new();
    }
    let chars: Vec<(usize, char)> = sentence.char_indices().collect();
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let before = |k: usize| k.checked_sub(1).and_then(at);

    // Closing marks, per kind, in order; a second list holds the possessive-looking ones.
    let mut closers: Vec<(Vec<usize>, Vec<usize>)> = vec![(Vec::new(), Vec::new()); 8];
    for (k, &(_, c)) in chars.iter().enumerate() {
        for (slot, marks) in closers.iter_mut().zip(ALL_MARKS) {
            if closes(marks, c, before(k), at(k + 1)) {
                if possessive(before(k), at(k + 1), at(k + 2)) {
                    slot.1.push(k);
                } else {
                    slot.0.push(k);
                }
            }
        }
    }
    // Opening marks of the kinds that cannot be anything else, to spot one left unclosed.
    let mut openers: Vec<Vec<usize>> = vec![Vec::new(); 8];
    for (k, &(_, c)) in chars.iter().enumerate() {
        if let Some(marks) = opens(c, before(k), at(k + 1))
            && !matches!(marks, Marks::StraightDouble | Marks::StraightSingle)
            && let Some(list) = openers.get_mut(slot_of(marks))
        {
            list.push(k);
        }
    }
    // Openings are visited in order, so the search for each list's next mark only moves on:
    // the whole scan is linear in the sentence.
    let mut cursors = [(0usize, 0usize, 0usize); 8];

    let mut found = Vec::new();
    let mut k = 0;
    while let Some(&(open_byte, c)) = chars.get(k) {
        let Some(marks) = opens(c, before(k), at(k + 1)) else {
            k += 1;
            continue;
        };
        let slot = slot_of(marks);
        let (Some(lists), Some(same), Some(cursor)) =
            (closers.get(slot), openers.get(slot), cursors.get_mut(slot))
        else {
            k += 1;
            continue;
        };
        let plain = next_after(&lists.0, &mut cursor.0, k);
        let possessive = next_after(&lists.1, &mut cursor.1, k);
        let reopened = next_after(same, &mut cursor.2, k);
        let Some(close) = plain.or(possessive) else {
            k += 1;
            continue;
        };
        // “ a “b c d” : the same mark opening again before any closing one means the first
        // was never closed.
        if reopened.is_some_and(|r| r < close) {
            k += 1;
            continue;
        }
        let inner_start = open_byte + c.len_utf8();
        let (close_byte, close_char) = chars.get(close).copied().unwrap_or((sentence.len(), ' '));
        let inner = sentence.get(inner_start..close_byte).unwrap_or("").trim();
        if word_spans(inner, &[]).len() >= MIN_QUOTATION_WORDS {
            found.push(Quotation {
                span: open_byte..close_byte + close_char.len_utf8(),
                text: inner.to_string(),
            });
        }
        k = close + 1;
    }
    found
}

fn slot_of(marks: Marks) -> usize {
    ALL_MARKS.iter().position(|&m| m == marks).unwrap_or(0)
}

/// The first position in `list` after `k`, moving `cursor` past the ones before.
fn next_after(list: &[usize], cursor: &mut usize, k: usize) -> Option<usize> {
    while list.get(*cursor).is_some_and(|&p| p <= k) {
        *cursor += 1;
    }
    list.get(*cursor).copied()
}

/// Which quotation, if any, the mark `c` can open.
fn opens(c: char, before: Option<char>, after: Option<char>) -> Option<Marks> {
    let has_text_after = after.is_some_and(|a| !a.is_whitespace());
    let straight_can_open =
        has_text_after && before.is_none_or(|b| b.is_whitespace() || BEFORE_OPENING.contains(&b));
    match c {
        '“' => Some(Marks::Double),
        '„' => Some(Marks::Low),
        '«' => Some(Marks::Guillemets),
        '「' => Some(Marks::Corner),
        '『' => Some(Marks::WhiteCorner),
        '‘' if has_text_after => Some(Marks::Single),
        '"' if straight_can_open => Some(Marks::StraightDouble),
        '\'' if straight_can_open => Some(Marks::StraightSingle),
        _ => None,
    }
}

/// Whether `c` can close a quotation opened by `marks`.
fn closes(marks: Marks, c: char, before: Option<char>, after: Option<char>) -> bool {
    // A closing single mark or straight mark followed by a letter is an apostrophe (don’t).
    let not_in_word = after.is_none_or(|a| !is_word_char(a));
    let straight = before.is_some_and(|b| !b.is_whitespace()) && not_in_word;
    match marks {
        Marks::Double => c == '”',
        Marks::Low => c == '“' || c == '”',
        Marks::Guillemets => c == '»',
        Marks::Corner => c == '」',
        Marks::WhiteCorner => c == '』',
        Marks::Single => c == '’' && not_in_word,
        Marks::StraightDouble => c == '"' && straight,
        Marks::StraightSingle => c == '\'' && straight,
    }
}

/// Whether a closing single mark looks like a plural possessive: `students’ books`.
fn possessive(before: Option<char>, after: Option<char>, after_next: Option<char>) -> bool {
    matches!(before, Some('s' | 'S'))
        && after.is_some_and(char::is_whitespace)
        && after_next.is_some_and(char::is_lowercase)
}
