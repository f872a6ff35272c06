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

use std::collections::HashMap;
use std::iter::once;
use std::ops::Range;
use std::sync::{LazyLock, OnceLock};

use regex::Regex;
use serde::Serialize;
use unicode_normalization::char::{canonical_combining_class, is_combining_mark};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

/// A quotation found in a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quotation {
    /// Byte span in the sentence, quote marks included.
    pub span: Range<usize>,
    /// The quoted text, without the quote marks and the white space just inside them.
    pub text: String,
}

/// The result of looking for a quotation in a document.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Closest {
    /// The passage as written in the document, from its first word to its last.
    pub text: String,
    /// Character offsets [start, end) in the document as given.
    pub offsets: [usize; 2],
    /// `1 - differing_words / max(quotation words, passage words)`, in [0, 1]. When every word
    /// agrees but the normalised texts still differ (punctuation), the passage counts half a
    /// word short, so 1 means identical after normalisation.
    #[serde(serialize_with = "crate::report::rounded")]
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

// ---------------------------------------------------------------------------------------------
// Quotations in a sentence
// ---------------------------------------------------------------------------------------------

/// Fewer words than this between quote marks is a title, a term or a scare quote, not a
/// quotation worth verifying.
const MIN_QUOTATION_WORDS: usize = 3;

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

// ---------------------------------------------------------------------------------------------
// Normalisation
// ---------------------------------------------------------------------------------------------

/// Normalises a text the way quotations and documents are compared:
/// - Unicode NFKC (ligatures such as `ﬁ`, full-width forms, `…` → `...`, `²` → `2`);
/// - `<sup>`, `</sup>`, `<sub>`, `</sub>` dropped, in any case (`H<sub>2</sub>O` → `h2o`);
/// - every dash and minus sign → `-`;
/// - ‘ ’ ‚ ‛ ′ ‵ ʼ ‹ › → `'` and “ ” „ ‟ ″ ‶ « » 〝 〞 〟 → `"`: guillemets are double quotation
///   marks in the languages that use them, so they become the straight double mark;
/// - soft hyphens, zero-width spaces, word joiners and byte-order marks removed;
/// - a word hyphenated across a line break rejoined: a letter, `-` (or `‐`, or a soft hyphen),
///   optional spaces, a line break, optional spaces, a letter (`infor-\nmation` →
///   `information`; `well-\nknown` becomes `wellknown` too);
/// - white space (all of Unicode's, no-break space included) collapsed to one space and
///   trimmed;
/// - lower-cased (Unicode lowercase, with final sigma `ς` folded to `σ`).
pub fn normalize(text: &str) -> String {
    normalize_mapped(text).text
}

/// Where a stretch of the normalised text comes from.
#[derive(Debug, Clone, Copy)]
struct Segment {
    /// First byte of the stretch in the normalised text; it runs to the next segment's start.
    norm: usize,
    /// Byte span of its source in the original text.
    orig: usize,
    orig_end: usize,
    /// Byte `k` of the stretch comes from byte `orig + k`: each character came from one
    /// character of the same length. Otherwise every character of the stretch came from all of
    /// `orig..orig_end` (a collapsed run of spaces, an NFKC expansion or composition).
    identity: bool,
}

/// A normalised text and the map back to the text it came from. Ordinary text maps one
/// character to one character, so the map holds runs, not a position per byte.
#[derive(Debug, Clone, Default)]
struct Normalized {
    text: String,
    segments: Vec<Segment>,
    /// Bytes of `text` where a `-` stands for a dash that is not a hyphen (`flourished—the`):
    /// words end there, though the text no longer shows it.
    dash_breaks: Vec<usize>,
}

impl Normalized {
    fn segment(&self, byte: usize) -> Option<&Segment> {
        let after = self.segments.partition_point(|s| s.norm <= byte);
        after.checked_sub(1).and_then(|i| self.segments.get(i))
    }

    /// Original byte at which the normalised character starting at `start` begins.
    fn orig_start(&self, start: usize) -> usize {
        match self.segment(start) {
            Some(s) if s.identity => s.orig + (start - s.norm),
            Some(s) => s.orig,
            None => 0,
        }
    }

    /// Original byte at which the normalised character ending at `end` ends.
    fn orig_end(&self, end: usize) -> usize {
        let Some(last) = end.checked_sub(1) else {
            return self.orig_start(0);
        };
        match self.segment(last) {
            Some(s) if s.identity => s.orig + (end - s.norm),
            Some(s) => s.orig_end,
            None => 0,
        }
    }
}

/// A run of combining marks longer than this is cut into pieces normalised separately: no real
/// text comes close, and the bound keeps normalisation linear on hostile input.
const MAX_NFKC_GROUP: usize = 32;

fn normalize_mapped(input: &str) -> Normalized {
    let mut out = Builder::with_capacity(input.len());
    let mut group: Vec<(char, usize, usize)> = Vec::new();
    let mut skip_to = 0;
    for (i, c) in input.char_indices() {
        if i < skip_to {
            continue;
        }
        if c == '<'
            && let Some(len) = sup_sub_tag(input, i)
        {
            skip_to = i + len;
            continue;
        }
        // NFKC would turn these into two primes, that is two apostrophes.
        let c = match c {
            '\u{2033}' | '\u{2036}' => '"',
            other => other,
        };
        push_nfkc(&mut group, (c, i, i + c.len_utf8()), &mut out);
    }
    flush_nfkc(&mut group, &mut out);
    out.finish()
}

