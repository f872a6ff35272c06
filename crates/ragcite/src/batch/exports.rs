//! Records of benchmark and eval exports whose reading is code, rewritten as ragcite's own
//! `{id, question, answer, contexts}` before they are read. (ALCE results, RAGChecker inputs,
//! DSPy `Evaluate` rows and MLflow `evaluate` tables are mappings: the format profiles read
//! them, `alce`, `ragchecker`, `dspy-evaluate` and `mlflow-evaluate`.)
//!
//! - LongCite predictions (`statements[].citation[]`, each `{start_sentence_idx,
//!   end_sentence_idx, start_char_idx, end_char_idx, cite}`, as its `pred.py` writes them): the
//!   answer is the statements with a `[k]` marker for each cited span; without the context,
//!   the contexts are the cited spans (`cite`), numbered in the order they are first cited.
//!   LongCite's one-query result (`statements_with_citations`, `splited_context`): the
//!   contexts are the sentences of `splited_context` (`<C0>`, `<C1>`, ...), numbered as
//!   LongCite numbers them, and each statement cites its sentence range.
//! - Giskard RAGET reports (`report.to_pandas()` rows: `agent_answer`, `reference_context`):
//!   `reference_context` is the knowledge-base passage the question was generated from, not
//!   what the agent retrieved; such a row is a bad record saying so.
//!
//! Only a record that the default aliases find no answer or no contexts in is rewritten (so a
//! record they read is read as before), and only with the default aliases: `--field answer=` or
//! `--field contexts=` reads the record as it is.

use serde_json::{Map, Value, json};

/// The record rewritten when it is one of the exports above; `Ok(None)` when it is not.
pub fn rewrite(record: &Map<String, Value>) -> Result<Option<Value>, String> {
    if let Some(value) = longcite(record)? {
        return Ok(Some(value));
    }
    if record.contains_key("agent_answer") && record.contains_key("reference_context") {
        let id = record
            .get("id")
            .and_then(Value::as_str)
            .map_or(String::new(), |id| format!(" {id}"));
        return Err(format!(
            "record{id} (a Giskard RAGET report row) has no retrieved contexts: \
             `reference_context` is the passage the question was generated from; \
             --field contexts=PATH reads them from another field"
        ));
    }
    Ok(None)
}

/// A cited span of a LongCite statement.
struct Cited {
    start: u64,
    end: u64,
    cite: String,
}

fn citations(statement: &Value, at: usize) -> Result<Vec<Cited>, String> {
    let list = match statement.get("citation") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(_) => return Err(format!("statement {at}: `citation` is not a list")),
    };
    list.iter()
        .map(|c| {
            let index = |key: &str| c.get(key).and_then(Value::as_u64);
            let (Some(start), Some(end)) = (index("start_sentence_idx"), index("end_sentence_idx"))
            else {
                return Err(format!(
                    "statement {at}: a citation without start_sentence_idx and end_sentence_idx"
                ));
            };
            if end < start {
                return Err(format!(
                    "statement {at}: a citation ending (sentence {end}) before it starts ({start})"
                ));
            }
            let cite = c.get("cite").and_then(Value::as_str).unwrap_or_default();
            Ok(Cited {
                start,
                end,
                cite: cite.to_string(),
            })
        })
        .collect()
}

/// Most sentences one LongCite citation may span: a range past it is no citation of a
/// context a record can hold.
const MAX_CITED_SENTENCES: u64 = 1_000;

