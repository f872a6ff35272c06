//! Each thread's interner: distinct tokens and stems, with a number for each stem, so that
//! stems are compared as numbers.

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use super::*;

/// Most distinct tokens remembered per thread before [`Analyzer::begin`] forgets them.
pub(super) const INTERNER_LIMIT: usize = 1 << 19;

/// Each thread's distinct tokens and stems, with a number for each stem.
#[derive(Default)]
pub(super) struct Interner {
    pub(super) language: Option<Language>,
    /// Token as written → its stem's id, or `None` when it is not a content word.
    pub(super) tokens: FxHashMap<Box<str>, Option<u32>>,
    pub(super) stems: FxHashMap<Box<str>, u32>,
    /// Stem of each id.
    pub(super) names: Vec<Box<str>>,
}

impl Interner {
    /// Remembers what `token` is: the id of its stem, interned, or `None` when it is no
    /// content word (`stem` is `None`). Returns that id.
    pub(super) fn remember(&mut self, token: &str, stem: Option<String>) -> Option<u32> {
        let id = stem.map(|stem| self.intern(stem));
        self.tokens.insert(token.into(), id);
        id
    }

    pub(super) fn intern(&mut self, stem: String) -> u32 {
        if let Some(id) = self.stems.get(stem.as_str()) {
            return *id;
        }
        let id = self.names.len() as u32;
        let stem = stem.into_boxed_str();
        self.names.push(stem.clone());
        self.stems.insert(stem, id);
        id
    }
}

thread_local! {
    pub(super) static INTERNER: RefCell<Interner> = RefCell::new(Interner::default());
}
