//! What real RAG stacks return, checked end to end: each sample of `testdata/stacks/` (built field
//! by field from the stack's own documentation or SDK, the same five chunks and four-sentence
//! answer throughout; `testdata/stacks/SOURCES.md` names where each shape comes from and
//! `EXPECTED.md` what each must give), with and without a chunks file, the error line of each wrong
//! shape, and every transcript format of `testdata/batch/` the stacks write.
//!
//! Regenerate the table snapshots with `INSTA_UPDATE=always cargo test --test cli -- stacks::`,
//! then read every changed `tests/cli/snapshots/cli__stacks__*.snap` before keeping it.

use serde_json::Value;

use crate::util::{Output, Run, ragcite};

/// The verdicts of the worked example: 1888 is not in chunk 2, and chunk 3 does not say who
/// designed the tower.
pub(crate) const VERDICTS: [&str; 4] = [
    "supported",
    "number-mismatch",
    "unsupported-citation",
    "uncited-claim",
];

/// The chunk statuses of the worked example, when all five chunks are there.
pub(crate) const STATUSES: [&str; 5] = [
    "used",
    "used",
    "cited-but-not-supporting",
    "relevant-but-uncited",
    "unused",
];

/// `ragcite <args>` from `testdata/stacks/`: the samples are named relative to it, and the
/// outputs and snapshots show them so.
fn in_stacks(args: &[&str]) -> Run {
    ragcite(args).in_dir("testdata/stacks")
}

/// What `ragcite <args>` gave, run from `testdata/stacks/`.
fn stacks(args: &[&str]) -> Output {
    in_stacks(args).output()
}

/// `check <files> --format json`: exit 1 (the example fails its gate), nothing on stderr, the
/// document.
pub(crate) fn check_json(files: &[&str]) -> Value {
    in_stacks(&["check"])
        .args(files)
        .args(["--format", "json"])
        .json(1)
}

/// The input error line (see `Output::input_error`).
pub(crate) fn input_error(args: &[&str]) -> String {
    in_stacks(args).input_error()
}

pub(crate) fn strings(doc: &Value, pointer: &str, field: &str) -> Vec<String> {
    doc.pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{pointer} in {doc}"))
        .iter()
        .map(|item| item[field].as_str().unwrap_or("").to_string())
        .collect()
}

/// The ids each sentence cites.
pub(crate) fn cited(doc: &Value) -> Vec<Vec<String>> {
    doc["result"]["sentences"]
        .as_array()
        .expect("sentences")
        .iter()
        .map(|s| {
            s["cited"]
                .as_array()
                .expect("cited")
                .iter()
                .map(|id| id.as_str().unwrap_or("").to_string())
                .collect()
        })
        .collect()
}

/// Asserts the worked example's verdicts, the ids cited by the first three sentences, and the
/// chunks with their statuses; returns the document.
pub(crate) fn assert_worked_example(
    files: &[&str],
    cites: [&str; 3],
    chunks: &[&str],
    formats: (&str, &str),
) -> Value {
    let doc = check_json(files);
    assert_eq!(
        strings(&doc, "/result/sentences", "verdict"),
        VERDICTS,
        "{files:?}"
    );
    let expected: Vec<Vec<String>> = cites
        .iter()
        .map(|id| vec![id.to_string()])
        .chain([Vec::new()])
        .collect();
    assert_eq!(cited(&doc), expected, "{files:?}");
    assert_eq!(strings(&doc, "/result/chunks", "id"), chunks, "{files:?}");
    let statuses = strings(&doc, "/result/chunks", "status");
    assert_eq!(statuses, STATUSES[..chunks.len()], "{files:?}");
    assert_eq!(doc["inputs"]["answer"]["format"], formats.0, "{files:?}");
    assert_eq!(doc["inputs"]["chunks"]["format"], formats.1, "{files:?}");
    assert_eq!(doc["warnings"], serde_json::json!([]), "{files:?}");
    doc
}

const NUMBERED: [&str; 5] = ["1", "2", "3", "4", "5"];

