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

    use super::*;

    /// Each word of a line, stemmed at run time, finds every word of the line's other side:
    /// the build script's stems are the run time's.
    #[test]
    fn every_word_of_the_list_finds_its_antonyms_by_its_stem() {
        let stemmer = Stemmer::create(Algorithm::English);
        let mut lines = 0;
        for line in include_str!("antonyms.txt")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let (left, right) = line.split_once('|').unwrap();
            for (from, to) in [(left, right), (right, left)] {
                for word in from.split_whitespace() {
                    let found = antonyms_of(&stemmer.stem(word));
                    for other in to.split_whitespace() {
                        assert!(found.contains(&other), "{word} → {other}");
                    }
                }
            }
            lines += 1;
        }
        assert!(lines > 30);
        assert!(antonyms_of("tower").is_empty());
    }
}
