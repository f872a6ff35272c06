//! Quote stage: normalises quotations and documents and finds a quotation in a document, or the
//! closest passage to it.
//!
//! It runs beside the words stage and before [`support`](crate::support): where support asks
//! whether a cited chunk holds a sentence's words, this stage asks whether it holds a
//! quotation's exact words. [`quotations`] picks the quotations out of a sentence; a
//! [`QuoteSearch`] is built once per chunk (or per document given to `ragcite quote`) and
//! answers [`QuoteSearch::find`] for every quotation checked against it.
//!
//! Matching is exact on normalised text (see [`normalize`]) and on whole words: a quotation
//! that starts or ends inside a word of the document (`he` in `the`, `195` in `1950`) is not
//! found. When a quotation is not found, the closest passage is found by word voting and a
//! word-level edit distance, without ever comparing the quotation with the whole document.

use std::ops::Range;

use serde::Serialize;

/// A quotation found in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotation {
    /// Byte span in the sentence, quote marks included.
    pub span: Range<usize>,
    /// The quoted text, without the quote marks and the white space just inside them.
    pub text: String,
}

/// The result of looking for a quotation in a document.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteMatch {
    pub found: bool,
    /// Character offsets [start, end) of the match in the document as given (characters are
    /// Unicode scalar values); for a quotation split by an ellipsis, from the start of its first
    /// fragment to the end of its last.
    pub offsets: Option<[usize; 2]>,
    /// The same in bytes.
    pub byte_offsets: Option<[usize; 2]>,
    /// When not found: the passage of the document most like the quotation. For a quotation
    /// split by an ellipsis, the passage (anywhere in the document) most like the first fragment
    /// that could not be placed after the ones before it: it shows which part is wrong, where a
    /// passage for the whole quotation would count every elided word as a difference. A
    /// fragment that is present but out of order gets its own occurrence, with no differing
    /// word. `None` when the quotation or the document has no words.
    pub closest: Option<Closest>,
}

/// The passage of a document most like a quotation that is not in it.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Closest {
    /// The passage as written in the document, from its first word to its last.
    pub text: String,
    /// Character offsets [start, end) in the document as given.
    pub offsets: [usize; 2],
    /// `1 - differing_words / max(quotation words, passage words)`, in [0, 1]. When every word
    /// agrees but the normalised texts still differ (punctuation), the passage counts half a
    /// word short, so 1 means identical after normalisation.
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub similarity: f64,
    /// Word-level edit distance between the quotation and the passage: words substituted,
    /// inserted and deleted. Words are compared after normalisation, without the punctuation
    /// at their ends.
    pub differing_words: usize,
}

impl QuoteMatch {
    fn not_found(closest: Option<Closest>) -> Self {
        QuoteMatch {
            found: false,
            offsets: None,
            byte_offsets: None,
            closest,
        }
    }
}

/// Below this similarity (as rounded in the outputs), `ragcite quote` shows no closest passage
/// but says that no passage is close: fewer than half the words agree. Near-misses score above it
/// (QuoteSum's quotations with one or two words replaced or dropped: 0.50 to 0.98); the passages
/// found for another record's quotation mostly score below it (267 of 275) or share only a few
/// function words (`the … of …`). docs/commands.md gives the measurement.
pub const MIN_CLOSE_SIMILARITY: f64 = 0.5;

/// Finds `quote` in the document `bytes` as `ragcite quote` does: the document decoded (UTF-8,
/// a byte-order mark allowed), one pair of quotation marks around the quote dropped (as users
/// often paste it), and the offsets counted in the document as given (a byte-order mark is one
/// character, three bytes). A closest passage below [`MIN_CLOSE_SIMILARITY`] is left out.
pub fn find_in_document(bytes: &[u8], quote: &str) -> Result<QuoteMatch, crate::InputError> {
    let document = crate::input::decode(bytes)?;
    let mut found = QuoteSearch::new(document).find(strip_quote_marks(quote));
    if found
        .closest
        .as_ref()
        .is_some_and(|c| crate::rounding::round4(c.similarity) < MIN_CLOSE_SIMILARITY)
    {
        found.closest = None;
    }
    let bom = bytes.len() - document.len();
    if bom > 0 {
        let shift = |pair: &mut [usize; 2], by: usize| pair.iter_mut().for_each(|o| *o += by);
        if let Some(offsets) = &mut found.offsets {
            shift(offsets, 1);
        }
        if let Some(offsets) = &mut found.byte_offsets {
            shift(offsets, bom);
        }
        if let Some(closest) = &mut found.closest {
            shift(&mut closest.offsets, 1);
        }
    }
    Ok(found)
}

/// The quote without one pair of quotation marks around it, as users often paste it.
pub fn strip_quote_marks(quote: &str) -> &str {
    let trimmed = quote.trim();
    for (open, close) in [
        ('“', '”'),
        ('"', '"'),
        ('«', '»'),
        ('„', '“'),
        ('「', '」'),
        ('‘', '’'),
    ] {
        if let Some(inner) = trimmed
            .strip_prefix(open)
            .and_then(|q| q.strip_suffix(close))
            && !inner.trim().is_empty()
        {
            return inner;
        }
    }
    trimmed
}

mod closest;
mod marks;
mod normalise;
mod search;
mod words;

#[cfg(test)]
pub(crate) use marks::MIN_QUOTATION_WORDS;
pub use marks::quotations;
pub use normalise::normalize;
pub use search::QuoteSearch;

#[cfg(test)]
mod tests;
