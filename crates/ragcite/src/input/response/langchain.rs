//! LangChain chain outputs: `create_retrieval_chain`'s `{input, context, answer}` (also with
//! `chat_history`), and `RetrievalQA`'s `{query, result, source_documents}`, as users save them
//! (`json.dumps` of the Documents' `model_dump()`, or `dumpd` envelopes
//! `{lc, type: "constructor", id: [...], kwargs: {page_content, metadata}}`).
//!
//! Sources: the Documents in order: `[N]` names the N-th. A Document's `id`, when set, names it
//! in reports; else its number. Its `metadata.source` (and the other source fields, see
//! [`source_names`]) is another name, so that `(source: report.pdf)` cites every chunk of that
//! file. A list of Documents alone is a chunks file of the same shape.

use serde_json::{Map, Value};

use super::json::{opt_str, single_object};
use super::reading::{Reading, Sources};
use super::{Provider, never};
use crate::input::InputError;
use crate::input::{AnswerFormat, Chunk, json_kind, source_names};

pub(super) const PROVIDER: Provider = Provider {
    format: AnswerFormat::Langchain,
    response: |object| shape(object).is_some(),
    event: never,
    error: never,
    array_stream: false,
    keys: &["page_content"],
    read,
    sources_elsewhere: "",
    sources,
};

/// Where the answer and the documents are: (`answer`, `context`) or (`result`,
/// `source_documents`), when the documents are a list of Documents.
fn shape(object: &Map<String, Value>) -> Option<(&'static str, &'static str)> {
    [("answer", "context"), ("result", "source_documents")]
        .into_iter()
        .find(|(answer, documents)| {
            object.get(*answer).is_some_and(Value::is_string)
                && object
                    .get(*documents)
                    .and_then(Value::as_array)
                    .is_some_and(|docs| docs.iter().all(|d| document(d).is_some()))
        })
}

/// A Document's fields: the object itself, or the `kwargs` of its `dumpd` envelope, when it has
/// `page_content`.
pub(super) fn document(item: &Value) -> Option<&Map<String, Value>> {
    let object = item.as_object()?;
    let fields = match object.get("kwargs") {
        Some(Value::Object(kwargs)) if object.contains_key("lc") => kwargs,
        _ => object,
    };
    fields.contains_key("page_content").then_some(fields)
}

fn read(text: &str) -> Result<Reading, InputError> {
    let object = &single_object(text)?;
    let Some((answer, documents)) = shape(object) else {
        return Err(InputError::Response {
            line: None,
            message: "expected `answer` and `context` (a list of Documents), or `result` and \
                      `source_documents`"
                .to_string(),
        });
    };
    let text = opt_str(object.get(answer)).map_err(|w| w.at(None, answer))?;
    let docs = object
        .get(documents)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    Ok(Reading {
        text: text.unwrap_or("").to_string(),
        sources: Some(read_documents(docs, documents)?),
        ..Reading::default()
    })
}

fn read_documents(docs: &[Value], path: &str) -> Result<Sources, InputError> {
    let mut chunks = Vec::with_capacity(docs.len());
    for (k, item) in docs.iter().enumerate() {
        let Some(fields) = document(item) else {
            return Err(InputError::ChunkShape {
                position: Some(crate::input::ChunkPosition {
                    index: k + 1,
                    line: None,
                }),
                message: format!("`{path}[{k}]` is {}, not a Document", json_kind(item)),
            });
        };
        let text = match fields.get("page_content") {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => {
                return Err(InputError::Response {
                    line: None,
                    message: format!(
                        "`{path}[{k}].page_content` is {}; expected a string",
                        json_kind(other)
                    ),
                });
            }
        };
        let id = match fields.get("id") {
            Some(Value::String(id)) if !id.is_empty() => id.clone(),
            _ => (k + 1).to_string(),
        };
        chunks.push(Chunk {
            id,
            text,
            aliases: source_names(fields),
        });
    }
    Ok(Sources {
        chunks,
        ..Sources::default()
    })
}

/// A list of Documents in which one at least is a `dumpd` envelope or has `metadata` (a list of
/// plain `{id, page_content}` objects is read as any JSON chunks are).
fn sources(value: &Value) -> Option<Result<Sources, InputError>> {
    let docs = value.as_array()?;
    let langchain =
        |d: &Value| d.get("lc").is_some() || d.get("metadata").is_some_and(Value::is_object);
    if docs.is_empty() || !docs.iter().all(|d| document(d).is_some()) || !docs.iter().any(langchain)
    {
        return None;
    }
    Some(read_documents(docs, "chunks"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::response::testing::*;
    use crate::input::testing::with_names;

    #[test]
    fn a_retrieval_chain_s_output_and_its_documents() {
        let text = r#"{"input": "How tall?", "context": [
            {"id": null, "metadata": {"source": "tower.pdf", "page": 1}, "page_content": "It is 330 m tall.", "type": "Document"},
            {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "document", "Document"],
             "kwargs": {"metadata": {"source": "paris.pdf"}, "page_content": "Paris is big.", "type": "Document"}},
            {"id": "doc-7f", "metadata": {"source": "tower.pdf"}, "page_content": "Built in 1889."}],
            "answer": "The tower is 330 m tall [1] (source: tower.pdf)."}"#;
        let answer = read_detected(text);
        assert_eq!(answer.format, AnswerFormat::Langchain);
        assert_eq!(
            answer.text,
            "The tower is 330 m tall [1] (source: tower.pdf)."
        );
        let sources = answer.sources.expect("sources");
        let chunks = with_names(&sources.chunks);
        assert_eq!(
            chunks,
            [
                ("1", "It is 330 m tall.", &["tower.pdf".to_string()][..]),
                ("2", "Paris is big.", &["paris.pdf".to_string()][..]),
                ("doc-7f", "Built in 1889.", &["tower.pdf".to_string()][..]),
            ]
        );
    }

    #[test]
    fn retrieval_qa_and_a_list_of_documents() {
        let text = r#"{"query": "q", "result": "It is tall [1].", "source_documents": [{"page_content": "Tall.", "metadata": {}}]}"#;
        assert_eq!(read_detected(text).format, AnswerFormat::Langchain);
        let list = serde_json::json!([{"page_content": "A.", "metadata": {"source": "a.md"}}]);
        let sources = sources(&list).expect("recognised").expect("read");
        assert_eq!(sources.chunks[0].aliases, ["a.md"]);
        // Plain objects are not LangChain's: read as JSON chunks.
        assert!(super::sources(&serde_json::json!([{"id": "x", "page_content": "A."}])).is_none());
    }
}
