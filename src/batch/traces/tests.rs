use super::*;

fn records(text: &str) -> Vec<Result<(usize, Value), String>> {
    Records::new(RecordScanner::new(text.as_bytes(), true))
        .map(|item| match item {
            Ok(Scanned::Record(raw)) => Ok((
                raw.line,
                serde_json::from_slice(&raw.bytes).expect("a record is JSON"),
            )),
            Ok(Scanned::Bad { line, message }) => Err(format!("{line}: {message}")),
            Err(e) => Err(e.to_string()),
        })
        .collect()
}

#[test]
fn otel_spans_of_interleaved_traces_are_joined_when_their_root_ends() {
    let lines = [
        r#"{"name": "retrieve", "context": {"trace_id": "t1", "span_id": "a"}, "parent_id": "r1", "attributes": {"openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.content": "It is tall.", "retrieval.documents.0.document.id": "d1", "retrieval.documents.0.document.metadata": "{\"file_name\": \"t.pdf\"}", "retrieval.documents.1.document.content": "It is old."}}"#,
        r#"{"name": "retrieve", "context": {"trace_id": "t2", "span_id": "b"}, "parent_id": "r2", "attributes": {"openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.content": "Paris."}}"#,
        r#"{"name": "llm", "context": {"trace_id": "t1", "span_id": "c"}, "parent_id": "r1", "attributes": {"openinference.span.kind": "LLM", "output.value": "Tall [1]."}}"#,
        r#"{"name": "query", "context": {"trace_id": "t1", "span_id": "r1"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "input.value": "How tall?", "output.value": "Tall [1]."}}"#,
        r#"{"name": "query", "context": {"trace_id": "t3", "span_id": "r3"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "output.value": "Alone."}}"#,
        r#"{"name": "query", "context": {"trace_id": "t2", "span_id": "r2"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "output.value": "{\"answer\": \"Paris [1].\"}"}}"#,
    ];
    let found = records(&lines.join("\n"));
    assert_eq!(found.len(), 3, "{found:?}");
    let (line, first) = found[0].clone().expect("t1");
    assert_eq!(line, 4);
    assert_eq!(first["id"], "t1");
    assert_eq!(first["question"], "How tall?");
    assert_eq!(first["answer"], "Tall [1].");
    assert_eq!(first["contexts"][0]["text"], "It is tall.");
    assert_eq!(first["contexts"][0]["metadata"]["file_name"], "t.pdf");
    assert_eq!(first["contexts"][1]["text"], "It is old.");
    let (line, second) = found[1].clone().expect("t2");
    assert_eq!((line, second["answer"].as_str()), (6, Some("Paris [1].")));
    // The trace without a retriever is reported at the end.
    assert_eq!(
        found[2],
        Err("5: trace t3: it has no answer or no retrieved documents".to_string())
    );
}

#[test]
fn dataframe_rows_with_dotted_columns_newest_first() {
    let lines = [
        r#"{"name": "query", "span_kind": "CHAIN", "parent_id": null, "context.trace_id": "t1", "attributes.output.value": "Tall [1].", "attributes.retrieval.documents": null}"#,
        r#"{"name": "retrieve", "span_kind": "RETRIEVER", "parent_id": "r1", "context.trace_id": "t1", "attributes.output.value": null, "attributes.retrieval.documents": [{"document.content": "It is tall.", "document.id": "d1"}]}"#,
    ];
    let found = records(&lines.join("\n"));
    let (line, record) = found[0].clone().expect("t1");
    assert_eq!(line, 1);
    assert_eq!(record["contexts"][0]["text"], "It is tall.");
    assert_eq!(record["answer"], "Tall [1].");
}

#[test]
fn langsmith_root_runs_carry_the_record() {
    let lines = [
        r#"{"id": "c1", "trace_id": "t1", "parent_run_id": "r1", "run_type": "retriever", "outputs": {"documents": [{"page_content": "It is tall.", "metadata": {"source": "t.pdf"}}]}}"#,
        r#"{"id": "r1", "trace_id": "t1", "parent_run_id": null, "run_type": "chain", "inputs": {"input": "How tall?"}, "outputs": {"input": "How tall?", "context": [{"page_content": "It is tall.", "metadata": {"source": "t.pdf"}}], "answer": "Tall [1]."}}"#,
    ];
    let found = records(&lines.join("\n"));
    let (_, record) = found[0].clone().expect("t1");
    assert_eq!(record["answer"], "Tall [1].");
    assert_eq!(record["contexts"][0]["page_content"], "It is tall.");
    assert_eq!(found.len(), 1);
}

#[test]
fn other_files_pass_through() {
    let found = records("{\"answer\": \"A.\", \"contexts\": [\"x\"]}\n");
    assert_eq!(found[0].clone().expect("record").1["answer"], "A.");
}
