//! Records of benchmark and eval exports whose fields the aliases alone would misread, rewritten
//! as ragcite's own `{id, question, answer, contexts}` before they are read:
//!
//! - ALCE results (`{"args", "data"}`, as `run.py` saves them): the answer is `output`, the
//!   contexts `docs[]` (`{title, text}`, `[n]` = `docs[n-1]`); `answer` is the gold answer.
//! - LongCite predictions (`statements[].citation[]`, each `{start_sentence_idx,
//!   end_sentence_idx, start_char_idx, end_char_idx, cite}`, as its `pred.py` writes them): the
//!   answer is the statements with a `[k]` marker for each cited span; without the context,
//!   the contexts are the cited spans (`cite`), numbered in the order they are first cited.
//!   LongCite's one-query result (`statements_with_citations`, `splited_context`): the
//!   contexts are the sentences of `splited_context` (`<C0>`, `<C1>`, ...), numbered as
//!   LongCite numbers them, and each statement cites its sentence range.
//! - DSPy `Evaluate` results saved as records (`question`, `pred_answer`, `context`,
//!   `example_answer`, the metric): the answer is `pred_answer`.
//! - RAGChecker input (`{"results": [{query_id, query, gt_answer, response,
//!   retrieved_context: [{doc_id, text}]}]}`): the contexts are `retrieved_context[].text`,
//!   numbered by position (`[n]` = `retrieved_context[n-1]`, not its `doc_id`); the id is
//!   `query_id`.
//! - MLflow `evaluate` tables (`inputs`, `outputs`, `context`, `ground_truth`, the metrics):
//!   the question is `inputs`, the answer `outputs`.
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
    if let Some(value) = alce(record) {
        return Ok(Some(value));
    }
    if let Some(value) = longcite(record)? {
        return Ok(Some(value));
    }
    if let Some(value) = flat(record) {
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

/// A DSPy, RAGChecker or MLflow `evaluate` record: a record of its own field names.
fn flat(record: &Map<String, Value>) -> Option<Value> {
    let string = |key: &str| record.get(key).filter(|v| v.is_string()).cloned();
    if let (Some(answer), Some(context)) = (string("pred_answer"), record.get("context")) {
        return Some(json!({
            "id": record.get("id").cloned(),
            "question": string("question"),
            "answer": answer,
            "contexts": context,
        }));
    }
    if let (Some(answer), Some(Value::Array(retrieved))) =
        (string("response"), record.get("retrieved_context"))
    {
        let contexts: Vec<Value> = retrieved
            .iter()
            .map(|doc| match doc.get("text") {
                Some(text) => text.clone(),
                None => doc.clone(),
            })
            .collect();
        return Some(json!({
            "id": record.get("query_id").or_else(|| record.get("id")).cloned(),
            "question": string("query"),
            "answer": answer,
            "contexts": contexts,
        }));
    }
    if let (Some(answer), Some(question), Some(context)) =
        (string("outputs"), string("inputs"), record.get("context"))
    {
        return Some(json!({
            "id": record.get("id").cloned(),
            "question": question,
            "answer": answer,
            "contexts": context,
        }));
    }
    None
}

/// An ALCE result: `output` and `docs` beside the gold `answer`.
fn alce(record: &Map<String, Value>) -> Option<Value> {
    let output = record.get("output")?.as_str()?;
    let docs = record.get("docs")?.as_array()?;
    if !record.contains_key("question") {
        return None;
    }
    let contexts: Vec<Value> = docs
        .iter()
        .map(|doc| match doc {
            Value::Object(doc) => {
                let mut chunk = json!({"text": doc.get("text").cloned().unwrap_or(Value::Null)});
                if let Some(title) = doc.get("title").filter(|t| t.is_string()) {
                    chunk["title"] = title.clone();
                }
                chunk
            }
            other => other.clone(),
        })
        .collect();
    Some(json!({
        "id": record.get("id").or_else(|| record.get("qa_id")).cloned(),
        "question": record.get("question").cloned(),
        "answer": output,
        "contexts": contexts,
    }))
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
    fn alce_reads_output_and_docs_not_the_gold_answer() {
        let record = object(
            json!({"question": "q", "answer": "gold", "output": "Tall [1].",
            "docs": [{"id": "1000", "title": "T", "text": "It is tall."}]}),
        );
        let value = rewrite(&record).unwrap().unwrap();
        assert_eq!(value["answer"], "Tall [1].");
        assert_eq!(
            value["contexts"][0],
            json!({"text": "It is tall.", "title": "T"})
        );
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
    fn dspy_ragchecker_and_mlflow_tables() {
        let dspy = object(json!({"question": "q", "pred_answer": "A [1].", "context": ["x"]}));
        assert_eq!(rewrite(&dspy).unwrap().unwrap()["answer"], "A [1].");
        let ragchecker = object(json!({"query_id": "0", "response": "A [1].",
            "retrieved_context": [{"doc_id": "000", "text": "x"}]}));
        let value = rewrite(&ragchecker).unwrap().unwrap();
        assert_eq!(
            (value["id"].clone(), value["contexts"].clone()),
            (json!("0"), json!(["x"]))
        );
        let mlflow = object(json!({"inputs": "q", "outputs": "A [1].", "context": ["x"]}));
        assert_eq!(rewrite(&mlflow).unwrap().unwrap()["question"], "q");
        // Records of the aliases' own names are left alone.
        let ragas = object(json!({"response": "A.", "retrieved_contexts": ["x"]}));
        assert!(rewrite(&ragas).unwrap().is_none());
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
