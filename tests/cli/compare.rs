//! `ragcite batch --baseline` and `ragcite compare` on the real binary, with the transcripts of
//! `testdata/compare/`: `a.jsonl` and `b.jsonl` answer the same questions with two prompts
//! (between them a finding is fixed, two are new, one moved to another sentence, the records
//! are in another order, one question has another id, and each has a record the other lacks);
//! `a_fixed.jsonl` is A after a fix (one finding fixed, the others moved, the records
//! reordered).
//!
//! Regenerate the snapshots with `INSTA_UPDATE=always cargo test --test cli -- compare::`, then
//! read every changed `tests/cli/snapshots/cli__compare__*.snap` file before keeping it.

use std::io::Write as _;

use serde_json::Value;

use crate::util::ragcite;

const A: &str = "testdata/compare/a.jsonl";
const B: &str = "testdata/compare/b.jsonl";
const A_FIXED: &str = "testdata/compare/a_fixed.jsonl";

/// A temporary file holding `text`, named with `suffix`.
fn temp(suffix: &str, text: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().suffix(suffix).tempfile().unwrap();
    file.write_all(text.as_bytes()).unwrap();
    file
}

/// What `batch --format json` writes for A, as a baseline file.
fn baseline_of_a() -> tempfile::NamedTempFile {
    let json = ragcite(["batch", A, "--format", "json"]).stdout(1);
    temp(".json", &json)
}

fn path(file: &tempfile::NamedTempFile) -> String {
    file.path().display().to_string()
}

/// Every problem of every record: its record's id, its sentence, verdict and fingerprint.
fn problems(doc: &Value) -> Vec<(String, u64, String, String)> {
    doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r["problems"].as_array().unwrap().iter().map(|p| {
                (
                    r["id"].as_str().unwrap().to_string(),
                    p["sentence"].as_u64().unwrap(),
                    p["verdict"].as_str().unwrap().to_string(),
                    p["fingerprint"].as_str().unwrap().to_string(),
                )
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// batch --baseline

#[test]
fn fingerprints_do_not_move_with_the_sentence_or_the_record() {
    let a = ragcite(["batch", A, "--format", "json"]).json(1);
    let fixed = ragcite(["batch", A_FIXED, "--format", "json"]).json(1);
    assert_eq!(a["schemaVersion"], "3.5");
    let find = |doc: &Value, id: &str| {
        problems(doc)
            .into_iter()
            .find(|p| p.0 == id)
            .unwrap_or_else(|| panic!("a problem in {id}"))
    };
    // `designer`'s uncited sentence is the second of its answer on line 2 of A, the first on
    // line 2 of A fixed; `paris` moved from line 5 to line 1.
    let (before, after) = (find(&a, "designer"), find(&fixed, "designer"));
    assert_eq!((before.1, after.1), (2, 1));
    assert_eq!(before.3, after.3);
    assert_eq!(find(&a, "paris").3, find(&fixed, "paris").3);
    // Every fingerprint is 16 hex digits, and no two are alike.
    let all: Vec<String> = problems(&a).into_iter().map(|p| p.3).collect();
    assert!(
        all.iter()
            .all(|f| f.len() == 16 && f.chars().all(|c| c.is_ascii_hexdigit()))
    );
    let mut unique = all.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), all.len());
}

#[test]
fn a_new_finding_fails_the_gate_that_old_ones_pass() {
    let baseline = baseline_of_a();
    // B: `visitors` gained a number mismatch, `museum` (an id A does not have) an uncited claim.
    let doc = ragcite([
        "batch",
        B,
        "--format",
        "json",
        "--baseline",
        &path(&baseline),
    ])
    .json(1);
    let outcome = &doc["baseline"];
    assert_eq!(outcome["file"], path(&baseline));
    assert_eq!(
        (&outcome["new"], &outcome["unchanged"], &outcome["fixed"]),
        (&Value::from(2), &Value::from(1), &Value::from(2))
    );
    let fixed: Vec<(&str, &str)> = outcome["fixedFindings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["record"].as_str().unwrap(), f["rule"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fixed,
        [("height", "number-mismatch"), ("paris", "uncited-claim")]
    );
    assert_eq!(outcome["fixedFindings"][0]["line"], 1);
    assert_eq!(
        outcome["fixedFindings"][0]["text"],
        "It was completed in 1887 for the World's Fair [2]."
    );
    // Each problem says whether it is new; only the records with a new one fail.
    let new: Vec<(&str, bool)> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| {
            r["problems"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| (r["id"].as_str().unwrap(), p["new"].as_bool().unwrap()))
        })
        .collect();
    assert_eq!(
        new,
        [("designer", false), ("visitors", true), ("museum", true)]
    );
    let failing: Vec<&str> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["passed"] == false)
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(failing, ["visitors", "museum"]);
    assert!(
        doc["summary"]
            .as_str()
            .unwrap()
            .contains("baseline: 2 new, 2 fixed, 1 unchanged")
    );
    // Without the baseline, the old finding fails too.
    let plain = ragcite(["batch", B, "--format", "json"]).json(1);
    assert_eq!(plain["aggregate"]["failingRecords"], 3);
    assert!(plain.get("baseline").is_none());
    assert!(plain["records"][0]["problems"][0].get("new").is_none());
}

