//! `ragcite batch` on the eval, trace and benchmark exports of `testdata/batch/exports/`: each
//! file's records, by id, with the verdicts `testdata/stacks/EXPECTED.md` ("# Batch exports")
//! writes for it (W: the worked example, P: the one-sentence answer), and the `--records`
//! option.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::util::{path, ragcite};

/// What one record is expected to give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// The worked example: S1 supported, S2 number-mismatch, S3 unsupported-citation (with this
    /// suggestion), S4 uncited-claim; the record fails.
    W(Option<&'static str>),
    /// One sentence supported by chunk 1; the record passes.
    P,
}
use Expected::{P, W};

/// The worked example with all five contexts: chunk 4 would support S3.
const W4: Expected = W(Some("4"));

fn fixture(name: &str) -> String {
    path("testdata/batch/exports")
        .join(name)
        .display()
        .to_string()
}

/// The records of `ragcite batch FILE --format json`, by id; asserts the run was complete.
fn records(file: &str, code: i32) -> BTreeMap<String, Value> {
    let doc = ragcite(["batch", &fixture(file), "--format", "json"]).json(code);
    assert_eq!(doc["complete"], true, "{file}: {doc}");
    assert_eq!(doc["error"], Value::Null, "{file}: {doc}");
    let records = doc["records"].as_array().expect("records");
    let by_id: BTreeMap<String, Value> = records
        .iter()
        .map(|r| {
            let id = r["id"].as_str().unwrap_or_default().to_string();
            (id, r.clone())
        })
        .collect();
    assert_eq!(by_id.len(), records.len(), "{file}: ids are distinct");
    by_id
}

fn count(record: &Value, key: &str) -> u64 {
    record["counts"][key].as_u64().unwrap_or(u64::MAX)
}

fn assert_record(file: &str, id: &str, record: &Value, expected: Expected) {
    let at = format!("{file} {id}: {record}");
    assert_eq!(record["error"], Value::Null, "{at}");
    let problems: Vec<(u64, &str, Option<&str>)> = record["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| {
            (
                p["sentence"].as_u64().unwrap_or(0),
                p["verdict"].as_str().unwrap_or(""),
                p["suggestedCitation"].as_str(),
            )
        })
        .collect();
    match expected {
        W(suggestion) => {
            assert_eq!(record["passed"], false, "{at}");
            assert_eq!(count(record, "sentences"), 4, "{at}");
            assert_eq!(count(record, "supported"), 1, "{at}");
            assert_eq!(problems.len(), 3, "{at}");
            assert_eq!(problems[0].0, 2, "{at}");
            assert_eq!(problems[0].1, "number-mismatch", "{at}");
            assert_eq!(problems[1], (3, "unsupported-citation", suggestion), "{at}");
            assert_eq!((problems[2].0, problems[2].1), (4, "uncited-claim"), "{at}");
        }
        P => {
            assert_eq!(record["passed"], true, "{at}");
            assert_eq!(count(record, "sentences"), 1, "{at}");
            assert_eq!(count(record, "supported"), 1, "{at}");
            assert!(problems.is_empty(), "{at}");
        }
    }
}

#[test]
fn every_export_gives_the_expected_verdicts_per_record() {
    let cases: [(&str, &[(&str, Expected)]); 13] = [
        (
            "mlflow_traces.json",
            &[
                ("tr-facdf8f368900d68d144d24c8911981f", P),
                ("tr-c4246703d3086ccfbb885953a2c0994d", W4),
            ],
        ),
        ("mlflow_evaluate_split.json", &[("1", W4), ("2", P)]),
        (
            "langfuse_trace.json",
            &[
                ("f7d202918549fac538ea548b4908ff86", W4),
                ("36815ca8aec5f1698dabc454e00fbb90", P),
            ],
        ),
        (
            "opik_spans.jsonl",
            &[
                ("01972fec-578a-7559-a4bf-8061fb3a9c38", P),
                ("01972fec-4a36-7600-80ef-87696894bf40", W4),
            ],
        ),
        (
            "braintrust_rows.jsonl",
            &[
                ("fe0c63faed7f4d97dd58e2cc441faa0e", W4),
                ("51a1a96454f0741f216c3e2e024465b2", P),
            ],
        ),
        (
            "otlp_file_exporter_openinference.jsonl",
            &[
                ("b8094240e32726cdf7a84b38644efde4", W4),
                ("e25c65e8ea35d5ca08172635fc1583d8", P),
            ],
        ),
        (
            "otlp_request_genai.json",
            &[
                ("c2b6000db144f4aaf3de657621921b3b", W4),
                ("1485ee3f2180a775566e6fdae484e991", P),
            ],
        ),
        ("alce_result.json", &[("1", W4), ("2", P)]),
        // Without the context, only the cited spans are known: no chunk to suggest.
        ("longcite_pred.json", &[("0", W(None)), ("1", P)]),
        // `splited_context` holds every sentence: sentence 4 (C4) supports S3.
        ("longcite_query_result.json", &[("1", W4)]),
        ("dspy_evaluate.json", &[("1", W4), ("2", P)]),
        ("ragchecker_input.json", &[("0", W4), ("1", P)]),
        (
            "langsmith_all_runs.jsonl",
            &[
                ("01a236ba-34f3-7f42-8616-939beb4f70c8", W4),
                ("01a236ba-3704-7744-95f8-fbd0e50dd6dd", P),
            ],
        ),
    ];
    for (file, expected) in cases {
        let found = records(file, 1);
        assert_eq!(
            found.keys().collect::<Vec<_>>(),
            {
                let mut ids: Vec<&str> = expected.iter().map(|(id, _)| *id).collect();
                ids.sort_unstable();
                ids
            },
            "{file}"
        );
        for (id, verdicts) in expected {
            assert_record(file, id, &found[*id], *verdicts);
        }
    }
}

