//! The word filter: which chunk tokens are worth looking up, screened by their first letters
//! so that most tokens of a large chunk are never stemmed.

use rustc_hash::FxHashSet;

/// Which chunk tokens are worth looking up: those that may share a stem with a wanted word.
#[derive(Debug, Clone)]
pub struct WordFilter {
    /// Whether tokens are screened by their first letters (English only).
    pub(super) by_prefix: bool,
    /// Bit set of the first two letters (lower-cased ASCII) of the wanted words.
    pub(super) prefixes: [u64; PREFIX_BITS / 64],
    /// Bit set of the first two letters of the wanted stems of two letters.
    pub(super) short: [u64; PREFIX_BITS / 64],
    /// Bit set of the first three letters of the wanted words and stems (see [`key3`]).
    pub(super) long: Vec<u64>,
    /// The wanted stems.
    pub(super) ids: FxHashSet<u32>,
}

/// Size of the prefix bit set: every key of two letters or digits (36 × 36 = 1296) has its
/// own bit.
const PREFIX_BITS: usize = 21 * 64;

/// Size of the three-letter bit set (36 × 36 × 36 = 46,656 keys).
const KEY3_BITS: usize = 729 * 64;

fn has_bit(set: &[u64], key: usize) -> bool {
    set.get(key / 64)
        .is_some_and(|slot| slot & (1 << (key % 64)) != 0)
}

fn set_bit(set: &mut [u64], key: usize) {
    if let Some(slot) = set.get_mut(key / 64) {
        *slot |= 1 << (key % 64);
    }
}

impl Default for WordFilter {
    fn default() -> Self {
        WordFilter {
            by_prefix: false,
            prefixes: [0; PREFIX_BITS / 64],
            short: [0; PREFIX_BITS / 64],
            long: vec![0; KEY3_BITS / 64],
            ids: FxHashSet::default(),
        }
    }
}

impl WordFilter {
    /// Whether `token` (as written) may have a wanted stem.
    ///
    /// A token of three letters or more whose stem has three or more keeps its first three
    /// letters up to `key3`'s classes; one whose stem has two letters starts with them.
    pub fn may_keep(&self, token: &str) -> bool {
        if !self.by_prefix {
            return true;
        }
        let bytes = token.as_bytes();
        // A token that does not start with ASCII letters or digits may lower-case or
        // normalise into any word (the Kelvin sign is a `k`): it is always looked up.
        let Some(two) = prefix_key(bytes) else {
            return true;
        };
        match key3(bytes) {
            Some(three) => has_bit(&self.long, three) || has_bit(&self.short, two),
            None => has_bit(&self.prefixes, two),
        }
    }

    /// Whether a stem is wanted.
    pub fn keeps(&self, id: u32) -> bool {
        self.ids.contains(&id)
    }

    /// Lets through the tokens that start as `word` does (as written or stemmed); `short_stem`
    /// when its stem may have fewer than three letters.
    pub(super) fn admit(&mut self, word: &[u8], short_stem: bool) {
        if let Some(key) = prefix_key(word) {
            set_bit(&mut self.prefixes, key);
            if short_stem {
                set_bit(&mut self.short, key);
            }
        }
        if let Some(key) = key3(word) {
            set_bit(&mut self.long, key);
        }
    }
}

/// The bit of a word's first two characters, lower-cased, when both are ASCII letters or
/// digits; `None` otherwise. A second `y` counts as `i`: the stemmer's exceptional forms
/// `dying`, `lying` and `tying` become `die`, `lie` and `tie`.
pub(super) fn prefix_key(word: &[u8]) -> Option<usize> {
    let digit = |b: u8| match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => Some(usize::from(c - b'a')),
        c @ b'0'..=b'9' => Some(26 + usize::from(c - b'0')),
        _ => None,
    };
    let first = digit(*word.first()?)?;
    let second = match digit(*word.get(1)?)? {
        24 => 8, // y → i
        other => other,
    };
    Some(first * 36 + second)
}

/// The key of a word's first three characters, lower-cased, when all three are ASCII letters
/// or digits; `None` otherwise. In the second and third place `e`, `i` and `y` are one letter:
/// the English stemmer turns a final `y` into `i` (`cry` → `cri`), adds an `e` (`using` →
/// `use`) and has the exceptional forms `skies` → `sky` and `dying` → `die`; everything else
/// it does happens after the third letter of a stem of three letters or more.
pub(super) fn key3(word: &[u8]) -> Option<usize> {
    let digit = |b: u8| match b.to_ascii_lowercase() {
        c @ b'a'..=b'z' => Some(usize::from(c - b'a')),
        c @ b'0'..=b'9' => Some(26 + usize::from(c - b'0')),
        _ => None,
    };
    let vowel_class = |d: usize| match d {
        4 | 24 => 8, // e, y → i
        other => other,
    };
    let first = digit(*word.first()?)?;
    let second = vowel_class(digit(*word.get(1)?)?);
    let third = vowel_class(digit(*word.get(2)?)?);
    Some((first * 36 + second) * 36 + third)
}