#[test]
fn responses_that_carry_their_sources_need_no_chunks_file() {
    let bedrock = [
        "3f1c9a52-7d4e-4b8a-9e21-6c0d5f8b2a14",
        "8a27e6d1-0b93-4c5f-a1d8-2e4f7b9c3d60",
        "c5d04b7e-91a2-4f36-8b1c-d7e3a9f20518",
    ];
    // Bedrock returns only the references it cites: chunks 4 and 5 are not there.
    assert_worked_example(
        &["bedrock-kb/response.json"],
        bedrock,
        &bedrock,
        ("bedrock", "bedrock"),
    );
    let docs = ["doc1", "doc2", "doc3", "doc4", "doc5"];
    assert_worked_example(
        &["azure-on-your-data/response.json"],
        ["doc1", "doc2", "doc3"],
        &docs,
        ("azure", "azure"),
    );
    for (file, format) in [
        ("perplexity/response.json", "perplexity"),
        (
            "openai-responses-file-search/response.json",
            "openai-responses",
        ),
        ("vertex-rag/response.json", "gemini"),
        ("langchain/response.json", "langchain"),
        ("langchain/dumpd.json", "langchain"),
        ("llamaindex/response.json", "llamaindex"),
    ] {
        assert_worked_example(&[file], ["1", "2", "3"], &NUMBERED, (format, format));
    }
    // Haystack keeps only the referenced documents, named by their `source_index`.
    for file in ["haystack/response.json", "haystack/response-v3.json"] {
        assert_worked_example(
            &[file],
            ["1", "2", "3"],
            &NUMBERED[..3],
            ("haystack", "haystack"),
        );
    }
}

#[test]
fn responses_whose_sources_are_elsewhere_take_them_as_the_chunks_file() {
    let documents = [
        "document-1",
        "document-2",
        "document-3",
        "document-4",
        "document-5",
    ];
    assert_worked_example(
        &[
            "bedrock-converse/response.json",
            "bedrock-converse/request.json",
        ],
        ["document-1", "document-2", "document-3"],
        &documents,
        ("bedrock-converse", "bedrock-converse"),
    );
    let keys = ["0", "1", "2", "3", "4"];
    assert_worked_example(
        &["mistral/response.json", "mistral/tool-result.json"],
        ["0", "1", "2"],
        &keys,
        ("mistral", "mistral"),
    );
    // Documents and search results are counted apart, each in request order.
    assert_worked_example(
        &[
            "anthropic-documents/response.json",
            "anthropic-documents/request.json",
        ],
        ["search-result-1", "search-result-2", "document-1"],
        &[
            "search-result-1",
            "search-result-2",
            "document-1",
            "document-2",
            "search-result-3",
        ],
        ("anthropic", "anthropic"),
    );
    // Without them, the error says which file to pass.
    for (file, expected) in [
        (
            "bedrock-converse/response.json",
            "the Converse request (its documents)",
        ),
        (
            "mistral/response.json",
            "the tool result its references point into",
        ),
        (
            "anthropic-documents/response.json",
            "the request (its documents and search results)",
        ),
        (
            "../eiffel/answer.md",
            "the chunks the answer was written from",
        ),
    ] {
        let err = input_error(&["check", file]);
        assert!(
            err.starts_with(&format!(
                "ragcite: error: {file}: the answer carries no sources: pass "
            )),
            "{err}"
        );
        assert!(err.contains(expected), "{err}");
    }
}

/// Each chunk's id and status, in the order of the chunks.
pub(crate) fn statuses(doc: &Value) -> Vec<(String, String)> {
    let ids = strings(doc, "/result/chunks", "id");
    ids.into_iter()
        .zip(strings(doc, "/result/chunks", "status"))
        .collect()
}

