use super::*;
use serde_json::json;

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

fn ids(found: &[Result<(usize, Value), String>]) -> Vec<String> {
    found
        .iter()
        .map(|item| match item {
            Ok((_, record)) => record["id"].as_str().unwrap_or("?").to_string(),
            Err(e) => format!("bad: {e}"),
        })
        .collect()
}

/// An OTLP span with OpenInference attributes, as the file exporter writes them.
fn otlp_span(trace: &str, id: &str, parent: Option<&str>, attributes: &[(&str, &str)]) -> Value {
    let attributes: Vec<Value> = attributes
        .iter()
        .map(|(k, v)| json!({"key": k, "value": {"stringValue": v}}))
        .collect();
    let mut span = json!({"traceId": trace, "spanId": id, "attributes": attributes});
    if let Some(parent) = parent {
        span["parentSpanId"] = json!(parent);
    }
    span
}

fn traces_data(spans: &[Value]) -> String {
    json!({"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": spans}]}]})
        .to_string()
}

#[test]
fn otlp_traces_interleaved_over_lines_child_first() {
    let retriever = |trace: &str, parent: &str| {
        otlp_span(
            trace,
            &format!("{trace}-r"),
            Some(parent),
            &[
                ("openinference.span.kind", "RETRIEVER"),
                ("retrieval.documents.0.document.content", "It is tall."),
                ("retrieval.documents.0.document.id", "1"),
            ],
        )
    };
    let root = |trace: &str, answer: &str| {
        otlp_span(
            trace,
            &format!("{trace}-root"),
            None,
            &[
                ("openinference.span.kind", "CHAIN"),
                ("input.value", "How tall?"),
                ("output.value", answer),
            ],
        )
    };
    let lines = [
        traces_data(&[retriever("t1", "t1-root"), retriever("t2", "t2-root")]),
        traces_data(&[root("t2", "Two [1].")]),
        traces_data(&[root("t1", "One [1].")]),
    ];
    let found = records(&lines.join("\n"));
    assert_eq!(ids(&found), ["t2", "t1"]);
    let (line, first) = found[0].clone().expect("t2");
    assert_eq!((line, first["answer"].as_str()), (2, Some("Two [1].")));
    assert_eq!(first["question"], "How tall?");
    assert_eq!(first["contexts"][0]["text"], "It is tall.");
}

#[test]
fn otlp_genai_spans_with_numeric_int_values() {
    let span = |id: &str, parent: Option<&str>, attributes: Value| {
        let mut span = json!({"traceId": "g1", "spanId": id, "attributes": attributes});
        if let Some(parent) = parent {
            span["parentSpanId"] = json!(parent);
        }
        span
    };
    let body = traces_data(&[
        span(
            "r",
            Some("w"),
            json!([
                {"key": "gen_ai.operation.name", "value": {"stringValue": "retrieval"}},
                {"key": "gen_ai.retrieval.documents", "value": {"stringValue": "[{\"id\": \"1\", \"content\": \"It is tall.\"}]"}},
                {"key": "gen_ai.usage.input_tokens", "value": {"intValue": 402}}
            ]),
        ),
        span(
            "w",
            None,
            json!([
                {"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_workflow"}},
                {"key": "gen_ai.input.messages", "value": {"stringValue": "[{\"role\": \"user\", \"parts\": [{\"type\": \"text\", \"content\": \"How tall?\"}]}]"}},
                {"key": "gen_ai.output.messages", "value": {"stringValue": "[{\"role\": \"assistant\", \"parts\": [{\"type\": \"text\", \"content\": \"Tall [1].\"}]}]"}}
            ]),
        ),
    ]);
    let found = records(&body);
    let (_, record) = found[0].clone().expect("g1");
    assert_eq!(record["question"], "How tall?");
    assert_eq!(record["answer"], "Tall [1].");
    assert_eq!(record["contexts"][0]["content"], "It is tall.");
}

