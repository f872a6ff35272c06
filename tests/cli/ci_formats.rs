//! The CI report formats on the real binary: SARIF 2.1.0, GitHub annotations, GitLab Code Quality
//! and JUnit XML, for `check` (the SPEC worked example) and `batch` (the fixtures in testdata/ci/),
//! with the exit codes, the escaping and the structure each consumer needs.
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test cli -- ci_formats::`, then
//! read every changed `tests/cli/snapshots/cli__ci_formats__*.snap` against FORMATS.md before
//! keeping it.

use std::collections::HashSet;
use std::path::Path;

use serde_json::Value;

use crate::consumers;
use crate::util::{Output, ROOT, ragcite};

const EIFFEL_ANSWER: &str = "testdata/eiffel/answer.md";
const EIFFEL_CHUNKS: &str = "testdata/eiffel/chunks.json";
/// JSON Lines: a passing record, a failing one with two problems, an unreadable one, and one
/// with a weak-support note after non-ASCII text.
const BATCH_LINES: &str = "testdata/ci/batch.jsonl";
/// A pretty-printed JSON array: records over several lines, `\u2014` escapes, a provider
/// response stored as a string, non-ASCII before a problem.
const BATCH_ARRAY: &str = "testdata/ci/records.json";
/// An array whose second record's string never ends (and no closing bracket).
const BROKEN: &str = "testdata/ci/broken.json";
/// An array without its closing bracket.
const UNCLOSED: &str = "testdata/ci/unclosed.json";
/// Two records with the same id and the same sentence twice.
const DUPLICATE_IDS: &str = "testdata/ci/duplicate-ids.jsonl";
/// A record whose id holds a line break, `,`, `:` and `%`, and whose sentence holds `%`, `,`,
/// `:`, `<`, `&` and quotes.
const ESCAPES: &str = "testdata/ci/escapes.jsonl";
/// A JSON answer whose citation list quotes a chunk wrongly, tied to no sentence.
const CITATION_LIST: &str = "testdata/ci/citation-list.json";

const FORMATS: [&str; 4] = ["sarif", "github", "gitlab", "junit"];

/// Limits that let the worked example pass.
const LENIENT: [&str; 6] = [
    "--max-uncited",
    "1",
    "--max-number-mismatch",
    "1",
    "--max-unsupported",
    "1",
];

/// `ragcite check` of the worked example in `format`, asserting the exit code and a quiet
/// stderr.
#[track_caller]
fn check_eiffel(format: &str, extra: &[&str], code: i32) -> String {
    ragcite(["check", EIFFEL_ANSWER, EIFFEL_CHUNKS, "--format", format])
        .args(extra)
        .stdout(code)
}

/// `ragcite batch <file> --format <format>`, asserting the exit code.
#[track_caller]
fn batch(file: &str, format: &str, extra: &[&str], code: i32) -> Output {
    ragcite(["batch", file, "--format", format])
        .args(extra)
        .exits(code)
}

/// The output with the machine's project root and working directory (absolute `file://` URIs
/// in SARIF's `originalUriBaseIds` and `workingDirectory`) written as `file:///ROOT/`, so
/// that snapshots do not depend on where the checkout is.
fn redacted(text: &str) -> String {
    let root = Path::new(ROOT);
    let mut uri = String::from("file://");
    for byte in root.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri.push('/');
    text.replace(&uri, "file:///ROOT/")
}

fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

// ---------------------------------------------------------------------------------------------
// Snapshots

#[test]
fn snapshots_of_the_worked_example() {
    for format in FORMATS {
        let stdout = check_eiffel(format, &[], 1);
        insta::assert_snapshot!(format!("check_eiffel_{format}"), redacted(&stdout));
    }
}

#[test]
fn snapshots_of_a_json_lines_batch() {
    for format in FORMATS {
        let out = batch(BATCH_LINES, format, &[], 1);
        assert_eq!(out.stderr, "");
        insta::assert_snapshot!(format!("batch_lines_{format}"), redacted(&out.stdout));
    }
}

