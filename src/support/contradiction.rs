//! Contradictions: whether the passage of a cited chunk that a sentence matches says the
//! opposite of it (polarity, antonyms, direction against the passage's figures, exclusivity).
//! Each chunk is read for this on first use only: most cited chunks never need it.

use rustc_hash::FxHashMap;

use crate::input::Chunk;
use crate::report::Contradiction;
use crate::words::Language;

use super::SentenceInput;

/// Finds contradictions between sentences and the chunks they cite, preparing each chunk once.
pub(super) struct Contradictions<'a> {
    chunks: &'a [Chunk],
    language: Language,
    prepared: FxHashMap<usize, Prepared>,
}

/// A chunk as contradictions read it.
struct Prepared;

impl<'a> Contradictions<'a> {
    pub(super) fn new(chunks: &'a [Chunk], language: Language) -> Self {
        Contradictions {
            chunks,
            language,
            prepared: FxHashMap::default(),
        }
    }

    fn prepare(&mut self, chunk: usize) -> &Prepared {
        let _ = (&self.chunks[chunk].text, self.language);
        self.prepared.entry(chunk).or_insert(Prepared)
    }

    /// What `chunk` (a position in the chunks) says against `sentence`, if anything: only the
    /// passage of the chunk the sentence matches counts.
    pub(super) fn find(&mut self, sentence: &SentenceInput, chunk: usize) -> Option<Contradiction> {
        let _ = (sentence, self.prepare(chunk));
        None
    }
}
