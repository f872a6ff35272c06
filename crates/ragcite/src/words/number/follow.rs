//! What may follow a number's digits and belongs to it: scale words (`7 million`, `10k`, `1.5万`),
//! percent signs and words, ordinal and plural endings (`5th`, `1990s`), currency subunits
//! (`25 cents`) and a currency's `m` or `b` (`$8.2m`). Each list carries the set of its words'
//! first letters, so that a number followed by none of them is compared with none.

/// Scale words and their power of ten. `attached` ones only count written right after the
/// digits (`10k`, `5M`), because alone they are ordinary letters or units (`5 m` is metres).
const SCALES: Words = Words::new(&[
    ("thousand", 3, false),
    ("million", 6, false),
    ("millions", 6, false),
    ("billion", 9, false),
    ("billions", 9, false),
    ("trillion", 12, false),
    ("trillions", 12, false),
    ("bn", 9, false),
    // Oil output: million barrels a day (`100.1 mb/d`).
    ("mb/d", 6, false),
    ("mbpd", 6, false),
    // The same words in the other languages ragcite reads (`1,5 Millionen`, `2 milliards`).
    ("millionen", 6, false),
    ("mio", 6, false),
    ("milliarde", 9, false),
    ("milliarden", 9, false),
    ("mrd", 9, false),
    ("milliard", 9, false),
    ("milliards", 9, false),
    ("millones", 6, false),
    ("milioni", 6, false),
    ("miliardi", 9, false),
    ("milhões", 6, false),
    ("miljoen", 6, false),
    ("miljard", 9, false),
    ("mn", 6, false),
    ("mln", 6, false),
    ("k", 3, true),
    ("K", 3, true),
    ("M", 6, true),
    ("B", 9, true),
]);

/// Words that make the number a percentage; the value stays the same.
const PERCENT_WORDS: Words = Words::new(&[
    ("percent", 0, false),
    ("per cent", 0, false),
    ("percentage points", 0, false),
    ("percentage point", 0, false),
    // The same words in the other languages ragcite reads (`3,5 Prozent`).
    ("prozent", 0, false),
    ("pour cent", 0, false),
    ("por ciento", 0, false),
    ("por cento", 0, false),
    ("per cento", 0, false),
    ("procent", 0, false),
    ("prosent", 0, false),
    ("prosenttia", 0, false),
]);

/// Ordinal and plural endings written onto a number (`5th`, `1990s`); they do not change it.
pub(super) const ATTACHED_ENDINGS: Words = Words::new(&[
    ("st", 0, true),
    ("nd", 0, true),
    ("rd", 0, true),
    ("th", 0, true),
    ("s", 0, true),
]);

/// Currency subunits and basis points: the number before them is hundredths.
const SUBUNITS: Words = Words::new(&[
    ("cents", 0, false),
    ("cent", 0, false),
    ("pence", 0, false),
    ("basis points", 0, false),
    ("basis point", 0, false),
    ("bps", 0, false),
    ("bp", 0, false),
]);

/// Length of a subunit word or the cent sign `¢` at `j`.
pub(super) fn subunit_at(text: &str, j: usize) -> Option<usize> {
    let rest = &text[j..];
    if rest.starts_with('\u{a2}') {
        return Some('\u{a2}'.len_utf8());
    }
    if rest.starts_with(" \u{a2}") {
        return Some(1 + '\u{a2}'.len_utf8());
    }
    attached_word(text, j, SUBUNITS)
}

/// Words that may follow a number (scales, units, endings), each with its power of ten and
/// whether it is written onto the number, and the set of their first letters: a number followed
/// by a letter none of them starts with is compared with none of them.
#[derive(Clone, Copy)]
pub(super) struct Words {
    list: &'static [(&'static str, i64, bool)],
    letters: u32,
}

impl Words {
    /// The list and its first letters; every word starts with an ASCII letter (checked as the
    /// list is built, at compile time).
    pub(super) const fn new(list: &'static [(&'static str, i64, bool)]) -> Words {
        let mut letters = 0;
        let mut k = 0;
        while k < list.len() {
            let first = list[k].0.as_bytes()[0];
            assert!(
                first.is_ascii_alphabetic(),
                "a word that follows a number starts with an ASCII letter"
            );
            letters |= 1 << (first.to_ascii_lowercase() - b'a');
            k += 1;
        }
        Words { list, letters }
    }

    /// Whether some word of the list may start with the byte `b`.
    fn may_open(self, b: u8) -> bool {
        b.is_ascii_alphabetic() && self.letters & (1 << (b.to_ascii_lowercase() - b'a')) != 0
    }
}

