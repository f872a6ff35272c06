//! Chunks written as Markdown, one heading per source: `## Source 1`, `### [2] Title`,
//! `## Document 3: Title`, or headings that are titles (`## Introduction`).
//!
//! The headings that start a chunk are those of one level: the level of the first heading that
//! names a source (`[label]`, or a source word and a label), else the shallowest level used more
//! than once, else the deepest. A chunk runs to the next heading of that level or shallower;
//! deeper headings belong to its text. Headings inside fenced code blocks are text. A heading
//! that names a source gives the chunk its id (`1`, `2`) and its title as another name; any other
//! heading is the chunk's id itself. Text before the first chunk heading, other than headings
//! (a document title), belongs to no source: an error.

use std::sync::LazyLock;

use regex::Regex;

use super::{finish_chunks, is_whole_number};
use crate::input::InputError;
use crate::input::{Chunk, ChunkFormat, Chunks};

/// `## text`: the level and the text.
static HEADING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$").expect("valid regex"));

/// A heading that names a source: `[2] Title`, `Source 1`, `Document 3: Title`.
static SOURCE_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^(?:\[([\p{L}\p{N}_.:\-]+)\]|(?:source|document|doc|chunk|passage|context|reference|result)[ \t]*#?([\p{N}]+))(?:[ \t]*[:.\-–—|][ \t]*|[ \t]+)?(.*)$",
    )
    .expect("valid regex")
});

struct Heading<'a> {
    line: usize,
    level: usize,
    text: &'a str,
}

/// The chunks of a Markdown file whose first visible line is a heading, or that has a heading
/// naming a source anywhere; `None` when it is not one.
pub(super) fn read(text: &str) -> Option<Result<Chunks, InputError>> {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().find(|l| !l.trim().is_empty())?;
    let names_a_source = |line: &&str| {
        HEADING
            .captures(line.trim_end())
            .is_some_and(|caps| SOURCE_HEADING.is_match(caps.get(2).map_or("", |m| m.as_str())))
    };
    if !HEADING.is_match(first.trim_end()) && !lines.iter().any(names_a_source) {
        return None;
    }
    let mut headings = Vec::new();
    let mut fenced = false;
    for (k, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some(caps) = HEADING.captures(line.trim_end()) {
            headings.push(Heading {
                line: k,
                level: caps[1].len(),
                text: caps.get(2).map_or("", |m| m.as_str()),
            });
        }
    }
    let level = chunk_level(&headings);
    let starts: Vec<&Heading> = headings.iter().filter(|h| h.level == level).collect();
    let first_start = starts.first().map_or(lines.len(), |h| h.line);
    if let Some(stray) = (0..first_start).find(|&k| {
        let line = lines[k].trim();
        !line.is_empty() && !HEADING.is_match(line)
    }) {
        return Some(Err(InputError::ChunkShape {
            position: None,
            message: format!(
                "line {}: text before the first source heading (`{} ...`) belongs to no source",
                stray + 1,
                "#".repeat(level)
            ),
        }));
    }
    // A chunk ends at the next heading of its level or shallower.
    let bounds: Vec<&Heading> = headings.iter().filter(|h| h.level <= level).collect();
    let mut chunks = Vec::with_capacity(starts.len());
    let mut numbered = true;
    let starts_and_ends = bounds.iter().enumerate().filter(|(_, h)| h.level == level);
    for (n, (k, heading)) in starts_and_ends.enumerate() {
        let end = bounds.get(k + 1).map_or(lines.len(), |h| h.line);
        let body = lines[heading.line + 1..end].join("\n").trim().to_string();
        let (id, aliases) = match SOURCE_HEADING.captures(heading.text) {
            Some(caps) => {
                let label = caps.get(1).or(caps.get(2)).map_or("", |m| m.as_str());
                let title = caps.get(3).map_or("", |m| m.as_str().trim());
                let aliases = (!title.is_empty()).then(|| title.to_string());
                (label.to_string(), aliases.into_iter().collect())
            }
            None if heading.text.is_empty() => ((n + 1).to_string(), Vec::new()),
            None => (heading.text.to_string(), Vec::new()),
        };
        numbered &= is_whole_number(&id);
        chunks.push(Chunk {
            id,
            text: body,
            aliases,
        });
    }
    Some(
        finish_chunks(chunks, ChunkFormat::MarkdownHeadings).map(|mut chunks| {
            chunks.ids_are_numbers = numbered && !chunks.chunks.is_empty();
            chunks
        }),
    )
}

/// The level of the headings that start a chunk.
fn chunk_level(headings: &[Heading]) -> usize {
    if let Some(source) = headings.iter().find(|h| SOURCE_HEADING.is_match(h.text)) {
        return source.level;
    }
    let used = |level: usize| headings.iter().filter(|h| h.level == level).count();
    (1..=6)
        .find(|&level| used(level) > 1)
        .or_else(|| headings.iter().map(|h| h.level).max())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use crate::input::{ChunkFormat, read_chunks};

    fn read(text: &str) -> Vec<(String, String, Vec<String>)> {
        let chunks = read_chunks(text.as_bytes(), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(chunks.format, ChunkFormat::MarkdownHeadings);
        chunks
            .chunks
            .into_iter()
            .map(|c| (c.id, c.text, c.aliases))
            .collect()
    }

    fn plain(id: &str, text: &str) -> (String, String, Vec<String>) {
        (id.to_string(), text.to_string(), Vec::new())
    }

    #[test]
    fn source_headings_under_a_title() {
        let text = "# Retrieved sources\n\n## Source 1\n\nThe tower is tall.\n\n## Source 2\nIt is old.\n### Details\nBuilt in 1889.\n";
        assert_eq!(
            read(text),
            [
                plain("1", "The tower is tall."),
                plain("2", "It is old.\n### Details\nBuilt in 1889."),
            ]
        );
    }

    #[test]
    fn bracket_headings_with_titles_are_numbered_by_their_labels() {
        let text =
            "### [7] Lighthouse history\nMoved in 1999.\n\n### [3] Sourdough\nRye absorbs water.\n";
        assert_eq!(
            read(text),
            [
                (
                    "7".to_string(),
                    "Moved in 1999.".to_string(),
                    vec!["Lighthouse history".to_string()]
                ),
                (
                    "3".to_string(),
                    "Rye absorbs water.".to_string(),
                    vec!["Sourdough".to_string()]
                ),
            ]
        );
        let chunks = read_chunks(text.as_bytes(), false).expect("chunks");
        assert!(chunks.ids_are_numbers);
        let titled = "## Document 4: The tower\nTall.\n## Doc 5 - Paris\nBig.";
        let ids: Vec<String> = read(titled).into_iter().map(|(id, _, _)| id).collect();
        assert_eq!(ids, ["4", "5"]);
    }

    #[test]
    fn title_headings_are_ids_and_code_fences_are_text() {
        let text = "## Intro\nHello.\n```\n## not a heading\n```\n## Methods\nWe counted.";
        assert_eq!(
            read(text),
            [
                plain("Intro", "Hello.\n```\n## not a heading\n```"),
                plain("Methods", "We counted."),
            ]
        );
    }

    #[test]
    fn text_before_the_first_source_is_an_error() {
        let err =
            read_chunks(b"Our sources:\n## Source 1\nOne.\n## Source 2\nTwo.", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: text before the first source heading (`## ...`) belongs to no source"
        );
        let err = read_chunks(
            b"## Notes\nSome text.\n### Source 1\nOne.\n### Source 2\nTwo.",
            false,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: text before the first source heading (`### ...`) belongs to no source"
        );
    }
}
