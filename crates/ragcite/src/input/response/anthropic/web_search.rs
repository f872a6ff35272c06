//! Anthropic Messages with the web search tool (`web_search_20250305`): the
//! `web_search_tool_result` blocks (their `content[]` of `web_search_result` items: `url`,
//! `title`, `encrypted_content`, `page_age`) and the `web_search_result_location` citations of
//! the text blocks (`url`, `title`, `cited_text`, `encrypted_index`).
//!
//! The results are the sources, one chunk per page, named by its URL with its title as another
//! name, in the order the results list them (then any page only a citation names). The results
//! carry no text: `encrypted_content` is opaque, so a page's text is what the citations quote of
//! it (`cited_text`, at most 150 characters each; distinct quotes one per line), and a page that no
//! citation quotes is an empty chunk, there by URL and title only.

use std::collections::HashMap;

use serde_json::Value;

use super::super::json::{opt_array, opt_str, type_of};
use super::super::reading::Sources;
use crate::input::{Chunk, CitationTarget, InputError};

/// What the answer shows of the web search: the pages, in order, and what the citations quote.
#[derive(Default)]
pub(super) struct WebSearch {
    /// `(url, title)` of each page, each URL once, in order.
    pages: Vec<(String, Option<String>)>,
    /// Where each URL stands in `pages`.
    at: HashMap<String, usize>,
    /// The distinct quotes of each page, by its position in `pages`.
    quotes: HashMap<usize, Vec<String>>,
}

/// Whether a content block is a server tool's result (`web_search_tool_result`,
/// `web_fetch_tool_result`, `code_execution_tool_result`, ...): the model's text after it is a new
/// paragraph. A client tool's `tool_result` is no such block.
pub(super) fn is_tool_result(block: &Value) -> bool {
    type_of(block).is_some_and(|kind| kind.ends_with("_tool_result"))
}

/// Ends the text so far with a paragraph break, unless it is empty or already ends in white
/// space.
pub(super) fn new_paragraph(text: &mut String) {
    if !text.is_empty() && !text.ends_with(char::is_whitespace) {
        text.push_str("\n\n");
    }
}

impl WebSearch {
    fn page(&mut self, url: &str, title: Option<&str>) -> usize {
        if let Some(&k) = self.at.get(url) {
            if self.pages[k].1.is_none() {
                self.pages[k].1 = title.map(str::to_string);
            }
            return k;
        }
        self.at.insert(url.to_string(), self.pages.len());
        self.pages
            .push((url.to_string(), title.map(str::to_string)));
        self.pages.len() - 1
    }

    /// The pages of a server tool's result block (`path` names it); a block of another tool, or
    /// whose `content` is an error object (`web_search_tool_result_error`), lists none.
    pub fn results(
        &mut self,
        block: &Value,
        at: Option<usize>,
        path: &str,
    ) -> Result<(), InputError> {
        if type_of(block) != Some("web_search_tool_result") {
            return Ok(());
        }
        let Some(content @ Value::Array(_)) = block.get("content") else {
            return Ok(());
        };
        let results =
            opt_array(Some(content)).map_err(|w| w.at(at, format_args!("{path}.content")))?;
        for (k, result) in results.iter().enumerate() {
            if type_of(result) != Some("web_search_result") {
                continue;
            }
            let field = |key: &str| {
                opt_str(result.get(key))
                    .map_err(|w| w.at(at, format_args!("{path}.content[{k}].{key}")))
            };
            let (url, title) = (field("url")?, field("title")?);
            if let Some(url) = url.filter(|u| !u.is_empty()) {
                self.page(url, title);
            }
        }
        Ok(())
    }

    /// The target and quote of a `web_search_result_location` citation (`path` names it): the
    /// page at its `url`; `None` without one.
    pub fn citation(
        &mut self,
        citation: &Value,
        at: Option<usize>,
        path: &str,
    ) -> Result<Option<(CitationTarget, Option<String>)>, InputError> {
        let field = |key: &str| {
            opt_str(citation.get(key)).map_err(|w| w.at(at, format_args!("{path}.{key}")))
        };
        let (url, title, quote) = (field("url")?, field("title")?, field("cited_text")?);
        let Some(url) = url.filter(|u| !u.is_empty()) else {
            return Ok(None);
        };
        let k = self.page(url, title);
        if let Some(quote) = quote.map(str::trim).filter(|q| !q.is_empty()) {
            let quotes = self.quotes.entry(k).or_default();
            if !quotes.iter().any(|q| q == quote) {
                quotes.push(quote.to_string());
            }
        }
        Ok(Some((
            CitationTarget::Label(url.to_string()),
            quote.map(str::to_string),
        )))
    }