#[test]
fn a_root_waits_for_the_parents_of_its_spans() {
    // The LLM span's parent (`mid`) has not come when the root does: the trace completes when
    // it comes, and the span after that is dropped, not a bad record.
    let lines = [
        r#"{"id": "llm", "trace_id": "t", "parent_span_id": "mid", "type": "llm", "input": {}, "output": {"output": "Tall [1]."}}"#,
        r#"{"id": "root", "trace_id": "t", "type": "general", "input": {"question": "How tall?"}, "output": {"output": "Tall [1]."}}"#,
        r#"{"id": "ret", "trace_id": "t", "parent_span_id": "root", "type": "general", "input": {}, "output": {"output": [{"id": "1", "content": "It is tall."}]}}"#,
        r#"{"id": "mid", "trace_id": "t", "parent_span_id": "root", "type": "general", "input": {}, "output": {}}"#,
        r#"{"id": "late", "trace_id": "t", "parent_span_id": "root", "type": "tool", "input": {}, "output": {}}"#,
    ];
    let found = records(&lines.join("\n"));
    assert_eq!(ids(&found), ["t"]);
    let (line, record) = found[0].clone().expect("t");
    assert_eq!(line, 2, "the root's line");
    assert_eq!(record["question"], "How tall?");
    assert_eq!(record["contexts"][0]["content"], "It is tall.");
}

#[test]
fn braintrust_rows_skip_caller_context_and_scores() {
    let lines = [
        r#"{"span_id": "s", "root_span_id": "t", "span_parents": ["e"], "is_root": false, "span_attributes": {"type": "score"}, "input": {}, "output": {"score": 1}, "context": {"caller_lineno": 3}}"#,
        r#"{"span_id": "r", "root_span_id": "t", "span_parents": ["k"], "is_root": false, "span_attributes": {"type": "function", "name": "retrieve"}, "input": {}, "output": [{"id": "1", "text": "It is tall."}], "context": {"caller_lineno": 3}}"#,
        r#"{"span_id": "k", "root_span_id": "t", "span_parents": ["e"], "is_root": false, "span_attributes": {"type": "task"}, "input": {}, "output": "Tall [1].", "context": {"caller_lineno": 3}}"#,
        r#"{"span_id": "e", "root_span_id": "t", "span_parents": null, "is_root": true, "span_attributes": {"type": "eval"}, "input": {"question": "How tall?"}, "output": "Tall [1].", "context": {"caller_lineno": 3}}"#,
    ];
    let found = records(&lines.join("\n"));
    let (_, record) = found[0].clone().expect("t");
    assert_eq!(
        record["contexts"],
        json!([{"id": "1", "text": "It is tall."}])
    );
    assert_eq!(record["answer"], "Tall [1].");
    assert_eq!(found.len(), 1);
}

#[test]
fn whole_traces_are_records_as_soon_as_read() {
    let trace = |id: &str, retriever: bool| {
        let mut spans = vec![
            json!({"span_id": "a", "parent_span_id": null, "attributes": {"mlflow.spanType": "\"CHAIN\"", "mlflow.spanInputs": "{\"question\": \"How tall?\"}", "mlflow.spanOutputs": "\"Tall [1].\""}}),
        ];
        if retriever {
            spans.push(json!({"span_id": "b", "parent_span_id": "a", "attributes": {"mlflow.spanType": "\"RETRIEVER\"", "mlflow.spanOutputs": "[{\"page_content\": \"It is tall.\", \"id\": \"1\"}]"}}));
        }
        json!({"info": {"trace_id": id}, "data": {"spans": spans}}).to_string()
    };
    // Root-first, as MLflow writes them: each trace is whole, so it need not wait for the end.
    let found = records(&[trace("m1", true), trace("m2", false), trace("m3", true)].join("\n"));
    assert_eq!(
        ids(&found),
        [
            "m1",
            "bad: 2: trace m2: it has no answer or no retrieved documents",
            "m3"
        ]
    );
    assert_eq!(found[0].clone().expect("m1").1["question"], "How tall?");
}

