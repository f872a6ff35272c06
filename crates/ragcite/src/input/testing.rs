//! What the input stage's tests share: chunks read from text, and chunks seen as tuples.

use super::{Chunk, Chunks, read_chunks};

/// The chunks of `text`, read as a chunks file without a name; panics on an error.
pub(crate) fn read(text: &str) -> Chunks {
    read_chunks(text.as_bytes(), false).unwrap_or_else(|e| panic!("{e}"))
}

/// Each chunk as (id, text).
pub(crate) fn ids_and_texts(chunks: &[Chunk]) -> Vec<(&str, &str)> {
    chunks
        .iter()
        .map(|c| (c.id.as_str(), c.text.as_str()))
        .collect()
}

/// Each chunk as (id, text, other names).
pub(crate) fn with_names(chunks: &[Chunk]) -> Vec<(&str, &str, &[String])> {
    chunks
        .iter()
        .map(|c| (c.id.as_str(), c.text.as_str(), c.aliases.as_slice()))
        .collect()
}