#[test]
fn citations_that_are_web_addresses_name_the_pages_keyed_by_url() {
    let page = |p: &str| format!("https://{p}");
    let (tower, history, paris, eiffel, louvre) = (
        page("en.wikipedia.org/wiki/Eiffel_Tower"),
        page("www.toureiffel.paris/en/the-monument/history"),
        page("en.wikipedia.org/wiki/Paris"),
        page("en.wikipedia.org/wiki/Gustave_Eiffel"),
        page("en.wikipedia.org/wiki/Louvre"),
    );
    // OpenAI web search: every URL carries `?utm_source=openai`; the pages are keyed without it,
    // in an object keyed by URL; each link stands after the full stop of the sentence it cites.
    let doc = check_json(&[
        "openai-web-search/response.json",
        "openai-web-search/chunks.json",
    ]);
    assert_eq!(strings(&doc, "/result/sentences", "verdict"), VERDICTS);
    assert_eq!(
        cited(&doc),
        [
            vec![tower.clone()],
            vec![history.clone()],
            vec![paris.clone()],
            vec![]
        ]
    );
    let status = |id: &str, s: &str| (id.to_string(), s.to_string());
    assert_eq!(
        statuses(&doc),
        [
            status(&tower, "used"),
            status(&eiffel, "relevant-but-uncited"),
            status(&louvre, "unused"),
            status(&paris, "cited-but-not-supporting"),
            status(&history, "used"),
        ]
    );
    assert_eq!(doc["result"]["unknownMarkers"], serde_json::json!([]));
    assert_eq!(doc["warnings"], serde_json::json!([]));
    // GPT Researcher: `([title](url))` before the full stop; the research sources name each
    // page by its `url` and hold it in `raw_content`; the title, headings and the References
    // list are not claims.
    let doc = check_json(&[
        "gpt-researcher/report.md",
        "gpt-researcher/research_sources.json",
    ]);
    let claims: Vec<String> = strings(&doc, "/result/sentences", "verdict")
        .into_iter()
        .filter(|v| v != "no-claim")
        .collect();
    assert_eq!(claims, VERDICTS);
    let cites: Vec<Vec<String>> = cited(&doc).into_iter().filter(|c| !c.is_empty()).collect();
    assert_eq!(cites, [["1"], ["3"], ["2"]]);
    assert_eq!(
        strings(&doc, "/result/chunks", "status"),
        [
            "used",
            "cited-but-not-supporting",
            "used",
            "relevant-but-uncited",
            "unused"
        ]
    );
}

#[test]
fn a_chunks_file_wins_over_the_sources_a_response_carries() {
    // The Retrieve results hold all five chunks, by the same ids: now chunk 4 is there to
    // suggest, and chunk 5 is unused.
    let ids = [
        "3f1c9a52-7d4e-4b8a-9e21-6c0d5f8b2a14",
        "8a27e6d1-0b93-4c5f-a1d8-2e4f7b9c3d60",
        "c5d04b7e-91a2-4f36-8b1c-d7e3a9f20518",
        "1e9b7f30-6c2d-4a85-b4e9-0f5a8d3c7b21",
        "6d4a2c18-e5f7-49b0-93ad-8b1e0c7f4d95",
    ];
    let doc = assert_worked_example(
        &["bedrock-kb/response.json", "bedrock-kb/retrieve.json"],
        [ids[0], ids[1], ids[2]],
        &ids,
        ("bedrock", "bedrock"),
    );
    assert_eq!(doc["inputs"]["chunks"]["path"], "bedrock-kb/retrieve.json");
    assert_eq!(doc["result"]["sentences"][2]["suggestedCitation"], ids[3]);
    // The provider's own source lists are chunks files.
    for (answer, chunks, format) in [
        (
            "azure-on-your-data/response.json",
            "azure-on-your-data/citations.json",
            "azure",
        ),
        (
            "openai-responses-file-search/response.json",
            "openai-responses-file-search/results.json",
            "json",
        ),
    ] {
        let doc = check_json(&[answer, chunks]);
        assert_eq!(strings(&doc, "/result/sentences", "verdict"), VERDICTS);
        assert_eq!(strings(&doc, "/result/chunks", "status"), STATUSES);
        assert_eq!(doc["inputs"]["chunks"]["format"], format, "{chunks}");
    }
}