#[test]
fn fixed_and_moved_findings_pass_the_gate() {
    let baseline = baseline_of_a();
    let table = ragcite(["batch", A_FIXED, "--baseline", &path(&baseline)]).stdout(0);
    assert_eq!(
        table,
        "decided with threshold 0.50 · model shipped · language detected per record · no config \
         (--isolated)\nPASS · 5 records: 5 checked, 0 bad, 0 failing · 8 claim sentences: uncited 25.0%, \
         number-mismatch 0.0%, unsupported 0.0% · baseline: 0 new, 1 fixed, 2 unchanged · all \
         limits held\n"
    );
    // The same file against its own output: nothing new, nothing fixed.
    let own = ragcite([
        "batch",
        A,
        "--baseline",
        &path(&baseline),
        "--format",
        "json",
    ])
    .json(0);
    assert_eq!(own["baseline"]["new"], 0);
    assert_eq!(own["baseline"]["fixed"], 0);
    assert_eq!(own["gate"]["passed"], true);
}

#[test]
fn the_table_shows_the_first_new_finding() {
    let baseline = baseline_of_a();
    let table = ragcite([
        "batch",
        B,
        "--baseline",
        &path(&baseline),
        "--color",
        "never",
    ])
    .columns(100)
    .stdout(1);
    insta::assert_snapshot!("baseline_table", table);
}

