//! Search: a document prepared once (its words indexed by [`super::words`]), and each quotation (or each fragment between its
//! ellipses) found by exact matching on whole words.

use std::iter::once;
use std::ops::Range;
use std::sync::{LazyLock, OnceLock};

use regex::Regex;

use super::closest::{MAX_SLACK, MIN_SLACK, align, candidate_alignments};
use super::normalise::{Normalized, normalize_mapped, sup_sub_tag};
use super::words::{WordIndex, same_word, word_spans};
use super::*;

// Search

/// An ellipsis in a quotation, after normalisation (`…` has become `...`): three or more dots,
/// spaced or not, bare or in brackets.
static ELLIPSIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[ ?\.(?: ?\.){2,} ?\]|\( ?\.(?: ?\.){2,} ?\)|\.(?: ?\.){2,}")
        .expect("constant pattern")
});

/// The byte ranges of a normalised quotation's fragments: the text between ellipses, without
/// the spaces at their ends, empty ones dropped.
pub(super) fn fragments(text: &str) -> Vec<Range<usize>> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let ends = ELLIPSIS
        .find_iter(text)
        .map(|m| m.range())
        .chain(once(text.len()..text.len()));
    for ellipsis in ends {
        let piece = text.get(start..ellipsis.start).unwrap_or("");
        let trimmed = piece.trim_start_matches(' ');
        let from = start + (piece.len() - trimmed.len());
        let to = from + trimmed.trim_end_matches(' ').len();
        if to > from {
            pieces.push(from..to);
        }
        start = ellipsis.end;
    }
    pieces
}

/// Bytes of the original text between two saved character counts.
const CHAR_CHECKPOINT: usize = 1024;

/// A document prepared once for many searches: its normalised text with the map back to the
/// original, and (built on the first search that needs it) an index of its words.
#[derive(Debug)]
pub struct QuoteSearch {
    pub(super) document: String,
    pub(super) normalized: Normalized,
    /// Characters before byte `k * CHAR_CHECKPOINT` of the document, for every `k`.
    char_checkpoints: Vec<usize>,
    pub(super) words: OnceLock<WordIndex>,
}

impl QuoteSearch {
    pub fn new(document: &str) -> Self {
        let bytes = document.as_bytes();
        let mut char_checkpoints = Vec::with_capacity(bytes.len() / CHAR_CHECKPOINT + 1);
        let mut count = 0;
        char_checkpoints.push(0);
        for block in bytes.chunks(CHAR_CHECKPOINT) {
            count += char_starts(block);
            char_checkpoints.push(count);
        }
        QuoteSearch {
            document: document.to_string(),
            normalized: normalize_mapped(document),
            char_checkpoints,
            words: OnceLock::new(),
        }
    }

    /// The document as given.
    pub fn document(&self) -> &str {
        &self.document
    }

    /// The document normalised as quotations are compared (see [`normalize`]).
    pub fn normalized(&self) -> &str {
        &self.normalized.text
    }

    /// Looks for `quote` in the document. An ellipsis in the quotation (`…`, `...`, `. . .`,
    /// `[...]`, `(...)`) splits it into fragments that must all be found, in order and without
    /// overlapping; empty fragments are dropped. Each fragment must start and end at word
    /// boundaries of the document. A quotation that normalises to nothing is not found and has
    /// no closest passage.
    pub fn find(&self, quote: &str) -> QuoteMatch {
        let quote = normalize_mapped(quote);
        let mut span: Option<(usize, usize)> = None;
        for range in fragments(&quote.text) {
            let fragment = quote.text.get(range.clone()).unwrap_or("");
            let from = span.map_or(0, |(_, end)| end);
            match self.find_exact(fragment, from) {
                Some((start, end)) => span = Some((span.map_or(start, |(s, _)| s), end)),
                None => {
                    let breaks: Vec<usize> = quote
                        .dash_breaks
                        .iter()
                        .filter(|&&b| range.contains(&b))
                        .map(|&b| b - range.start)
                        .collect();
                    return QuoteMatch::not_found(self.closest(fragment, &breaks));
                }
            }
        }
        let Some((start, end)) = span else {
            return QuoteMatch::not_found(None);
        };
        let bytes = self.original_span(start, end);
        QuoteMatch {
            found: true,
            offsets: Some(bytes.map(|b| self.char_offset(b))),
            byte_offsets: Some(bytes),
            closest: None,
        }
    }

