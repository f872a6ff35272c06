//! The configuration file on the real binary: discovery (`.ragcite.toml`, `ragcite.toml`,
//! `[tool.ragcite]` in `pyproject.toml`, walking up from the working directory), `--config`,
//! `--isolated`, the precedence of the command line, each kind of key, and the errors.
//!
//! These are the only tests that let the binary look for configuration: each builds its own tree
//! in a temporary directory ([`Tree`], which checks that no configuration lies above it) and runs
//! from inside it with discovery on ([`Tree::ragcite`]). Fixtures (`testdata/config/`) are named
//! by absolute path.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::util::{CONSTANT_MODEL, Output, Run, Tree, path, ragcite};

/// An answer with 1 supported sentence, 2 uncited claims and 1 weakly supported sentence (at
/// the default threshold; unsupported at 0.9).
fn answer() -> String {
    path("testdata/config/answer.md").display().to_string()
}

fn chunks() -> String {
    path("testdata/config/chunks.json").display().to_string()
}

/// Two records with their answer in `outputs.text`, contexts in `docs` and id in `key`.
fn fields_transcript() -> String {
    path("testdata/config/fields.jsonl").display().to_string()
}

/// `check ANSWER CHUNKS --format json <args>` in `dir` of `tree`, with discovery: the exit code
/// asserted, nothing on stderr, the document.
fn check_json(tree: &Tree, dir: &Path, args: &[&str], code: i32) -> Value {
    let (answer, chunks) = (answer(), chunks());
    tree.ragcite(dir, ["check", &answer, &chunks, "--format", "json"])
        .args(args)
        .json(code)
}

/// The threshold `check` used, run in `dir` of `tree` with `args`.
fn threshold_in(tree: &Tree, dir: &Path, args: &[&str]) -> f64 {
    // Exit 1: the answer's uncited claims fail the default limits.
    check_json(tree, dir, args, 1)["inputs"]["threshold"]
        .as_f64()
        .expect("inputs.threshold is a number")
}

/// Asserts a configuration error: an input error (one line on stderr, exit 2, nothing on
/// stdout) that starts with `ragcite: error: FILE` and holds each of `parts`.
#[track_caller]
fn assert_config_error(out: Output, file: &Path, parts: &[&str]) {
    let line = out.input_error();
    let prefix = format!("ragcite: error: {}", file.display());
    assert!(line.starts_with(&prefix), "{line}");
    for part in parts {
        assert!(line.contains(part), "{part:?} in {line}");
    }
}

/// `check` in a tree whose root holds `.ragcite.toml` with `text`; returns the file's path
/// and what the run gave.
fn check_with_config(text: &str) -> (PathBuf, Output) {
    let tree = Tree::new();
    let file = tree.write(".ragcite.toml", text);
    let (answer, chunks) = (answer(), chunks());
    let out = tree
        .ragcite(&tree.root, ["check", &answer, &chunks])
        .output();
    (file, out)
}

// ---------------------------------------------------------------------------------------------
// Discovery and precedence

#[test]
fn a_config_above_the_working_directory_is_found() {
    let tree = Tree::new();
    // The formula's scores, which the counts below were worked out with.
    tree.write(".ragcite.toml", "threshold = 0.9\nmodel = \"formula\"\n");
    let nested = tree.dir("project/src/deep");
    let doc = check_json(&tree, &nested, &[], 1);
    assert_eq!(doc["inputs"]["threshold"], 0.9);
    // At 0.9 the weakly supported sentence is unsupported.
    assert_eq!(doc["result"]["counts"]["unsupportedCitation"], 1);
    assert_eq!(doc["result"]["counts"]["weakSupport"], 0);
}

#[test]
fn the_command_line_wins_over_the_file() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    let nested = tree.dir("a/b");
    assert_eq!(threshold_in(&tree, &nested, &["--threshold", "0.6"]), 0.6);
    assert_eq!(threshold_in(&tree, &nested, &["--threshold=0.7"]), 0.7);
}

#[test]
fn isolated_ignores_the_file() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    let nested = tree.dir("a/b");
    assert_eq!(threshold_in(&tree, &nested, &["--isolated"]), 0.5);
}