/// A LongCite prediction or one-query result.
fn longcite(record: &Map<String, Value>) -> Result<Option<Value>, String> {
    let (statements, context) = match (
        record.get("statements"),
        record.get("statements_with_citations"),
    ) {
        (_, Some(Value::Array(list))) => (list, record.get("splited_context")),
        (Some(Value::Array(list)), _)
            if record.contains_key("prediction") || record.contains_key("query") =>
        {
            (list, record.get("splited_context"))
        }
        _ => return Ok(None),
    };
    let sentences = match context {
        Some(Value::String(text)) => Some(split_context(text)),
        _ => None,
    };
    let known: std::collections::HashSet<u64> =
        sentences.iter().flatten().map(|(id, _)| *id).collect();
    let mut spans: Vec<(u64, u64, String)> = Vec::new();
    let mut answer = String::new();
    for (k, statement) in statements.iter().enumerate() {
        let text = statement
            .get("statement")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("statement {}: no `statement` text", k + 1))?;
        if text.trim().is_empty() {
            continue;
        }
        let mut markers = String::new();
        for cited in citations(statement, k + 1)? {
            if sentences.is_some() {
                if cited.end - cited.start > MAX_CITED_SENTENCES {
                    return Err(format!(
                        "statement {}: a citation of too many sentences",
                        k + 1
                    ));
                }
                for n in cited.start..=cited.end {
                    if known.contains(&n) {
                        markers.push_str(&format!("[{n}]"));
                    }
                }
            } else {
                let position = match spans
                    .iter()
                    .position(|(s, e, _)| (*s, *e) == (cited.start, cited.end))
                {
                    Some(p) => p,
                    None => {
                        spans.push((cited.start, cited.end, cited.cite));
                        spans.len() - 1
                    }
                };
                markers.push_str(&format!("[{}]", position + 1));
            }
        }
        if !answer.is_empty() {
            answer.push(' ');
        }
        answer.push_str(&with_markers(text.trim(), &markers));
    }
    let contexts: Vec<Value> = match sentences {
        Some(sentences) => sentences
            .into_iter()
            .map(|(id, text)| json!({"id": id.to_string(), "text": text}))
            .collect(),
        None => spans
            .into_iter()
            .map(|(start, end, cite)| json!({"text": cite, "sentences": format!("{start}-{end}")}))
            .collect(),
    };
    Ok(Some(json!({
        "id": record.get("idx").or_else(|| record.get("id")).cloned(),
        "question": record.get("query").or_else(|| record.get("question")).cloned(),
        "answer": answer,
        "contexts": contexts,
    })))
}

/// The statement with its markers before its closing punctuation: `Tall [1].`.
fn with_markers(text: &str, markers: &str) -> String {
    if markers.is_empty() {
        return text.to_string();
    }
    let body = text.trim_end_matches(['.', '!', '?', '。']);
    format!("{body} {markers}{}", &text[body.len()..])
}

/// LongCite's context split at its `<Cn>` markers: `(n, sentence)` in order.
fn split_context(text: &str) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("<C") {
        let after = &rest[at + 2..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let number = after[..digits].parse::<u64>().ok();
        match (number, after[digits..].strip_prefix('>')) {
            (Some(n), Some(tail)) => {
                if let Some(last) = out.last_mut() {
                    last.1.push_str(&rest[..at]);
                }
                out.push((n, String::new()));
                rest = tail;
            }
            _ => {
                if let Some(last) = out.last_mut() {
                    last.1.push_str(&rest[..at + 2]);
                }
                rest = after;
            }
        }
    }
    if let Some(last) = out.last_mut() {
        last.1.push_str(rest);
    }
    // A marker repeated: keep the first of each number.
    let mut seen = std::collections::HashSet::new();
    out.retain(|(n, _)| seen.insert(*n));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().expect("an object")
    }

    #[test]
    fn longcite_statements_get_markers_for_their_spans() {
        let record = object(
            json!({"idx": 3, "query": "q", "prediction": "…", "statements": [
            {"statement": "It is tall.", "citation": [{"start_sentence_idx": 0, "end_sentence_idx": 1, "cite": "Tall."}]},
            {"statement": "It is old.", "citation": []},
            {"statement": "It is big", "citation": [{"start_sentence_idx": 0, "end_sentence_idx": 1, "cite": "Tall."},
                                                      {"start_sentence_idx": 4, "end_sentence_idx": 4, "cite": "Big."}]}]}),
        );
        let value = rewrite(&record).unwrap().unwrap();
        assert_eq!(
            value["answer"],
            "It is tall [1]. It is old. It is big [1][2]"
        );
        assert_eq!(value["contexts"].as_array().unwrap().len(), 2);
        assert_eq!(value["id"], 3);
    }

    #[test]
    fn longcite_query_result_cites_the_sentences_of_its_context() {
        let record = object(json!({"statements_with_citations": [
            {"statement": "It is tall.", "citation": [{"start_sentence_idx": 1, "end_sentence_idx": 2, "cite": "x"}]}],
            "splited_context": "<C0>A. <C1>B. <C2>C."}));
        let value = rewrite(&record).unwrap().unwrap();
        assert_eq!(value["answer"], "It is tall [1][2].");
        assert_eq!(value["contexts"][2], json!({"id": "2", "text": "C."}));
        let bad = object(
            json!({"statements_with_citations": [{"statement": "S.", "citation": [
            {"start_sentence_idx": 2, "end_sentence_idx": 1}]}]}),
        );
        assert!(rewrite(&bad).unwrap_err().contains("before it starts"));
    }

    #[test]
    fn giskard_reference_context_is_not_retrieved() {
        let record = object(json!({"id": "g", "agent_answer": "A [3].",
            "reference_context": "Document 3: x"}));
        assert!(
            rewrite(&record)
                .unwrap_err()
                .contains("no retrieved contexts")
        );
    }
}