pub(super) fn word_ends_at(text: &str, j: usize) -> bool {
    text[j..]
        .chars()
        .next()
        .is_none_or(|c| !c.is_alphanumeric())
}

/// Length of one of `words` at `j` (after at most one space unless it must be attached),
/// matched as a whole word.
pub(super) fn attached_word(text: &str, j: usize, words: Words) -> Option<usize> {
    scale_like(text, j, words).map(|(len, _)| len)
}

fn scale_like(text: &str, j: usize, words: Words) -> Option<(usize, i64)> {
    let rest = &text[j..];
    // A scale word may follow after a space, a no-break space or a narrow no-break space.
    let spaced = [' ', '\u{00A0}', '\u{202F}']
        .into_iter()
        .find_map(|space| rest.strip_prefix(space).map(|r| (r, space.len_utf8())));
    // Every word starts with an ASCII letter: most numbers are followed by none, or by a
    // letter no word of the list starts with, and are compared with none of them.
    let opens_any = |after: &str| after.as_bytes().first().is_some_and(|b| words.may_open(*b));
    if !opens_any(rest) && !spaced.is_some_and(|(after, _)| opens_any(after)) {
        return None;
    }
    let opens = |after: &str, word: &str| {
        after.as_bytes().first().map(u8::to_ascii_lowercase)
            == word.as_bytes().first().map(u8::to_ascii_lowercase)
    };
    for &(word, power, attached) in words.list {
        let candidates = std::iter::once((rest, 0)).chain(if attached { None } else { spaced });
        for (after, skip) in candidates {
            if !opens(after, word) {
                continue;
            }
            let matches = if attached {
                after.starts_with(word)
            } else {
                after
                    .get(..word.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(word))
            };
            if matches && word_ends_at(text, j + skip + word.len()) {
                return Some((skip + word.len(), power));
            }
        }
    }
    None
}

pub(super) fn percent_at(text: &str, j: usize) -> Option<usize> {
    let rest = &text[j..];
    if rest.starts_with('%') {
        return Some(1);
    }
    // `3,5 %`, with a space, a no-break or a narrow no-break space (French typography).
    for space in [' ', '\u{00A0}', '\u{202F}'] {
        if rest.strip_prefix(space).is_some_and(|r| r.starts_with('%')) {
            return Some(space.len_utf8() + 1);
        }
    }
    // The full-width percent sign of Chinese and Japanese text.
    if rest.starts_with('\u{ff05}') {
        return Some('\u{ff05}'.len_utf8());
    }
    attached_word(text, j, PERCENT_WORDS)
}

/// The myriads of Chinese, Japanese and Korean written onto a number (`1.5万`, `3億`, `2만`):
/// its power of ten and its length.
pub(super) fn east_asian_scale(text: &str, j: usize) -> Option<(usize, i64)> {
    let c = text[j..].chars().next()?;
    let power = match c {
        '万' | '萬' | '만' => 4,
        '亿' | '億' | '억' => 8,
        _ => return None,
    };
    Some((c.len_utf8(), power))
}

pub(super) fn scale_at(text: &str, j: usize) -> Option<(usize, i64)> {
    scale_like(text, j, SCALES)
}

/// Currency signs: an amount written after one is money, so a lower-case `m` or `b` attached
/// to it is a scale (`$8.2m`, `£3b`), not metres or bytes.
const CURRENCY_SIGNS: &[char] = &['$', '£', '€', '¥', '₹'];

/// `m` and `b` as scales of an amount after a currency sign.
const CURRENCY_SCALES: Words = Words::new(&[("m", 6, true), ("b", 9, true)]);

/// `m` (10⁶) or `b` (10⁹) attached to an amount that starts at `start` right after a currency
/// sign and whose digits end at `j`.
pub(super) fn currency_scale(text: &str, start: usize, j: usize) -> Option<(usize, i64)> {
    let sign = text[..start].chars().next_back()?;
    if !CURRENCY_SIGNS.contains(&sign) {
        return None;
    }
    scale_like(text, j, CURRENCY_SCALES)
}