#[test]
fn trace_records_come_in_the_order_traces_complete() {
    // Child-first traces complete at their root; MLflow traces and Langfuse trace bodies as
    // each is read; a root-first Braintrust trace at the end of the file.
    for (file, first) in [
        ("opik_spans.jsonl", "01972fec-578a-7559-a4bf-8061fb3a9c38"),
        ("mlflow_traces.json", "tr-facdf8f368900d68d144d24c8911981f"),
        ("langfuse_trace.json", "f7d202918549fac538ea548b4908ff86"),
        ("braintrust_rows.jsonl", "51a1a96454f0741f216c3e2e024465b2"),
    ] {
        let doc = ragcite(["batch", &fixture(file), "--format", "json"]).json(1);
        assert_eq!(doc["records"][0]["id"], first, "{file}");
        assert_eq!(doc["aggregate"]["badRecords"], 0, "{file}");
    }
}

#[test]
fn a_giskard_report_row_has_no_retrieved_contexts() {
    let file = "giskard_raget.json";
    let doc = ragcite(["batch", &fixture(file), "--format", "json"]).json(1);
    assert_eq!(doc["complete"], true, "{doc}");
    assert_eq!(doc["aggregate"]["badRecords"], 2, "{doc}");
    for record in doc["records"].as_array().expect("records") {
        let error = record["error"].as_str().expect("a bad record");
        assert!(error.contains("no retrieved contexts"), "{error}");
        assert!(error.contains("reference_context"), "{error}");
    }
}

#[test]
fn records_names_the_array_of_records() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("nested.json");
    std::fs::write(
        &file,
        "{\n  \"meta\": {\"n\": 1},\n  \"payload\": {\"items\": [\n    {\"answer\": \"The Eiffel Tower is 330 metres tall [1].\", \"contexts\": [\"The Eiffel Tower is 330 metres tall.\"]}\n  ]},\n  \"other\": [1]\n}\n",
    )
    .expect("written");
    let file = file.display().to_string();
    // Without --records: one error line that names the option.
    let out = ragcite(["batch", &file]).output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("--records"), "{}", out.stderr);
    let doc = ragcite([
        "batch",
        &file,
        "--records",
        "payload.items",
        "--format",
        "json",
    ])
    .json(0);
    assert_eq!(doc["aggregate"]["checked"], 1, "{doc}");
    for (path, message) in [
        ("payload.missing", "no `missing` key"),
        ("meta", "`meta` is not an array"),
        ("other.items", "`other` is not an object"),
    ] {
        let out = ragcite(["batch", &file, "--records", path]).output();
        assert_eq!(out.code, Some(2), "{path}: {}", out.stderr);
        assert!(out.stderr.contains(message), "{path}: {}", out.stderr);
        assert!(
            out.stderr.contains(&format!("--records {path}")),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn a_table_row_of_the_wrong_width_is_a_bad_record() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("split.json");
    std::fs::write(
        &file,
        r#"{"columns": ["inputs", "context", "outputs"], "data": [["q", ["The Eiffel Tower is 330 metres tall."], "The Eiffel Tower is 330 metres tall [1]."], ["q", "short"]]}"#,
    )
    .expect("written");
    let doc = ragcite(["batch", &file.display().to_string(), "--format", "json"]).json(1);
    assert_eq!(doc["aggregate"]["checked"], 1, "{doc}");
    assert_eq!(doc["aggregate"]["badRecords"], 1, "{doc}");
    let error = doc["records"][1]["error"].as_str().expect("bad record");
    assert!(
        error.contains("2 cells where the table has 3 columns"),
        "{error}"
    );
}

#[test]
fn a_giskard_report_folder_joins_questions_and_answers_by_position() {
    let file = "giskard_raget";
    let found = records(file, 1);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_record(
        file,
        "e9393e04",
        &found["e9393e04-e8f7-412b-b68f-bc9ddd10942f"],
        W4,
    );
    assert_record(
        file,
        "f7452b79",
        &found["f7452b79-5455-4e99-9a0c-ddaaf3ddc8e6"],
        P,
    );
    // One answer fewer than questions: the run stops with one line naming both files.
    let dir = tempfile::tempdir().expect("temporary directory");
    let source = path("testdata/batch/exports/giskard_raget");
    std::fs::copy(
        source.join("testset.jsonl"),
        dir.path().join("testset.jsonl"),
    )
    .expect("copied");
    let answers: Value = serde_json::from_str(
        &std::fs::read_to_string(source.join("agent_answer.json")).expect("read"),
    )
    .expect("JSON");
    std::fs::write(
        dir.path().join("agent_answer.json"),
        Value::Array(answers.as_array().expect("answers")[..1].to_vec()).to_string(),
    )
    .expect("written");
    let out = ragcite(["batch", &dir.path().display().to_string()]).output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("testset.jsonl has more questions than agent_answer.json has answers"),
        "{}",
        out.stderr
    );
    // A folder that is no report is still no transcript.
    let out = ragcite([
        "batch",
        &path("testdata/batch/exports").display().to_string(),
    ])
    .output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("is a directory"), "{}", out.stderr);
}