#[test]
fn a_baseline_that_is_no_batch_document_is_an_input_error() {
    let check = ragcite([
        "check",
        "testdata/eiffel/answer.md",
        "testdata/eiffel/chunks.json",
        "--format",
        "json",
    ])
    .stdout(1);
    let a_json = ragcite(["batch", A, "--format", "json"]).stdout(1);
    let jsonl = ragcite(["batch", A, "--format", "jsonl"]).stdout(1);
    let cases = [
        (
            "not json",
            temp(".json", "{\"records\": ["),
            "not JSON: EOF while parsing",
        ),
        ("check", temp(".json", &check), "a `ragcite check` document"),
        (
            "3.2",
            temp(".json", &a_json.replace("\"3.5\"", "\"3.2\"")),
            "schema 3.2 has no finding fingerprints (added in 3.3)",
        ),
        (
            "4.0",
            temp(".json", &a_json.replace("\"3.5\"", "\"4.0\"")),
            "schema 4.0: this ragcite reads baselines of schema 3.3 to 3.x",
        ),
        (
            "jsonl",
            temp(".jsonl", &jsonl),
            "JSON Lines, as `batch --format jsonl`",
        ),
        (
            "incomplete",
            temp(
                ".json",
                &a_json.replace("\"complete\":true", "\"complete\":false"),
            ),
            "stopped before the end of its files",
        ),
        (
            "no fingerprint",
            temp(".json", &a_json.replace("\"fingerprint\"", "\"print\"")),
            "missing field `fingerprint`",
        ),
        ("empty", temp(".json", ""), "not JSON: EOF while parsing"),
        (
            "no complete",
            temp(".json", &a_json.replace(",\"complete\":true", "")),
            "it has no `complete`",
        ),
        (
            "zzzz",
            temp(
                ".json",
                &a_json.replace(
                    "\"fingerprint\":\"4a62e52bd90298b2\"",
                    "\"fingerprint\":\"zzzz\"",
                ),
            ),
            "line 2: fingerprint `zzzz` is not 16 hex digits",
        ),
        (
            "summary",
            temp(
                ".json",
                &a_json.replacen("{\"type\":\"record\"", "{\"type\":\"summary\"", 2),
            ),
            "line 2: a record of type `summary`",
        ),
    ];
    for (what, file, expected) in &cases {
        let line = ragcite(["batch", B, "--baseline", &path(file)]).input_error();
        let prefix = format!("ragcite: error: {}: not a baseline: ", path(file));
        assert!(line.starts_with(&prefix), "{what}: {line}");
        assert!(line.contains(expected), "{what}: {line}");
    }
    let missing = ragcite(["batch", B, "--baseline", "testdata/compare/none.json"]).input_error();
    assert!(missing.starts_with("ragcite: error: testdata/compare/none.json: cannot read"));
    let folder = ragcite(["batch", B, "--baseline", "testdata/compare"]).input_error();
    assert_eq!(
        folder,
        "ragcite: error: testdata/compare: is a directory, not a file"
    );
}

#[test]
fn a_baseline_made_with_other_options_is_refused() {
    let baseline = temp(
        ".json",
        &ragcite(["batch", A, "--format", "json", "--threshold", "0.3"]).stdout(1),
    );
    let line = ragcite(["batch", A, "--baseline", &path(&baseline)]).input_error();
    assert_eq!(
        line,
        format!(
            "ragcite: error: {}: made with other options than this run's: --threshold 0.3 \
             (this run: 0.5): its findings would not match this run's; write it again with this \
             run's options",
            path(&baseline)
        )
    );
    let line = ragcite([
        "batch",
        A,
        "--baseline",
        &path(&baseline),
        "--threshold",
        "0.3",
        "--citation-scope",
        "paragraph",
    ])
    .input_error();
    assert!(
        line.contains(": --citation-scope sentence (this run: paragraph): "),
        "{line}"
    );
    // The same options: read.
    ragcite([
        "batch",
        A,
        "--baseline",
        &path(&baseline),
        "--threshold",
        "0.3",
    ])
    .stdout(0);
}

#[test]
fn a_huge_baseline_is_refused_before_it_is_read() {
    let file = tempfile::Builder::new().suffix(".json").tempfile().unwrap();
    file.as_file().set_len(300 << 20).unwrap();
    let line = ragcite(["batch", B, "--baseline", &path(&file)]).input_error();
    assert_eq!(
        line,
        format!(
            "ragcite: error: {}: larger than the input size limit of 256 MiB: too large for a baseline",
            path(&file)
        )
    );
}

// ---------------------------------------------------------------------------------------------
// compare

#[test]
fn the_comparison_table() {
    let out = ragcite(["compare", A, B, "--color", "never"]).columns(100);
    let table = out.clone().stdout(0);
    insta::assert_snapshot!("table", table);
    assert_eq!(out.stdout(0), table, "two runs differ");
}

