//! End-to-end tests of the configuration file: discovery (`.ragcite.toml`, `ragcite.toml`,
//! `[tool.ragcite]` in `pyproject.toml`, walking up from the working directory), `--config`,
//! `--isolated`, the precedence of the command line, each kind of key, and the errors.
//!
//! Each test builds its own directory tree in a temporary directory and runs the binary from
//! inside it; fixtures (`testdata/config/`) are named by absolute path.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// An answer with 1 supported sentence, 2 uncited claims and 1 weakly supported sentence (at
/// the default threshold; unsupported at 0.9).
fn answer() -> String {
    format!("{}/testdata/config/answer.md", env!("CARGO_MANIFEST_DIR"))
}

fn chunks() -> String {
    format!("{}/testdata/config/chunks.json", env!("CARGO_MANIFEST_DIR"))
}

/// Two records with their answer in `outputs.text`, contexts in `docs` and id in `key`.
fn fields_transcript() -> String {
    format!(
        "{}/testdata/config/fields.jsonl",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// A temporary directory tree; paths are canonical, as the binary sees its working directory.
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path().canonicalize().unwrap();
        Tree { _dir: dir, root }
    }

    /// Writes `text` to `relative` (creating its directories) and returns its path.
    fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Creates a directory and returns its path.
    fn dir(&self, relative: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(&path).unwrap();
        path
    }
}

/// `ragcite <args>` run in `dir`, without colour variables, 120 columns wide.
fn ragcite_in(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("ragcite").expect("the ragcite binary is built");
    cmd.current_dir(dir)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .env("COLUMNS", "120")
        .args(args);
    cmd
}

struct Out {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(mut cmd: Command) -> Out {
    let output = cmd.output().expect("ragcite runs");
    Out {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs, asserts the exit code and an empty stderr, returns stdout.
fn stdout_of(cmd: Command, code: i32) -> String {
    let out = run(cmd);
    assert_eq!(
        out.code,
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        out.stdout,
        out.stderr
    );
    assert_eq!(out.stderr, "", "nothing on stderr");
    out.stdout
}

fn parse(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: not JSON:\n{stdout}"))
}

/// `check ANSWER CHUNKS --format json <args>` in `dir`, parsed, with the exit code asserted.
fn check_json(dir: &Path, args: &[&str], code: i32) -> Value {
    let (answer, chunks) = (answer(), chunks());
    let mut all = vec![
        "check",
        answer.as_str(),
        chunks.as_str(),
        "--format",
        "json",
    ];
    all.extend_from_slice(args);
    parse(&stdout_of(ragcite_in(dir, &all), code))
}

/// The threshold `check` used, run in `dir` with `args`.
fn threshold_in(dir: &Path, args: &[&str]) -> f64 {
    // Exit 1: the answer's uncited claims fail the default limits.
    check_json(dir, args, 1)["inputs"]["threshold"]
        .as_f64()
        .expect("inputs.threshold is a number")
}

/// Asserts a configuration error: exit 2, nothing on stdout, one line on stderr that starts
/// with `ragcite: error: FILE` and holds each of `parts`.
fn assert_config_error(out: &Out, file: &Path, parts: &[&str]) {
    assert_eq!(out.code, Some(2), "stderr: {}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr.lines().count(), 1, "one line: {}", out.stderr);
    let prefix = format!("ragcite: error: {}", file.display());
    assert!(out.stderr.starts_with(&prefix), "{}", out.stderr);
    for part in parts {
        assert!(out.stderr.contains(part), "{part:?} in {}", out.stderr);
    }
}

/// `check` in a tree whose root holds `.ragcite.toml` with `text`; returns the file's path
/// and what the run gave.
fn check_with_config(text: &str) -> (PathBuf, Out) {
    let tree = Tree::new();
    let file = tree.write(".ragcite.toml", text);
    let (answer, chunks) = (answer(), chunks());
    let out = run(ragcite_in(&tree.root, &["check", &answer, &chunks]));
    (file, out)
}

// ---------------------------------------------------------------------------------------------
// Discovery and precedence

#[test]
fn a_config_above_the_working_directory_is_found() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    let nested = tree.dir("project/src/deep");
    let doc = check_json(&nested, &[], 1);
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
    assert_eq!(threshold_in(&nested, &["--threshold", "0.6"]), 0.6);
    assert_eq!(threshold_in(&nested, &["--threshold=0.7"]), 0.7);
}

#[test]
fn isolated_ignores_the_file() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    let nested = tree.dir("a/b");
    assert_eq!(threshold_in(&nested, &["--isolated"]), 0.5);
}

#[test]
fn config_names_another_file() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    let other = tree.write("settings/other.toml", "threshold = 0.7\n");
    let nested = tree.dir("a/b");
    let other = other.to_str().unwrap();
    assert_eq!(threshold_in(&nested, &["--config", other]), 0.7);
    assert_eq!(threshold_in(&nested, &[&format!("--config={other}")]), 0.7);
    // Relative to the working directory.
    assert_eq!(
        threshold_in(&tree.root, &["--config", "settings/other.toml"]),
        0.7
    );
}

#[test]
fn ragcite_toml_is_found() {
    let tree = Tree::new();
    tree.write("ragcite.toml", "threshold = 0.8\n");
    assert_eq!(threshold_in(&tree.dir("a"), &[]), 0.8);
}

#[test]
fn pyproject_tool_ragcite_is_found() {
    let tree = Tree::new();
    tree.write(
        "pyproject.toml",
        "[project]\nname = \"rag-app\"\nversion = \"0.1.0\"\n\n[tool.ragcite]\nthreshold = 0.8\n\
         lang = \"de\"\n\n[tool.ruff]\nline-length = 100\n",
    );
    let doc = check_json(&tree.dir("a/b"), &[], 1);
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
    assert_eq!(threshold_in(&tree.dir("app/src"), &[]), 0.9);
    assert_eq!(threshold_in(&tree.dir("app"), &[]), 0.9);
}

#[test]
fn the_nearest_file_wins() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "threshold = 0.9\n");
    tree.write("app/ragcite.toml", "threshold = 0.7\n");
    assert_eq!(threshold_in(&tree.dir("app/src"), &[]), 0.7);
    assert_eq!(threshold_in(&tree.root, &[]), 0.9);
}

