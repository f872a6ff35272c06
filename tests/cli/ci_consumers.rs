//! ragcite's CI reports read by their consumers' own logic (ported in `tests/consumers/`):
//! GitHub code scanning keeps one alert per finding and tracks it across an unrelated edit,
//! GitLab keeps every JUnit case and shows a fixed record as resolved, and a transcript of
//! 40,000 findings gives a report each consumer accepts.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use crate::consumers;
use crate::util::{Output, ragcite};

/// Runs `ragcite <args>` in `dir`: no `.git` lies above a temporary folder, so the project root
/// is `dir` and the reports name the transcripts as given.
fn ragcite_in(dir: &Path, args: &[&str]) -> Output {
    ragcite(args).in_dir(dir).output()
}

/// One JSON Lines record: an id, an answer and one context.
fn record(id: &str, answer: &str) -> String {
    json!({"id": id, "response": answer, "retrieved_contexts": ["The Eiffel Tower is 330 metres tall."]})
        .to_string()
}

/// Three uncited claims in one record, on one line of the file.
const THREE_UNCITED: &str = "Bees make honey in summer. Owls hunt small mice at night. \
                             Whales sing long songs in the ocean.";

fn write(dir: &Path, name: &str, lines: &[String]) {
    std::fs::write(dir.join(name), lines.join("\n") + "\n").expect("written");
}

/// The SARIF of `batch FILE`, its results' (ruleId, message) and the fingerprints GitHub's
/// action leaves them, and the alerts code scanning makes.
fn github_alerts(
    dir: &Path,
    file: &str,
) -> (Value, Vec<String>, BTreeSet<(String, String, String)>) {
    let out = ragcite_in(dir, &["batch", file, "--format", "sarif"]);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let sarif: Value = serde_json::from_str(&out.stdout).expect("SARIF is JSON");
    let text = std::fs::read_to_string(dir.join(file)).expect("the transcript");
    let fingerprints = consumers::github::add_fingerprints(&sarif, &text);
    let alerts = consumers::github::alerts(&sarif, &fingerprints);
    (sarif, fingerprints, alerts)
}

/// The fingerprints of the results whose message names record `id`.
fn of_record(sarif: &Value, fingerprints: &[String], id: &str) -> BTreeSet<String> {
    sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .zip(fingerprints)
        .filter(|(r, _)| {
            r["message"]["text"]
                .as_str()
                .is_some_and(|m| m.ends_with(&format!("(record {id})")))
        })
        .map(|(_, f)| f.clone())
        .collect()
}

#[test]
fn github_keeps_one_alert_per_finding_and_tracks_it_across_an_unrelated_edit() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let other = record("other", "The Eiffel Tower is 330 metres tall [1].");
    write(
        dir.path(),
        "run.jsonl",
        &[other.clone(), record("three", THREE_UNCITED)],
    );
    let (sarif, fingerprints, alerts) = github_alerts(dir.path(), "run.jsonl");
    assert_eq!(fingerprints.len(), 3);
    assert_eq!(alerts.len(), 3, "one alert per finding: {alerts:?}");
    let before = of_record(&sarif, &fingerprints, "three");
    assert_eq!(before.len(), 3);

    // Without ragcite's own hashes, the action would hash the line: three findings on one
    // line would be one alert. (What this test guards against.)
    let mut bare = sarif.clone();
    for result in bare["runs"][0]["results"].as_array_mut().expect("results") {
        result["partialFingerprints"]
            .as_object_mut()
            .expect("fingerprints")
            .remove("primaryLocationLineHash");
    }
    let text = std::fs::read_to_string(dir.path().join("run.jsonl")).expect("the transcript");
    let line_hashes = consumers::github::add_fingerprints(&bare, &text);
    assert_eq!(consumers::github::alerts(&bare, &line_hashes).len(), 1);

    // An unrelated edit: a record added above, another record's answer changed. The three
    // findings move down a line and keep their fingerprints.
    write(
        dir.path(),
        "run.jsonl",
        &[
            record("new", "Rome is old [1]."),
            record("other", "The Eiffel Tower is very tall [1]."),
            record("three", THREE_UNCITED),
        ],
    );
    let (sarif, fingerprints, _) = github_alerts(dir.path(), "run.jsonl");
    assert_eq!(of_record(&sarif, &fingerprints, "three"), before);
    let lines: BTreeSet<u64> = sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| {
            r["message"]["text"]
                .as_str()
                .is_some_and(|m| m.ends_with("(record three)"))
        })
        .filter_map(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64())
        .collect();
    assert_eq!(lines, BTreeSet::from([3]), "they did move");

    // A fixed finding is gone; the other two are still tracked as they were.
    write(
        dir.path(),
        "run.jsonl",
        &[
            other,
            record(
                "three",
                "Bees make honey in summer. Owls hunt small mice at night. The Eiffel Tower is \
                 330 metres tall [1].",
            ),
        ],
    );
    let (sarif, fingerprints, _) = github_alerts(dir.path(), "run.jsonl");
    let after = of_record(&sarif, &fingerprints, "three");
    assert_eq!(after.len(), 2);
    assert!(after.is_subset(&before), "{after:?} ⊄ {before:?}");
}