#[test]
fn chunk_files_people_also_have() {
    for (file, format) in [
        ("chunks/csv-with-header.csv", "csv"),
        ("chunks/markdown-headings.md", "markdown-headings"),
        ("chunks/markdown-bracket-headings.md", "markdown-headings"),
    ] {
        assert_worked_example(
            &["../eiffel/answer.md", file],
            ["1", "2", "3"],
            &NUMBERED,
            ("text", format),
        );
    }
    // `(source: file.pdf)` names every chunk of that file.
    let doc = check_json(&["langchain/source-markers.md", "langchain/context.json"]);
    assert_eq!(strings(&doc, "/result/sentences", "verdict"), VERDICTS);
    let two = vec!["1".to_string(), "2".to_string()];
    assert_eq!(
        cited(&doc),
        [two.clone(), two, vec!["3".to_string()], vec![]]
    );
    assert_eq!(strings(&doc, "/result/chunks", "status"), STATUSES);
    assert_eq!(doc["inputs"]["chunks"]["format"], "langchain");
}

/// Every sample of `testdata/stacks/`, as `check` takes it: the snapshot's name and the files.
const SAMPLES: [(&str, &[&str]); 18] = [
    ("bedrock_kb", &["bedrock-kb/response.json"]),
    (
        "bedrock_kb_retrieve",
        &["bedrock-kb/response.json", "bedrock-kb/retrieve.json"],
    ),
    (
        "bedrock_converse",
        &[
            "bedrock-converse/response.json",
            "bedrock-converse/request.json",
        ],
    ),
    ("azure_on_your_data", &["azure-on-your-data/response.json"]),
    (
        "azure_citations",
        &[
            "azure-on-your-data/response.json",
            "azure-on-your-data/citations.json",
        ],
    ),
    ("perplexity", &["perplexity/response.json"]),
    (
        "mistral",
        &["mistral/response.json", "mistral/tool-result.json"],
    ),
    (
        "openai_responses_file_search",
        &["openai-responses-file-search/response.json"],
    ),
    (
        "anthropic_documents",
        &[
            "anthropic-documents/response.json",
            "anthropic-documents/request.json",
        ],
    ),
    ("vertex_rag", &["vertex-rag/response.json"]),
    ("langchain", &["langchain/response.json"]),
    ("langchain_dumpd", &["langchain/dumpd.json"]),
    (
        "langchain_source_markers",
        &["langchain/source-markers.md", "langchain/context.json"],
    ),
    ("llamaindex", &["llamaindex/response.json"]),
    ("haystack", &["haystack/response.json"]),
    (
        "chunks_csv",
        &["../eiffel/answer.md", "chunks/csv-with-header.csv"],
    ),
    (
        "chunks_markdown",
        &["../eiffel/answer.md", "chunks/markdown-headings.md"],
    ),
    (
        "chunks_markdown_brackets",
        &["../eiffel/answer.md", "chunks/markdown-bracket-headings.md"],
    ),
];

#[test]
fn tables_of_the_stacks() {
    for (name, files) in SAMPLES {
        let mut args = vec!["check"];
        args.extend(files);
        args.extend(["--color", "never"]);
        let out = stacks(&args);
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        assert_eq!(out.stderr, "");
        insta::assert_snapshot!(name, out.stdout);
    }
}

#[test]
fn batch_tables_of_the_stacks() {
    for file in [
        "ragas.csv",
        "ragas_result.csv",
        "deepeval_test_run.json",
        "promptfoo_v3.json",
        "langchain_outputs.jsonl",
        "llamaindex.jsonl",
        "haystack.jsonl",
        "phoenix_spans.jsonl",
        "phoenix_spans_dataframe.jsonl",
        "langsmith_runs.jsonl",
    ] {
        let out = stacks(&["batch", &format!("../batch/{file}"), "--color", "never"]);
        assert_eq!(out.code, Some(1), "{}", out.stderr);
        assert_eq!(out.stderr, "");
        let name = format!("batch_{}", file.replace(['.', '-'], "_"));
        insta::assert_snapshot!(name, out.stdout);
    }
}