#[test]
fn the_comparison_table_at_sixty_columns() {
    let table = ragcite(["compare", A, B, "--color", "never"])
        .columns(60)
        .stdout(0);
    for line in table
        .lines()
        .filter(|l| l.starts_with(['┌', '│', '╞', '└']))
    {
        assert!(line.chars().count() <= 60, "wider than 60: {line}");
    }
    insta::assert_snapshot!("table_60", table);
}

#[test]
fn fail_if_worse_fails_only_when_b_is_worse() {
    // B has 3 problem sentences of 7 claims over the matched records, A 2 of 6.
    let worse = ragcite(["compare", A, B, "--fail-if-worse"]).stdout(1);
    assert!(worse.lines().last().unwrap().starts_with("B is worse: "));
    let better = ragcite(["compare", A, A_FIXED, "--fail-if-worse"]).stdout(0);
    assert!(better.lines().last().unwrap().starts_with("B is better: "));
    // Better, but each side has a record the other lacks: not all compared.
    let unmatched = ragcite(["compare", B, A, "--fail-if-worse"]).stdout(1);
    assert!(
        unmatched
            .lines()
            .last()
            .unwrap()
            .starts_with("B is better: ")
    );
    let tie = ragcite(["compare", A, A, "--fail-if-worse"]).stdout(0);
    assert!(tie.lines().last().unwrap().starts_with("A and B tie: "));
    assert!(tie.contains("No matched record changed."));
}

#[test]
fn records_left_out_fail_the_gate_and_the_summary_says_so() {
    let record = |id: &str, answer: &str| {
        format!(
            "{}\n",
            serde_json::json!({"id": id, "answer": answer,
                "contexts": ["The tower is 330 metres tall.", "It was built in 1889."]})
        )
    };
    let a = temp(
        ".jsonl",
        &format!(
            "{}{}{}",
            record("q1", "It is 330 metres tall [1]."),
            record("q2", "It was built in 1889 [2]."),
            record("q3", "It is 330 metres tall [1]."),
        ),
    );
    // B: a broken JSON line and a record without contexts where A has q2 and q3.
    let b = temp(
        ".jsonl",
        &format!(
            "{}{{\"id\": \"q2\", broken\n{{\"id\": \"q3\", \"answer\": \"It is tall.\"}}\n",
            record("q1", "It is 330 metres tall [1]."),
        ),
    );
    let (a, b) = (path(&a), path(&b));
    let table = ragcite(["compare", &a, &b, "--fail-if-worse"]).stdout(1);
    let last = table.lines().last().unwrap();
    assert!(
        last.starts_with("A and B tie: ")
            && last.ends_with(
                " · INCOMPLETE: records left out: 2 of A (2 unmatched), 2 of B (2 unreadable); \
                 --fail-if-worse fails"
            ),
        "{last}"
    );
    // Without --fail-if-worse the comparison is only shown.
    ragcite(["compare", &a, &b]).stdout(0);
    let doc = ragcite(["compare", &a, &b, "--format", "json", "--fail-if-worse"]).json(1);
    assert_eq!(doc["complete"], false);
    assert_eq!(doc["summary"], last);
    let html = ragcite(["compare", &a, &b, "--format", "html", "--fail-if-worse"]).stdout(1);
    assert!(html.contains("INCOMPLETE: records left out"), "{html}");
    // Ids renamed in B, with no question to match by: nothing left to compare but one record.
    let renamed = temp(
        ".jsonl",
        &format!(
            "{}{}{}",
            record("q1", "It is 330 metres tall [1]."),
            record("Q2", "It was built in 1889 [2]."),
            record("Q3", "It is 330 metres tall [1]."),
        ),
    );
    let table = ragcite(["compare", &a, &path(&renamed), "--fail-if-worse"]).stdout(1);
    let last = table.lines().last().unwrap();
    assert!(
        last.ends_with(
            " · INCOMPLETE: records left out: 2 of A (2 unmatched), 2 of B (2 unmatched); \
             --fail-if-worse fails"
        ),
        "{last}"
    );
    // Every record read and matched: complete.
    let doc = ragcite(["compare", A, A_FIXED, "--format", "json", "--fail-if-worse"]).json(0);
    assert_eq!(doc["complete"], true);
    assert!(!doc["summary"].as_str().unwrap().contains("INCOMPLETE"));
}