#[test]
fn config_names_another_file() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    let other = tree.write("settings/other.toml", "threshold = 0.7\n");
    let nested = tree.dir("a/b");
    let other = other.to_str().unwrap();
    assert_eq!(threshold_in(&tree, &nested, &["--config", other]), 0.7);
    assert_eq!(
        threshold_in(&tree, &nested, &[&format!("--config={other}")]),
        0.7
    );
    // Relative to the working directory.
    assert_eq!(
        threshold_in(&tree, &tree.root, &["--config", "settings/other.toml"]),
        0.7
    );
}

#[test]
fn ragcite_toml_is_found() {
    let tree = Tree::new();
    tree.write("ragcite.toml", "threshold = 0.8\n");
    assert_eq!(threshold_in(&tree, &tree.dir("a"), &[]), 0.8);
}

#[test]
fn pyproject_tool_ragcite_is_found() {
    let tree = Tree::new();
    tree.write(
        "pyproject.toml",
        "[project]\nname = \"rag-app\"\nversion = \"0.1.0\"\n\n[tool.ragcite]\nthreshold = 0.8\n\
         lang = \"de\"\n\n[tool.ruff]\nline-length = 100\n",
    );
    let doc = check_json(&tree, &tree.dir("a/b"), &[], 1);
    assert_eq!(doc["inputs"]["threshold"], 0.8);
    assert_eq!(doc["inputs"]["lang"], "de");
}

#[test]
fn a_pyproject_without_tool_ragcite_is_skipped_and_the_walk_goes_on() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    tree.write(
        "app/pyproject.toml",
        "[project]\nname = \"rag-app\"\n\n[tool.black]\nline-length = 100\n",
    );
    assert_eq!(threshold_in(&tree, &tree.dir("app/src"), &[]), 0.9);
    assert_eq!(threshold_in(&tree, &tree.dir("app"), &[]), 0.9);
}

#[test]
fn the_nearest_file_wins() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    tree.write("app/ragcite.toml", "threshold = 0.7\n");
    assert_eq!(threshold_in(&tree, &tree.dir("app/src"), &[]), 0.7);
    assert_eq!(threshold_in(&tree, &tree.root, &[]), 0.9);
}

#[test]
fn in_one_directory_dot_ragcite_then_ragcite_then_pyproject() {
    let tree = Tree::new();
    tree.write("pyproject.toml", "[tool.ragcite]\nthreshold = 0.6\n");
    assert_eq!(threshold_in(&tree, &tree.root, &[]), 0.6);
    tree.write("ragcite.toml", "threshold = 0.7\n");
    assert_eq!(threshold_in(&tree, &tree.root, &[]), 0.7);
    tree.write(".ragcite.toml", "threshold = 0.8\n");
    assert_eq!(threshold_in(&tree, &tree.root, &[]), 0.8);
}

/// An entry of a configuration's name that is no regular file is an error naming it, not
/// skipped for the file above it: a folder, a dangling link, a link that loops, a FIFO (which
/// would block a reader). `--isolated` still runs.
#[cfg(unix)]
#[test]
fn a_configuration_that_is_no_regular_file_is_an_error() {
    use std::os::unix::fs::symlink;
    let (answer, chunks) = (answer(), chunks());
    type Make = fn(&Path);
    let cases: [(&str, Make); 4] = [
        ("a folder", |p| std::fs::create_dir(p).unwrap()),
        ("a dangling link", |p| {
            symlink(p.with_file_name("gone.toml"), p).unwrap()
        }),
        ("a link to itself", |p| symlink(p, p).unwrap()),
        ("a FIFO", |p| {
            let status = std::process::Command::new("mkfifo")
                .arg(p)
                .status()
                .unwrap();
            assert!(status.success());
        }),
    ];
    for (what, make) in cases {
        let tree = Tree::new();
        // The file above would decide if the entry below were skipped.
        tree.write(".ragcite.toml", "threshold = 0.9\n");
        let dir = tree.dir("app");
        let entry = dir.join(".ragcite.toml");
        make(&entry);
        let out = tree.ragcite(&dir, ["check", &answer, &chunks]).output();
        let line = out.input_error();
        assert!(
            line.starts_with(&format!("ragcite: error: {}", entry.display())),
            "{what}: {line}"
        );
        assert!(line.contains("regular file"), "{what}: {line}");
        let isolated = tree
            .ragcite(
                &dir,
                ["check", &answer, &chunks, "--isolated", "--format", "json"],
            )
            .json(1);
        assert_eq!(isolated["inputs"]["threshold"], 0.5, "{what}");
    }
}

