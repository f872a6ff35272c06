//! `ragcite batch` on the real binary: the transcript dialects, bad records, broken files, the
//! batch limits, the table, JSON and JSON Lines outputs, standard input and input order.
//!
//! Fixtures are named by absolute path, under `testdata/batch/`, but for the snapshots, which
//! show the path as given.
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test cli -- batch::`, then read
//! every changed `tests/cli/snapshots/cli__batch__*.snap` file before keeping it.

use std::io::Write as _;
use std::time::Duration;

use serde_json::Value;

use crate::util::{Run, path, ragcite};

/// The absolute path of a fixture under `testdata/batch/`.
fn fixture(name: &str) -> String {
    path("testdata/batch").join(name).display().to_string()
}

/// `ragcite batch <args>`.
fn batch(args: &[&str]) -> Run {
    ragcite(["batch"]).args(args)
}

/// `batch <args> --format json`: the exit code asserted, nothing on stderr, the document.
fn json_doc(args: &[&str], code: i32) -> Value {
    batch(args).args(["--format", "json"]).json(code)
}

fn records(doc: &Value) -> &Vec<Value> {
    doc["records"].as_array().expect("`records` is an array")
}

fn ids(doc: &Value) -> Vec<Option<&str>> {
    records(doc).iter().map(|r| r["id"].as_str()).collect()
}

fn lines(doc: &Value) -> Vec<u64> {
    records(doc)
        .iter()
        .map(|r| r["line"].as_u64().expect("`line` is a number"))
        .collect()
}

fn indexes(doc: &Value) -> Vec<u64> {
    records(doc)
        .iter()
        .map(|r| r["index"].as_u64().expect("`index` is a number"))
        .collect()
}

/// The non-zero verdict counts of a checked record, like `supported:1 uncitedClaim:1`.
fn verdicts(record: &Value) -> String {
    let counts = &record["counts"];
    assert!(counts.is_object(), "a checked record: {record}");
    [
        "supported",
        "numberMismatch",
        "weakSupport",
        "unsupportedCitation",
        "misquote",
        "uncitedClaim",
    ]
    .iter()
    .filter_map(|key| {
        let n = counts[*key].as_u64().expect("a count");
        (n > 0).then(|| format!("{key}:{n}"))
    })
    .collect::<Vec<_>>()
    .join(" ")
}

fn all_verdicts(doc: &Value) -> Vec<String> {
    records(doc).iter().map(verdicts).collect()
}

/// Each line number is the line of the fixture on which a record (a JSON object) starts.
fn assert_records_start_on(name: &str, numbers: &[u64]) {
    let text = std::fs::read_to_string(fixture(name)).expect("the fixture is readable");
    let file_lines: Vec<&str> = text.lines().collect();
    for &n in numbers {
        let line = file_lines
            .get(n as usize - 1)
            .unwrap_or_else(|| panic!("{name} has no line {n}"));
        assert!(
            line.trim_start().starts_with('{'),
            "{name}: line {n} does not start a record: {line:?}"
        );
    }
}

/// The summary line of a table output: its last line.
fn last_line(text: &str) -> &str {
    text.lines().last().expect("some output")
}

/// The first line of each body row of the batch table, split into trimmed cells.
fn table_rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| {
            l.trim_matches('│')
                .split('┆')
                .map(|c| c.trim().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|cells| cells[0] != "record" && !cells[0].is_empty())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Dialects

#[test]
fn ragas_new_names_in_json_lines() {
    let doc = json_doc(&[&fixture("ragas.jsonl")], 1);
    // No id field: each record is named by its position.
    assert_eq!(ids(&doc), [Some("1"), Some("2"), Some("3")]);
    // Line 3 is blank.
    assert_eq!(lines(&doc), [1, 2, 4]);
    assert_records_start_on("ragas.jsonl", &lines(&doc));
    assert_eq!(
        all_verdicts(&doc),
        [
            "supported:2",
            "numberMismatch:1",
            "supported:1 uncitedClaim:1"
        ]
    );
    let chunks: Vec<u64> = records(&doc)
        .iter()
        .map(|r| r["counts"]["chunks"].as_u64().unwrap())
        .collect();
    assert_eq!(chunks, [3, 2, 2], "retrieved_contexts are the chunks");
    assert_eq!(doc["aggregate"]["counts"]["claims"], 5);
    assert_eq!(doc["aggregate"]["failingRecords"], 2);
    assert_eq!(doc["complete"], true);
}

#[test]
fn ragas_old_names_in_a_pretty_printed_array() {
    let doc = json_doc(&[&fixture("ragas_legacy.json")], 1);
    assert_eq!(ids(&doc), [Some("101"), Some("102"), Some("103")]);
    assert_eq!(lines(&doc), [2, 12, 22]);
    assert_records_start_on("ragas_legacy.json", &lines(&doc));
    assert_eq!(
        all_verdicts(&doc),
        ["supported:1", "unsupportedCitation:1", "numberMismatch:1"]
    );
    assert_eq!(doc["aggregate"]["failingRecords"], 2);
}

#[test]
fn deepeval_snake_case_reads_retrieval_context_not_the_ground_truth_context() {
    let doc = json_doc(&[&fixture("deepeval.jsonl")], 1);
    assert_eq!(ids(&doc), [Some("1"), Some("2")]);
    assert_eq!(lines(&doc), [1, 2]);
    assert_records_start_on("deepeval.jsonl", &lines(&doc));
    // Record 1's `context` (ground truth) says 1887, which would make it supported; its
    // `retrieval_context` says 1889.
    assert_eq!(all_verdicts(&doc), ["numberMismatch:1", "supported:1"]);
    assert_eq!(
        records(&doc)[0]["problems"][0]["missingNumbers"],
        serde_json::json!(["1887"])
    );
}

#[test]
fn deepeval_camel_case_goldens_over_several_lines() {
    let doc = json_doc(&[&fixture("deepeval_goldens.json")], 1);
    assert_eq!(ids(&doc), [Some("1"), Some("2")]);
    assert_eq!(lines(&doc), [4, 10]);
    assert_records_start_on("deepeval_goldens.json", &lines(&doc));
    assert_eq!(all_verdicts(&doc), ["supported:1", "uncitedClaim:1"]);
    assert_eq!(
        records(&doc)[1]["warnings"],
        serde_json::json!(["the answer has no citation at all"])
    );
}

#[test]
fn deepeval_camel_case_goldens_on_one_line() {
    // Weak support is not limited by default: the batch passes.
    let doc = json_doc(&[&fixture("deepeval_camel.json")], 0);
    assert_eq!(ids(&doc), [Some("1"), Some("2")]);
    assert_eq!(lines(&doc), [1, 1]);
    // Record 1's ground-truth `context` (about the Louvre) would make it unsupported.
    assert_eq!(
        all_verdicts(&doc),
        ["supported:1", "supported:1 weakSupport:1"]
    );
    assert_eq!(doc["gate"]["passed"], true);
}

#[test]
fn promptfoo_output_file() {
    let doc = json_doc(&[&fixture("promptfoo.json")], 1);
    // `testIdx` is the id.
    assert_eq!(ids(&doc), [Some("0"), Some("1"), Some("2")]);
    assert_eq!(lines(&doc), [15, 34, 53]);
    assert_records_start_on("promptfoo.json", &lines(&doc));
    assert_eq!(
        all_verdicts(&doc),
        [
            "supported:1",
            "numberMismatch:1",
            "supported:1 uncitedClaim:1"
        ]
    );
    for record in records(&doc) {
        assert_eq!(record["counts"]["chunks"], 1, "vars.context is one chunk");
        assert_eq!(
            record["answerFormat"], "text",
            "response.output is the answer"
        );
    }
    assert_eq!(
        doc["aggregate"]["records"], 3,
        "the prompts are not records"
    );
}

#[test]
fn langchain_documents_and_source_documents() {
    let doc = json_doc(&[&fixture("langchain.jsonl")], 1);
    assert_eq!(
        ids(&doc),
        [
            Some("3f6b1c2a-8d4e-4a51-9c0e-1b2f3a4d5e6f"),
            Some("7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d")
        ]
    );
    assert_eq!(lines(&doc), [1, 2]);
    assert_eq!(all_verdicts(&doc), ["supported:2", "unsupportedCitation:1"]);
    let chunks: Vec<u64> = records(&doc)
        .iter()
        .map(|r| r["counts"]["chunks"].as_u64().unwrap())
        .collect();
    assert_eq!(chunks, [2, 1], "one chunk per page_content");
}

#[test]
fn contexts_as_objects_with_ids() {
    let doc = json_doc(&[&fixture("objects.json")], 1);
    assert_eq!(ids(&doc), [Some("height"), Some("design")]);
    assert_eq!(lines(&doc), [2, 8]);
    assert_records_start_on("objects.json", &lines(&doc));
    assert_eq!(
        all_verdicts(&doc),
        ["supported:2", "supported:1 numberMismatch:1"]
    );
    for record in records(&doc) {
        assert_eq!(
            record["counts"]["unknownMarkers"], 0,
            "[height], [built], [design] name the chunks"
        );
    }
    let problem = &records(&doc)[1]["problems"][0];
    assert_eq!(problem["text"], "It was completed in 1887 [built].");
    assert_eq!(problem["missingNumbers"], serde_json::json!(["1887"]));
}

// ---------------------------------------------------------------------------------------------
// Bad records

#[test]
fn bad_records_are_reported_and_the_others_checked() {
    let doc = json_doc(&[&fixture("bad_records.jsonl")], 1);
    let recs = records(&doc);
    assert_eq!(recs.len(), 4);
    assert_eq!(indexes(&doc), [1, 2, 3, 4]);
    assert_eq!(lines(&doc), [1, 2, 3, 4]);
    assert_eq!(ids(&doc), [Some("q1"), None, None, Some("q4")]);
    for good in [&recs[0], &recs[3]] {
        assert_eq!(good["error"], Value::Null);
        assert_eq!(good["passed"], true);
        assert_eq!(verdicts(good), "supported:1");
    }
    // Line 2 breaks off inside a string: its column is the last of the line.
    assert_eq!(
        recs[1]["error"],
        "invalid JSON: EOF while parsing a string (column 162)"
    );
    let missing = recs[2]["error"].as_str().unwrap();
    assert!(
        missing.starts_with("record q3 has no answer field (response, answer, actual_output,"),
        "{missing}"
    );
    for bad in [&recs[1], &recs[2]] {
        assert_eq!(bad["passed"], false);
        assert_eq!(bad["counts"], Value::Null);
    }
    let aggregate = &doc["aggregate"];
    assert_eq!(aggregate["records"], 4);
    assert_eq!(aggregate["checked"], 2);
    assert_eq!(aggregate["badRecords"], 2);
    assert_eq!(aggregate["failingRecords"], 0);
    let failures = doc["gate"]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0]["limit"], "max-bad-records");
    assert_eq!(failures[0]["found"], 2);
    assert_eq!(failures[0]["allowed"], 0);
}

#[test]
fn bad_records_in_the_table() {
    let table = batch(&[&fixture("bad_records.jsonl"), "--color", "never"])
        .columns(200)
        .stdout(1);
    let rows = table_rows(&table);
    assert_eq!(rows.len(), 2, "only the bad records are listed:\n{table}");
    assert_eq!(rows[0][..3], ["-", "2", "bad record"]);
    assert_eq!(
        rows[0][4],
        "invalid JSON: EOF while parsing a string (column 162)"
    );
    assert_eq!(rows[1][..3], ["-", "3", "bad record"]);
    assert!(
        rows[1][4].starts_with("record q3 has no answer field"),
        "{table}"
    );
    let summary = last_line(&table);
    assert!(
        summary.starts_with("FAIL · 4 records: 2 checked, 2 bad, 0 failing"),
        "{summary}"
    );
    assert!(
        summary.contains("2 bad records > --max-bad-records 0 (+2)"),
        "{summary}"
    );
}

#[test]
fn max_bad_records_at_and_below_the_count() {
    let table = batch(&[
        &fixture("bad_records.jsonl"),
        "--max-bad-records",
        "2",
        "--color",
        "never",
    ])
    .stdout(0);
    assert!(last_line(&table).starts_with("PASS · 4 records"), "{table}");
    let doc = json_doc(
        &[&fixture("bad_records.jsonl"), "--max-bad-records", "1"],
        1,
    );
    assert_eq!(doc["gate"]["failures"][0]["limit"], "max-bad-records");
    assert_eq!(doc["gate"]["failures"][0]["over"], 1);
}

#[test]
fn an_array_element_that_is_not_an_object_is_a_bad_record() {
    let mut file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    writeln!(
        file,
        "[\n  42,\n  {{\"id\": \"ok\", \"answer\": \"The Eiffel Tower is 330 metres tall [1].\", \
         \"contexts\": [\"The Eiffel Tower is 330 metres tall and stands in Paris.\"]}}\n]"
    )
    .unwrap();
    let doc = json_doc(&[file.path().to_str().unwrap()], 1);
    assert_eq!(ids(&doc), [None, Some("ok")]);
    assert_eq!(lines(&doc), [2, 3]);
    assert_eq!(records(&doc)[0]["error"], "the record is not a JSON object");
}

// ---------------------------------------------------------------------------------------------
// Batch limits

// rates.jsonl: 4 claim sentences over 3 records: 1 uncited claim (r1), 1 number mismatch (r2).

#[test]
fn uncited_rate_at_the_limit_passes_even_with_failing_records() {
    let doc = json_doc(&[&fixture("rates.jsonl"), "--max-uncited-rate", "0.25"], 0);
    assert_eq!(doc["aggregate"]["counts"]["claims"], 4);
    assert_eq!(doc["aggregate"]["rates"]["uncited"], 0.25);
    assert_eq!(doc["aggregate"]["failingRecords"], 2);
    assert_eq!(
        doc["inputs"]["limits"]["maxFailingRecords"],
        Value::Null,
        "a rate limit makes failing records unlimited"
    );
    assert_eq!(doc["gate"]["passed"], true);
}

#[test]
fn uncited_rate_just_over_the_limit_fails() {
    let doc = json_doc(&[&fixture("rates.jsonl"), "--max-uncited-rate", "0.24"], 1);
    assert_eq!(doc["gate"]["failures"], serde_json::json!([]));
    let rate = &doc["gate"]["rateFailures"][0];
    assert_eq!(rate["limit"], "max-uncited-rate");
    assert_eq!(rate["found"], 0.25);
    assert_eq!(rate["allowed"], 0.24);
    assert_eq!(doc["gate"]["rateFailures"].as_array().unwrap().len(), 1);

    let table = batch(&[
        &fixture("rates.jsonl"),
        "--max-uncited-rate",
        "0.24",
        "--color",
        "never",
    ])
    .stdout(1);
    let summary = last_line(&table);
    assert!(summary.starts_with("FAIL"), "{summary}");
    assert!(summary.contains("uncited 25.0%"), "{summary}");
    assert!(
        summary.contains("limits exceeded: uncited-claim rate 0.2500 > --max-uncited-rate 0.24"),
        "{summary}"
    );
}

#[test]
fn number_mismatch_rate_at_and_just_over_the_limit() {
    let doc = json_doc(
        &[
            &fixture("rates.jsonl"),
            "--max-number-mismatch-rate",
            "0.25",
        ],
        0,
    );
    assert_eq!(doc["aggregate"]["rates"]["numberMismatch"], 0.25);
    let doc = json_doc(
        &[&fixture("rates.jsonl"), "--max-number-mismatch-rate", "0.2"],
        1,
    );
    assert_eq!(
        doc["gate"]["rateFailures"][0]["limit"],
        "max-number-mismatch-rate"
    );
    let summary = doc["summary"].as_str().unwrap();
    assert!(
        summary.contains("> --max-number-mismatch-rate 0.2 "),
        "{summary}"
    );
    assert!(!summary.contains("--max-uncited-rate"), "{summary}");
}

#[test]
fn contradicted_rate_is_a_rate_limit_like_the_others() {
    let doc = json_doc(
        &[&fixture("rates.jsonl"), "--max-contradicted-rate", "0"],
        0,
    );
    assert_eq!(doc["aggregate"]["rates"]["contradicted"], 0.0);
    assert_eq!(doc["inputs"]["limits"]["maxContradictedRate"], 0.0);
    assert_eq!(
        doc["inputs"]["limits"]["maxFailingRecords"],
        Value::Null,
        "a rate limit makes failing records unlimited"
    );
    assert_eq!(doc["inputs"]["limits"]["perRecord"]["maxContradicted"], 0);
    let doc = json_doc(
        &[
            &fixture("rates.jsonl"),
            "--max-contradicted",
            "2",
            "--max-failing-records",
            "5",
        ],
        0,
    );
    assert_eq!(doc["inputs"]["limits"]["perRecord"]["maxContradicted"], 2);
}

#[test]
fn a_rate_limit_with_an_explicit_max_failing_records_keeps_both() {
    let doc = json_doc(
        &[
            &fixture("rates.jsonl"),
            "--max-uncited-rate",
            "0.25",
            "--max-failing-records",
            "1",
        ],
        1,
    );
    assert_eq!(doc["gate"]["failures"][0]["limit"], "max-failing-records");
    assert_eq!(doc["gate"]["rateFailures"], serde_json::json!([]));
}

#[test]
fn max_failing_records_at_and_one_below_the_count() {
    let doc = json_doc(&[&fixture("rates.jsonl"), "--max-failing-records", "2"], 0);
    assert_eq!(doc["aggregate"]["failingRecords"], 2);
    let passed: Vec<bool> = records(&doc)
        .iter()
        .map(|r| r["passed"].as_bool().unwrap())
        .collect();
    assert_eq!(passed, [false, false, true]);

    let table = batch(&[
        &fixture("rates.jsonl"),
        "--max-failing-records",
        "1",
        "--color",
        "never",
    ])
    .stdout(1);
    assert!(
        last_line(&table).contains("2 failing records > --max-failing-records 1 (+1)"),
        "{table}"
    );
}

#[test]
fn per_record_limits_apply_to_each_record() {
    // With one uncited claim and one number mismatch allowed per record, none fails.
    let doc = json_doc(
        &[
            &fixture("rates.jsonl"),
            "--max-uncited",
            "1",
            "--max-number-mismatch",
            "1",
        ],
        0,
    );
    assert_eq!(doc["aggregate"]["failingRecords"], 0);
    assert_eq!(doc["inputs"]["limits"]["perRecord"]["maxUncited"], 1);
    // Only the number mismatch allowed: r1's uncited claim fails it.
    let doc = json_doc(&[&fixture("rates.jsonl"), "--max-number-mismatch", "1"], 1);
    assert_eq!(doc["aggregate"]["failingRecords"], 1);
    assert_eq!(records(&doc)[0]["failures"][0]["limit"], "max-uncited");
}

// ---------------------------------------------------------------------------------------------
// Output formats

#[test]
fn json_lines_are_the_json_records_then_a_summary() {
    let doc = json_doc(&[&fixture("small.jsonl")], 1);
    let stdout = batch(&[&fixture("small.jsonl"), "--format", "jsonl"]).stdout(1);
    let parsed: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(parsed.len(), 5, "4 records and a summary:\n{stdout}");
    let (summary, lines_records) = parsed.split_last().unwrap();
    for (k, record) in lines_records.iter().enumerate() {
        assert_eq!(record["type"], "record");
        assert_eq!(record["index"], k as u64 + 1, "input order");
    }
    assert_eq!(lines_records, records(&doc).as_slice());
    assert_eq!(summary["type"], "summary");
    for key in ["summary", "aggregate", "gate", "complete", "error"] {
        assert_eq!(summary[key], doc[key], "{key}");
    }
    assert_eq!(summary["complete"], true);
}

#[test]
fn the_table_lists_failing_and_bad_records_worst_first() {
    let table = batch(&[&fixture("small.jsonl"), "--color", "never"]).stdout(1);
    let rows = table_rows(&table);
    let firsts: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    // The bad record first, then by the number of problems; the passing record is left out.
    assert_eq!(firsts, [("-", "4"), ("tower-built", "2"), ("louvre", "3")]);
    assert!(rows[1][2].starts_with("1 number-mismatch"), "{table}");

    let all = batch(&[&fixture("small.jsonl"), "--color", "never", "--all"]).stdout(1);
    let rows = table_rows(&all);
    let firsts: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r[0].as_str(), r[2].as_str()))
        .collect();
    assert_eq!(firsts[0], ("tower-height", "passed"), "{all}");
    assert_eq!(rows.len(), 4, "{all}");
}

#[test]
fn the_table_shows_at_most_twenty_records_unless_all() {
    let mut file = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    for k in 1..=25 {
        writeln!(
            file,
            "{{\"id\": \"f{k:02}\", \"answer\": \"The tower stands in Paris.\", \
             \"contexts\": [\"The Eiffel Tower is 330 metres tall and stands in Paris.\"]}}"
        )
        .unwrap();
    }
    let path = file.path().to_str().unwrap();
    let table = batch(&[path, "--color", "never"]).stdout(1);
    let rows = table_rows(&table);
    assert_eq!(rows.len(), 20);
    assert_eq!(rows[0][0], "f01");
    assert_eq!(rows[19][0], "f20");
    assert!(
        table.contains("… and 5 more failing or bad records (--all lists every record)"),
        "{table}"
    );
    let all = batch(&[path, "--color", "never", "--all"]).stdout(1);
    assert_eq!(table_rows(&all).len(), 25);
    assert!(!all.contains("more failing or bad records"), "{all}");
}

#[test]
fn colour_only_when_asked() {
    let never = batch(&[&fixture("small.jsonl"), "--color", "never"]).stdout(1);
    assert!(!never.contains("\x1b["), "{never}");
    let always = batch(&[&fixture("small.jsonl"), "--color", "always"]).stdout(1);
    assert!(always.contains("\x1b["), "{always}");
}

// ---------------------------------------------------------------------------------------------
// Standard input and field paths

#[test]
fn standard_input_gives_the_same_records_as_the_file() {
    let path = fixture("small.jsonl");
    let from_file = json_doc(&[&path], 1);
    assert_eq!(from_file["inputs"]["files"][0], path.as_str());
    let content = std::fs::read(&path).unwrap();

    let from_stdin = batch(&["-", "--format", "json"])
        .stdin(content.clone())
        .json(1);
    assert_eq!(
        without_file(&from_stdin["records"]),
        without_file(&from_file["records"])
    );
    assert_eq!(from_stdin["aggregate"], from_file["aggregate"]);
    assert_eq!(from_stdin["inputs"]["files"][0], "<stdin>");

    let named = batch(&["-", "--format", "json", "--stdin-filename", "evals.jsonl"])
        .stdin(content)
        .json(1);
    assert_eq!(named["inputs"]["files"][0], "evals.jsonl");
    assert_eq!(
        without_file(&named["records"]),
        without_file(&from_file["records"])
    );
    assert_eq!(named["records"][0]["file"], "evals.jsonl");
}

#[test]
fn field_paths_replace_the_aliases() {
    let path = fixture("custom.jsonl");
    // By the aliases, record 1 is read from its decoy `answer` and `contexts`, and record 2
    // has no answer field.
    let doc = json_doc(&[&path], 1);
    assert_eq!(ids(&doc), [Some("1"), None]);
    assert_eq!(verdicts(&records(&doc)[0]), "unsupportedCitation:1");

    let doc = json_doc(
        &[
            &path,
            "--field",
            "answer=outputs.text",
            "--field",
            "answer=completion",
            "--field",
            "contexts=docs[].body",
            "--field",
            "id=key",
        ],
        0,
    );
    assert_eq!(ids(&doc), [Some("c1"), Some("c2")]);
    assert_eq!(all_verdicts(&doc), ["supported:1", "supported:1"]);
    assert_eq!(
        doc["inputs"]["fields"]["answer"],
        serde_json::json!(["outputs.text", "completion"])
    );
    assert_eq!(
        doc["inputs"]["fields"]["contexts"],
        serde_json::json!(["docs[].body"])
    );

    // The first --field for a key replaces every alias of that key.
    let doc = json_doc(
        &[
            &path,
            "--field",
            "answer=outputs.text",
            "--field",
            "contexts=docs[].body",
            "--field",
            "id=key",
        ],
        1,
    );
    assert_eq!(ids(&doc), [Some("c1"), None]);
    assert_eq!(
        records(&doc)[1]["error"],
        "record c2 has no answer field (outputs.text)"
    );
}

#[test]
fn a_bad_field_option_is_a_usage_error() {
    for (field, message) in [
        ("reference=ground_truth", "unknown field `reference`"),
        ("answer", "is not KEY=PATH"),
        ("answer=outputs..text", "is not a field path"),
    ] {
        let out = batch(&[&fixture("custom.jsonl"), "--field", field]).output();
        assert_eq!(out.code, Some(2), "--field {field}: {}", out.stderr);
        assert_eq!(out.stdout, "");
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.starts_with("ragcite: error: "), "{}", out.stderr);
        assert!(out.stderr.contains(message), "{}", out.stderr);
    }
}

// ---------------------------------------------------------------------------------------------
// Broken files

/// Parses `...: line N: ...` out of an error message.
fn line_number_in(message: &str) -> u64 {
    let after = message
        .split(": line ")
        .nth(1)
        .unwrap_or_else(|| panic!("no line in {message:?}"));
    after
        .split(':')
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|_| panic!("no line number in {message:?}"))
}

#[test]
fn an_unterminated_string_stops_the_batch_with_a_complete_document() {
    let path = fixture("broken_string.json");
    let out = batch(&[&path, "--format", "json"]).output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    let stderr = out.stderr.trim_end();
    assert!(
        stderr.starts_with(&format!("ragcite: error: {path}: line ")),
        "{stderr}"
    );
    assert!(
        stderr.ends_with(": the file ends inside a record: the output is incomplete"),
        "{stderr}"
    );
    // The break starts on line 4; the file has 6 lines.
    let line = line_number_in(stderr);
    assert!((4..=7).contains(&line), "{stderr}");

    let doc: Value = serde_json::from_str(&out.stdout).expect("still one JSON document");
    assert_eq!(doc["complete"], false);
    assert_eq!(ids(&doc), [Some("b1"), Some("b2")]);
    assert_eq!(doc["aggregate"]["records"], 2);
    let error = doc["error"].as_str().unwrap();
    assert!(error.ends_with("the file ends inside a record"), "{error}");
    assert!(
        doc["summary"].as_str().unwrap().contains("INCOMPLETE"),
        "{}",
        doc["summary"]
    );
}

#[test]
fn an_array_without_its_closing_bracket_stops_the_batch() {
    let path = fixture("unclosed.json");
    let out = batch(&[&path, "--format", "jsonl"]).output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(
        out.stderr,
        format!(
            "ragcite: error: {path}: line 4: the file ends inside the array of records: \
             the output is incomplete\n"
        )
    );
    let parsed: Vec<Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line parses"))
        .collect();
    assert_eq!(parsed.len(), 3);
    assert_eq!(parsed[0]["id"], "u1");
    assert_eq!(parsed[1]["id"], "u2");
    assert_eq!(parsed[2]["type"], "summary");
    assert_eq!(parsed[2]["complete"], false);

    let table = batch(&[&path, "--color", "never"]).output();
    assert_eq!(table.code, Some(2));
    assert!(
        last_line(&table.stdout)
            .contains("INCOMPLETE: stopped at line 4: the file ends inside the array of records"),
        "{}",
        table.stdout
    );
}

#[test]
fn text_that_is_no_transcript_is_an_input_error() {
    let mut text = tempfile::Builder::new().suffix(".txt").tempfile().unwrap();
    writeln!(text, "hello").unwrap();
    let mut object = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    writeln!(object, "{{\n  \"name\": \"eval\",\n  \"data\": [1]\n}}").unwrap();
    for (file, message) in [
        (&text, "expected a JSON array of records"),
        (&object, "no records"),
    ] {
        let path = file.path().to_str().unwrap();
        let out = batch(&[path]).output();
        assert_eq!(out.code, Some(2), "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
        assert!(out.stderr.contains(path), "{}", out.stderr);
        assert!(out.stderr.contains(message), "{}", out.stderr);
    }
}

/// A record whose answer has no printable text (NUL, control, invisible characters) is a bad
/// record, as one whose answer is empty: never a pass with no sentences.
#[test]
fn an_answer_with_no_printable_text_is_a_bad_record() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let records = dir.path().join("records.jsonl");
    let response = |content: &str| serde_json::json!({"choices": [{"message": {"role": "assistant", "content": content}}]});
    let lines = [
        serde_json::json!({"id": "empty", "answer": "", "contexts": ["x"]}),
        serde_json::json!({"id": "control", "answer": "\u{0}\u{1}\u{1b}\u{7} \u{200b}", "contexts": ["x"]}),
        serde_json::json!({"id": "empty-response", "answer": response(""), "contexts": ["x"]}),
        serde_json::json!({"id": "control-response", "answer": response("\u{0}\u{7}"), "contexts": ["x"]}),
    ];
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    std::fs::write(&records, text.join("\n") + "\n").unwrap();
    let doc = json_doc(&[records.to_str().unwrap()], 1);
    let errors: Vec<&str> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["error"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(
        errors,
        [
            "record empty: the answer: it is empty",
            "record control: the answer: it is empty",
            "record empty-response: the answer is empty",
            "record control-response: the answer is empty",
        ]
    );
    assert_eq!(doc["aggregate"]["badRecords"], 4);
}

#[test]
fn an_empty_file_is_an_input_error_and_an_empty_array_passes() {
    // An empty transcript usually means the eval run failed: it must not pass a CI gate.
    let out = batch(&[&fixture("empty.json"), "--format", "json"]).output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr.contains("empty.json") && out.stderr.contains("empty"),
        "{}",
        out.stderr
    );
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("a complete document");
    assert_eq!(doc["complete"], false);
    let empty_array = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(empty_array.path(), "[]\n").expect("written");
    let path = empty_array.path().to_string_lossy().into_owned();
    let doc = json_doc(&[&path], 0);
    assert_eq!(records(&doc).len(), 0);
    assert_eq!(doc["complete"], true);
}

#[test]
fn a_directory_or_a_missing_file_is_an_input_error() {
    let dir = path("testdata/batch").display().to_string();
    let out = batch(&[&dir]).output();
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stdout, "");
    assert_eq!(
        out.stderr,
        format!("ragcite: error: {dir}: is a directory, not a file\n")
    );

    let missing = fixture("no-such-file.jsonl");
    let out = batch(&[&missing]).output();
    assert_eq!(out.code, Some(2));
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with(&format!("ragcite: error: {missing}: cannot read")),
        "{}",
        out.stderr
    );
}

// ---------------------------------------------------------------------------------------------
// Order and determinism

#[test]
fn many_records_keep_their_input_order_and_the_output_is_deterministic() {
    let mut file = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    let long = "The Eiffel Tower is 330 metres tall [1]. ".repeat(12);
    for k in 1..=1500 {
        let answer = match k % 3 {
            0 => long.as_str(),
            1 => "The tower was completed in 1887 for the World's Fair [1].",
            _ => "The Eiffel Tower is 330 metres tall [1].",
        };
        if k % 250 == 0 {
            // A bad record now and then, reported in its place.
            writeln!(file, "{{\"id\": \"rec-{k}\", \"contexts\": []}}").unwrap();
            continue;
        }
        writeln!(
            file,
            "{}",
            serde_json::json!({
                "id": format!("rec-{k}"),
                "answer": answer,
                "contexts": [
                    "The Eiffel Tower is 330 metres tall and stands in Paris.",
                    "Construction of the tower was completed in 1889 for the World's Fair."
                ],
            })
        )
        .unwrap();
    }
    let path = file.path().to_str().unwrap();
    let first = batch(&[path, "--format", "json"]).stdout(1);
    let doc: Value = serde_json::from_str(&first).unwrap();
    let expected: Vec<u64> = (1..=1500).collect();
    assert_eq!(indexes(&doc), expected);
    assert_eq!(lines(&doc), expected);
    for record in records(&doc) {
        let k = record["index"].as_u64().unwrap();
        if k % 250 == 0 {
            assert_eq!(
                record["error"],
                format!(
                    "record rec-{k} has no answer field (response, answer, actual_output, \
                     actualOutput, response.output, output, outputs.answer, outputs.output)"
                )
            );
        } else {
            assert_eq!(record["id"], format!("rec-{k}"));
        }
    }
    assert_eq!(doc["aggregate"]["badRecords"], 6);
    let second = batch(&[path, "--format", "json"]).stdout(1);
    assert!(first == second, "two runs give the same bytes");
}

// ---------------------------------------------------------------------------------------------
// Snapshots

/// `batch testdata/batch/small.jsonl <args>` run from the crate root, so that the path in the
/// output is relative.
fn small(args: &[&str]) -> String {
    batch(&["testdata/batch/small.jsonl"]).args(args).stdout(1)
}

#[test]
fn snapshot_table() {
    insta::assert_snapshot!("small_table", small(&["--color", "never"]));
}

#[test]
fn snapshot_json() {
    insta::assert_snapshot!("small_json", small(&["--format", "json"]));
}

#[test]
fn snapshot_jsonl() {
    insta::assert_snapshot!("small_jsonl", small(&["--format", "jsonl"]));
}

// ---------------------------------------------------------------------------------------------
// Bugs

#[test]
fn a_stray_closing_brace_in_the_array_stops_the_batch() {
    let mut file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    writeln!(
        file,
        "[\n  {{\"id\": \"a\", \"answer\": \"The Eiffel Tower is 330 metres tall [1].\", \
         \"contexts\": [\"The Eiffel Tower is 330 metres tall and stands in Paris.\"]}}}},\n  \
         {{\"id\": \"b\", \"answer\": \"The Eiffel Tower is 330 metres tall [1].\", \
         \"contexts\": [\"The Eiffel Tower is 330 metres tall and stands in Paris.\"]}}\n]"
    )
    .unwrap();
    // The table keeps its memory flat; `--format jsonl` shows the endless records.
    let out = batch(&[file.path().to_str().unwrap(), "--color", "never"])
        .timeout(Duration::from_secs(5))
        .output();
    // Today: never ends (killed by the timeout); with `--format jsonl` it writes records
    // `invalid JSON: EOF while parsing a value (column 0)` for line 2 without end.
    assert_eq!(out.code, Some(2), "stderr: {}", out.stderr);
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);
}

#[test]
fn content_after_the_array_of_records_is_not_ignored() {
    let mut file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    writeln!(
        file,
        "[{{\"id\": \"a\", \"answer\": \"The Eiffel Tower is 330 metres tall [1].\", \
         \"contexts\": [\"The Eiffel Tower is 330 metres tall and stands in Paris.\"]}}]\n\
         [{{\"id\": \"b\", \"answer\": \"The tower was completed in 1887 [1].\", \
         \"contexts\": [\"The Louvre is a museum.\"]}}]"
    )
    .unwrap();
    let out = batch(&[file.path().to_str().unwrap()]).output();
    // Today: exit 0, `PASS · 1 record`, record b (which fails) is never read.
    assert_eq!(out.code, Some(2), "stdout: {}", out.stdout);
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);
}

#[test]
fn standard_input_named_jsonl_reads_json_lines_like_the_file() {
    let good = std::fs::read_to_string(fixture("bad_records.jsonl")).unwrap();
    let good: Vec<&str> = good.lines().collect();
    // The broken line first, then two good records.
    let content = format!("{}\n{}\n{}\n", good[1], good[0], good[3]);
    let mut file = tempfile::Builder::new()
        .suffix(".jsonl")
        .tempfile()
        .unwrap();
    file.write_all(content.as_bytes()).unwrap();
    let from_file = json_doc(&[file.path().to_str().unwrap()], 1);
    assert_eq!(ids(&from_file), [None, Some("q1"), Some("q4")]);

    // Today: exit 2, `evals.jsonl: line 4: the file ends inside a record: the output is
    // incomplete`, 0 records.
    let out = batch(&["-", "--format", "json", "--stdin-filename", "evals.jsonl"])
        .stdin(content)
        .output();
    assert_eq!(out.code, Some(1), "stderr: {}", out.stderr);
    let from_stdin: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        without_file(&from_stdin["records"]),
        without_file(&from_file["records"])
    );
}