#[test]
fn langfuse_observations_one_per_line_are_joined_like_the_trace_bodies() {
    // The observations of langfuse_trace.json, one per line, each trace's in reverse order.
    let traces: Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("langfuse_trace.json")).expect("read"),
    )
    .expect("JSON");
    let lines: Vec<String> = traces
        .as_array()
        .expect("traces")
        .iter()
        .flat_map(|trace| {
            let observations = trace["observations"].as_array().expect("observations");
            observations
                .iter()
                .rev()
                .map(Value::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("observations.jsonl");
    std::fs::write(&file, lines.join("\n")).expect("written");
    let doc = ragcite(["batch", &file.display().to_string(), "--format", "json"]).json(1);
    let records = doc["records"].as_array().expect("records");
    assert_eq!(records.len(), 2, "{doc}");
    let by_id = |id: &str| {
        records
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id} in {doc}"))
    };
    let file = "observations.jsonl";
    assert_record(file, "f7d2", by_id("f7d202918549fac538ea548b4908ff86"), W4);
    assert_record(file, "3681", by_id("36815ca8aec5f1698dabc454e00fbb90"), P);
}

#[test]
fn a_trace_closed_at_a_limit_names_it_and_the_option_that_raises_it() {
    // Three LangSmith traces written children first, then their roots.
    let run = |k: usize, child: bool| {
        let value = if child {
            serde_json::json!({"id": format!("c{k}"), "trace_id": format!("t{k}"),
                "parent_run_id": format!("r{k}"), "run_type": "retriever",
                "outputs": {"documents": [{"page_content": "The tower is 330 metres tall."}]}})
        } else {
            serde_json::json!({"id": format!("r{k}"), "trace_id": format!("t{k}"),
                "parent_run_id": null, "run_type": "chain", "inputs": {"question": "How tall?"},
                "outputs": {"answer": "The tower is 330 metres tall [1]."}})
        };
        value.to_string()
    };
    let lines: Vec<String> = [true, false]
        .iter()
        .flat_map(|&child| (0..3).map(move |k| run(k, child)))
        .collect();
    let dir = tempfile::tempdir().expect("temporary directory");
    let file = dir.path().join("runs.jsonl");
    std::fs::write(&file, lines.join("\n")).expect("written");
    let file = file.display().to_string();
    let errors = |args: &[&str], code: i32| -> Vec<String> {
        let doc = ragcite(["batch", file.as_str(), "--format", "json"])
            .args(args)
            .json(code);
        doc["records"]
            .as_array()
            .expect("records")
            .iter()
            .filter_map(|r| r["error"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(errors(&[], 0), Vec::<String>::new());
    assert_eq!(
        errors(&["--max-open-traces", "2"], 1),
        [
            "trace t0: closed before its root span came, because more than 2 traces were open at \
          once (--max-open-traces raises the limit); its later spans are dropped"
        ]
    );
    let each: Vec<String> = (0..3)
        .map(|k| {
            format!(
                "trace t{k}: closed before its root span came, because the open traces held \
                 more than 100 bytes (--max-trace-memory raises the limit); its later spans are \
                 dropped"
            )
        })
        .collect();
    assert_eq!(errors(&["--max-trace-memory", "100"], 1), each);
    // compare joins traces the same way.
    let table = ragcite([
        "compare",
        file.as_str(),
        file.as_str(),
        "--max-open-traces",
        "2",
    ])
    .stdout(0);
    assert!(
        table
            .contains("INCOMPLETE: records left out: 1 of A (1 unreadable), 1 of B (1 unreadable)"),
        "{table}"
    );
}
