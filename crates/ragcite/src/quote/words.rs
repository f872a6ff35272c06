//! Words of a document or a quotation, as the quote search reads them: where each word is
//! ([`word_spans`]) and, for a document, its words numbered with where each occurs
//! ([`WordIndex`]). The exact search and the closest-passage search both use them.

use std::collections::HashMap;
use std::ops::Range;

use unicode_normalization::char::is_combining_mark;

use super::normalise::separates_words;

/// Letters, digits and combining marks (a vowel sign belongs to its word).
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// Scripts written without spaces between words: each character counts as a word, and a
/// quotation may start or end next to any of them.
fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'     // Thai, Lao
        | '\u{1000}'..='\u{109F}'   // Myanmar
        | '\u{1780}'..='\u{17FF}'   // Khmer
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{31F0}'..='\u{31FF}'
        | '\u{3400}'..='\u{4DBF}'   // Han
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF66}'..='\u{FF9F}'
        | '\u{20000}'..='\u{3FFFF}')
}

/// Whether a match may not stop between `a` and `b`: both belong to one spaced word.
pub(super) fn same_word(a: char, b: char) -> bool {
    is_word_char(a) && is_word_char(b) && !unspaced(a) && !unspaced(b)
}

/// The words of a text: runs between white space and dashes that are not hyphens (and the
/// bytes `dash_breaks`, sorted, where a normalised text had such a dash), without the
/// punctuation at their ends (`(1950),` → `1950`, while `don't`, `3.5` and `gram-negative`
/// stay whole), and each character of an unspaced script on its own. Runs with no letter or
/// digit are not words.
pub(super) fn word_spans(text: &str, dash_breaks: &[usize]) -> Vec<Range<usize>> {
    let mut words = Vec::new();
    let mut start = None;
    let mut breaks = dash_breaks.iter().peekable();
    for (i, c) in text.char_indices() {
        while breaks.next_if(|&&b| b < i).is_some() {}
        let at_break = breaks.next_if(|&&b| b == i).is_some();
        let alone = unspaced(c);
        if c.is_whitespace() || at_break || separates_words(c) || alone {
            if let Some(s) = start.take() {
                push_trimmed(text, s..i, &mut words);
            }
            if alone && is_word_char(c) {
                words.push(i..i + c.len_utf8());
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        push_trimmed(text, s..text.len(), &mut words);
    }
    words
}

fn push_trimmed(text: &str, span: Range<usize>, words: &mut Vec<Range<usize>>) {
    let Some(token) = text.get(span.clone()) else {
        return;
    };
    let first = token.char_indices().find(|&(_, c)| is_word_char(c));
    let last = token.char_indices().rev().find(|&(_, c)| is_word_char(c));
    if let (Some((first, _)), Some((last, c))) = (first, last) {
        words.push(span.start + first..span.start + last + c.len_utf8());
    }
}

/// The document's words, numbered, with where each occurs.
#[derive(Debug, Default)]
pub(super) struct WordIndex {
    /// Byte span of each word in the normalised document.
    pub(super) spans: Vec<Range<usize>>,
    /// Each word's number in `vocabulary`.
    pub(super) ids: Vec<usize>,
    /// For each word number, the positions (in `ids`) where it occurs, in order.
    postings: Vec<Vec<usize>>,
    pub(super) vocabulary: HashMap<String, usize>,
}

impl WordIndex {
    pub(super) fn new(text: &str, dash_breaks: &[usize]) -> Self {
        let mut index = WordIndex::default();
        for span in word_spans(text, dash_breaks) {
            let word = text.get(span.clone()).unwrap_or("");
            let next = index.vocabulary.len();
            let id = *index.vocabulary.entry(word.to_string()).or_insert(next);
            if id == index.postings.len() {
                index.postings.push(Vec::new());
            }
            if let Some(list) = index.postings.get_mut(id) {
                list.push(index.ids.len());
            }
            index.ids.push(id);
            index.spans.push(span);
        }
        index
    }

    pub(super) fn occurrences(&self, id: usize) -> &[usize] {
        self.postings.get(id).map_or(&[], Vec::as_slice)
    }
}
