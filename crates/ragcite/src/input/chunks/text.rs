//! Chunks written as text: Markdown with one heading per source (`## Source 1`, `### [2]
//! Title`), blocks that start with `[id]` or `id:` at the beginning of a line, text separated by
//! lines of `---`, and paragraphs separated by blank lines.

use std::sync::LazyLock;

use regex::Regex;

use super::{finish_chunks, is_whole_number};
use crate::input::InputError;
use crate::input::{Chunk, ChunkFormat, Chunks};

/// Reads chunks written as text, recognising which of the forms it is.
pub(super) fn read(text: &str) -> Result<Chunks, InputError> {
    if let Some(chunks) = super::markdown::read(text) {
        return chunks;
    }
    let (chunks, format) = blocks(text);
    let numbered = matches!(
        format,
        ChunkFormat::BracketBlocks | ChunkFormat::ColonBlocks
    ) && chunks.iter().all(|c| is_whole_number(&c.id));
    let mut chunks = finish_chunks(chunks, format)?;
    chunks.ids_are_numbers = numbered;
    Ok(chunks)
}

/// One string that numbers its sources at the starts of its lines (`[1] ...\n[2] ...`): two or
/// more blocks, every label a whole number, the first at the start. `None` when it is not that.
pub(super) fn numbered(text: &str) -> Option<Result<Chunks, InputError>> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().find(|l| !l.trim().is_empty())?;
    if !BRACKET_HEADER.is_match(first) {
        return None;
    }
    let chunks = headed_blocks(&lines, &BRACKET_HEADER);
    if chunks.len() < 2 || !chunks.iter().all(|c| is_whole_number(&c.id)) {
        return None;
    }
    Some(
        finish_chunks(chunks, ChunkFormat::BracketBlocks).map(|mut chunks| {
            chunks.ids_are_numbers = true;
            chunks
        }),
    )
}

static BRACKET_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[([\p{L}\p{N}_.\-]+)\][ \t]*(.*)$").unwrap());

static COLON_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([\p{L}\p{N}_.\-]+):(?:[ \t]+(.*))?$").unwrap());

fn blocks(text: &str) -> (Vec<Chunk>, ChunkFormat) {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .copied()
        .unwrap_or("");
    if BRACKET_HEADER.is_match(first) {
        return (
            headed_blocks(&lines, &BRACKET_HEADER),
            ChunkFormat::BracketBlocks,
        );
    }
    if COLON_HEADER.is_match(first) && every_paragraph_starts_with(&lines, &COLON_HEADER) {
        return (
            headed_blocks(&lines, &COLON_HEADER),
            ChunkFormat::ColonBlocks,
        );
    }
    if lines.iter().any(|l| l.trim() == "---") {
        return (dash_separated(&lines), ChunkFormat::DashSeparated);
    }
    let chunks = paragraphs(&lines)
        .into_iter()
        .enumerate()
        .map(|(k, p)| Chunk {
            id: (k + 1).to_string(),
            text: p.join("\n"),
            ..Chunk::default()
        })
        .collect();
    (chunks, ChunkFormat::BlankLineSeparated)
}

fn paragraphs<'a>(lines: &[&'a str]) -> Vec<Vec<&'a str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in lines {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        } else {
            current.push(line.trim_end());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn every_paragraph_starts_with(lines: &[&str], header: &Regex) -> bool {
    paragraphs(lines).iter().all(|p| header.is_match(p[0]))
}

/// Blocks that each start at a header line (`[id] text` or `id: text`).
fn headed_blocks(lines: &[&str], header: &Regex) -> Vec<Chunk> {
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut body: Vec<&str> = Vec::new();
    let flush = |chunks: &mut Vec<Chunk>, body: &mut Vec<&str>| {
        if let Some(last) = chunks.last_mut() {
            last.text = body.join("\n").trim().to_string();
        }
        body.clear();
    };
    for line in lines {
        if let Some(caps) = header.captures(line) {
            flush(&mut chunks, &mut body);
            chunks.push(Chunk {
                id: caps[1].to_string(),
                ..Chunk::default()
            });
            body.push(caps.get(2).map_or("", |m| m.as_str()));
        } else if !chunks.is_empty() {
            body.push(line.trim_end());
        }
    }
    flush(&mut chunks, &mut body);
    chunks
}

fn dash_separated(lines: &[&str]) -> Vec<Chunk> {
    let mut pieces: Vec<String> = vec![String::new()];
    for line in lines {
        if line.trim() == "---" {
            pieces.push(String::new());
        } else if let Some(last) = pieces.last_mut() {
            last.push_str(line.trim_end());
            last.push('\n');
        }
    }
    let mut pieces: Vec<String> = pieces.into_iter().map(|p| p.trim().to_string()).collect();
    while pieces.first().is_some_and(String::is_empty) {
        pieces.remove(0);
    }
    while pieces.last().is_some_and(String::is_empty) {
        pieces.pop();
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(k, text)| Chunk {
            id: (k + 1).to_string(),
            text,
            ..Chunk::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::testing::{ids_and_texts, read};

    #[test]
    fn bracket_blocks() {
        let chunks = read("[doc1] The first\nchunk text.\n[doc2]\nThe second.\n\n[3] Third.");
        assert_eq!(chunks.format, ChunkFormat::BracketBlocks);
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [
                ("doc1", "The first\nchunk text."),
                ("doc2", "The second."),
                ("3", "Third.")
            ]
        );
    }

    #[test]
    fn colon_blocks() {
        let chunks = read("doc1: The first.\ndoc2: The second.\n\nsource_3: The third.\n");
        assert_eq!(chunks.format, ChunkFormat::ColonBlocks);
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [
                ("doc1", "The first."),
                ("doc2", "The second."),
                ("source_3", "The third.")
            ]
        );
    }

    #[test]
    fn colon_form_needs_every_paragraph_to_start_with_an_id() {
        let chunks = read("Note: the first paragraph.\n\nA second paragraph.");
        assert_eq!(chunks.format, ChunkFormat::BlankLineSeparated);
        assert_eq!(chunks.chunks.len(), 2);
    }

    #[test]
    fn dash_separated() {
        let chunks = read("---\nOne.\nStill one.\n---\nTwo.\n---\n");
        assert_eq!(chunks.format, ChunkFormat::DashSeparated);
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [("1", "One.\nStill one."), ("2", "Two.")]
        );
    }

    #[test]
    fn blank_line_separated() {
        let chunks = read("One.\r\nStill one.\r\n\r\n  \r\nTwo.");
        assert_eq!(chunks.format, ChunkFormat::BlankLineSeparated);
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [("1", "One.\nStill one."), ("2", "Two.")]
        );
    }

    #[test]
    fn one_context_string_that_numbers_its_sources_is_split() {
        let chunks = numbered("[1] The tower is tall.\n[2] It is old.\nStill old.")
            .expect("numbered")
            .expect("chunks");
        assert_eq!(
            ids_and_texts(&chunks.chunks),
            [("1", "The tower is tall."), ("2", "It is old.\nStill old.")]
        );
        assert!(numbered("[1] Only one source.").is_none());
        assert!(numbered("[a] One.\n[b] Two.").is_none());
        assert!(numbered("Intro.\n[1] One.\n[2] Two.").is_none());
    }

    #[test]
    fn sources_numbered_in_the_file_are_never_counted_by_position() {
        let chunks = read("[7] Seven.\n[3] Three.\n[12] Twelve.");
        assert!(chunks.ids_are_numbers);
        assert!(!read("[doc1] One.\n[2] Two.").ids_are_numbers);
    }
}