/// B is A with every answer in a `~~~` fence: nothing of it is checked, so it has no problem
/// sentences and once passed `--fail-if-worse` as better. Lines not checked are shown side by
/// side, and more of them in B fails the gate.
#[test]
fn more_lines_not_checked_in_b_fail_the_gate() {
    let record = |id: &str, answer: &str| {
        format!(
            "{}\n",
            serde_json::json!({"id": id, "answer": answer,
                "contexts": ["The tower is 330 metres tall.", "It was built in 1889."]})
        )
    };
    let answers = [
        (
            "q1",
            "It is 330 metres tall [1]. It is the most visited monument in the world.",
        ),
        ("q2", "It was built in 1889 [2]."),
    ];
    let a = temp(
        ".jsonl",
        &answers
            .iter()
            .map(|(id, answer)| record(id, answer))
            .collect::<String>(),
    );
    let fenced = temp(
        ".jsonl",
        &answers
            .iter()
            .map(|(id, answer)| record(id, &format!("~~~\n{answer}\n~~~")))
            .collect::<String>(),
    );
    let (a, fenced) = (path(&a), path(&fenced));
    let table = ragcite([
        "compare",
        &a,
        &fenced,
        "--fail-if-worse",
        "--color",
        "never",
    ])
    .columns(120)
    .stdout(1);
    let last = table.lines().last().unwrap();
    assert!(
        last.starts_with("B is better: ")
            && last.ends_with(
                " · B leaves more lines not checked: 0 in A, 6 in B; --fail-if-worse fails"
            ),
        "{last}"
    );
    let row = table
        .lines()
        .find(|l| l.contains("lines not checked ") && l.starts_with('│'))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split(['│', '┆']).map(str::trim).collect();
    assert_eq!(
        cells[1..6],
        ["lines not checked", "0", "6", "+6 lines", "A"],
        "{row}"
    );
    // Without --fail-if-worse the comparison is only shown.
    ragcite(["compare", &a, &fenced]).stdout(0);
    let doc = ragcite([
        "compare",
        &a,
        &fenced,
        "--format",
        "json",
        "--fail-if-worse",
    ])
    .json(1);
    assert_eq!(doc["b"]["counts"]["uncheckedLines"], 6);
    assert_eq!(doc["summary"], last);
    let html = ragcite([
        "compare",
        &a,
        &fenced,
        "--format",
        "html",
        "--fail-if-worse",
    ])
    .stdout(1);
    assert!(
        html.contains(
            "<tr id=\"unchecked\"><th scope=\"row\">lines not checked</th><td>0</td><td>6</td><td>+6 lines</td><td>A</td></tr>"
        ),
        "{html}"
    );
    // As many lines not checked on both sides do not fail the gate; none on either side, no row.
    let fixed = ragcite(["compare", &fenced, &fenced, "--fail-if-worse"]).stdout(0);
    assert!(fixed.contains("lines not checked"), "{fixed}");
    assert!(!fixed.contains("B leaves more"), "{fixed}");
    let plain = ragcite(["compare", &a, &a, "--fail-if-worse"]).stdout(0);
    assert!(!plain.contains("lines not checked"), "{plain}");
    let html = ragcite(["compare", &a, &a, "--format", "html"]).stdout(0);
    assert!(!html.contains("id=\"unchecked\""));
}