/// The length of a `<sup>`, `</sup>`, `<sub>` or `</sub>` tag at byte `at`, in any case.
fn sup_sub_tag(text: &str, at: usize) -> Option<usize> {
    let rest = text.as_bytes().get(at..)?;
    ["<sup>", "</sup>", "<sub>", "</sub>"]
        .iter()
        .find(|tag| {
            rest.get(..tag.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(tag.as_bytes()))
        })
        .map(|tag| tag.len())
}

/// Adds a character to the group being normalised. A group is a starter with the combining
/// marks after it, plus any starter that composes with it (Hangul jamo): NFKC of the text is
/// then the NFKC of each group in turn, and each output character maps to its group's span.
fn push_nfkc(group: &mut Vec<(char, usize, usize)>, next: (char, usize, usize), out: &mut Builder) {
    let c = next.0;
    if !group.is_empty() {
        let joins = if c.is_ascii() {
            false
        } else if canonical_combining_class(c) != 0 {
            group.len() < MAX_NFKC_GROUP
        } else if is_nfkc_quick(once(c)) == IsNormalized::Yes {
            // A starter that passes the quick check never composes with what precedes it.
            false
        } else {
            group.len() < MAX_NFKC_GROUP && composes_with(group, c)
        };
        if !joins {
            flush_nfkc(group, out);
        }
    }
    group.push(next);
}

/// Whether NFKC treats `c` differently after `group` than on its own.
fn composes_with(group: &[(char, usize, usize)], c: char) -> bool {
    let apart: String = group
        .iter()
        .map(|g| g.0)
        .nfkc()
        .chain(once(c).nfkc())
        .collect();
    let together: String = group.iter().map(|g| g.0).chain(once(c)).nfkc().collect();
    apart != together
}

fn flush_nfkc(group: &mut Vec<(char, usize, usize)>, out: &mut Builder) {
    match group.as_slice() {
        [] => {}
        &[(c, start, end)] if c.is_ascii() || is_nfkc_quick(once(c)) == IsNormalized::Yes => {
            out.lowercase(c, start, end);
        }
        [first, ..] => {
            let normalized: Vec<char> = group.iter().map(|g| g.0).nfkc().collect();
            if normalized.iter().eq(group.iter().map(|g| &g.0)) {
                for &(c, start, end) in group.iter() {
                    out.lowercase(c, start, end);
                }
            } else {
                let start = first.1;
                let end = group.last().map_or(first.2, |g| g.2);
                for c in normalized {
                    out.lowercase(c, start, end);
                }
            }
        }
    }
    group.clear();
}

/// The last steps of normalisation, fed one character (and its original span) at a time:
/// case, hyphenation, white space, dashes and quote marks.
struct Builder {
    out: Normalized,
    /// A run of white space not yet written: its span and whether it holds a line break.
    space: Option<(usize, usize, bool)>,
    /// A hyphen after a letter, held back in case a line break and a letter follow: its span
    /// and whether it is a soft hyphen (written as nothing).
    hyphen: Option<(usize, usize, bool)>,
    last: Option<char>,
}

impl Builder {
    fn with_capacity(capacity: usize) -> Self {
        Builder {
            out: Normalized {
                text: String::with_capacity(capacity),
                segments: Vec::new(),
                dash_breaks: Vec::new(),
            },
            space: None,
            hyphen: None,
            last: None,
        }
    }

    fn lowercase(&mut self, c: char, start: usize, end: usize) {
        if c.is_ascii() {
            self.push(c.to_ascii_lowercase(), start, end);
        } else if c == 'ς' {
            self.push('σ', start, end);
        } else {
            for lower in c.to_lowercase() {
                self.push(lower, start, end);
            }
        }
    }

    fn push(&mut self, c: char, start: usize, end: usize) {
        if matches!(c, '\u{200B}' | '\u{2060}' | '\u{FEFF}') {
            return;
        }
        if c.is_whitespace() {
            let line_break = is_line_break(c);
            self.space = Some(match self.space {
                Some((s, _, seen)) => (s, end, seen || line_break),
                None => (start, end, line_break),
            });
            return;
        }
        let after_letter = self.space.is_none()
            && self.hyphen.is_none()
            && self.last.is_some_and(char::is_alphabetic);
        if c == '\u{AD}' {
            if after_letter {
                self.hyphen = Some((start, end, true));
            }
            return;
        }
        if matches!(c, '-' | '\u{2010}' | '\u{2011}') && after_letter {
            self.hyphen = Some((start, end, false));
            return;
        }
        if let Some((h_start, h_end, soft)) = self.hyphen.take() {
            let broken_word = c.is_alphabetic() && self.space.is_some_and(|(_, _, nl)| nl);
            if broken_word {
                self.space = None;
            } else if !soft {
                self.emit('-', h_start, h_end);
            }
        }
        self.flush_space();
        self.emit(c, start, end);
    }

    fn flush_space(&mut self) {
        if let Some((start, end, _)) = self.space.take()
            && !self.out.text.is_empty()
        {
            self.emit(' ', start, end);
        }
    }

    fn emit(&mut self, c: char, start: usize, end: usize) {
        let norm = self.out.text.len();
        if separates_words(c) {
            self.out.dash_breaks.push(norm);
        }
        let c = fold_punctuation(c);
        let identity = end.saturating_sub(start) == c.len_utf8();
        match self.out.segments.last_mut() {
            Some(s) if identity && s.identity && s.orig_end == start => s.orig_end = end,
            Some(s) if !identity && !s.identity && s.orig == start && s.orig_end == end => {}
            _ => self.out.segments.push(Segment {
                norm,
                orig: start,
                orig_end: end,
                identity,
            }),
        }
        self.out.text.push(c);
        self.last = Some(c);
    }

