//! The passage of a chunk that a sentence matches: the stretch of the chunk's words that holds
//! the most of the sentence's content words, for explanations. Read only when asked (`ragcite
//! explain`), one chunk at a time, in one pass over the chunk.

use std::collections::VecDeque;
use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::words::{Analyzer, numbers_in};

/// How many tokens of the chunk a passage spans at most.
pub const PASSAGE_TOKENS: usize = 40;

/// A passage of a chunk: its byte span, and the byte spans of the sentence's words in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Passage {
    pub span: Range<usize>,
    pub matched: Vec<Range<usize>>,
}

/// The passage of `chunk` of at most [`PASSAGE_TOKENS`] tokens that holds the most distinct
/// content words of `sentence` (the earliest on a tie), cut to its first and last such word;
/// `None` when the chunk holds none of them.
pub fn best_passage(analyzer: &Analyzer, sentence: &str, chunk: &str) -> Option<Passage> {
    analyzer.begin();
    let mut wanted: FxHashMap<u32, ()> = FxHashMap::default();
    analyzer.for_each_token(
        sentence,
        &numbers_in(sentence, analyzer.language().decimal()),
        |token| {
            if let Some(id) = analyzer.stem_id(token) {
                wanted.insert(id, ());
            }
        },
    );
    if wanted.is_empty() {
        return None;
    }
    // The chunk's tokens that are words of the sentence: (token position, stem, byte span).
    let mut hits: Vec<(usize, u32, Range<usize>)> = Vec::new();
    let mut position = 0;
    analyzer.for_each_token(
        chunk,
        &numbers_in(chunk, analyzer.language().decimal()),
        |token| {
            if let Some(id) = analyzer.stem_id(token)
                && wanted.contains_key(&id)
            {
                let start = token.as_ptr() as usize - chunk.as_ptr() as usize;
                hits.push((position, id, start..start + token.len()));
            }
            position += 1;
        },
    );
    // A sliding window over the hits, counting distinct stems.
    let mut counts: FxHashMap<u32, usize> = FxHashMap::default();
    let mut window: VecDeque<usize> = VecDeque::new();
    let mut best: Option<(usize, usize, usize)> = None; // (distinct, first hit, last hit)
    for (k, (at, id, _)) in hits.iter().enumerate() {
        window.push_back(k);
        *counts.entry(*id).or_insert(0) += 1;
        while let Some(&first) = window.front() {
            if at - hits[first].0 < PASSAGE_TOKENS {
                break;
            }
            window.pop_front();
            let stem = hits[first].1;
            if let Some(n) = counts.get_mut(&stem) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(&stem);
                }
            }
        }
        let distinct = counts.len();
        if best.is_none_or(|(d, _, _)| distinct > d) {
            best = Some((distinct, *window.front().unwrap_or(&k), k));
        }
    }
    let (_, first, last) = best?;
    let matched: Vec<Range<usize>> = hits[first..=last].iter().map(|h| h.2.clone()).collect();
    Some(Passage {
        span: hits[first].2.start..hits[last].2.end,
        matched,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::words::Language;

    #[test]
    fn the_passage_is_where_the_sentence_s_words_stand_together() {
        let analyzer = Analyzer::new(Language::English);
        let chunk = "Opening hours vary. Guided tours leave from the north lobby every hour. \
                     Tickets are sold online.";
        let passage = best_passage(&analyzer, "Tours leave from the north lobby.", chunk).unwrap();
        assert_eq!(
            &chunk[passage.span.clone()],
            "tours leave from the north lobby"
        );
        let words: Vec<&str> = passage.matched.iter().map(|r| &chunk[r.clone()]).collect();
        assert_eq!(words, ["tours", "leave", "north", "lobby"]);
        assert_eq!(
            best_passage(&analyzer, "Nothing shared here.", "Other text."),
            None
        );
    }
}