#[test]
fn the_comparison_as_json() {
    let text = ragcite(["compare", A, B, "--format", "json"]).stdout(0);
    insta::assert_snapshot!("json", text);
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["schemaVersion"], "3.5");
    assert_eq!(doc["better"], "a");
    let matching = &doc["matching"];
    assert_eq!(
        (
            &matching["matched"],
            &matching["byId"],
            &matching["byQuestion"]
        ),
        (&Value::from(4), &Value::from(3), &Value::from(1))
    );
    assert_eq!(matching["onlyInA"][0]["id"], "paris");
    assert_eq!(matching["onlyInB"][0]["id"], "lyon");
    // `designer`'s finding moved to another sentence: unchanged, and the record did not change.
    let designer = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["a"]["id"] == "designer")
        .unwrap();
    assert_eq!(designer["unchanged"], 1);
    assert_eq!(designer["new"], Value::Array(Vec::new()));
    assert_eq!(
        (&doc["findings"]["new"], &doc["findings"]["fixed"]),
        (&Value::from(2), &Value::from(1))
    );
}

#[test]
fn records_are_matched_by_question_when_the_ids_differ() {
    let a = temp(
        ".jsonl",
        "{\"id\": \"q1\", \"question\": \"How tall is it?\", \"answer\": \"It is 330 metres tall [1].\", \"contexts\": [\"The tower is 330 metres tall.\"]}\n\
         {\"id\": \"q2\", \"question\": \"Where is it?\", \"answer\": \"It stands in Paris [1].\", \"contexts\": [\"The tower stands in Paris.\"]}\n",
    );
    let b = temp(
        ".jsonl",
        "{\"id\": \"run-7\", \"question\": \"WHERE is it?\", \"answer\": \"It stands in Lyon [1].\", \"contexts\": [\"The tower stands in Paris.\"]}\n\
         {\"id\": \"run-8\", \"question\": \"How tall is it?\", \"answer\": \"It is 330 metres tall [1].\", \"contexts\": [\"The tower is 330 metres tall.\"]}\n",
    );
    let doc = ragcite(["compare", &path(&a), &path(&b), "--format", "json"]).json(0);
    assert_eq!(doc["matching"]["byQuestion"], 2);
    assert_eq!(doc["matching"]["byId"], 0);
    let pairs: Vec<(&str, &str, &str)> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["a"]["id"].as_str().unwrap(),
                r["b"]["id"].as_str().unwrap(),
                r["matchedBy"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        pairs,
        [("q1", "run-8", "question"), ("q2", "run-7", "question")]
    );
    assert_eq!(doc["better"], "a");
    // Transcripts that share no question are no comparison.
    let line = ragcite(["compare", &path(&a), "testdata/batch/small.jsonl"]).input_error();
    assert!(line.ends_with("nothing to compare"), "{line}");
}

#[test]
fn a_transcript_that_breaks_off_is_an_input_error() {
    let line = ragcite(["compare", A, "testdata/batch/unclosed.json"]).input_error();
    assert!(line.contains("testdata/batch/unclosed.json"), "{line}");
    assert!(line.ends_with("nothing was compared"), "{line}");
    let usage = ragcite(["compare", "-", "-"]).input_error();
    assert!(usage.contains("standard input (`-`) can be read only once"));
}

/// The page with the stylesheet's body and the policy's hashes cut out.
fn structure(html: &str) -> String {
    let start = html.find("<style>").unwrap() + 7;
    let end = html.find("</style>").unwrap();
    let mut out = format!("{}…{}", &html[..start], &html[end..]);
    while let Some(at) = out.find("'sha256-") {
        let close = at + 1 + out[at + 1..].find('\'').unwrap();
        out.replace_range(at..=close, "'hash'");
    }
    out
}

#[test]
fn the_comparison_as_one_html_page() {
    let html = ragcite(["compare", A, B, "--format", "html"]).stdout(0);
    insta::assert_snapshot!("html", structure(&html));
    assert!(!html.contains("<script"), "the page runs no script");
    for needle in ["http:", "https:", " src=", "url("] {
        assert!(!html.contains(needle), "`{needle}` in the page");
    }
}