#[test]
fn in_one_directory_dot_ragcite_then_ragcite_then_pyproject() {
    let tree = Tree::new();
    tree.write("pyproject.toml", "[tool.ragcite]\nthreshold = 0.6\n");
    assert_eq!(threshold_in(&tree.root, &[]), 0.6);
    tree.write("ragcite.toml", "threshold = 0.7\n");
    assert_eq!(threshold_in(&tree.root, &[]), 0.7);
    tree.write(".ragcite.toml", "threshold = 0.8\n");
    assert_eq!(threshold_in(&tree.root, &[]), 0.8);
}

// ---------------------------------------------------------------------------------------------
// Keys

#[test]
fn max_uncited_changes_the_gate() {
    let tree = Tree::new();
    // Two uncited claims: over the default limit of 0.
    check_json(&tree.root, &[], 1);
    tree.write(".ragcite.toml", "max-uncited = 2\n");
    let doc = check_json(&tree.root, &[], 0);
    assert_eq!(doc["inputs"]["limits"]["maxUncited"], 2);
    assert_eq!(doc["gate"]["passed"], true);
    tree.write(".ragcite.toml", "max-uncited = 1\n");
    let doc = check_json(&tree.root, &[], 1);
    assert_eq!(doc["gate"]["failures"][0]["limit"], "max-uncited");
    // The command line wins.
    check_json(&tree.root, &["--max-uncited", "2"], 0);
}

#[test]
fn max_weak_limits_weak_support() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "max-uncited = 2\nmax-weak = 0\n");
    let doc = check_json(&tree.root, &[], 1);
    assert_eq!(doc["inputs"]["limits"]["maxWeak"], 0);
    let failures = doc["gate"]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0]["limit"], "max-weak");
}

#[test]
fn lang_sets_the_language() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "lang = \"fr\"\n");
    let doc = check_json(&tree.dir("sub"), &[], 1);
    assert_eq!(doc["inputs"]["lang"], "fr");
}

#[test]
fn format_json_makes_the_output_json() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "format = \"json\"\n");
    let (answer, chunks) = (answer(), chunks());
    let stdout = stdout_of(ragcite_in(&tree.root, &["check", &answer, &chunks]), 1);
    assert_eq!(parse(&stdout)["schemaVersion"], "1.3");
    // `--format table` on the command line wins.
    let table = stdout_of(
        ragcite_in(
            &tree.root,
            &[
                "check", &answer, &chunks, "--format", "table", "--color", "never",
            ],
        ),
        1,
    );
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
    let stdout = stdout_of(ragcite_in(&tree.root, &["batch", &transcript]), 1);
    assert!(parse(&stdout)["records"].is_array(), "{stdout}");
}