/// `inputs.config` of `check --format json <args>` run in `dir` of `tree`.
fn config_in(tree: &Tree, dir: &Path, args: &[&str]) -> Value {
    check_json(tree, dir, args, 1)["inputs"]["config"].clone()
}

#[test]
fn the_report_names_the_config_applied_or_why_none_was() {
    let tree = Tree::new();
    // None above the tree (`Tree::new` checks): none found.
    assert_eq!(
        config_in(&tree, &tree.dir("a"), &[]),
        serde_json::json!({"source": "none"})
    );
    tree.write(
        ".ragcite.toml",
        "threshold = 0.9
",
    );
    // Found one folder up, two, or here: named relative to the working directory.
    assert_eq!(
        config_in(&tree, &tree.dir("a"), &[]),
        serde_json::json!({"source": "found", "path": "../.ragcite.toml"})
    );
    assert_eq!(
        config_in(&tree, &tree.dir("a/b"), &[]),
        serde_json::json!({"source": "found", "path": "../../.ragcite.toml"})
    );
    assert_eq!(
        config_in(&tree, &tree.root, &[]),
        serde_json::json!({"source": "found", "path": ".ragcite.toml"})
    );
    // The nearest wins, and is the one named; a pyproject.toml by its own name.
    tree.write(
        "a/pyproject.toml",
        "[tool.ragcite]
threshold = 0.7
",
    );
    let doc = check_json(&tree, &tree.dir("a/b"), &[], 1);
    assert_eq!(doc["inputs"]["threshold"], 0.7);
    assert_eq!(
        doc["inputs"]["config"],
        serde_json::json!({"source": "found", "path": "../pyproject.toml"})
    );
    // `--config`: as given.
    tree.write(
        "settings/other.toml",
        "threshold = 0.6
",
    );
    assert_eq!(
        config_in(&tree, &tree.root, &["--config", "settings/other.toml"]),
        serde_json::json!({"source": "given", "path": "settings/other.toml"})
    );
    // `--isolated`: none read, although one lies above.
    let doc = check_json(&tree, &tree.dir("a/b"), &["--isolated"], 1);
    assert_eq!(doc["inputs"]["threshold"], 0.5);
    assert_eq!(
        doc["inputs"]["config"],
        serde_json::json!({"source": "isolated"})
    );
}

#[test]
fn the_batch_document_names_the_config_too() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "[fields]\nanswer = \"outputs.text\"\n");
    let transcript = fields_transcript();
    let batch = |dir: &Path, extra: &[&str]| {
        let mut args = vec!["batch", transcript.as_str(), "--format", "json"];
        args.extend(extra);
        tree.ragcite(dir, args).output()
    };
    let doc = batch(&tree.dir("x"), &[]).json();
    assert_eq!(
        doc["inputs"]["config"],
        serde_json::json!({"source": "found", "path": "../.ragcite.toml"})
    );
    let doc = batch(&tree.dir("x"), &["--isolated"]).json();
    assert_eq!(
        doc["inputs"]["config"],
        serde_json::json!({"source": "isolated"})
    );
}