/// Records without their `file`, which names where they were read from.
fn without_file(records: &Value) -> Value {
    let mut records = records.clone();
    if let Some(list) = records.as_array_mut() {
        for record in list {
            if let Some(object) = record.as_object_mut() {
                object.remove("file");
            }
        }
    }
    records
}

/// Issue 38: an id path that reaches a list or an object (`--field 'id=contexts[]'`) fell back
/// to the record's position without a word; the record is now bad, and says why.
#[test]
fn an_id_that_is_no_string_or_number_is_a_bad_record() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("records.jsonl");
    std::fs::write(
        &file,
        concat!(
            r#"{"id": "q1", "response": "The tower is tall [1].", "retrieved_contexts": ["The tower is tall."]}"#,
            "\n",
            r#"{"id": {"run": 2}, "response": "The tower is tall [1].", "retrieved_contexts": ["The tower is tall."]}"#,
            "\n",
        ),
    )
    .expect("written");
    let path = file.to_str().expect("UTF-8");
    let doc = json_doc(&[path, "--field", "id=retrieved_contexts[]"], 1);
    let errors: Vec<&str> = records(&doc)
        .iter()
        .map(|r| r["error"].as_str().unwrap_or("none"))
        .collect();
    let wanted =
        "record 1: the id at `retrieved_contexts[]` is an array; an id is a string or a number";
    assert_eq!(errors[0], wanted, "{errors:?}");
    assert_eq!(doc["aggregate"]["badRecords"], 2);
    // Through the default names too: an `id` that is an object is no id.
    let doc = json_doc(&[path], 1);
    let errors: Vec<&str> = records(&doc)
        .iter()
        .map(|r| r["error"].as_str().unwrap_or("none"))
        .collect();
    assert_eq!(
        errors,
        [
            "none",
            "record 2: the id at `id` is an object; an id is a string or a number"
        ]
    );
}