#[test]
fn every_wrong_shape_is_one_error_line() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        path.to_string_lossy().into_owned()
    };
    let answer = write("answer.md", "The tower is 330 metres tall [1].");
    let chunks = write("chunks.json", r#"["The tower is 330 metres tall."]"#);
    for (args, expected) in [
        (
            vec![
                "check".to_string(),
                write(
                    "unknown.json",
                    r#"{"result": {"text": "The tower is tall."}, "status": "ok"}"#,
                ),
                chunks.clone(),
            ],
            "JSON of no known response format (top-level keys: `result`, `status`); point at the answer with `--answer-path PATH`, or read it as prose with `--answer-format text`",
        ),
        (
            vec![
                "check".to_string(),
                write("broken.json", "{\"title\": \"notes\",\n \"body\": "),
                chunks.clone(),
            ],
            "line 2: invalid JSON: EOF while parsing a value (column 9)",
        ),
        (
            vec![
                "check".to_string(),
                answer.clone(),
                write("no-text.csv", "id,title\n1,Tower\n"),
            ],
            "the CSV header names no text column",
        ),
        (
            vec![
                "check".to_string(),
                answer.clone(),
                write("ragged.csv", "id,text\n1,One.\n2,Two.,extra\n"),
            ],
            "CSV line 3: a row has 3 fields where the header has 2",
        ),
        (
            vec![
                "check".to_string(),
                answer.clone(),
                write(
                    "stray.md",
                    "Our sources:\n## Source 1\nOne.\n## Source 2\nTwo.\n",
                ),
            ],
            "line 1: text before the first source heading (`## ...`) belongs to no source",
        ),
        (
            vec![
                "check".to_string(),
                write(
                    "azure.json",
                    r#"{"choices": [{"message": {"content": "Tall [doc1].", "context": {"citations": {"content": "x"}}}}]}"#,
                ),
            ],
            "`choices[0].message.context.citations` is an object; expected an array",
        ),
        (
            vec![
                "check".to_string(),
                write(
                    "langchain.json",
                    r#"{"input": "q", "answer": "Tall [1].", "context": [{"page_content": 3, "metadata": {}}]}"#,
                ),
            ],
            "`context[0].page_content` is a number; expected a string",
        ),
        (
            vec![
                "check".to_string(),
                answer.clone(),
                write(
                    "ollama.json",
                    r#"{"model": "m", "message": {"role": "assistant", "content": "Hi."}, "done": true}"#,
                ),
            ],
            "this is an ollama response, which carries no sources",
        ),
        (
            vec![
                "check".to_string(),
                answer.clone(),
                write(
                    "unknown-chunks.json",
                    r#"{"hits": {"total": 1}, "took": 3}"#,
                ),
            ],
            "found an object with the keys `hits`, `took`",
        ),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = input_error(&args);
        assert!(err.starts_with("ragcite: error: "), "{err}");
        assert!(
            err.contains(expected),
            "{args:?}:\n{err}\nlacks\n{expected}"
        );
    }
    // A transcript that breaks off: the records before it are reported, the error ends the run.
    let ragged = write(
        "ragged-records.csv",
        "user_input,response,retrieved_contexts\nq,The tower is tall [1].,['It is tall.']\nq,B\n",
    );
    let out = stacks(&["batch", &ragged]);
    assert_eq!(out.code, Some(2));
    assert!(
        out.stdout.contains("INCOMPLETE: stopped at line 3"),
        "{}",
        out.stdout
    );
    assert_eq!(
        out.stderr,
        format!(
            "ragcite: error: {ragged}: line 3: a row has 2 fields where the header has 3: the \
             output is incomplete\n"
        )
    );
}

/// The verdict counts of a record that are not zero, by their JSON names.
type Counts = Vec<(String, u64)>;