#[test]
fn snapshots_of_a_json_array_batch_with_records_over_several_lines() {
    for format in FORMATS {
        let out = batch(BATCH_ARRAY, format, &[], 1);
        assert_eq!(out.stderr, "");
        insta::assert_snapshot!(format!("batch_array_{format}"), redacted(&out.stdout));
    }
}

#[test]
fn snapshots_of_a_batch_that_stops_early() {
    for format in FORMATS {
        let out = batch(BROKEN, format, &[], 2);
        assert_eq!(
            out.stderr,
            "ragcite: error: testdata/ci/broken.json: line 3: the record starting here is broken: the file ends inside a record: the output is incomplete\n"
        );
        insta::assert_snapshot!(format!("batch_broken_{format}"), redacted(&out.stdout));
    }
}

// ---------------------------------------------------------------------------------------------
// SARIF

/// Every path to an empty string in a JSON value.
fn empty_strings(value: &Value, path: &str, found: &mut Vec<String>) {
    match value {
        Value::String(s) if s.is_empty() => found.push(path.to_string()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                empty_strings(item, &format!("{path}[{i}]"), found);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                empty_strings(item, &format!("{path}.{key}"), found);
            }
        }
        _ => {}
    }
}

/// What GitHub code scanning requires of an uploaded SARIF file, and what ragcite promises on
/// top (levels, fingerprints, columns). Returns the results.
fn assert_github_accepts(text: &str) -> Vec<Value> {
    let sarif = parse_json(text);
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(
        sarif["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let mut empty = Vec::new();
    empty_strings(&sarif, "$", &mut empty);
    assert!(empty.is_empty(), "empty strings at {empty:?}");
    let runs = sarif["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    let base = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("the project's root as %SRCROOT%");
    assert!(
        base.starts_with("file:///") && base.ends_with('/'),
        "{base}"
    );
    let working = run["invocations"][0]["workingDirectory"]["uri"]
        .as_str()
        .expect("the working directory");
    assert!(
        working.starts_with("file:///") && working.ends_with('/'),
        "{working}"
    );
    assert_eq!(run["tool"]["driver"]["name"], "ragcite");
    assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
    let ids: Vec<&str> = rules
        .iter()
        .map(|r| r["id"].as_str().expect("rule id"))
        .collect();
    assert_eq!(
        ids,
        [
            "contradicted",
            "number-mismatch",
            "misquote",
            "weak-support",
            "unsupported-citation",
            "uncited-claim",
            "unknown-marker",
            "bad-record"
        ]
    );
    for rule in rules {
        for field in ["shortDescription", "fullDescription", "help"] {
            assert!(rule[field]["text"].is_string(), "{field} of {rule}");
        }
        let level = rule["defaultConfiguration"]["level"].as_str().unwrap();
        assert!(["note", "warning", "error"].contains(&level));
    }
    let results = run["results"].as_array().expect("results").clone();
    for result in &results {
        let rule_id = result["ruleId"].as_str().expect("ruleId");
        let index = result["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(ids[index], rule_id, "ruleIndex points at its rule");
        assert_eq!(
            result["level"], rules[index]["defaultConfiguration"]["level"],
            "a result's level is its rule's"
        );
        let message = result["message"]["text"].as_str().expect("message.text");
        assert!(message.starts_with(&format!("{rule_id}: ")), "{message}");
        assert!(!message.contains('\n'), "one line: {message}");
        let location = &result["locations"][0]["physicalLocation"];
        let uri = location["artifactLocation"]["uri"].as_str().expect("uri");
        assert!(
            !uri.starts_with('/') && !uri.contains('\\') && !uri.contains(['<', '>', ' ']),
            "a relative URI reference: {uri}"
        );
        assert_eq!(location["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let region = &location["region"];
        let start_line = region["startLine"].as_u64().expect("startLine");
        let start_column = region["startColumn"].as_u64().expect("startColumn");
        let end_line = region["endLine"]
            .as_u64()
            .expect("endLine: regions are complete");
        let end_column = region["endColumn"].as_u64().expect("endColumn");
        assert!(start_line >= 1 && start_column >= 1, "{region}");
        assert!(end_line >= start_line);
        if end_line == start_line {
            assert!(
                end_column > start_column,
                "endColumn is one past the end: {region}"
            );
        }
        let hash = result["partialFingerprints"]["primaryLocationLineHash"]
            .as_str()
            .expect("primaryLocationLineHash");
        let (hex, occurrence) = hash.split_once(':').expect("hash:occurrence");
        assert!(
            hex.len() == 16 && hex.chars().all(|c| c.is_ascii_hexdigit()),
            "{hash}"
        );
        assert!(occurrence.parse::<u32>().is_ok_and(|n| n >= 1), "{hash}");
        let own = result["partialFingerprints"]["ragcite/v2"]
            .as_str()
            .expect("ragcite/v2");
        assert!(
            own.len() == 16 && own.chars().all(|c| c.is_ascii_hexdigit()),
            "{own}"
        );
    }
    results
}

#[test]
fn sarif_of_the_worked_example_has_what_github_requires() {
    let results = assert_github_accepts(&check_eiffel("sarif", &[], 1));
    let found: Vec<(&str, &str, u64, u64)> = results
        .iter()
        .map(|r| {
            let region = &r["locations"][0]["physicalLocation"]["region"];
            (
                r["ruleId"].as_str().unwrap(),
                r["level"].as_str().unwrap(),
                region["startColumn"].as_u64().unwrap(),
                region["endColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    // The sentences' spans in the answer: 41..91, 92..157, 158..202 (0-based, end-exclusive).
    assert_eq!(
        found,
        [
            ("number-mismatch", "error", 42, 92),
            ("unsupported-citation", "error", 93, 158),
            ("uncited-claim", "warning", 159, 203)
        ]
    );
    assert_eq!(
        results[0]["message"]["text"],
        "number-mismatch: 1888 is in none of the cited chunks (2): \"It was completed in 1888 for the World's Fair [2].\""
    );
    let suggestion = results[1]["message"]["text"].as_str().unwrap();
    assert!(suggestion.contains("suggested citation: 4"), "{suggestion}");
}

#[test]
fn sarif_of_batches_has_what_github_requires_and_places_sentences_in_the_file() {
    let results = assert_github_accepts(&batch(BATCH_LINES, "sarif", &[], 1).stdout);
    let places: Vec<(&str, u64, u64)> = results
        .iter()
        .map(|r| {
            let region = &r["locations"][0]["physicalLocation"]["region"];
            (
                r["ruleId"].as_str().unwrap(),
                region["startLine"].as_u64().unwrap(),
                region["startColumn"].as_u64().unwrap(),
            )
        })
        .collect();
    // Columns count characters: `—` and `é` before q4's sentence are one column each.
    assert_eq!(
        places,
        [
            ("number-mismatch", 2, 101),
            ("uncited-claim", 2, 124),
            ("bad-record", 3, 1),
            ("weak-support", 4, 85)
        ]
    );
    assert_eq!(results[3]["level"], "note");

    let results = assert_github_accepts(&batch(BATCH_ARRAY, "sarif", &[], 1).stdout);
    let regions: Vec<&Value> = results
        .iter()
        .map(|r| &r["locations"][0]["physicalLocation"]["region"])
        .collect();
    // a2 starts on line 8; its response is on line 11, written with `\u2014` escapes.
    assert_eq!(
        regions[0],
        &serde_json::json!({"startLine": 11, "startColumn": 87, "endLine": 11, "endColumn": 125})
    );
    assert_eq!(regions[1]["startColumn"], 126);
    // a3 is one line of an array: its start column is unknown, so the whole line.
    assert_eq!(regions[2]["startLine"], 16);
    assert_eq!(regions[2]["startColumn"], 1);
    assert_eq!(regions[2]["endLine"], 16);
    // a4: `Größe:` before the sentence counts six characters, not eight bytes.
    assert_eq!(
        regions[3],
        &serde_json::json!({"startLine": 20, "startColumn": 59, "endLine": 20, "endColumn": 81})
    );
}

#[test]
fn sarif_stays_valid_json_when_a_batch_stops_early() {
    for (file, line) in [(BROKEN, 3), (UNCLOSED, 4)] {
        let out = batch(file, "sarif", &[], 2);
        assert!(
            out.stderr.contains("the output is incomplete"),
            "{}",
            out.stderr
        );
        assert_github_accepts(&out.stdout);
        let sarif = parse_json(&out.stdout);
        let invocation = &sarif["runs"][0]["invocations"][0];
        assert_eq!(invocation["executionSuccessful"], false);
        let notification = &invocation["toolExecutionNotifications"][0];
        assert_eq!(notification["level"], "error");
        assert!(
            notification["message"]["text"]
                .as_str()
                .unwrap()
                .contains(&format!("line {line}"))
        );
        assert_eq!(
            notification["locations"][0]["physicalLocation"]["region"]["startLine"],
            line
        );
    }
    let complete = parse_json(&batch(BATCH_LINES, "sarif", &[], 1).stdout);
    let invocation = &complete["runs"][0]["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    // A complete batch's one notification is the note of what decided its verdicts.
    let notifications = invocation["toolExecutionNotifications"]
        .as_array()
        .expect("notifications");
    assert_eq!(notifications.len(), 1, "{notifications:?}");
    assert_eq!(notifications[0]["level"], "note");
}

#[test]
fn sarif_reports_what_the_gate_counts_beyond_verdicts() {
    // A supported sentence with a label that resolves to nothing still fails the gate.
    let out = ragcite([
        "check",
        "-",
        EIFFEL_CHUNKS,
        "--format",
        "sarif",
        "--stdin-filename",
        "answers/a b.md",
    ])
    .stdin("The Eiffel Tower is 330 metres tall [1][9].\n")
    .output();
    assert_eq!(out.code, Some(1));
    let results = assert_github_accepts(&out.stdout);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "unknown-marker");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "answers/a%20b.md"
    );
    // A provider citation tied to no sentence whose quote is wrong: a misquote at line 1.
    let out = ragcite(["check", CITATION_LIST, EIFFEL_CHUNKS, "--format", "sarif"]).output();
    assert_eq!(out.code, Some(1));
    let results = assert_github_accepts(&out.stdout);
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["ruleId"], "misquote");
    let message = results[0]["message"]["text"].as_str().unwrap();
    assert!(message.contains("“it was completed in 1888 as the centrepiece” is not in chunk 2"));
    assert!(message.contains("closest passage (0.88, 1 word differs): “it was completed in 1889"));
}

#[test]
fn sarif_names_standard_input_as_given() {
    let out = ragcite(["check", "-", EIFFEL_CHUNKS, "--format", "sarif"])
        .stdin("Around 7 million people visit it every year.\n")
        .output();
    let results = assert_github_accepts(&out.stdout);
    // `<stdin>` is no valid URI: encoded, it is a relative name like any other.
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "%3Cstdin%3E"
    );
}

/// SARIF validates against the published 2.1.0 schema (OASIS, committed in `tests/schemas/`).
#[test]
fn sarif_validates_against_the_published_schema() {
    let schema =
        std::fs::read_to_string(Path::new(ROOT).join("tests/schemas/sarif-schema-2.1.0.json"))
            .expect("the SARIF schema");
    let schema: serde_json::Value = serde_json::from_str(&schema).expect("the schema is JSON");
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft4)
        .build(&schema)
        .expect("the SARIF schema compiles");
    let outputs = [
        check_eiffel("sarif", &[], 1),
        batch(BATCH_LINES, "sarif", &[], 1).stdout,
        batch(BATCH_ARRAY, "sarif", &[], 1).stdout,
        batch(BROKEN, "sarif", &[], 2).stdout,
    ];
    for (k, text) in outputs.iter().enumerate() {
        let document: serde_json::Value = serde_json::from_str(text).expect("SARIF is JSON");
        let problems: Vec<String> = validator
            .iter_errors(&document)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(problems.is_empty(), "output {k}:\n{}", problems.join("\n"));
    }
    // The validator rejects what the schema forbids.
    let mut broken: serde_json::Value = serde_json::from_str(&outputs[0]).expect("SARIF");
    broken["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    assert!(!validator.is_valid(&broken));
}

// ---------------------------------------------------------------------------------------------
// GitHub annotations

/// Splits an annotation into its command, its properties (still escaped) and its message.
fn annotation(line: &str) -> (&str, Vec<(&str, &str)>, &str) {
    let rest = line.strip_prefix("::").expect("a workflow command");
    let (head, message) = rest.split_once("::").expect("`::` before the message");
    let (command, properties) = head.split_once(' ').unwrap_or((head, ""));
    let properties = properties
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| p.split_once('=').expect("key=value"))
        .collect();
    (command, properties, message)
}

#[test]
fn github_writes_one_annotation_per_finding_then_the_summary() {
    let stdout = check_eiffel("github", &[], 1);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    let commands: Vec<&str> = lines.iter().map(|l| annotation(l).0).collect();
    assert_eq!(commands, ["error", "error", "warning", "notice"]);
    let (_, properties, message) = annotation(lines[0]);
    assert_eq!(
        properties,
        [
            ("file", "testdata/eiffel/answer.md"),
            ("line", "1"),
            ("col", "42"),
            ("endLine", "1"),
            ("endColumn", "92"),
            ("title", "ragcite number-mismatch")
        ]
    );
    assert!(message.starts_with("number-mismatch: 1888 is in none"));
    let (_, properties, summary) = annotation(lines[3]);
    assert_eq!(properties, [("title", "ragcite")]);
    assert!(summary.starts_with("FAIL · 4 sentences"), "{summary}");

    // The most severe first: both errors (q2's number mismatch, line 3's bad record), then the
    // warning, the note, and the summary.
    let out = batch(BATCH_LINES, "github", &[], 1);
    let commands: Vec<&str> = out.stdout.lines().map(|l| annotation(l).0).collect();
    assert_eq!(commands, ["error", "error", "warning", "notice", "notice"]);
}

#[test]
fn github_escapes_messages_and_properties() {
    // A file name with `,`, `:`, `%` and a line break; a sentence with `%`, `,` and `:`.
    let out = ragcite([
        "check",
        "-",
        EIFFEL_CHUNKS,
        "--format",
        "github",
        "--stdin-filename",
        "dir,1/a:b%\r\nc.md",
    ])
    .stdin("The tower grew by 45%, to 330 metres: a record [9].\n")
    .output();
    assert_eq!(out.code, Some(1));
    let first = out.stdout.lines().next().unwrap();
    let (command, properties, message) = annotation(first);
    assert_eq!(command, "error");
    assert_eq!(properties[0], ("file", "dir%2C1/a%3Ab%25%0D%0Ac.md"));
    assert_eq!(
        properties.last().unwrap(),
        &("title", "ragcite unsupported-citation")
    );
    assert!(
        message.contains("\"The tower grew by 45%25, to 330 metres: a record [9].\""),
        "`%` is escaped in a message, `,` and `:` are not: {message}"
    );
    assert!(!message.contains("45%,"));
    // Every line is one command: nothing the input holds breaks a line.
    assert_eq!(out.stdout.lines().count(), 2);

    // A record id with a line break stays on the annotation's line.
    let out = batch(ESCAPES, "github", &[], 1);
    assert_eq!(out.stdout.lines().count(), 2);
    let (_, _, message) = annotation(out.stdout.lines().next().unwrap());
    assert!(message.ends_with("(record q\\n1, a:b 50%25)"), "{message}");
    assert!(out.stdout.lines().all(|l| l.starts_with("::")));
}

// ---------------------------------------------------------------------------------------------
// GitLab Code Quality

fn assert_code_quality(text: &str) -> Vec<Value> {
    let entries = parse_json(text).as_array().expect("an array").clone();
    let mut fingerprints = HashSet::new();
    for entry in &entries {
        let object = entry.as_object().unwrap();
        let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "check_name",
                "description",
                "fingerprint",
                "location",
                "severity"
            ]
        );
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&entry["severity"].as_str().unwrap())
        );
        assert!(!entry["description"].as_str().unwrap().is_empty());
        assert!(!entry["location"]["path"].as_str().unwrap().is_empty());
        assert!(entry["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
        let fingerprint = entry["fingerprint"].as_str().unwrap().to_string();
        assert!(
            fingerprints.insert(fingerprint.clone()),
            "duplicate {fingerprint}"
        );
    }
    entries
}

#[test]
fn gitlab_fingerprints_are_unique_even_for_repeated_sentences_and_ids() {
    let entries = assert_code_quality(&batch(DUPLICATE_IDS, "gitlab", &[], 1).stdout);
    assert_eq!(
        entries.len(),
        4,
        "two records with the same id, each a sentence twice"
    );
    let entries = assert_code_quality(&check_eiffel("gitlab", &[], 1));
    let severities: Vec<&str> = entries
        .iter()
        .map(|e| e["severity"].as_str().unwrap())
        .collect();
    assert_eq!(severities, ["major", "major", "minor"]);
    let entries = assert_code_quality(&batch(BATCH_LINES, "gitlab", &[], 1).stdout);
    let checks: Vec<(&str, &str, u64)> = entries
        .iter()
        .map(|e| {
            (
                e["check_name"].as_str().unwrap(),
                e["severity"].as_str().unwrap(),
                e["location"]["lines"]["begin"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        checks,
        [
            ("number-mismatch", "major", 2),
            ("uncited-claim", "minor", 2),
            ("bad-record", "blocker", 3),
            ("weak-support", "info", 4)
        ]
    );
}

#[test]
fn gitlab_fingerprints_are_stable_across_runs() {
    let first = batch(BATCH_ARRAY, "gitlab", &[], 1).stdout;
    let second = batch(BATCH_ARRAY, "gitlab", &[], 1).stdout;
    assert_eq!(first, second);
}

#[test]
fn gitlab_closes_the_array_when_a_batch_stops_early() {
    for file in [BROKEN, UNCLOSED] {
        let entries = assert_code_quality(&batch(file, "gitlab", &[], 2).stdout);
        let last = entries.last().unwrap();
        assert_eq!(last["check_name"], "batch-stopped");
        assert_eq!(last["severity"], "blocker");
    }
}

// ---------------------------------------------------------------------------------------------
// JUnit XML

/// A test case as the report gives it: its suite's name and file, classname, name, and the
/// type and text of its failure or error, if any.
#[derive(Debug, Clone)]
struct Case {
    suite: String,
    classname: String,
    name: String,
    outcome: Option<(String, String, String)>,
}

/// Checks a JUnit report as its readers do: valid against Jenkins' schema, the counts of each
/// suite and of the whole right, `time` on suites and cases, a suite per file named by its path
/// with `file`, `classname` that path with dots, no duplicate case in GitLab's eyes. Returns
/// the cases in order.
fn assert_junit(xml: &str) -> Vec<Case> {
    let problems = consumers::jenkins::problems(xml);
    assert!(
        problems.is_empty(),
        "not valid against Jenkins' schema: {problems:?}\n{xml}"
    );
    let gitlab = consumers::gitlab::parse(xml);
    assert!(
        gitlab.duplicate_cases.is_empty(),
        "GitLab would keep one of duplicates: {:?}",
        gitlab.duplicate_cases
    );
    let document = roxmltree::Document::parse(xml).expect("well-formed XML");
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(root.attribute("name"), Some("ragcite"));
    assert_eq!(root.attribute("time"), Some("0"));
    let mut cases = Vec::new();
    let (mut tests, mut failures, mut errors) = (0, 0, 0);
    for suite in root.children().filter(|n| n.has_tag_name("testsuite")) {
        let path = suite.attribute("name").expect("a suite's name");
        assert_eq!(
            suite.attribute("file"),
            Some(path),
            "file is the suite's path"
        );
        assert_eq!(suite.attribute("time"), Some("0"));
        assert_eq!(suite.attribute("skipped"), Some("0"));
        let suite_cases: Vec<roxmltree::Node> = suite
            .children()
            .filter(|n| n.has_tag_name("testcase"))
            .collect();
        let count = |outcome: &str| {
            suite_cases
                .iter()
                .filter(|c| c.children().any(|n| n.has_tag_name(outcome)))
                .count()
                .to_string()
        };
        assert_eq!(
            suite.attribute("tests"),
            Some(suite_cases.len().to_string().as_str())
        );
        assert_eq!(suite.attribute("failures"), Some(count("failure").as_str()));
        assert_eq!(suite.attribute("errors"), Some(count("error").as_str()));
        for case in suite_cases {
            assert_eq!(case.attribute("time"), Some("0"));
            assert_eq!(
                case.attribute("classname"),
                Some(path.trim_start_matches('/').replace('/', ".").as_str())
            );
            let outcome = case
                .children()
                .find(|n| n.has_tag_name("failure") || n.has_tag_name("error"))
                .map(|n| {
                    assert!(!n.attribute("message").unwrap_or("").is_empty());
                    (
                        n.attribute("type").expect("a type").to_string(),
                        n.attribute("message").unwrap_or("").to_string(),
                        n.text().unwrap_or("").to_string(),
                    )
                });
            tests += 1;
            match &outcome {
                Some(_) if case.children().any(|n| n.has_tag_name("failure")) => failures += 1,
                Some(_) => errors += 1,
                None => {}
            }
            cases.push(Case {
                suite: path.to_string(),
                classname: case.attribute("classname").unwrap_or("").to_string(),
                name: case.attribute("name").expect("a case's name").to_string(),
                outcome,
            });
        }
    }
    assert_eq!(root.attribute("tests"), Some(tests.to_string().as_str()));
    assert_eq!(
        root.attribute("failures"),
        Some(failures.to_string().as_str())
    );
    assert_eq!(root.attribute("errors"), Some(errors.to_string().as_str()));
    cases
}

fn names(cases: &[Case]) -> Vec<&str> {
    cases.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn junit_for_check_has_one_case_per_limit() {
    let cases = assert_junit(&check_eiffel("junit", &[], 1));
    assert_eq!(
        names(&cases),
        [
            "uncited-claim",
            "number-mismatch",
            "unsupported-citation",
            "unknown-marker",
            "misquote",
            "contradicted"
        ]
    );
    assert!(cases.iter().all(|c| c.suite == EIFFEL_ANSWER));
    assert_eq!(cases[0].classname, "testdata.eiffel.answer.md");
    let failed: Vec<&str> = cases
        .iter()
        .filter(|c| c.outcome.is_some())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(
        failed,
        ["uncited-claim", "number-mismatch", "unsupported-citation"]
    );
    let (kind, message, text) = cases[1].outcome.clone().expect("a failure");
    assert_eq!(kind, "number-mismatch");
    assert_eq!(
        message,
        "limit exceeded: 1 number-mismatch > --max-number-mismatch 0 (+1)"
    );
    assert!(
        text.contains("testdata/eiffel/answer.md:1:42: number-mismatch"),
        "{text}"
    );
    // --max-weak adds a case; a lenient gate passes every case.
    let cases = assert_junit(&check_eiffel("junit", &["--max-weak", "0"], 1));
    assert_eq!(cases.len(), 7);
    let cases = assert_junit(&check_eiffel("junit", &LENIENT, 0));
    assert!(cases.iter().all(|c| c.outcome.is_none()));
}

#[test]
fn junit_for_batch_names_cases_by_record_and_rule() {
    let cases = assert_junit(&batch(BATCH_LINES, "junit", &[], 1).stdout);
    let rules = [
        "uncited-claim",
        "number-mismatch",
        "unsupported-citation",
        "unknown-marker",
        "misquote",
        "contradicted",
    ];
    let mut expected: Vec<String> = Vec::new();
    for record in ["q1", "q2"] {
        expected.extend(rules.iter().map(|r| format!("{record}: {r}")));
    }
    let unreadable = cases[12].name.clone();
    assert!(
        unreadable.starts_with("unreadable record ") && unreadable.ends_with(": bad-record"),
        "{unreadable}"
    );
    expected.push(unreadable);
    expected.extend(rules.iter().map(|r| format!("q4: {r}")));
    assert_eq!(names(&cases), expected);
    assert!(
        cases.iter().all(|c| !c.name.contains("line")),
        "never a line number"
    );
    let failed: Vec<(&str, &str)> = cases
        .iter()
        .filter_map(|c| Some((c.name.as_str(), c.outcome.as_ref()?.0.as_str())))
        .collect();
    assert_eq!(
        failed,
        [
            ("q2: uncited-claim", "uncited-claim"),
            ("q2: number-mismatch", "number-mismatch"),
            (cases[12].name.as_str(), "bad-record"),
        ]
    );
}

#[test]
fn junit_escapes_markup_quotes_and_control_characters() {
    let out = ragcite([
        "check",
        "-",
        EIFFEL_CHUNKS,
        "--format",
        "junit",
        "--stdin-filename",
        "a&b<\"c\">.md",
    ])
    .stdin("The <b> tag & \"quotes\" \u{1} 'say' 330 metres [9].\n")
    .output();
    assert_eq!(out.code, Some(1));
    let cases = assert_junit(&out.stdout);
    assert_eq!(cases[0].suite, "a&b<\"c\">.md");
    let failure = cases
        .iter()
        .find_map(|c| c.outcome.clone())
        .expect("a failure");
    assert!(
        failure.2.contains("The <b> tag & \"quotes\""),
        "{}",
        failure.2
    );
    assert!(failure.2.contains("'say'"));
    assert!(!out.stdout.contains('\u{1}'), "XML 1.0 forbids U+0001");

    let cases = assert_junit(&batch(ESCAPES, "junit", &[], 1).stdout);
    assert!(
        cases
            .iter()
            .any(|c| c.name == "q\\n1, a:b 50%: unsupported-citation"),
        "{:?}",
        names(&cases)
    );
}

#[test]
fn junit_stays_well_formed_when_a_batch_stops_early() {
    for file in [BROKEN, UNCLOSED] {
        let cases = assert_junit(&batch(file, "junit", &[], 2).stdout);
        let last = cases.last().expect("cases");
        assert_eq!(last.name, "batch-stopped");
        assert_eq!(
            last.outcome.as_ref().map(|o| o.0.as_str()),
            Some("batch-stopped")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Exit codes and determinism

#[test]
fn exit_codes_follow_the_gate_in_every_format() {
    for format in FORMATS {
        check_eiffel(format, &[], 1);
        let stdout = check_eiffel(format, &LENIENT, 0);
        assert!(!stdout.is_empty(), "{format} still writes its report");
        batch(BATCH_LINES, format, &[], 1);
        batch(
            BATCH_LINES,
            format,
            &["--max-failing-records", "1", "--max-bad-records", "1"],
            0,
        );
    }
}

#[test]
fn findings_do_not_depend_on_the_gate() {
    // Raising the limits changes the exit code and the summary, not what is pointed at.
    let strict = parse_json(&check_eiffel("sarif", &[], 1));
    let lenient = parse_json(&check_eiffel("sarif", &LENIENT, 0));
    assert_eq!(strict["runs"][0]["results"], lenient["runs"][0]["results"]);
}

#[test]
fn output_is_byte_identical_across_runs() {
    for format in FORMATS {
        assert_eq!(check_eiffel(format, &[], 1), check_eiffel(format, &[], 1));
        assert_eq!(
            batch(BATCH_ARRAY, format, &[], 1).stdout,
            batch(BATCH_ARRAY, format, &[], 1).stdout
        );
    }
}