/// The configuration applied (`config ../.ragcite.toml`) is named by every output of `check`,
/// `batch` and `compare`, not only by the table and the JSON documents: a parent folder's file
/// that changes the verdicts is never hidden.
#[test]
fn every_output_names_the_config_it_applied() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.95\n");
    let dir = tree.dir("w");
    let (answer, chunks) = (answer(), chunks());
    let named = "config ../.ragcite.toml";
    let output = |args: &[&str]| tree.ragcite(&dir, args.to_vec()).output().stdout;
    for format in ["github", "junit", "html", "full", "concise", "table"] {
        let out = output(&["check", &answer, &chunks, "--format", format]);
        assert!(out.contains(named), "check --format {format}: {out}");
        assert!(
            out.contains("threshold 0.95"),
            "check --format {format}: {out}"
        );
    }
    // SARIF: a note, and the invocation's properties.
    let sarif: Value =
        serde_json::from_str(&output(&["check", &answer, &chunks, "--format", "sarif"])).unwrap();
    let invocation = &sarif["runs"][0]["invocations"][0];
    assert_eq!(
        invocation["properties"]["config"],
        serde_json::json!({"source": "found", "path": "../.ragcite.toml"})
    );
    let notes = invocation["toolExecutionNotifications"].to_string();
    assert!(notes.contains(named), "{notes}");
    // GitLab: an `info` entry, since a Code Quality report has no other place.
    let gitlab: Value =
        serde_json::from_str(&output(&["check", &answer, &chunks, "--format", "gitlab"])).unwrap();
    let entry = gitlab
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["check_name"] == "configuration")
        .unwrap_or_else(|| panic!("no configuration entry: {gitlab}"));
    assert_eq!(entry["severity"], "info");
    assert!(entry["description"].as_str().unwrap().contains(named));
    // The API envelope.
    let api: Value =
        serde_json::from_str(&output(&["check", &answer, &chunks, "--format", "api"])).unwrap();
    assert_eq!(
        api["inputs"]["config"],
        serde_json::json!({"source": "found", "path": "../.ragcite.toml"})
    );
    // Batch: JSON Lines' summary line carries the inputs; the CI formats as for check.
    let transcript = path("testdata/compare/a.jsonl").display().to_string();
    let lines = output(&["batch", &transcript, "--format", "jsonl"]);
    let summary: Value = serde_json::from_str(lines.lines().last().unwrap()).unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["inputs"]["config"]["path"], "../.ragcite.toml");
    for format in ["github", "junit", "html", "table"] {
        let out = output(&["batch", &transcript, "--format", format]);
        assert!(out.contains(named), "batch --format {format}: {out}");
    }
    // Compare: both sides were checked with it.
    let b = path("testdata/compare/b.jsonl").display().to_string();
    for format in ["table", "html"] {
        let out = output(&["compare", &transcript, &b, "--format", format]);
        assert!(out.contains(named), "compare --format {format}: {out}");
        assert!(
            out.contains("(both sides)"),
            "compare --format {format}: {out}"
        );
    }
    let doc: Value =
        serde_json::from_str(&output(&["compare", &transcript, &b, "--format", "json"])).unwrap();
    assert_eq!(
        doc["inputs"]["config"],
        serde_json::json!({"source": "found", "path": "../.ragcite.toml"})
    );
    // Isolated, the same outputs say so.
    let out = output(&[
        "check",
        &answer,
        &chunks,
        "--format",
        "github",
        "--isolated",
    ]);
    assert!(out.contains("no config (--isolated)"), "{out}");
    let gitlab = output(&[
        "check",
        &answer,
        &chunks,
        "--format",
        "gitlab",
        "--isolated",
    ]);
    assert!(!gitlab.contains("\"configuration\""), "{gitlab}");
}

// ---------------------------------------------------------------------------------------------
// Keys

#[test]
fn max_uncited_changes_the_gate() {
    let tree = Tree::new();
    // Two uncited claims: over the default limit of 0.
    check_json(&tree, &tree.root, &[], 1);
    tree.write(".ragcite.toml", "max-uncited = 2\n");
    let doc = check_json(&tree, &tree.root, &[], 0);
    assert_eq!(doc["inputs"]["limits"]["maxUncited"], 2);
    assert_eq!(doc["gate"]["passed"], true);
    tree.write(".ragcite.toml", "max-uncited = 1\n");
    let doc = check_json(&tree, &tree.root, &[], 1);
    assert_eq!(doc["gate"]["failures"][0]["limit"], "max-uncited");
    // The command line wins.
    check_json(&tree, &tree.root, &["--max-uncited", "2"], 0);
}

#[test]
fn max_weak_limits_weak_support() {
    let tree = Tree::new();
    tree.write(
        ".ragcite.toml",
        "max-uncited = 2\nmax-weak = 0\nmodel = \"formula\"\n",
    );
    let doc = check_json(&tree, &tree.root, &[], 1);
    assert_eq!(doc["inputs"]["limits"]["maxWeak"], 0);
    let failures = doc["gate"]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0]["limit"], "max-weak");
}

#[test]
fn max_contradicted_and_its_rate_are_keys() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "max-uncited = 2\nmax-contradicted = 3\n");
    let doc = check_json(&tree, &tree.root, &[], 0);
    assert_eq!(doc["inputs"]["limits"]["maxContradicted"], 3);
    // The command line wins.
    let doc = check_json(&tree, &tree.root, &["--max-contradicted", "1"], 0);
    assert_eq!(doc["inputs"]["limits"]["maxContradicted"], 1);
    tree.write(
        ".ragcite.toml",
        "max-contradicted = 2\nmax-contradicted-rate = 0.25\n\n[fields]\nanswer = \"outputs.text\"\ncontexts = \"docs\"\n",
    );
    let transcript = fields_transcript();
    let doc = tree
        .ragcite(&tree.root, ["batch", &transcript, "--format", "json"])
        .output()
        .json();
    let limits = &doc["inputs"]["limits"];
    assert_eq!(limits["perRecord"]["maxContradicted"], 2, "{limits}");
    assert_eq!(limits["maxContradictedRate"], 0.25, "{limits}");
}