#[test]
fn gitlab_keeps_every_case_and_shows_a_fixed_record_as_resolved() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Two files whose records share ids: GitLab must keep all of their cases.
    let failing = record("q1", "Bees make honey in summer.");
    let passing = record("q2", "The Eiffel Tower is 330 metres tall [1].");
    write(dir.path(), "a.jsonl", &[failing.clone(), passing.clone()]);
    write(dir.path(), "b.jsonl", &[failing.clone(), passing.clone()]);
    let out = ragcite_in(
        dir.path(),
        &["batch", "a.jsonl", "b.jsonl", "--format", "junit"],
    );
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(consumers::jenkins::problems(&out.stdout).is_empty());
    let base = consumers::gitlab::parse(&out.stdout);
    assert!(
        base.duplicate_cases.is_empty(),
        "{:?}",
        base.duplicate_cases
    );
    let all = base.count("success") + base.count("failed") + base.count("error");
    assert_eq!(all, 2 * 2 * 6, "two files, two records, six limits each");
    assert_eq!(base.count("failed"), 2, "q1's uncited claim, in each file");

    // The merge request adds a (passing) record above and fixes q1 in a.jsonl.
    write(
        dir.path(),
        "a.jsonl",
        &[
            record("q0", "The Eiffel Tower is 330 metres tall [1]."),
            record("q1", "The Eiffel Tower is 330 metres tall [1]."),
            passing.clone(),
        ],
    );
    let out = ragcite_in(
        dir.path(),
        &["batch", "a.jsonl", "b.jsonl", "--format", "junit"],
    );
    let head = consumers::gitlab::parse(&out.stdout);
    let comparison = consumers::gitlab::compare(&base, &head);
    assert_eq!(
        comparison.resolved_failures,
        BTreeSet::from(["a.jsonl_a.jsonl_q1: uncited-claim".to_string()])
    );
    assert_eq!(
        comparison.existing_failures,
        BTreeSet::from(["b.jsonl_b.jsonl_q1: uncited-claim".to_string()])
    );
    assert!(
        comparison.new_failures.is_empty(),
        "{:?}",
        comparison.new_failures
    );
}

#[test]
fn a_transcript_of_40000_findings_gives_reports_every_consumer_accepts() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let answer = (0..10)
        .map(|k| format!("Claim number {k} says that bees make honey in summer."))
        .collect::<Vec<_>>()
        .join(" ");
    let lines: Vec<String> = (0..4000)
        .map(|k| record(&format!("r{k}"), &answer))
        .collect();
    write(dir.path(), "big.jsonl", &lines);

    // SARIF: at most 25,000 results, a notification and a warning saying what was left out.
    let out = ragcite_in(dir.path(), &["batch", "big.jsonl", "--format", "sarif"]);
    assert_eq!(out.code, Some(1));
    let sarif: Value = serde_json::from_str(&out.stdout).expect("SARIF is JSON");
    let run = &sarif["runs"][0];
    assert_eq!(run["results"].as_array().expect("results").len(), 25_000);
    let notification = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(notification["level"], "warning");
    let expected = "15000 of 40000 findings were left out of the SARIF report: GitHub code \
                    scanning accepts at most 25000 results per run; `--format json` lists them all";
    assert_eq!(notification["message"]["text"], expected);
    assert_eq!(out.stderr, format!("ragcite: warning: {expected}\n"));
    let hashes: BTreeSet<&str> = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter_map(|r| r["partialFingerprints"]["primaryLocationLineHash"].as_str())
        .collect();
    assert_eq!(hashes.len(), 25_000, "one alert per result");

    // GitHub annotations: at most ten of each kind, the summary last, what was left out said.
    let out = ragcite_in(dir.path(), &["batch", "big.jsonl", "--format", "github"]);
    let commands: Vec<consumers::github::Command> = out
        .stdout
        .lines()
        .map(|line| consumers::github::parse_command(line).expect("every line is a command"))
        .collect();
    for kind in ["error", "warning", "notice"] {
        assert!(
            commands.iter().filter(|c| c.name == kind).count() <= 10,
            "{kind}"
        );
    }
    assert_eq!(commands.iter().filter(|c| c.name == "warning").count(), 10);
    let left_out = &commands[commands.len() - 2];
    assert!(
        left_out
            .message
            .starts_with("39990 annotations were left out"),
        "{}",
        left_out.message
    );
    assert!(
        commands
            .last()
            .expect("the summary")
            .message
            .starts_with("FAIL · 4000 records")
    );
    assert!(
        out.stderr
            .starts_with("ragcite: warning: 39990 annotations were left out")
    );

    // GitLab Code Quality: every finding, each with its own fingerprint.
    let out = ragcite_in(dir.path(), &["batch", "big.jsonl", "--format", "gitlab"]);
    let entries: Vec<Value> = serde_json::from_str(&out.stdout).expect("a JSON array");
    assert_eq!(entries.len(), 40_000);
    let fingerprints: BTreeSet<&str> = entries
        .iter()
        .filter_map(|e| e["fingerprint"].as_str())
        .collect();
    assert_eq!(fingerprints.len(), 40_000);
    assert_eq!(out.stderr, "");

    // JUnit: valid for Jenkins, every case kept by GitLab.
    let out = ragcite_in(dir.path(), &["batch", "big.jsonl", "--format", "junit"]);
    assert!(consumers::jenkins::problems(&out.stdout).is_empty());
    let report = consumers::gitlab::parse(&out.stdout);
    assert!(report.duplicate_cases.is_empty());
    assert_eq!(report.count("failed"), 4000);
    assert_eq!(report.count("success"), 4000 * 5);
}
