//! Normalisation: the text a quotation and a document are compared as, with a map from each
//! normalised byte back to the original text.

use std::iter::once;
use unicode_normalization::char::canonical_combining_class;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

// Normalisation

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
    pub(super) orig_end: usize,
    /// Byte `k` of the stretch comes from byte `orig + k`: each character came from one
    /// character of the same length. Otherwise every character of the stretch came from all of
    /// `orig..orig_end` (a collapsed run of spaces, an NFKC expansion or composition).
    identity: bool,
}

/// A normalised text and the map back to the text it came from. Ordinary text maps one
/// character to one character, so the map holds runs, not a position per byte.
#[derive(Debug, Clone, Default)]
pub(super) struct Normalized {
    pub(super) text: String,
    segments: Vec<Segment>,
    /// Bytes of `text` where a `-` stands for a dash that is not a hyphen (`flourished—the`):
    /// words end there, though the text no longer shows it.
    pub(super) dash_breaks: Vec<usize>,
}

impl Normalized {
    fn segment(&self, byte: usize) -> Option<&Segment> {
        let after = self.segments.partition_point(|s| s.norm <= byte);
        after.checked_sub(1).and_then(|i| self.segments.get(i))
    }

    /// Original byte at which the normalised character starting at `start` begins.
    pub(super) fn orig_start(&self, start: usize) -> usize {
        match self.segment(start) {
            Some(s) if s.identity => s.orig + (start - s.norm),
            Some(s) => s.orig,
            None => 0,
        }
    }

    /// Original byte at which the normalised character ending at `end` ends.
    pub(super) fn orig_end(&self, end: usize) -> usize {
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

pub(super) fn normalize_mapped(input: &str) -> Normalized {
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
pub(super) fn sup_sub_tag(text: &str, at: usize) -> Option<usize> {
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
    pub(super) out: Normalized,
    /// A run of white space not yet written: its span and whether it holds a line break.
    space: Option<(usize, usize, bool)>,
    /// A hyphen after a letter, held back in case a line break and a letter follow: its span
    /// and whether it is a soft hyphen (written as nothing).
    hyphen: Option<(usize, usize, bool)>,
    pub(super) last: Option<char>,
}

impl Builder {
    pub(super) fn with_capacity(capacity: usize) -> Self {
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

    pub(super) fn push(&mut self, c: char, start: usize, end: usize) {
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
pub(super) fn separates_words(c: char) -> bool {
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