#[test]
fn lang_sets_the_language() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "lang = \"fr\"\n");
    let doc = check_json(&tree, &tree.dir("sub"), &[], 1);
    assert_eq!(doc["inputs"]["lang"], "fr");
}

#[test]
fn a_relative_model_path_is_the_files() {
    let tree = Tree::new();
    let model = tree.write("conf/models/constant.json", CONSTANT_MODEL);
    tree.write("conf/.ragcite.toml", "model = \"models/constant.json\"\n");
    // Found from a folder below: the path is from the file's folder, not the working directory.
    let doc = check_json(&tree, &tree.dir("conf/sub"), &[], 1);
    assert_eq!(doc["inputs"]["model"], model.display().to_string());
    assert_eq!(doc["result"]["sentences"][0]["support"], 0.9526);
    // Named with --config, relative to the working directory.
    let doc = check_json(&tree, &tree.root, &["--config", "conf/.ragcite.toml"], 1);
    assert_eq!(doc["inputs"]["model"], "conf/models/constant.json");
    // And for batch.
    let transcript = fields_transcript();
    let doc = tree
        .ragcite(
            &tree.dir("conf/sub"),
            ["batch", &transcript, "--format", "json"],
        )
        .json(1);
    assert_eq!(doc["inputs"]["model"], model.display().to_string());
    // `formula` is a name, not a path; the command line's path is the working directory's.
    tree.write("conf/.ragcite.toml", "model = \"formula\"\n");
    let doc = check_json(&tree, &tree.dir("conf/sub"), &[], 1);
    assert_eq!(doc["inputs"]["model"], "formula");
    let doc = check_json(
        &tree,
        &tree.dir("conf"),
        &["--model", "models/constant.json"],
        1,
    );
    assert_eq!(doc["inputs"]["model"], "models/constant.json");
    // A missing file is named as the file resolved it.
    tree.write("conf/.ragcite.toml", "model = \"nowhere.json\"\n");
    let (answer, chunks) = (answer(), chunks());
    let line = tree
        .ragcite(&tree.dir("conf/sub"), ["check", &answer, &chunks])
        .input_error();
    assert!(
        line.contains(&tree.root.join("conf/nowhere.json").display().to_string()),
        "{line}"
    );
}

#[test]
fn format_json_makes_the_output_json() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "format = \"json\"\n");
    let (answer, chunks) = (answer(), chunks());
    let doc = tree
        .ragcite(&tree.root, ["check", &answer, &chunks])
        .json(1);
    assert_eq!(doc["schemaVersion"], "3.5");
    // `--format table` on the command line wins.
    let table = tree
        .ragcite(
            &tree.root,
            [
                "check", &answer, &chunks, "--format", "table", "--color", "never",
            ],
        )
        .stdout(1);
    assert!(serde_json::from_str::<Value>(&table).is_err());
    assert!(
        table
            .lines()
            .last()
            .unwrap()
            .starts_with("FAIL · 4 sentences"),
        "{table}"
    );
    // And for batch.
    let transcript = fields_transcript();
    let doc = tree.ragcite(&tree.root, ["batch", &transcript]).json(1);
    assert!(doc["records"].is_array(), "{doc}");
}