#[test]
fn at_most_so_many_traces_are_open() {
    // Root-first traces wait for the end of the file; one more than the limit closes the oldest
    // first, with what it has.
    let mut lines: Vec<String> = (0..=MAX_OPEN_TRACES)
        .map(|k| {
            format!(
                r#"{{"id": "r{k}", "trace_id": "t{k}", "parent_run_id": null, "run_type": "chain", "inputs": {{}}, "outputs": {{"answer": "A."}}}}"#
            )
        })
        .collect();
    lines.push(r#"{"id": "c0", "trace_id": "t0", "parent_run_id": "r0", "run_type": "retriever", "outputs": {"documents": [{"page_content": "x"}]}}"#.to_string());
    let found = records(&lines.join("\n"));
    // t0 was closed without documents when t10000 opened; its late retriever is dropped.
    assert_eq!(found.len(), MAX_OPEN_TRACES + 1);
    assert!(
        matches!(&found[0], Err(e) if e.contains("trace t0")),
        "{:?}",
        found[0]
    );
    assert!(matches!(&found[1], Err(e) if e.contains("trace t1")));
}

#[test]
fn a_record_of_another_kind_in_a_trace_export_is_a_bad_record() {
    let lines = [
        traces_data(&[otlp_span(
            "t1",
            "a",
            None,
            &[("openinference.span.kind", "CHAIN")],
        )]),
        r#"{"answer": "A.", "contexts": ["x"]}"#.to_string(),
    ];
    let found = records(&lines.join("\n"));
    assert!(
        found
            .iter()
            .any(|f| matches!(f, Err(e) if e.starts_with("2: no trace id"))),
        "{found:?}"
    );
}

#[test]
fn a_whole_trace_read_twice_is_read_twice() {
    let trace = json!({"info": {"trace_id": "m"}, "data": {"spans": [
        {"span_id": "a", "parent_span_id": null, "attributes": {"mlflow.spanOutputs": "\"Tall [1].\""}},
        {"span_id": "b", "parent_span_id": "a", "attributes": {"mlflow.spanType": "\"RETRIEVER\"", "mlflow.spanOutputs": "[{\"page_content\": \"It is tall.\"}]"}}
    ]}})
    .to_string();
    let found = records(&[trace.clone(), trace].join("\n"));
    assert_eq!(ids(&found), ["m", "m"]);
    // The root in the middle of its spans: the span after it still belongs to the trace.
    let middle = json!({"info": {"trace_id": "n"}, "data": {"spans": [
        {"span_id": "b", "parent_span_id": "a", "attributes": {"mlflow.spanType": "\"RETRIEVER\"", "mlflow.spanOutputs": "[{\"page_content\": \"It is tall.\"}]"}},
        {"span_id": "a", "parent_span_id": null, "attributes": {"mlflow.spanOutputs": "\"Tall [1].\""}},
        {"span_id": "c", "parent_span_id": "a", "attributes": {"mlflow.spanType": "\"LLM\"", "mlflow.spanOutputs": "\"Tall [1].\""}}
    ]}})
    .to_string();
    assert_eq!(ids(&records(&middle)), ["n"]);
}

#[test]
fn mlflow_2_traces_link_spans_by_context_and_parent_id() {
    let trace = json!({"info": {"request_id": "tr-2"}, "data": {"spans": [
        {"context": {"span_id": "0xb", "trace_id": "0x1"}, "parent_id": "0xa", "attributes": {"mlflow.spanType": "\"RETRIEVER\"", "mlflow.spanInputs": "{\"query\": \"tall\"}", "mlflow.spanOutputs": "[{\"page_content\": \"It is tall.\"}]"}},
        {"context": {"span_id": "0xa", "trace_id": "0x1"}, "parent_id": null, "attributes": {"mlflow.spanInputs": "{\"question\": \"How tall?\"}", "mlflow.spanOutputs": "\"Tall [1].\""}}
    ]}})
    .to_string();
    let found = records(&trace);
    let (_, record) = found[0].clone().expect("tr-2");
    assert_eq!(
        (record["id"].as_str(), record["question"].as_str()),
        (Some("tr-2"), Some("How tall?"))
    );
    assert_eq!(record["contexts"][0]["page_content"], "It is tall.");
}

/// A LangSmith retriever run of trace `t{k}`, its parent the root `r{k}`.
fn retriever_run(k: usize, text: &str) -> String {
    json!({"id": format!("c{k}"), "trace_id": format!("t{k}"), "parent_run_id": format!("r{k}"),
        "run_type": "retriever", "outputs": {"documents": [{"page_content": text}]}})
    .to_string()
}

/// A LangSmith LLM run of trace `t{k}`.
fn llm_run(k: usize) -> String {
    json!({"id": format!("l{k}"), "trace_id": format!("t{k}"), "parent_run_id": format!("r{k}"),
        "run_type": "llm", "outputs": {"generations": [[{"text": "Generated [1]."}]]}})
    .to_string()
}

/// The root run of trace `t{k}`.
fn root_run(k: usize) -> String {
    json!({"id": format!("r{k}"), "trace_id": format!("t{k}"), "parent_run_id": null,
        "run_type": "chain", "inputs": {"question": "Q?"}, "outputs": {"answer": "A [1]."}})
    .to_string()
}

#[test]
fn a_trace_closed_at_the_open_trace_limit_says_so() {
    // Children first (as exporters write them), one trace more than the limit, then the roots:
    // t0 is closed when t10000 opens, before its root came.
    let mut lines: Vec<String> = (0..=MAX_OPEN_TRACES)
        .map(|k| retriever_run(k, "x"))
        .collect();
    lines.extend((0..=MAX_OPEN_TRACES).map(root_run));
    let found = records(&lines.join("\n"));
    assert_eq!(
        found[0],
        Err(format!(
            "1: trace t0: closed before its root span came, because more than {MAX_OPEN_TRACES} \
             traces were open at once (--max-open-traces raises the limit); its later spans are \
             dropped"
        ))
    );
    // Its root came later, and was dropped: the record said so already.
    assert_eq!(found.len(), MAX_OPEN_TRACES + 1);
    assert!(found[1..].iter().all(Result::is_ok));
}

#[test]
fn a_late_span_of_a_trace_closed_by_a_limit_is_a_bad_record_once() {
    // t0 and t1 have all a record needs but their root when t2 opens and closes t0.
    let lines = [
        retriever_run(0, "x"),
        llm_run(0),
        retriever_run(1, "y"),
        llm_run(1),
        retriever_run(2, "z"),
        root_run(0),
        root_run(1),
        root_run(2),
    ];
    let found: Vec<_> = Records::new(RecordScanner::new(lines.join("\n").as_bytes(), true))
        .with_limits(2, MAX_HELD_BYTES)
        .map(|item| match item {
            Ok(Scanned::Record(raw)) => Ok(raw.line),
            Ok(Scanned::Bad { line, message }) => Err(format!("{line}: {message}")),
            Err(e) => Err(e.to_string()),
        })
        .collect();
    assert_eq!(
        found,
        [
            // t0's record, made from its LLM run when t2 opened.
            Ok(1),
            Err(
                "6: trace t0: a span came after the trace was closed because more than 2 traces \
                 were open at once (--max-open-traces raises the limit): its record was made \
                 without it, and its later spans are dropped"
                    .to_string()
            ),
            Ok(7),
            Ok(8),
        ]
    );
}

#[test]
fn a_trace_over_the_memory_limit_says_so() {
    let big = "x".repeat(2000);
    let lines = [retriever_run(0, &big), root_run(0)];
    let found: Vec<_> = Records::new(RecordScanner::new(lines.join("\n").as_bytes(), true))
        .with_limits(MAX_OPEN_TRACES, 1000)
        .map(|item| match item {
            Ok(Scanned::Bad { line, message }) => format!("{line}: {message}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        found,
        [
            "1: trace t0: closed before its root span came, because the open traces held more \
          than 1000 bytes (--max-trace-memory raises the limit); its later spans are dropped"
        ]
    );
}