    /// The pages as chunks; `None` when the answer shows no web search.
    pub fn into_sources(mut self) -> Option<Sources> {
        if self.pages.is_empty() {
            return None;
        }
        let mut sources = Sources::default();
        let mut without_text = 0;
        for (k, (url, title)) in self.pages.into_iter().enumerate() {
            let text = self.quotes.remove(&k).unwrap_or_default().join("\n");
            without_text += usize::from(text.is_empty());
            sources.chunks.push(Chunk {
                id: url,
                text,
                aliases: title.into_iter().filter(|t| !t.is_empty()).collect(),
            });
        }
        if without_text > 0 {
            sources.warnings.push(format!(
                "{without_text} web search result(s) carry no text (their encrypted_content is \
                 opaque) and no citation quotes them: they are there by URL and title only"
            ));
        }
        Some(sources)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::AnswerFormat;
    use crate::input::response::testing::*;
    use crate::input::testing::with_names;

    const RESPONSE: &str = r#"{"type": "message", "role": "assistant", "content": [
        {"type": "text", "text": "Let me search."},
        {"type": "server_tool_use", "id": "s", "name": "web_search", "input": {"query": "q"}},
        {"type": "web_search_tool_result", "tool_use_id": "s", "content": [
            {"type": "web_search_result", "url": "https://a.example/", "title": "A", "encrypted_content": "xx"},
            {"type": "web_search_result", "url": "https://b.example/", "title": "B", "encrypted_content": "yy", "page_age": null}]},
        {"type": "text", "text": "Tall", "citations": [
            {"type": "web_search_result_location", "url": "https://a.example/", "title": "A", "encrypted_index": "e", "cited_text": "It is tall. "},
            {"type": "web_search_result_location", "url": "https://c.example/", "title": "C", "cited_text": "Quoted."}]},
        {"type": "text", "text": ". Old", "citations": [
            {"type": "web_search_result_location", "url": "https://a.example/", "cited_text": "It is tall."},
            {"type": "web_search_result_location", "url": "https://a.example/", "cited_text": "It is old."}]}],
        "stop_reason": "end_turn"}"#;

    #[test]
    fn web_search_results_are_the_pages_and_citations_quote_them() {
        let answer = read_detected(RESPONSE);
        assert_eq!(answer.format, AnswerFormat::Anthropic);
        // The preamble before the tool use is a paragraph of its own.
        assert_eq!(answer.text, "Let me search.\n\nTall. Old");
        let page = |url: &str| CitationTarget::Label(url.to_string());
        assert_eq!(
            cited(&answer),
            [
                (
                    Some("Tall"),
                    page("https://a.example/"),
                    Some("It is tall. ")
                ),
                (Some("Tall"), page("https://c.example/"), Some("Quoted.")),
                (
                    Some(". Old"),
                    page("https://a.example/"),
                    Some("It is tall.")
                ),
                (
                    Some(". Old"),
                    page("https://a.example/"),
                    Some("It is old.")
                ),
            ]
        );
        let sources = answer.sources.expect("sources");
        let names = |n: &str| vec![n.to_string()];
        let (a, b, c) = (names("A"), names("B"), names("C"));
        assert_eq!(
            with_names(&sources.chunks),
            [
                ("https://a.example/", "It is tall.\nIt is old.", &a[..]),
                ("https://b.example/", "", &b[..]),
                ("https://c.example/", "Quoted.", &c[..]),
            ]
        );
        assert!(
            sources.warnings[0].starts_with("1 web search result(s) carry no text"),
            "{:?}",
            sources.warnings
        );
    }

    #[test]
    fn the_stream_gives_the_same_pages_and_paragraphs() {
        let stream = r#"event: message_start
data: {"type":"message_start","message":{"type":"message","content":[],"usage":{"input_tokens":5,"output_tokens":1}}}
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Let me search."}}
data: {"type":"content_block_start","index":1,"content_block":{"type":"server_tool_use","id":"s","name":"web_search","input":{}}}
data: {"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"s","content":[{"type":"web_search_result","url":"https://a.example/","title":"A","encrypted_content":"xx"}]}}
data: {"type":"content_block_start","index":3,"content_block":{"type":"text","text":"","citations":[]}}
data: {"type":"content_block_delta","index":3,"delta":{"type":"citations_delta","citation":{"type":"web_search_result_location","url":"https://a.example/","title":"A","cited_text":"It is tall."}}}
data: {"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"Tall."}}
data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}
data: {"type":"message_stop"}
"#;
        let answer = read_detected(stream);
        assert_eq!(answer.text, "Let me search.\n\nTall.");
        assert_eq!(
            cited(&answer),
            [(
                Some("Tall."),
                CitationTarget::Label("https://a.example/".to_string()),
                Some("It is tall.")
            )]
        );
        let sources = answer.sources.expect("sources");
        assert_eq!(sources.chunks[0].text, "It is tall.");
        assert!(sources.warnings.is_empty());
    }

    #[test]
    fn wrong_types_name_their_path_and_errors_list_no_pages() {
        let wrong = r#"{"type": "message", "content": [{"type": "web_search_tool_result", "content": [
            {"type": "web_search_result", "url": 7}]}]}"#;
        assert_eq!(
            read_error(wrong, AnswerFormat::Anthropic),
            (
                None,
                "`content[0].content[0].url` is a number; expected a string".to_string()
            )
        );
        let wrong = r#"{"type": "message", "content": [{"type": "text", "text": "A", "citations": [
            {"type": "web_search_result_location", "url": "https://a", "cited_text": ["x"]}]}]}"#;
        assert_eq!(
            read_error(wrong, AnswerFormat::Anthropic).1,
            "`content[0].citations[0].cited_text` is an array; expected a string"
        );
        // A search that failed: an error object instead of results; no page, no sources.
        let failed = r#"{"type": "message", "content": [
            {"type": "web_search_tool_result", "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}},
            {"type": "text", "text": "I could not search."}]}"#;
        let answer = read_detected(failed);
        assert_eq!(answer.text, "I could not search.");
        assert!(answer.sources.is_none());
    }
}