#[test]
fn fields_point_batch_elsewhere() {
    let tree = Tree::new();
    tree.write(
        ".ragcite.toml",
        "max-uncited-rate = 0.05\n\n[fields]\nanswer = \"outputs.text\"\ncontexts = \"docs\"\nid = \"key\"\n",
    );
    let transcript = fields_transcript();
    let doc = tree
        .ragcite(&tree.root, ["batch", &transcript, "--format", "json"])
        .json(0);
    let ids: Vec<&str> = doc["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().expect("every record is read"))
        .collect();
    assert_eq!(ids, ["f1", "f2"]);
    assert_eq!(
        doc["inputs"]["fields"]["answer"],
        serde_json::json!(["outputs.text"])
    );
    assert_eq!(doc["inputs"]["limits"]["maxUncitedRate"], 0.05);

    // A --field on the command line wins for its key.
    let doc = tree
        .ragcite(
            &tree.root,
            [
                "batch",
                &transcript,
                "--format",
                "json",
                "--field",
                "answer=outputs.missing",
            ],
        )
        .json(1);
    assert_eq!(
        doc["inputs"]["fields"]["answer"],
        serde_json::json!(["outputs.missing"])
    );
    assert_eq!(doc["inputs"]["fields"]["id"], serde_json::json!(["key"]));
    assert_eq!(doc["aggregate"]["badRecords"], 2);

    // Without the file, none of the records has an answer under the aliases.
    let doc = tree
        .ragcite(
            &tree.root,
            ["batch", &transcript, "--format", "json", "--isolated"],
        )
        .json(1);
    assert_eq!(doc["aggregate"]["badRecords"], 2);

    // `check` ignores [fields] and the batch-only keys.
    check_json(&tree, &tree.root, &[], 1);
}

#[test]
fn pyproject_fields_table() {
    let tree = Tree::new();
    tree.write(
        "pyproject.toml",
        "[tool.ragcite]\nthreshold = 0.6\n\n[tool.ragcite.fields]\nanswer = \"outputs.text\"\n\
         contexts = [\"docs\"]\n",
    );
    let transcript = fields_transcript();
    let doc = tree
        .ragcite(&tree.root, ["batch", &transcript, "--format", "json"])
        .json(0);
    assert_eq!(doc["inputs"]["threshold"], 0.6);
    assert_eq!(doc["aggregate"]["checked"], 2);
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn an_unknown_key_is_an_error() {
    let (file, out) = check_with_config("threshold = 0.6\ncolour = \"never\"\n");
    assert_config_error(
        out,
        &file,
        &[
            "unknown key `colour`",
            "allowed: ",
            "color",
            "threshold",
            "[fields]",
        ],
    );
}

#[test]
fn a_threshold_out_of_range_is_an_error() {
    let (file, out) = check_with_config("threshold = 1.5\n");
    assert_config_error(out, &file, &["key `threshold`", "outside 0.1..1"]);
}

#[test]
fn an_unknown_language_is_an_error() {
    let (file, out) = check_with_config("lang = \"xx\"\n");
    assert_config_error(
        out,
        &file,
        &["key `lang`", "invalid value `xx`", "allowed: ", "en", "fr"],
    );
}

#[test]
fn a_string_where_a_number_is_wanted_is_an_error() {
    let (file, out) = check_with_config("threshold = \"high\"\n");
    assert_config_error(out, &file, &["key `threshold`", "`high` is not a number"]);
    let (file, out) = check_with_config("max-uncited = \"two\"\n");
    assert_config_error(out, &file, &["key `max-uncited`", "two"]);
    let (file, out) = check_with_config("max-uncited = [1]\n");
    assert_config_error(
        out,
        &file,
        &[
            "key `max-uncited`",
            "expected a number, a string or true/false",
        ],
    );
}

#[test]
fn invalid_toml_names_the_line() {
    let (file, out) = check_with_config("threshold = 0.6\nlang = \"en\"\nmax-uncited = = 2\n");
    assert_config_error(out, &file, &["invalid TOML at line 3"]);
}

#[test]
fn an_unknown_field_is_an_error() {
    let (file, out) = check_with_config("[fields]\nquestion = \"user_input\"\n");
    assert_config_error(
        out,
        &file,
        &[
            "key `fields.question`",
            "unknown field",
            "allowed: answer, contexts, id",
        ],
    );
    let (file, out) = check_with_config("[fields]\nanswer = 3\n");
    assert_config_error(
        out,
        &file,
        &[
            "key `fields.answer`",
            "expected a string or a list of strings",
        ],
    );
}

#[test]
fn errors_stop_batch_too() {
    let tree = Tree::new();
    let file = tree.write(".ragcite.toml", "max-uncited-rate = 2\n");
    let transcript = fields_transcript();
    let out = tree
        .ragcite(&tree.dir("sub"), ["batch", &transcript])
        .output();
    assert_config_error(out, &file, &["key `max-uncited-rate`", "outside 0..1"]);
}

#[test]
fn config_on_a_missing_file_is_an_error() {
    let tree = Tree::new();
    let missing = tree.root.join("missing.toml");
    let (answer, chunks) = (answer(), chunks());
    let out = tree
        .ragcite(
            &tree.root,
            [
                "check",
                &answer,
                &chunks,
                "--config",
                missing.to_str().unwrap(),
            ],
        )
        .output();
    assert_config_error(out, &missing, &["cannot read"]);
}

#[test]
fn config_on_a_pyproject_without_tool_ragcite_is_an_error() {
    let tree = Tree::new();
    let file = tree.write("pyproject.toml", "[project]\nname = \"x\"\n");
    let (answer, chunks) = (answer(), chunks());
    let out = tree
        .ragcite(
            &tree.root,
            [
                "check",
                &answer,
                &chunks,
                "--config",
                file.to_str().unwrap(),
            ],
        )
        .output();
    assert_config_error(out, &file, &["has no [tool.ragcite] table"]);
}

#[test]
fn config_and_isolated_together_are_a_usage_error() {
    let tree = Tree::new();
    let file = tree.write("other.toml", "threshold = 0.7\n");
    let (answer, chunks) = (answer(), chunks());
    let out = tree
        .ragcite(
            &tree.root,
            [
                "check",
                &answer,
                &chunks,
                "--config",
                file.to_str().unwrap(),
                "--isolated",
            ],
        )
        .output();
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("--isolated"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// The runner: every other test relies on it to keep configuration out

/// The arguments a run gives the binary.
fn argv(run: &Run) -> Vec<String> {
    run.argv()
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn the_runner_adds_isolated_once_to_check_and_batch_unless_asked_not_to() {
    assert_eq!(
        argv(&ragcite(["check", "a.md", "c.json", "--format"])),
        ["check", "--isolated", "a.md", "c.json", "--format"]
    );
    assert_eq!(
        argv(&ragcite(["batch", "--", "-odd.jsonl"])),
        ["batch", "--isolated", "--", "-odd.jsonl"]
    );
    for asked in [
        vec!["check", "a.md", "c.json", "--isolated"],
        vec!["check", "a.md", "c.json", "--config", "other.toml"],
        vec!["batch", "r.jsonl", "--config=other.toml"],
        vec!["quote", "d.txt", "a quote"],
        vec!["eval", "labelled.jsonl"],
        vec!["explain", "misquote"],
        vec!["--version"],
    ] {
        assert_eq!(argv(&ragcite(&asked)), asked);
    }
    let tree = Tree::new();
    assert_eq!(
        argv(&tree.ragcite(&tree.root, ["check", "a.md", "c.json"])),
        ["check", "a.md", "c.json"]
    );
}

#[test]
fn the_runner_keeps_a_configuration_above_the_working_directory_out() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\nformat = \"json\"\n");
    let checkout = tree.dir("checkout");
    let (answer, chunks) = (answer(), chunks());
    // The defaults, as if the file were not there: a table, at the threshold of 0.5.
    let table = ragcite(["check", &answer, &chunks, "--color", "never"])
        .in_dir(&checkout)
        .stdout(1);
    assert!(table.starts_with('┌'), "{table}");
    let doc = ragcite(["check", &answer, &chunks, "--format", "json"])
        .in_dir(&checkout)
        .json(1);
    assert_eq!(doc["inputs"]["threshold"], 0.5);
    let table = ragcite(["batch", &fields_transcript(), "--color", "never"])
        .in_dir(&checkout)
        .stdout(1);
    assert!(table.starts_with('┌'), "{table}");
    // With discovery, the file is found (what the runner keeps out).
    let doc = tree.ragcite(&checkout, ["check", &answer, &chunks]).json(1);
    assert_eq!(doc["inputs"]["threshold"], 0.9);
}

// ---------------------------------------------------------------------------------------------
// Bugs

#[test]
fn a_batch_only_format_does_not_break_check() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "format = \"jsonl\"\n");
    // batch takes it.
    let transcript = fields_transcript();
    let out = tree.ragcite(&tree.root, ["batch", &transcript]).output();
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    // check, told its format on the command line, should not be stopped by the file's value.
    // Today: exit 2, `.ragcite.toml: key `format`: invalid value `jsonl` (allowed: table,
    // json, sarif, github, gitlab, junit)`.
    let doc = check_json(&tree, &tree.root, &[], 1);
    assert_eq!(doc["inputs"]["threshold"], 0.5);
}