/// A JSON Lines record of `id`, `question` and `answer`, with one chunk about the tower.
fn tower_record(id: &str, question: &str, answer: &str) -> String {
    format!(
        "{}\n",
        serde_json::json!({"id": id, "question": question, "answer": answer,
            "contexts": ["The tower is 330 metres tall."]})
    )
}

#[test]
fn the_html_page_escapes_the_inputs() {
    let record = tower_record;
    let a = temp(
        ".jsonl",
        &record("<b>x</b>", "How tall?", "It is 330 metres tall [1]."),
    );
    let b = temp(
        ".jsonl",
        &format!(
            "{}{}",
            record(
                "<b>x</b>",
                "How tall?",
                "It is 330 metres tall [1]. It was built by Smith & Sons \"Ltd\" in 1740."
            ),
            record(
                "<i>only</i>",
                "<script>alert(1)</script>?",
                "It is tall [1]."
            ),
        ),
    );
    let html = ragcite(["compare", &path(&a), &path(&b), "--format", "html"]).stdout(0);
    for raw in ["<script", "<b>", "<i>"] {
        assert!(!html.contains(raw), "`{raw}` reached the page");
    }
    for escaped in [
        "&lt;script&gt;alert(1)&lt;/script&gt;?",
        "&lt;b&gt;x&lt;/b&gt;",
        "&lt;i&gt;only&lt;/i&gt;",
        "Smith &amp; Sons &quot;Ltd&quot; in 1740.",
    ] {
        assert!(html.contains(escaped), "`{escaped}` is not in the page");
    }
}

#[test]
fn the_html_page_writes_no_control_character() {
    let record = tower_record;
    let a = temp(
        ".jsonl",
        &record("x", "How tall?", "It is 330 metres tall [1]."),
    );
    let b = temp(
        ".jsonl",
        &format!(
            "{}{}",
            record(
                "x",
                "How tall?",
                "It is 330 metres tall [1]. It was \u{1b}]0;owned\u{7} built in 1740."
            ),
            record("\u{1b}[31mred", "Bell\u{7}?\u{202e}", "It is tall [1]."),
        ),
    );
    let html = ragcite(["compare", &path(&a), &path(&b), "--format", "html"]).stdout(0);
    for raw in ['\u{1b}', '\u{7}', '\u{202e}'] {
        assert!(!html.contains(raw), "{raw:?} reached the page");
    }
    for escaped in [
        r"It was \u{1b}]0;owned\u{7} built in 1740.",
        r"\u{1b}[31mred",
        r"Bell\u{7}?\u{202e}",
    ] {
        assert!(html.contains(escaped), "`{escaped}` is not in the page");
    }
}

#[test]
fn compare_reads_the_configuration_as_batch_does() {
    let tree = crate::util::Tree::new();
    // `format = "jsonl"` is batch's, not compare's; `baseline` may not be in a file at all.
    tree.write(
        ".ragcite.toml",
        "format = \"jsonl\"\nthreshold = 0.95\n[fields]\nid = \"key\"\n",
    );
    let record = |key: &str| {
        format!(
            "{}\n",
            serde_json::json!({"key": key, "answer": "It is 330 metres tall [1].",
                "contexts": ["The tower is 330 metres tall and stands in Paris."]})
        )
    };
    tree.write("a.jsonl", &record("k1"));
    tree.write("b.jsonl", &record("k1"));
    let doc = tree
        .ragcite(
            &tree.root,
            ["compare", "a.jsonl", "b.jsonl", "--format", "json"],
        )
        .json(0);
    assert_eq!(doc["inputs"]["threshold"], 0.95);
    assert_eq!(doc["inputs"]["fields"]["id"], serde_json::json!(["key"]));
    assert_eq!(doc["matching"]["byId"], 1);
    tree.write(".ragcite.toml", "baseline = \"main.json\"\n");
    let line = tree.ragcite(&tree.root, ["batch", "a.jsonl"]).input_error();
    assert!(line.contains("unknown key `baseline`"), "{line}");
}
