//! Word rarity from a general English frequency table (`rarity.txt`: the 100,000 most frequent
//! words of wordfreq, CC BY-SA 4.0, with their Zipf frequency). A rare word a chunk shares with
//! a sentence says more than a common one; a rare word it lacks says more against it.
//!
//! The table is sorted by bytes and searched in place: nothing is built at start.

/// The table: a header of `#` lines, a blank line, then `word\tzipf×10` lines sorted by bytes.
static TABLE: &str = include_str!("rarity.txt");

/// Rarity of a word missing from the table: rarer than every word in it.
pub const UNLISTED_RARITY: f64 = 8.0;

/// The table's lines, after its header (found once).
fn body() -> &'static str {
    static BODY: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();
    BODY.get_or_init(|| TABLE.find("\n\n").map_or(TABLE, |at| &TABLE[at + 2..]))
}

/// The Zipf frequency of a lower-case word times ten (77 for `the`), when it is among the
/// table's words.
pub fn zipf10(word: &str) -> Option<u8> {
    let body = body().as_bytes();
    let key = word.as_bytes();
    let (mut lo, mut hi) = (0usize, body.len());
    // Invariant: lo and hi are line starts (or the end), and the word, if listed, is between.
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let start = body[lo..mid]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(lo, |p| lo + p + 1);
        let end = body[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(body.len(), |p| start + p);
        let line = &body[start..end];
        let tab = line.iter().position(|&b| b == b'\t').unwrap_or(line.len());
        match line[..tab].cmp(key) {
            std::cmp::Ordering::Equal => {
                let digits = std::str::from_utf8(&line[(tab + 1).min(line.len())..]).ok()?;
                return digits.parse().ok();
            }
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
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
        let body = body();
        let mut previous = "";
        for line in body.lines() {
            let (word, zipf) = line.split_once('\t').expect("word and frequency");
            assert!(
                previous.as_bytes() < word.as_bytes(),
                "{previous} before {word}"
            );
            assert_eq!(zipf10(word), zipf.parse().ok(), "{word}");
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