/// `batch FILE --format jsonl`: each record's (id, passed, verdict counts that are not zero).
fn batch_records(file: &str) -> Vec<(String, bool, Counts)> {
    let out = stacks(&["batch", &format!("../batch/{file}"), "--format", "jsonl"]);
    assert_eq!(out.code, Some(1), "{file}: {}", out.stderr);
    out.stdout
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("JSON line"))
        .filter(|item| item["type"] == "record")
        .map(|record| {
            assert_eq!(record["error"], Value::Null, "{file}: {record}");
            let counts = [
                "supported",
                "numberMismatch",
                "unsupportedCitation",
                "uncitedClaim",
            ]
            .iter()
            .filter_map(|k| {
                let n = record["counts"][*k].as_u64()?;
                (n > 0).then(|| (k.to_string(), n))
            })
            .collect();
            (
                record["id"].as_str().unwrap_or("").to_string(),
                record["passed"].as_bool().unwrap_or(true),
                counts,
            )
        })
        .collect()
}

#[test]
fn every_transcript_format_of_the_stacks() {
    let c = |k: &str, n: u64| (k.to_string(), n);
    // A: the worked example; B: two supported sentences; C: 3 million where the chunk says 2.1.
    let a = vec![
        c("supported", 1),
        c("numberMismatch", 1),
        c("unsupportedCitation", 1),
        c("uncitedClaim", 1),
    ];
    let b = vec![c("supported", 2)];
    let record_c = vec![c("supported", 1), c("numberMismatch", 1)];
    for file in [
        "ragas.csv",
        "ragas_result.csv",
        "deepeval_test_run.json",
        "promptfoo_v3.json",
        "langchain_outputs.jsonl",
        "llamaindex.jsonl",
        "haystack.jsonl",
    ] {
        let records = batch_records(file);
        let found: Vec<(bool, Counts)> = records
            .into_iter()
            .map(|(_, passed, counts)| (passed, counts))
            .collect();
        assert_eq!(
            found,
            [
                (false, a.clone()),
                (true, b.clone()),
                (false, record_c.clone())
            ],
            "{file}"
        );
    }
    // Trace exports: one record per trace, named by its trace id, in the order traces complete.
    for (file, first_is_a) in [
        ("phoenix_spans.jsonl", true),
        ("phoenix_spans_dataframe.jsonl", false),
        ("langsmith_runs.jsonl", false),
    ] {
        let records = batch_records(file);
        assert_eq!(records.len(), 2, "{file}");
        let (first, second) = if first_is_a { (&a, &b) } else { (&b, &a) };
        assert_eq!(&records[0].2, first, "{file}");
        assert_eq!(&records[1].2, second, "{file}");
        assert!(
            records.iter().all(|(id, _, _)| id.len() >= 32),
            "{file}: {records:?}"
        );
    }
}

#[test]
fn a_trace_without_what_a_record_needs_is_a_bad_record() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join("spans.jsonl");
    let spans = [
        r#"{"name": "llm", "context": {"trace_id": "t1", "span_id": "a"}, "parent_id": "r1", "attributes": {"openinference.span.kind": "LLM", "output.value": "Tall [1]."}}"#,
        r#"{"name": "query", "context": {"trace_id": "t1", "span_id": "r1"}, "parent_id": null, "attributes": {"openinference.span.kind": "CHAIN", "output.value": "Tall [1]."}}"#,
        r#"{"name": "retrieve", "context": {"trace_id": "t2", "span_id": "b"}, "parent_id": "r2", "attributes": {"openinference.span.kind": "RETRIEVER", "retrieval.documents.0.document.content": "It is tall."}}"#,
    ];
    std::fs::write(&path, spans.join("\n")).expect("written");
    let out = stacks(&[
        "batch",
        path.to_str().expect("UTF-8 path"),
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let errors: Vec<String> = out
        .stdout
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("JSON line"))
        .filter(|item| item["type"] == "record")
        .map(|record| {
            format!(
                "{}: {}",
                record["line"],
                record["error"].as_str().unwrap_or("")
            )
        })
        .collect();
    assert_eq!(
        errors,
        [
            "2: trace t1: it has no answer or no retrieved documents",
            "3: trace t2: its root span never came",
        ]
    );
}
