//! Word rarity from a general English frequency table (`rarity.txt`: the 100,000 most frequent
//! words of wordfreq, CC BY-SA 4.0, with their Zipf frequency). A rare word a chunk shares with
//! a sentence says more than a common one; a rare word it lacks says more against it.
//!
//! The table is sorted by bytes and searched in place, through the start of every eighth
//! line, which the build script finds: nothing is built at start.

use std::cmp::Ordering;

/// The table: a header of `#` lines, a blank line, then `word\tzipf×10` lines sorted by bytes.
static TABLE: &str = include_str!("rarity.txt");

/// Rarity of a word missing from the table: rarer than every word in it.
pub const UNLISTED_RARITY: f64 = 8.0;

// `STRIDE` and `BLOCK_STARTS`, written by the build script from the table.
include!(concat!(env!("OUT_DIR"), "/rarity_index.rs"));

/// How the word of the line that starts at `start` compares with `key`, read up to its tab.
fn compare_at(table: &[u8], start: usize, key: &[u8]) -> Ordering {
    let listed = table.get(start..).unwrap_or_default();
    for (k, &b) in listed.iter().enumerate() {
        if b == b'\t' || b == b'\n' {
            return if k == key.len() {
                Ordering::Equal
            } else {
                Ordering::Less
            };
        }
        match key.get(k) {
            None => return Ordering::Greater,
            Some(&c) if c != b => return b.cmp(&c),
            Some(_) => {}
        }
    }
    if listed.len() == key.len() {
        Ordering::Equal
    } else {
        Ordering::Less
    }
}

/// The Zipf frequency of a lower-case word times ten (77 for `the`), when it is among the
/// table's words.
pub fn zipf10(word: &str) -> Option<u8> {
    let table = TABLE.as_bytes();
    let key = word.as_bytes();
    // The last block whose first word is at most the key, then its lines in order.
    let block = BLOCK_STARTS
        .partition_point(|&start| compare_at(table, start as usize, key) != Ordering::Greater);
    let mut start = *BLOCK_STARTS.get(block.checked_sub(1)?)? as usize;
    for _ in 0..STRIDE {
        match compare_at(table, start, key) {
            Ordering::Equal => {
                let digits = table.get(start + key.len() + 1..)?;
                let end = digits
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(digits.len());
                return std::str::from_utf8(&digits[..end]).ok()?.parse().ok();
            }
            Ordering::Greater => return None,
            Ordering::Less => {
                let rest = table.get(start..)?;
                start += rest.iter().position(|&b| b == b'\n')? + 1;
            }
        }
    }
    None
}

/// How rare a lower-case word is: 9 − its Zipf frequency (1.3 for `the`, 4.2 for `paris`, 6
/// for `photosynthesis`), `UNLISTED_RARITY` for a word the table lacks.
pub fn rarity(word: &str) -> f64 {
    thread_local! {
        /// Each thread's words looked up so far: the same words recur in every sentence.
        static SEEN: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, f64>> =
            std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    }
    /// Most words remembered per thread before the memory is cleared.
    const SEEN_LIMIT: usize = 1 << 16;
    SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        if let Some(&r) = seen.get(word) {
            return r;
        }
        let r = zipf10(word).map_or(UNLISTED_RARITY, |z| {
            (9.0 - f64::from(z) / 10.0).clamp(0.5, UNLISTED_RARITY)
        });
        if seen.len() >= SEEN_LIMIT {
            seen.clear();
        }
        seen.insert(word.into(), r);
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_words_at_both_ends_and_in_the_middle() {
        assert_eq!(zipf10("the"), Some(77));
        assert!(zipf10("paris").is_some());
        assert!(zipf10("zygote").is_some());
        assert_eq!(zipf10("qqqqzzzz"), None);
        assert_eq!(zipf10(""), None);
        assert_eq!(zipf10("\t"), None);
    }

    #[test]
    fn every_listed_word_is_found() {
        let mut previous = "";
        let body = TABLE.find("\n\n").map_or(TABLE, |at| &TABLE[at + 2..]);
        for line in body.lines() {
            let (word, zipf) = line.split_once('\t').expect("word and frequency");
            assert!(
                previous.as_bytes() < word.as_bytes(),
                "{previous} before {word}"
            );
            assert_eq!(zipf10(word), zipf.parse().ok(), "{word}");
            // Just after it, before the next: not listed.
            assert_eq!(zipf10(&format!("{word}\u{1}")), None, "{word}");
            previous = word;
        }
    }

    #[test]
    fn rarer_words_weigh_more() {
        assert!(rarity("photosynthesis") > rarity("paris"));
        assert!(rarity("paris") > rarity("the"));
        assert_eq!(rarity("qqqqzzzz"), UNLISTED_RARITY);
    }
}
