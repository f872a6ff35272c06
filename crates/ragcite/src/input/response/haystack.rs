//! Haystack pipeline outputs with `AnswerBuilder` answers: `{"<component>": {"answers": [...]}}`
//! or `{"answers": [...]}`, each answer a `GeneratedAnswer` as `to_dict` writes it (Haystack 2:
//! `{type, init_parameters: {data, query, documents, meta}}`; Haystack 3: the fields
//! themselves). The first answer is read: its `data` is the text.
//!
//! Sources: its `documents` (`{id, content, meta}`, `meta` flattened or not). With a
//! `reference_pattern`, `AnswerBuilder` keeps only the documents the answer references and
//! records each one's position in the input as `meta.source_index` (1-based): `[k]` names the
//! document whose `source_index` is k. So the chunks are named by their `source_index` (and the
//! list is numbered by those ids, never by position), with the document's `id` (a SHA-256) and
//! file as other names. Without `source_index`, documents are numbered in order.

use serde_json::{Map, Value};

use super::json::{opt_array, opt_str, opt_whole, single_object};
use super::reading::{Reading, Sources};
use super::{Provider, never};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, source_names};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Haystack,
    response: |object| answers(object).is_some(),
    event: never,
    error: never,
    array_stream: false,
    keys: &["source_index"],
    read,
    sources_elsewhere: "",
    sources,
};

/// The `answers` list of the output, or of one of its components, when its first item is a
/// `GeneratedAnswer`.
fn answers(object: &Map<String, Value>) -> Option<&Vec<Value>> {
    let is_answer_list = |value: &Value| {
        let first = value.as_array()?.first()?;
        generated_answer(first).map(|_| ())
    };
    let list = match object.get("answers") {
        Some(list) => list,
        None => object
            .values()
            .filter_map(|v| v.get("answers"))
            .find(|list| is_answer_list(list).is_some())?,
    };
    is_answer_list(list)?;
    list.as_array()
}

/// The fields of a `GeneratedAnswer` (its `init_parameters` in Haystack 2).
fn generated_answer(value: &Value) -> Option<&Map<String, Value>> {
    let object = value.as_object()?;
    let fields = match object.get("init_parameters") {
        Some(Value::Object(fields)) => fields,
        _ => object,
    };
    (fields.contains_key("data") && fields.get("documents").is_some_and(Value::is_array))
        .then_some(fields)
}

fn read(text: &str) -> Result<Reading, InputError> {
    let object = &single_object(text)?;
    let answer = answers(object)
        .and_then(|list| list.first())
        .and_then(generated_answer)
        .ok_or_else(|| InputError::Response {
            line: None,
            message: "expected `answers` holding a GeneratedAnswer (`data`, `documents`)"
                .to_string(),
        })?;
    let data = opt_str(answer.get("data")).map_err(|w| w.at(None, "answers[0].data"))?;
    let documents =
        opt_array(answer.get("documents")).map_err(|w| w.at(None, "answers[0].documents"))?;
    Ok(Reading {
        text: data.unwrap_or("").to_string(),
        sources: Some(read_documents(documents, "answers[0].documents")?),
        ..Reading::default()
    })
}

fn read_documents(documents: &[Value], path: &str) -> Result<Sources, InputError> {
    let mut sources = Sources::default();
    let mut numbered = false;
    for (k, document) in documents.iter().enumerate() {
        let Some(fields) = document.as_object() else {
            continue;
        };
        let text = opt_str(fields.get("content"))
            .map_err(|w| w.at(None, format_args!("{path}[{k}].content")))?
            .unwrap_or("");
        let meta = fields.get("meta").and_then(Value::as_object);
        let index = opt_whole(
            meta.and_then(|m| m.get("source_index"))
                .or(fields.get("source_index")),
        )
        .map_err(|w| w.at(None, format_args!("{path}[{k}].meta.source_index")))?;
        numbered |= index.is_some();
        let mut aliases: Vec<String> = fields
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_string)
            .into_iter()
            .collect();
        aliases.extend(source_names(fields));
        sources.chunks.push(Chunk {
            id: index.map_or_else(|| (k + 1).to_string(), |i| i.to_string()),
            text: text.to_string(),
            aliases,
        });
    }
    sources.ids_are_numbers = numbered;
    Ok(sources)
}

/// A list of Haystack documents (`id` and `content`, and a `meta` or `source_index`), or an
/// object holding one under `documents`.
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let list = match value {
        Value::Array(items) => items,
        Value::Object(object) => object.get("documents")?.as_array()?,
        _ => return None,
    };
    let is_document = |d: &Value| {
        d.get("content").is_some()
            && d.get("id").is_some()
            && (d.get("meta").is_some_and(Value::is_object) || d.get("source_index").is_some())
    };
    if list.is_empty() || !list.iter().all(is_document) {
        return None;
    }
    Some(read_documents(list, "documents"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::ids_and_texts;

    const DIGEST: &str = "ed4e066696e7c5e11be31e48bb8814056adbe4848b6f1a7e55cb1108f3e4b5ad";

    #[test]
    fn referenced_documents_are_named_by_their_source_index() {
        for answer in [
            format!(
                r#"{{"type": "haystack.dataclasses.answer.GeneratedAnswer", "init_parameters": {{"data": "Old [2]. Tall [4].", "query": "q", "meta": {{}}, "documents": [
                {{"id": "{DIGEST}", "content": "Built in 1889.", "meta": {{"source_index": 2, "file_path": "t.pdf"}}}},
                {{"id": "b", "content": "It is tall.", "meta": {{"source_index": 4, "referenced": true}}}}]}}}}"#
            ),
            format!(
                r#"{{"data": "Old [2]. Tall [4].", "query": "q", "meta": {{}}, "documents": [
                {{"id": "{DIGEST}", "content": "Built in 1889.", "meta": {{"source_index": 2, "file_path": "t.pdf"}}}},
                {{"id": "b", "content": "It is tall.", "meta": {{"source_index": 4}}}}]}}"#
            ),
        ] {
            let text = format!(r#"{{"answer_builder": {{"answers": [{answer}]}}}}"#);
            let read = read_detected(&text);
            assert_eq!(read.format, AnswerFormat::Haystack);
            assert_eq!(read.text, "Old [2]. Tall [4].");
            let sources = read.sources.expect("sources");
            assert!(sources.ids_are_numbers);
            let chunks = ids_and_texts(&sources.chunks);
            assert_eq!(chunks, [("2", "Built in 1889."), ("4", "It is tall.")]);
            assert_eq!(sources.chunks[0].aliases, [DIGEST, "t.pdf"]);
        }
    }
}
