//! LlamaIndex `Response` as users save it (`response`, `source_nodes[]{node{id_, text,
//! metadata}, score}`, `metadata`): `[N]` names the N-th source node. `CitationQueryEngine`
//! writes each node's text as `Source N:\n...`: that `N` names the node and the prefix is not
//! part of its text.
//!
//! Sources: the source nodes, named by their number, with the node's `id_` and its file
//! (`metadata.file_name`, `file_path`, ...; see [`source_names`]) as other names. A list of
//! source nodes alone is a chunks file of the same shape.

use serde_json::{Map, Value};

use super::json::{opt_str, single_object};
use super::reading::{Reading, Sources};
use super::{Provider, never};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, json_kind, source_names};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Llamaindex,
    response: |object| {
        object.get("source_nodes").is_some_and(Value::is_array)
            && object
                .get("response")
                .is_some_and(|r| r.is_string() || r.is_null())
    },
    event: never,
    error: never,
    array_stream: false,
    keys: &["source_nodes"],
    read,
    sources_elsewhere: "",
    sources,
};

fn read(text: &str) -> Result<Reading, InputError> {
    let object = &single_object(text)?;
    let answer = opt_str(object.get("response")).map_err(|w| w.at(None, "response"))?;
    let nodes = object
        .get("source_nodes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    Ok(Reading {
        text: answer.unwrap_or("").to_string(),
        sources: Some(read_nodes(nodes, "source_nodes")?),
        ..Reading::default()
    })
}

/// A `NodeWithScore`'s node, or a node given alone.
fn node(item: &Value) -> Option<&Map<String, Value>> {
    let object = item.as_object()?;
    let node = match object.get("node") {
        Some(Value::Object(node)) => node,
        _ => object,
    };
    (node.contains_key("text") && (node.contains_key("id_") || object.contains_key("node")))
        .then_some(node)
}

fn read_nodes(nodes: &[Value], path: &str) -> Result<Sources, InputError> {
    let mut chunks = Vec::with_capacity(nodes.len());
    for (k, item) in nodes.iter().enumerate() {
        let Some(node) = node(item) else {
            return Err(InputError::Response {
                line: None,
                message: format!("`{path}[{k}]` is {}, not a source node", json_kind(item)),
            });
        };
        let text = opt_str(node.get("text"))
            .map_err(|w| w.at(None, format_args!("{path}[{k}].node.text")))?
            .unwrap_or("");
        let (number, text) = match citation_prefix(text) {
            Some((number, rest)) => (number, rest),
            None => ((k + 1).to_string(), text),
        };
        let mut aliases: Vec<String> = node
            .get("id_")
            .and_then(Value::as_str)
            .map(str::to_string)
            .into_iter()
            .collect();
        aliases.extend(source_names(node));
        chunks.push(Chunk {
            id: number,
            text: text.trim().to_string(),
            aliases,
        });
    }
    Ok(Sources {
        chunks,
        ..Sources::default()
    })
}

/// `Source 3:` at the start of a node's text (CitationQueryEngine's): the number and the rest.
fn citation_prefix(text: &str) -> Option<(String, &str)> {
    let rest = text.trim_start().strip_prefix("Source ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest[digits..].strip_prefix(':')?;
    (digits > 0).then(|| (rest[..digits].to_string(), after))
}

/// A list of source nodes (`NodeWithScore`s, or nodes with `id_` and `text`).
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let list = match value {
        Value::Array(items) => items,
        Value::Object(object) => object.get("source_nodes")?.as_array()?,
        _ => return None,
    };
    if list.is_empty() || !list.iter().all(|n| node(n).is_some()) {
        return None;
    }
    Some(read_nodes(list, "source_nodes"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::ids_and_texts;

    #[test]
    fn source_nodes_are_the_sources_numbered_as_cited() {
        let text = r#"{"response": "It is tall [1].", "metadata": {},
            "source_nodes": [
                {"node": {"id_": "8015af09-d3b3-474e-881d-1479aa7224dd", "text": "Source 1:\nIt is 330 m tall.\n",
                          "metadata": {"file_name": "tower.pdf", "page_label": "1"}, "class_name": "TextNode"},
                 "score": 0.8, "class_name": "NodeWithScore"},
                {"node": {"id_": "b", "text": "Paris is big.", "metadata": {}}, "score": null}]}"#;
        let answer = read_detected(text);
        assert_eq!(answer.format, AnswerFormat::Llamaindex);
        let sources = answer.sources.expect("sources");
        let chunks = ids_and_texts(&sources.chunks);
        assert_eq!(chunks, [("1", "It is 330 m tall."), ("2", "Paris is big.")]);
        assert_eq!(
            sources.chunks[0].aliases,
            ["8015af09-d3b3-474e-881d-1479aa7224dd", "tower.pdf"]
        );
    }

    #[test]
    fn the_prefix_is_read_only_when_it_is_one() {
        assert_eq!(
            citation_prefix("Source 12:\nx"),
            Some(("12".to_string(), "\nx"))
        );
        assert_eq!(citation_prefix("Source code: x"), None);
        assert_eq!(citation_prefix("Source :x"), None);
    }
}