    fn finish(mut self) -> Normalized {
        if let Some((start, end, false)) = self.hyphen.take() {
            self.emit('-', start, end);
        }
        self.out
    }
}

fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// A dash that is not a hyphen: en and em dashes, minus signs, ... (`1939–1945`,
/// `flourished—the`).
fn separates_words(c: char) -> bool {
    !matches!(c, '-' | '\u{2010}' | '\u{2011}') && fold_punctuation(c) == '-'
}

/// Dashes and minus signs to `-`, curly quote marks to straight ones.
fn fold_punctuation(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}'
        | '\u{2212}'
        | '\u{FE58}'
        | '\u{FE63}'
        | '\u{FF0D}'
        | '\u{058A}'
        | '\u{05BE}'
        | '\u{1400}'
        | '\u{1806}'
        | '\u{207B}'
        | '\u{208B}'
        | '\u{2E17}'
        | '\u{2E1A}'
        | '\u{2E3A}'
        | '\u{2E3B}'
        | '\u{2E40}'
        | '\u{2E5D}'
        | '\u{FE31}'
        | '\u{FE32}'
        | '\u{10EAD}' => '-',
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{2035}'
        | '\u{02BC}' | '\u{2039}' | '\u{203A}' | '\u{FF07}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{2036}'
        | '\u{00AB}' | '\u{00BB}' | '\u{301D}' | '\u{301E}' | '\u{301F}' | '\u{FF02}' => '"',
        other => other,
    }
}

// ---------------------------------------------------------------------------------------------
// Words
// ---------------------------------------------------------------------------------------------

