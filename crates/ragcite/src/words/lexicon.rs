//! English lexicons the words stage marks words with: general words (`also`, `important`;
//! `general_words.txt`), antonyms (`increase` ↔ `decrease`; `antonyms.txt`) and negations
//! (`not`, `never`, `didn't`).

use std::sync::OnceLock;

use rustc_hash::FxHashSet;

include!(concat!(env!("OUT_DIR"), "/antonyms.rs"));

/// The words of opposite meaning to the words whose Snowball stem is `stem`, from
/// `antonyms.txt` (keyed by stem by the build script): empty for most stems.
/// Looked up in a hash map made of the static table at the first call (a few thousand
/// instructions): a check looks up every content word of every sentence.
pub(super) fn antonyms_of(stem: &str) -> &'static [&'static str] {
    static MAP: OnceLock<rustc_hash::FxHashMap<&'static str, &'static [&'static str]>> =
        OnceLock::new();
    MAP.get_or_init(|| ANTONYMS.iter().copied().collect())
        .get(stem)
        .copied()
        .unwrap_or(&[])
}

/// How many words after a negation it reaches: `not` in `was not completed` and `did not
/// fully complete` negates `completed` and `complete`.
pub const NEGATION_REACH: u32 = 3;

/// Whether `token`, a token of `text` (a slice of it), negates the words after it: a negation
/// not followed by punctuation. `No, the tower …` and `… or not.` negate nothing after them.
#[inline]
pub fn negates(text: &str, token: &str) -> bool {
    is_negation(token) && !punctuation_follows(text, token)
}

/// Whether punctuation follows `token`, a slice of `text`, after at most spaces.
fn punctuation_follows(text: &str, token: &str) -> bool {
    let start = (token.as_ptr() as usize).wrapping_sub(text.as_ptr() as usize);
    let after = text.get(start + token.len()..).unwrap_or("");
    after
        .trim_start_matches([' ', '\u{a0}'])
        .starts_with([',', '.', ';', ':', '!', '?'])
}

/// Whether an English token is a negation: `not`, `no`, `never`, `without`, `nor`, `cannot`,
/// `neither`, `none`, and contractions ending in `n't`.
#[inline]
pub fn is_negation(token: &str) -> bool {
    // Runs on every token of every chunk: no allocation.
    const WORDS: [&str; 8] = [
        "not", "no", "never", "without", "nor", "cannot", "neither", "none",
    ];
    let bytes = token.as_bytes();
    let contraction = |apostrophe: &[u8]| {
        bytes.len() > apostrophe.len() + 2
            && bytes[..bytes.len() - 1].ends_with(apostrophe)
            && bytes[bytes.len() - 1].eq_ignore_ascii_case(&b't')
            && bytes[bytes.len() - 2 - apostrophe.len()].eq_ignore_ascii_case(&b'n')
    };
    WORDS.iter().any(|w| w.eq_ignore_ascii_case(token))
        || contraction(b"'")
        || contraction("\u{2019}".as_bytes())
}

/// Whether `word` (lower-cased) is a general English word.
pub fn is_general_word(word: &str) -> bool {
    static GENERAL: OnceLock<FxHashSet<&'static str>> = OnceLock::new();
    GENERAL
        .get_or_init(|| {
            include_str!("general_words.txt")
                .lines()
                .filter(|line| !line.starts_with('#'))
                .flat_map(str::split_whitespace)
                .collect()
        })
        .contains(word)
}

#[cfg(test)]
mod antonym_tests {
    use rust_stemmers::{Algorithm, Stemmer};
    use rustc_hash::FxHashMap;

    use super::*;

    /// The table as it was built at run time before the build script wrote it.
    /// The antonym table: for the stem of each word of `antonyms.txt`, the words of opposite
    /// meaning.
    fn antonym_table() -> &'static FxHashMap<String, Vec<&'static str>> {
        static TABLE: OnceLock<FxHashMap<String, Vec<&'static str>>> = OnceLock::new();
        TABLE.get_or_init(|| {
            let stemmer = Stemmer::create(Algorithm::English);
            let mut table: FxHashMap<String, Vec<&'static str>> = FxHashMap::default();
            for line in include_str!("antonyms.txt").lines() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                let mut sides = line.split('|').map(str::split_whitespace);
                let (Some(left), Some(right)) = (sides.next(), sides.next()) else {
                    continue;
                };
                let (left, right): (Vec<&str>, Vec<&str>) = (left.collect(), right.collect());
                for (from, to) in [(&left, &right), (&right, &left)] {
                    for word in from.iter() {
                        let entry = table.entry(stemmer.stem(word).into_owned()).or_default();
                        for other in to.iter() {
                            if !entry.contains(other) {
                                entry.push(other);
                            }
                        }
                    }
                }
            }
            table
        })
    }

    #[test]
    fn the_table_by_stem_is_the_list_read_at_run_time() {
        let table = antonym_table();
        assert_eq!(table.len(), ANTONYMS.len());
        for (stem, words) in table {
            assert_eq!(antonyms_of(stem), words.as_slice(), "{stem}");
        }
        assert_eq!(
            antonyms_of("increas"),
            antonym_table()["increas"].as_slice()
        );
        assert!(antonyms_of("tower").is_empty());
    }
}