#[test]
fn fields_point_batch_elsewhere() {
    let tree = Tree::new();
    tree.write(
        ".ragcite.toml",
        "max-uncited-rate = 0.05\n\n[fields]\nanswer = \"outputs.text\"\ncontexts = \"docs\"\nid = \"key\"\n",
    );
    let transcript = fields_transcript();
    let doc = parse(&stdout_of(
        ragcite_in(&tree.root, &["batch", &transcript, "--format", "json"]),
        0,
    ));
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
    let doc = parse(&stdout_of(
        ragcite_in(
            &tree.root,
            &[
                "batch",
                &transcript,
                "--format",
                "json",
                "--field",
                "answer=outputs.missing",
            ],
        ),
        1,
    ));
    assert_eq!(
        doc["inputs"]["fields"]["answer"],
        serde_json::json!(["outputs.missing"])
    );
    assert_eq!(doc["inputs"]["fields"]["id"], serde_json::json!(["key"]));
    assert_eq!(doc["aggregate"]["badRecords"], 2);

    // Without the file, none of the records has an answer under the aliases.
    let doc = parse(&stdout_of(
        ragcite_in(
            &tree.root,
            &["batch", &transcript, "--format", "json", "--isolated"],
        ),
        1,
    ));
    assert_eq!(doc["aggregate"]["badRecords"], 2);

    // `check` ignores [fields] and the batch-only keys.
    check_json(&tree.root, &[], 1);
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
    let doc = parse(&stdout_of(
        ragcite_in(&tree.root, &["batch", &transcript, "--format", "json"]),
        0,
    ));
    assert_eq!(doc["inputs"]["threshold"], 0.6);
    assert_eq!(doc["aggregate"]["checked"], 2);
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn an_unknown_key_is_an_error() {
    let (file, out) = check_with_config("threshold = 0.6\ncolour = \"never\"\n");
    assert_config_error(
        &out,
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
    assert_config_error(&out, &file, &["key `threshold`", "outside 0.1..1"]);
}

#[test]
fn an_unknown_language_is_an_error() {
    let (file, out) = check_with_config("lang = \"xx\"\n");
    assert_config_error(
        &out,
        &file,
        &["key `lang`", "invalid value `xx`", "allowed: ", "en", "fr"],
    );
}

#[test]
fn a_string_where_a_number_is_wanted_is_an_error() {
    let (file, out) = check_with_config("threshold = \"high\"\n");
    assert_config_error(&out, &file, &["key `threshold`", "`high` is not a number"]);
    let (file, out) = check_with_config("max-uncited = \"two\"\n");
    assert_config_error(&out, &file, &["key `max-uncited`", "two"]);
    let (file, out) = check_with_config("max-uncited = [1]\n");
    assert_config_error(
        &out,
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
    assert_config_error(&out, &file, &["invalid TOML at line 3"]);
}

#[test]
fn an_unknown_field_is_an_error() {
    let (file, out) = check_with_config("[fields]\nquestion = \"user_input\"\n");
    assert_config_error(
        &out,
        &file,
        &[
            "key `fields.question`",
            "unknown field",
            "allowed: answer, contexts, id",
        ],
    );
    let (file, out) = check_with_config("[fields]\nanswer = 3\n");
    assert_config_error(
        &out,
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
    let out = run(ragcite_in(&tree.dir("sub"), &["batch", &transcript]));
    assert_config_error(&out, &file, &["key `max-uncited-rate`", "outside 0..1"]);
}

#[test]
fn config_on_a_missing_file_is_an_error() {
    let tree = Tree::new();
    let missing = tree.root.join("missing.toml");
    let (answer, chunks) = (answer(), chunks());
    let out = run(ragcite_in(
        &tree.root,
        &[
            "check",
            &answer,
            &chunks,
            "--config",
            missing.to_str().unwrap(),
        ],
    ));
    assert_config_error(&out, &missing, &["cannot read"]);
}

#[test]
fn config_on_a_pyproject_without_tool_ragcite_is_an_error() {
    let tree = Tree::new();
    let file = tree.write("pyproject.toml", "[project]\nname = \"x\"\n");
    let (answer, chunks) = (answer(), chunks());
    let out = run(ragcite_in(
        &tree.root,
        &[
            "check",
            &answer,
            &chunks,
            "--config",
            file.to_str().unwrap(),
        ],
    ));
    assert_config_error(&out, &file, &["has no [tool.ragcite] table"]);
}

#[test]
fn config_and_isolated_together_are_a_usage_error() {
    let tree = Tree::new();
    let file = tree.write("other.toml", "threshold = 0.7\n");
    let (answer, chunks) = (answer(), chunks());
    let out = run(ragcite_in(
        &tree.root,
        &[
            "check",
            &answer,
            &chunks,
            "--config",
            file.to_str().unwrap(),
            "--isolated",
        ],
    ));
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("--isolated"), "{}", out.stderr);
}

// ---------------------------------------------------------------------------------------------
// Bugs

#[test]
fn a_batch_only_format_does_not_break_check() {
    let tree = Tree::new();
    tree.write(".ragcite.toml", "format = \"jsonl\"\n");
    // batch takes it.
    let transcript = fields_transcript();
    let out = run(ragcite_in(&tree.root, &["batch", &transcript]));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stdout
            .lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    // check, told its format on the command line, should not be stopped by the file's value.
    // Today: exit 2, `.ragcite.toml: key `format`: invalid value `jsonl` (allowed: table,
    // json, sarif, github, gitlab, junit)`.
    let doc = check_json(&tree.root, &[], 1);
    assert_eq!(doc["inputs"]["threshold"], 0.5);
}