/// Letters, digits and combining marks (a vowel sign belongs to its word).
fn is_word_char(c: char) -> bool {
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
fn same_word(a: char, b: char) -> bool {
    is_word_char(a) && is_word_char(b) && !unspaced(a) && !unspaced(b)
}

/// The words of a text: runs between white space and dashes that are not hyphens (and the
/// bytes `dash_breaks`, sorted, where a normalised text had such a dash), without the
/// punctuation at their ends (`(1950),` → `1950`, while `don't`, `3.5` and `gram-negative`
/// stay whole), and each character of an unspaced script on its own. Runs with no letter or
/// digit are not words.
fn word_spans(text: &str, dash_breaks: &[usize]) -> Vec<Range<usize>> {
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
struct WordIndex {
    /// Byte span of each word in the normalised document.
    spans: Vec<Range<usize>>,
    /// Each word's number in `vocabulary`.
    ids: Vec<usize>,
    /// For each word number, the positions (in `ids`) where it occurs, in order.
    postings: Vec<Vec<usize>>,
    vocabulary: HashMap<String, usize>,
}

impl WordIndex {
    fn new(text: &str, dash_breaks: &[usize]) -> Self {
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

    fn occurrences(&self, id: usize) -> &[usize] {
        self.postings.get(id).map_or(&[], Vec::as_slice)
    }
}

// ---------------------------------------------------------------------------------------------
// Search
// ---------------------------------------------------------------------------------------------

/// An ellipsis in a quotation, after normalisation (`…` has become `...`): three or more dots,
/// spaced or not, bare or in brackets.
static ELLIPSIS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\[ ?\.(?: ?\.){2,} ?\]|\( ?\.(?: ?\.){2,} ?\)|\.(?: ?\.){2,}")
        .expect("constant pattern")
});

/// The byte ranges of a normalised quotation's fragments: the text between ellipses, without
/// the spaces at their ends, empty ones dropped.
fn fragments(text: &str) -> Vec<Range<usize>> {
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
    document: String,
    normalized: Normalized,
    /// Characters before byte `k * CHAR_CHECKPOINT` of the document, for every `k`.
    char_checkpoints: Vec<usize>,
    words: OnceLock<WordIndex>,
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
    fn closest(&self, fragment: &str, dash_breaks: &[usize]) -> Option<Closest> {
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

// ---------------------------------------------------------------------------------------------
// Closest passage
// ---------------------------------------------------------------------------------------------

/// How many alignments (document position of the quotation's first word) are scored.
const CANDIDATES: usize = 8;
/// How far, in words, a passage may start before or after its alignment, and drift from it.
const MIN_SLACK: usize = 3;
const MAX_SLACK: usize = 64;
/// Bound on votes for one search. A quotation word that occurs more often than its share
/// (between `MIN_VOTES_PER_WORD` and `MAX_VOTES_PER_WORD`) does not vote: in a long document
/// `the` says nothing about where a quotation is.
const MAX_VOTES: usize = 1 << 21;
const MIN_VOTES_PER_WORD: usize = 8;
const MAX_VOTES_PER_WORD: usize = 1024;

/// The best few alignments (document word position minus quotation word position), each
/// voted for by the quotation words found at that offset; best voted first, ties to the
/// earliest. Alignments within `slack` of a better one are left out: its window covers them.
fn candidate_alignments(quote: &[Option<usize>], index: &WordIndex, slack: usize) -> Vec<i64> {
    let cap = (MAX_VOTES / quote.len()).clamp(MIN_VOTES_PER_WORD, MAX_VOTES_PER_WORD);
    let mut votes: Vec<i64> = Vec::new();
    let diagonal = |pos: usize, i: usize| pos as i64 - i as i64;
    for (i, id) in quote.iter().enumerate() {
        if let Some(&id) = id.as_ref() {
            let occurrences = index.occurrences(id);
            if occurrences.len() <= cap {
                votes.extend(occurrences.iter().map(|&pos| diagonal(pos, i)));
            }
        }
    }
    if votes.is_empty() {
        // Every shared word is frequent: let the rarest vote, at its first occurrences.
        let rarest = quote
            .iter()
            .enumerate()
            .filter_map(|(i, id)| id.map(|id| (index.occurrences(id).len(), i, id)))
            .min();
        if let Some((_, i, id)) = rarest {
            let occurrences = index.occurrences(id).iter().take(cap);
            votes.extend(occurrences.map(|&pos| diagonal(pos, i)));
        }
    }
    if votes.is_empty() {
        // No word in common: every passage is as unlike as any other; take the first.
        return vec![0];
    }
    votes.sort_unstable();
    let mut tallies: Vec<(i64, usize)> = Vec::new();
    for d in votes {
        match tallies.last_mut() {
            Some((last, count)) if *last == d => *count += 1,
            _ => tallies.push((d, 1)),
        }
    }
    tallies.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut picked: Vec<i64> = Vec::with_capacity(CANDIDATES);
    for (d, _) in tallies {
        if picked.len() == CANDIDATES {
            break;
        }
        if picked.iter().all(|p| p.abs_diff(d) > slack as u64) {
            picked.push(d);
        }
    }
    picked
}

/// A passage of the document (words `start..end`) and its distance from the quotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Alignment {
    distance: usize,
    start: usize,
    end: usize,
}

impl Alignment {
    /// Better first: fewer differing words, then higher similarity (which, for equal distance,
    /// is the longer passage), then a length nearer the quotation's (a word replaced at the end
    /// rather than dropped), then earlier.
    fn rank(&self, other: &Alignment, quote_len: usize) -> std::cmp::Ordering {
        let longest = |a: &Alignment| quote_len.max(a.end - a.start);
        // distance / longest, compared without division.
        let self_share = self.distance * longest(other);
        let other_share = other.distance * longest(self);
        let misfit = |a: &Alignment| quote_len.abs_diff(a.end - a.start);
        self.distance
            .cmp(&other.distance)
            .then(self_share.cmp(&other_share))
            .then(misfit(self).cmp(&misfit(other)))
            .then(self.start.cmp(&other.start))
            .then(self.end.cmp(&other.end))
    }
}

const UNREACHABLE: usize = usize::MAX / 2;

/// The passage nearest the alignment `diagonal` with the fewest differing words: a word-level
/// edit distance in which the passage may start and end anywhere in a window of the quotation's
/// length plus `slack` words on each side, computed only in a band of `slack` around the
/// diagonal. Cost O(quotation words × slack).
fn align(quote: &[Option<usize>], ids: &[usize], diagonal: i64, slack: usize) -> Option<Alignment> {
    let n = quote.len() as i64;
    let s = slack as i64;
    let m = ids.len() as i64;
    let window_start = (diagonal - s).clamp(0, m);
    let window_end = (diagonal + n + s).clamp(0, m);
    if window_end <= window_start {
        return None;
    }
    let window = ids.get(window_start as usize..window_end as usize)?;
    let width = window.len() as i64;
    let offset = diagonal - window_start;
    let band = |i: i64| {
        (
            (i + offset - s).clamp(0, width) as usize,
            (i + offset + s).clamp(0, width) as usize,
        )
    };

    // Each cell: (differing words, window position where the passage starts). Ties prefer the
    // earlier start, the longer passage.
    let mut previous = vec![(UNREACHABLE, 0usize); window.len() + 1];
    let mut current = previous.clone();
    let (mut prev_lo, mut prev_hi) = band(0);
    for (j, cell) in previous
        .iter_mut()
        .enumerate()
        .take(prev_hi + 1)
        .skip(prev_lo)
    {
        *cell = (0, j);
    }
    for (row, word) in quote.iter().enumerate() {
        let (lo, hi) = band(row as i64 + 1);
        let above = |j: usize| {
            if (prev_lo..=prev_hi).contains(&j) {
                previous.get(j).copied().unwrap_or((UNREACHABLE, 0))
            } else {
                (UNREACHABLE, 0)
            }
        };
        for j in lo..=hi {
            // The quotation's word missing from the passage.
            let (cost, start) = above(j);
            let mut best = (cost + 1, start);
            if let Some(prev_j) = j.checked_sub(1) {
                let (cost, start) = above(prev_j);
                let same = word.is_some() && *word == window.get(prev_j).copied();
                best = best.min((cost + usize::from(!same), start));
                if prev_j >= lo {
                    // A passage word missing from the quotation.
                    let (cost, start) = current.get(prev_j).copied().unwrap_or((UNREACHABLE, 0));
                    best = best.min((cost + 1, start));
                }
            }
            if let Some(cell) = current.get_mut(j) {
                *cell = best;
            }
        }
        std::mem::swap(&mut previous, &mut current);
        (prev_lo, prev_hi) = (lo, hi);
    }

    let base = window_start as usize;
    let quote_len = quote.len();
    (prev_lo..=prev_hi)
        .filter_map(|end| {
            let (distance, start) = previous.get(end).copied()?;
            (distance < UNREACHABLE && start < end).then_some(Alignment {
                distance,
                start: base + start,
                end: base + end,
            })
        })
        .min_by(|a, b| a.rank(b, quote_len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(document: &str, quote: &str) -> QuoteMatch {
        QuoteSearch::new(document).find(quote)
    }

    /// The character offsets of `needle`'s first occurrence in `haystack`.
    fn char_span(haystack: &str, needle: &str) -> [usize; 2] {
        let start = haystack.find(needle).expect("needle in haystack");
        let chars = haystack[..start].chars().count();
        [chars, chars + needle.chars().count()]
    }

    fn assert_found_at(document: &str, quote: &str, passage: &str) {
        let m = found(document, quote);
        assert!(m.found, "{quote:?} not found in {document:?}: {m:?}");
        let start = document.find(passage).expect("passage in document");
        assert_eq!(m.byte_offsets, Some([start, start + passage.len()]));
        assert_eq!(m.offsets, Some(char_span(document, passage)));
        assert_eq!(m.closest, None);
    }

    #[test]
    fn nfkc_ligatures_and_full_width_forms() {
        assert_found_at("the ﬁnal report", "the final report", "the ﬁnal report");
        assert_found_at("a ﬁnal word", "final", "ﬁnal");
        assert_found_at(
            "ＡＢＣ　Ｃｏｒｐ was founded",
            "abc corp was",
            "ＡＢＣ　Ｃｏｒｐ was",
        );
        assert_eq!(normalize("ﬃ ﬂ １２３"), "ffi fl 123");
    }

    #[test]
    fn sup_and_sub_tags_are_dropped() {
        let document = "water is H<sub>2</sub>O and E = mc<SUP>2</Sup> here";
        assert_found_at(
            document,
            "H2O and E = mc2",
            "H<sub>2</sub>O and E = mc<SUP>2</Sup>",
        );
        assert_eq!(normalize("x<sup>2</sup> <sub>i</SUB>"), "x2 i");
        assert_eq!(normalize("a <span>b</span>"), "a <span>b</span>");
    }

    #[test]
    fn every_dash_is_a_hyphen() {
        let dashes = [
            '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
            '\u{FE58}', '\u{FE63}', '\u{FF0D}',
        ];
        for dash in dashes {
            let document = format!("pages 10{dash}20 were");
            assert_found_at(&document, "pages 10-20 were", &document);
            let quote = format!("pages 10{dash}20 were");
            assert!(found("see pages 10-20 were", &quote).found, "{dash:?}");
        }
        assert_eq!(normalize("a – b — c"), "a - b - c");
    }

    #[test]
    fn curly_quotes_become_straight() {
        let document = "he said “it’s fine” and «left» or ‘so’ ″";
        assert_eq!(
            normalize(document),
            "he said \"it's fine\" and \"left\" or 'so' \""
        );
        assert_found_at(document, "said \"it's fine\" and", "said “it’s fine” and");
        assert!(found("„Wir ‚gehen‘“", "\"wir 'gehen'\"").found);
    }

    #[test]
    fn white_space_is_collapsed_and_trimmed() {
        let document = "a\u{A0}quick \t\n brown\u{2003}\u{3000}fox";
        assert_eq!(normalize(document), "a quick brown fox");
        assert_found_at(document, "  a quick\nbrown fox ", document);
        assert_eq!(normalize(" \n\t "), "");
    }

    #[test]
    fn case_is_folded() {
        assert_found_at("THE Quick Fox", "the quick fox", "THE Quick Fox");
        assert_found_at("ΟΔΟΣ ΕΝΑ ΔΥΟ", "οδος ενα δυο", "ΟΔΟΣ ΕΝΑ ΔΥΟ");
        assert_eq!(normalize("ΟΔΟΣ"), normalize("οδος"));
    }

    #[test]
    fn soft_hyphens_are_removed() {
        assert_found_at(
            "the infor\u{AD}mation age",
            "information age",
            "infor\u{AD}mation age",
        );
        assert_eq!(normalize("infor\u{AD}\nmation"), "information");
        assert_eq!(normalize("a \u{AD}b"), "a b");
    }

    #[test]
    fn words_hyphenated_across_a_line_break_are_joined() {
        assert_eq!(normalize("infor-\nmation"), "information");
        assert_eq!(normalize("infor- \r\n  mation"), "information");
        assert_eq!(normalize("infor‐\nmation"), "information");
        // Not a line break, or not letters on both sides: the hyphen stays.
        assert_eq!(normalize("infor- mation"), "infor- mation");
        assert_eq!(normalize("10-\n20"), "10- 20");
        assert_eq!(normalize("word -\nnext"), "word - next");
        assert_eq!(normalize("ends-"), "ends-");
        let document = "in the infor-\n  mation age";
        assert_found_at(document, "the information age", "the infor-\n  mation age");
    }

    #[test]
    fn offsets_map_back_through_multi_byte_characters() {
        let document = "café ☕ — naïve text here";
        assert_found_at(document, "naïve text", "naïve text");
        let m = found(document, "naïve text");
        assert_eq!(m.offsets, Some([9, 19]));
        assert_eq!(m.byte_offsets, Some([14, 25]));
        // A decomposed é composes to match a precomposed one, and maps to both characters.
        let decomposed = "x cafe\u{301} au lait";
        assert_found_at(decomposed, "café au lait", "cafe\u{301} au lait");
        assert_eq!(found(decomposed, "café au lait").offsets, Some([2, 15]));
    }

    #[test]
    fn offsets_map_back_through_nfkc_expansions() {
        let document = "x ﬃ y … ｚ";
        let m = found(document, "ffi y");
        assert_eq!(m.byte_offsets, Some([2, 7]));
        assert_eq!(m.offsets, Some([2, 5]));
        // `…` became three dots: a match ending inside it covers all of it.
        let m = found("wait… then go", "wait.");
        assert_eq!(m.byte_offsets, Some([0, 7]));
        assert_eq!(m.offsets, Some([0, 5]));
        assert_found_at(document, "Z", "ｚ");
        // Segments map the characters after an expansion back to the right bytes.
        let long = format!("{}ﬁ {}", "é".repeat(3000), "the end");
        assert_found_at(&long, "the end", "the end");
    }

    #[test]
    fn ellipsis_fragments_are_found_in_order() {
        let document = "The committee met on Monday. After a long debate, it approved the budget for next year.";
        let passage = "The committee met on Monday. After a long debate, it approved the budget";
        for quote in [
            "The committee met … approved the budget",
            "The committee met ... approved the budget",
            "The committee met . . . approved the budget",
            "The committee met [...] approved the budget",
            "The committee met […] approved the budget",
            "… The committee met (...) approved the budget …",
        ] {
            assert_found_at(document, quote, passage);
        }
        let m = found(document, "approved the budget … the committee met");
        assert!(!m.found);
        let closest = m.closest.expect("closest for the fragment out of order");
        assert_eq!(closest.text, "The committee met");
        assert_eq!(closest.differing_words, 0);
        // Fragments may not overlap.
        assert!(!found("one two three", "one two … two three").found);
        assert!(found("one two two three", "one two … two three").found);
    }

    #[test]
    fn ellipsis_closest_is_for_the_first_fragment_not_found() {
        let document = "The committee met on Monday. After a long debate, it approved the budget.";
        let m = found(document, "The committee met … rejected the budget");
        assert!(!m.found);
        let closest = m.closest.expect("closest");
        assert_eq!(closest.differing_words, 1);
        assert!(closest.text.contains("approved the budget"), "{closest:?}");
    }

    #[test]
    fn altered_quotes_do_not_match() {
        let document = "Officials said the drug is not safe for children under 12 years old.";
        for (quote, passage) in [
            (
                "the drug is safe for children",
                "the drug is not safe for children",
            ),
            (
                "safe for children under 13 years",
                "safe for children under 12 years",
            ),
            (
                "the drug is not safe for adults",
                "the drug is not safe for children",
            ),
            (
                "the drug is not risky for children",
                "the drug is not safe for children",
            ),
        ] {
            let m = found(document, quote);
            assert!(!m.found, "{quote}");
            let closest = m.closest.expect("closest");
            assert_eq!(closest.differing_words, 1, "{quote}: {closest:?}");
            assert_eq!(closest.text, passage, "{quote}");
            assert_eq!(closest.offsets, char_span(document, passage));
        }
        // A number cut short, a word cut short: not whole words.
        assert!(!found("born in 1950 in Paris", "born in 195").found);
        assert!(!found("and she was elected", "he was elected").found);
        assert!(found("and she was elected", "she was elected").found);
    }

    #[test]
    fn closest_passage_names_one_word_for_one_change() {
        let document = "Aerobic denitrifiers are mainly Gram-negative bacteria in the phylum \
                        Proteobacteria. Enzymes NapAB, NirS, NirK and NosZ are located in the \
                        periplasm, a wide space bordered by the cytoplasmic and the outer membrane.";
        let search = QuoteSearch::new(document);
        let replaced = search.find("Enzymes NapAB, NirS, NirK and NosZ are found in the periplasm");
        let closest = replaced.closest.expect("closest");
        assert_eq!(closest.differing_words, 1);
        assert_eq!(
            closest.text,
            "Enzymes NapAB, NirS, NirK and NosZ are located in the periplasm"
        );
        assert!((closest.similarity - (1.0 - 1.0 / 11.0)).abs() < 1e-9);

        let dropped = search.find("a wide space bordered by cytoplasmic and the outer");
        let closest = dropped.closest.expect("closest");
        assert_eq!(closest.differing_words, 1);
        assert_eq!(
            closest.text,
            "a wide space bordered by the cytoplasmic and the outer"
        );
    }

    #[test]
    fn dashes_that_are_not_hyphens_separate_words() {
        let document = "Gothic flourished—the medieval cathedrals such as Canterbury Cathedral, \
                        Westminster Abbey and York Minster–all of them";
        let m = found(document, "the medieval cathedrals such as Canterbury lords");
        let closest = m.closest.expect("closest");
        assert_eq!(closest.differing_words, 1);
        assert_eq!(
            closest.text,
            "the medieval cathedrals such as Canterbury Cathedral"
        );
        let m = found(document, "Abbey and York Minster—all of us");
        let closest = m.closest.expect("closest");
        assert_eq!(closest.differing_words, 1);
        assert_eq!(closest.text, "Abbey and York Minster–all of them");

        let text = "gram-negative (1950), don't 3.5 a—b 東京";
        let words: Vec<&str> = word_spans(text, &[])
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            words,
            [
                "gram-negative",
                "1950",
                "don't",
                "3.5",
                "a",
                "b",
                "東",
                "京"
            ]
        );
        let normalized = normalize_mapped("a—b c-d");
        let spans = word_spans(&normalized.text, &normalized.dash_breaks);
        assert_eq!(spans, [0..1, 2..3, 4..7]);
    }

    #[test]
    fn punctuation_only_differences_score_below_one() {
        let m = found("the cat, which sat", "the cat which sat");
        assert!(!m.found);
        let closest = m.closest.expect("closest");
        assert_eq!(closest.differing_words, 0);
        assert!(
            closest.similarity < 1.0 && closest.similarity > 0.8,
            "{closest:?}"
        );
    }

    #[test]
    fn similarity_stays_between_zero_and_one() {
        let document = "alpha beta gamma delta epsilon zeta eta theta iota kappa";
        for quote in [
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu",
            "nothing in common here at all",
            "kappa iota theta",
            "alphas",
            "gamma, delta!",
            "x",
        ] {
            let m = found(document, quote);
            assert!(!m.found);
            let closest = m.closest.expect("closest");
            assert!(
                (0.0..=1.0).contains(&closest.similarity),
                "{quote}: {closest:?}"
            );
        }
        let m = found(document, "nothing in common");
        let closest = m.closest.expect("closest");
        assert_eq!(closest.similarity, 0.0);
        assert_eq!(closest.offsets[0], 0);
    }

    #[test]
    fn quote_longer_than_the_document() {
        let document = "short text here";
        let m = found(document, "a short text here that goes on and on");
        assert!(!m.found);
        let closest = m.closest.expect("closest");
        assert_eq!(closest.text, "short text here");
        assert_eq!(closest.offsets, [0, 15]);
        assert_eq!(closest.differing_words, 6);
        assert!((closest.similarity - 3.0 / 9.0).abs() < 1e-9);
    }

    #[test]
    fn empty_quotes_and_documents() {
        for quote in ["", "   ", "\u{AD}", "<sup></sup>", "...", "[…]"] {
            let m = found("some document text", quote);
            assert_eq!(m, QuoteMatch::not_found(None), "{quote:?}");
        }
        assert_eq!(found("", "some quote"), QuoteMatch::not_found(None));
        assert_eq!(found("", ""), QuoteMatch::not_found(None));
        assert_eq!(found(" \n ", "a b c"), QuoteMatch::not_found(None));
        // Punctuation only: searched, but there are no words to compare.
        assert_eq!(found("a b c", "!!!"), QuoteMatch::not_found(None));
        assert!(found("wait !!! what", "!!!").found);
    }

    #[test]
    fn serialises_in_camel_case() {
        let m = found("the drug is not safe", "the drug is safe");
        let json = serde_json::to_value(&m).expect("serialisable");
        assert_eq!(json["found"], false);
        assert_eq!(json["offsets"], serde_json::Value::Null);
        assert_eq!(json["byteOffsets"], serde_json::Value::Null);
        assert_eq!(json["closest"]["differingWords"], 1);
        assert_eq!(json["closest"]["offsets"], serde_json::json!([0, 20]));
        let m = found("the drug is not safe", "is not");
        let json = serde_json::to_value(&m).expect("serialisable");
        assert_eq!(json["byteOffsets"], serde_json::json!([9, 15]));
        assert_eq!(json["closest"], serde_json::Value::Null);
    }

    /// A deterministic generator, so the test document is the same on every run.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) as usize
        }
    }

    #[test]
    fn large_document_closest_passage() {
        let mut rng = Lcg(7);
        let vocabulary: Vec<String> = (0..3000)
            .map(|i| {
                let len = 3 + rng.next() % 6;
                let mut word: String = (0..len)
                    .map(|_| char::from(b'a' + (rng.next() % 26) as u8))
                    .collect();
                word.push_str(&i.to_string());
                word
            })
            .collect();
        let pick = |rng: &mut Lcg| vocabulary[rng.next() % vocabulary.len()].as_str();
        let passage: Vec<&str> = (0..12).map(|_| pick(&mut rng)).collect();
        let mut document = String::with_capacity(5_200_000);
        let mut inserted_at = None;
        while document.len() < 5_000_000 {
            if inserted_at.is_none() && document.len() > 3_000_000 {
                inserted_at = Some(document.len());
                document.push_str(&passage.join(" "));
                document.push_str(". ");
            }
            document.push_str(pick(&mut rng));
            document.push(if rng.next().is_multiple_of(10) {
                '\n'
            } else {
                ' '
            });
        }
        let search = QuoteSearch::new(&document);
        let mut quote = passage.clone();
        quote[5] = "replaced";
        let started = std::time::Instant::now();
        let m = search.find(&quote.join(" "));
        let elapsed = started.elapsed();
        assert!(!m.found);
        let closest = m.closest.expect("closest");
        assert_eq!(closest.text, passage.join(" "));
        assert_eq!(closest.differing_words, 1);
        let start = inserted_at.expect("inserted");
        assert_eq!(closest.offsets, [start, start + closest.text.len()]);
        // Reported, not asserted: timing depends on the machine and the build profile.
        eprintln!("closest passage in a 5 MB document: {elapsed:?}");

        let exact = search.find(&passage[2..9].join(" "));
        assert!(exact.found);
    }

    fn texts(sentence: &str) -> Vec<String> {
        quotations(sentence).into_iter().map(|q| q.text).collect()
    }

    #[test]
    fn quotations_in_every_style() {
        let cases = [
            ("He said “the cat sat down” today.", "the cat sat down"),
            ("He said \"the cat sat down\" today.", "the cat sat down"),
            ("Il a dit « le chat est assis » hier.", "le chat est assis"),
            (
                "Er sagte „die Katze sitzt hier“ heute.",
                "die Katze sitzt hier",
            ),
            (
                "Er sagte „die Katze sitzt hier” heute.",
                "die Katze sitzt hier",
            ),
            ("彼は「猫が座った」と言った。", "猫が座った"),
            ("彼は『猫が座った』と言った。", "猫が座った"),
            ("He said ‘the cat sat down’ today.", "the cat sat down"),
            ("He said 'the cat sat down' today.", "the cat sat down"),
            ("'The cat sat down', he said.", "The cat sat down"),
        ];
        for (sentence, text) in cases {
            let found = quotations(sentence);
            assert_eq!(found.len(), 1, "{sentence}");
            let q = &found[0];
            assert_eq!(q.text, text, "{sentence}");
            let marked = &sentence[q.span.clone()];
            assert!(marked.contains(text), "{sentence}");
            assert!(
                !marked.starts_with(text) && !marked.ends_with(text),
                "{sentence}"
            );
        }
        let sentence = "It was “a long day” and then \"a longer night\" came.";
        let found = quotations(sentence);
        assert_eq!(texts(sentence), ["a long day", "a longer night"]);
        assert_eq!(&sentence[found[0].span.clone()], "“a long day”");
        assert_eq!(&sentence[found[1].span.clone()], "\"a longer night\"");
    }

    #[test]
    fn short_quotations_are_ignored() {
        assert!(quotations("The “Red Scare” began.").is_empty());
        assert!(quotations("He was \"quite\" sure.").is_empty());
        assert!(quotations("A 「猫」 sat.").is_empty());
        assert_eq!(
            texts("The “Red Scare” was, they said, “a time of fear”."),
            ["a time of fear"]
        );
    }

    #[test]
    fn apostrophes_are_not_quote_marks() {
        assert!(quotations("I don't think the students' books are here.").is_empty());
        assert!(quotations("I don’t think the students’ books are here, it’s late.").is_empty());
        assert!(quotations("rock 'n' roll and the kids' toys are fun").is_empty());
        assert!(quotations("a 12\" pipe and a 6\" pipe are needed").is_empty());
        assert_eq!(
            texts("She said 'the students' books are gone' and left."),
            ["the students' books are gone"]
        );
        assert_eq!(
            texts("She said ‘it’s the students’ own work’ today."),
            ["it’s the students’ own work"]
        );
    }

    #[test]
    fn nested_and_unbalanced_marks() {
        assert_eq!(
            texts("He wrote “she said ‘no way out’ to us” then."),
            ["she said ‘no way out’ to us"]
        );
        assert!(quotations("““““ ”").is_empty());
        assert!(quotations("« unclosed quotation here").is_empty());
        assert!(quotations("closed here » and “ here").is_empty());
        assert_eq!(
            texts("“ unclosed and then “a closed one here” ok"),
            ["a closed one here"]
        );
        assert_eq!(
            texts("« non fermé puis « une citation ici » fin"),
            ["une citation ici"]
        );
        assert_eq!(texts("\"one two three\" \"four five"), ["one two three"]);
        for sentence in [
            "\"",
            "'",
            "“",
            "”",
            "„“",
            "' '",
            "\"\"",
            "「」",
            "a\"b'c‘d’e",
        ] {
            let _ = quotations(sentence);
        }
    }

    #[test]
    fn no_panics_on_odd_input() {
        let pieces: Vec<&str> =
            "a| |\n|-|\u{AD}|…|.|[|]|“|”|'|\"|é|e\u{301}|\u{301}|ﬁ|<sup>|</SUB>|<|İ|ς\
            |\u{1100}|\u{1161}|\u{11A8}|猫|\u{200B}|１|\r\n|Ⅻ|㎏|\u{0}|\u{10FFFF}|「|」|‘|’|„"
                .split('|')
                .collect();
        let mut rng = Lcg(42);
        for _ in 0..300 {
            let mut document = String::new();
            let mut quote = String::new();
            for _ in 0..(rng.next() % 40) {
                document.push_str(pieces[rng.next() % pieces.len()]);
            }
            for _ in 0..(rng.next() % 12) {
                quote.push_str(pieces[rng.next() % pieces.len()]);
            }
            let search = QuoteSearch::new(&document);
            let m = search.find(&quote);
            for [start, end] in [
                m.byte_offsets,
                m.closest.as_ref().map(|c| {
                    let s = document
                        .char_indices()
                        .nth(c.offsets[0])
                        .map_or(document.len(), |p| p.0);
                    let e = document
                        .char_indices()
                        .nth(c.offsets[1])
                        .map_or(document.len(), |p| p.0);
                    [s, e]
                }),
            ]
            .into_iter()
            .flatten()
            {
                assert!(
                    start <= end && end <= document.len(),
                    "{document:?} {quote:?}"
                );
                assert!(document.is_char_boundary(start) && document.is_char_boundary(end));
            }
            if let Some(c) = &m.closest {
                assert!((0.0..=1.0).contains(&c.similarity));
            }
            let _ = quotations(&document);
            // The whole document, as a quotation, is found unless nothing but ellipses is left.
            let normalized = normalize(&document);
            let has_text = !fragments(&normalized).is_empty();
            assert_eq!(search.find(&document).found, has_text, "{document:?}");
        }
    }

    #[test]
    fn hangul_jamo_compose_across_starters() {
        // ᄀ + ᅡ + ᆨ (conjoining jamo) compose to 각.
        let document = "x \u{1100}\u{1161}\u{11A8} y";
        assert_eq!(normalize(document), "x 각 y");
        assert_found_at(document, "각 y", "\u{1100}\u{1161}\u{11A8} y");
    }
}