    /// The first whole-word occurrence of `pattern` in the normalised document at or after
    /// byte `from`. Knuth–Morris–Pratt, so that rejecting occurrences that start or end inside
    /// a word never makes the search quadratic.
    fn find_exact(&self, pattern: &str, from: usize) -> Option<(usize, usize)> {
        let text = self.normalized.text.as_bytes();
        let p = pattern.as_bytes();
        let fail = failure_function(p);
        let mut k = 0;
        for (i, &b) in text.iter().enumerate().skip(from) {
            while k > 0 && p.get(k) != Some(&b) {
                k = fail.get(k - 1).copied().unwrap_or(0);
            }
            if p.get(k) == Some(&b) {
                k += 1;
            }
            if k == p.len() {
                let end = i + 1;
                let start = end - p.len();
                if self.whole_words(start, end, pattern) {
                    return Some((start, end));
                }
                k = fail.get(k - 1).copied().unwrap_or(0);
            }
        }
        None
    }

    fn whole_words(&self, start: usize, end: usize, pattern: &str) -> bool {
        let text = &self.normalized.text;
        let before = text.get(..start).and_then(|t| t.chars().next_back());
        let after = text.get(end..).and_then(|t| t.chars().next());
        let cut_at_start = before
            .zip(pattern.chars().next())
            .is_some_and(|(a, b)| same_word(a, b));
        let cut_at_end = pattern
            .chars()
            .next_back()
            .zip(after)
            .is_some_and(|(a, b)| same_word(a, b));
        !cut_at_start && !cut_at_end
    }

    /// The byte span in the document of the normalised text `start..end`, taking in the
    /// `<sup>`/`<sub>` tags just outside it so that `mc<sup>2</sup>` is reported whole.
    fn original_span(&self, start: usize, end: usize) -> [usize; 2] {
        let mut start = self.normalized.orig_start(start);
        let mut end = self.normalized.orig_end(end).max(start);
        let text = &self.document;
        while let Some(len) = ["<sup>", "<sub>"].iter().find_map(|tag| {
            let head = text.as_bytes().get(start.checked_sub(tag.len())?..start)?;
            head.eq_ignore_ascii_case(tag.as_bytes())
                .then_some(tag.len())
        }) {
            start -= len;
        }
        while let Some(len) =
            sup_sub_tag(text, end).filter(|_| text.get(end..end + 2) == Some("</"))
        {
            end += len;
        }
        [start, end]
    }

    /// The character offset of byte `byte` of the document: a saved count plus the characters
    /// that start in the few bytes after it.
    fn char_offset(&self, byte: usize) -> usize {
        let block = byte / CHAR_CHECKPOINT;
        let base = self.char_checkpoints.get(block).copied().unwrap_or(0);
        let rest = self
            .document
            .as_bytes()
            .get(block * CHAR_CHECKPOINT..byte)
            .unwrap_or(&[]);
        base + char_starts(rest)
    }

    /// The passage most like `fragment` (normalised, non-empty, with its own dash breaks), see
    /// [`Closest`].
    pub(super) fn closest(&self, fragment: &str, dash_breaks: &[usize]) -> Option<Closest> {
        let index = self
            .words
            .get_or_init(|| WordIndex::new(&self.normalized.text, &self.normalized.dash_breaks));
        let quote: Vec<Option<usize>> = word_spans(fragment, dash_breaks)
            .into_iter()
            .map(|span| {
                let word = fragment.get(span).unwrap_or("");
                index.vocabulary.get(word).copied()
            })
            .collect();
        if quote.is_empty() || index.ids.is_empty() {
            return None;
        }
        let slack = (quote.len() / 4).clamp(MIN_SLACK, MAX_SLACK);
        let best = candidate_alignments(&quote, index, slack)
            .into_iter()
            .filter_map(|diagonal| align(&quote, &index.ids, diagonal, slack))
            .min_by(|a, b| a.rank(b, quote.len()))?;

        let first = index.spans.get(best.start)?;
        let last = index.spans.get(best.end.checked_sub(1)?)?;
        let norm = first.start..last.end;
        let bytes = self.original_span(norm.start, norm.end);
        let longest = quote.len().max(best.end - best.start) as f64;
        let mut shortfall = best.distance as f64;
        if best.distance == 0 && self.normalized.text.get(norm) != Some(fragment) {
            shortfall = 0.5;
        }
        Some(Closest {
            text: self
                .document
                .get(bytes[0]..bytes[1])
                .unwrap_or("")
                .to_string(),
            offsets: bytes.map(|b| self.char_offset(b)),
            similarity: (1.0 - shortfall / longest).clamp(0.0, 1.0),
            differing_words: best.distance,
        })
    }
}

/// Characters starting in a run of UTF-8 bytes: every byte that is not a continuation byte.
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count()
}

fn failure_function(p: &[u8]) -> Vec<usize> {
    let mut fail = vec![0; p.len()];
    let mut k = 0;
    for i in 1..p.len() {
        let b = p.get(i);
        while k > 0 && p.get(k) != b {
            k = fail.get(k - 1).copied().unwrap_or(0);
        }
        if p.get(k) == b {
            k += 1;
        }
        if let Some(f) = fail.get_mut(i) {
            *f = k;
        }
    }
    fail
}
