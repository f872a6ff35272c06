//! `ragcite train` on the real binary: the model it writes is one `check` and `eval` accept,
//! the same files give the same bytes, and bad input is one error line, exit 2, and no file.
//! The labelled files are made up by `testdata/train/make.py`.

use std::path::{Path, PathBuf};

use crate::util::{Output, ragcite};

const LABELLED: &str = "testdata/train/labelled.jsonl";
const HELD_OUT: &str = "testdata/train/held-out.jsonl";

/// `ragcite train <files> -o <out> <args>`.
fn train(files: &[&str], out: &Path, args: &[&str]) -> Output {
    ragcite(["train"])
        .args(files)
        .args(["-o".as_ref(), out.as_os_str()])
        .args(args)
        .output()
}

/// Trains on the labelled file into a new temporary folder; gives the folder and the file.
fn trained(args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("model.json");
    let run = train(&[LABELLED], &out, args).exits(0);
    assert_eq!(run.stdout, "", "stdout of `{}`", run.what);
    let summary = run.stderr.strip_suffix('\n').expect("one line");
    assert!(!summary.contains('\n'), "{summary:?}");
    assert!(
        summary.starts_with("ragcite: trained on 60 units (31 supported), threshold 0.")
            && summary.ends_with(&format!("wrote {}", out.display())),
        "{summary}"
    );
    (dir, out)
}

/// The files in a folder, by name.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn the_model_is_one_line_of_json_that_check_and_eval_accept() {
    let (_dir, model) = trained(&[]);
    let text = std::fs::read_to_string(&model).expect("the model file");
    assert_eq!(text.lines().count(), 1);
    let file: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(file["format"], "ragcite-support-model");
    assert_eq!(file["kind"], "trees");
    assert_eq!(file["trees"].as_array().map(Vec::len), Some(100));
    let description = file["description"].as_str().unwrap();
    assert!(
        description.starts_with(
            "trees depth=2 n=100 rate=0.05 leaf=20, fitted by ragcite train on 60 units"
        ),
        "{description}"
    );

    let check = ragcite([
        "check",
        "testdata/eiffel/answer.md",
        "testdata/eiffel/chunks.json",
    ])
    .args([
        "--format".as_ref(),
        "json".as_ref(),
        "--model".as_ref(),
        model.as_os_str(),
    ])
    .output();
    assert!(matches!(check.code, Some(0 | 1)), "{check:?}");
    assert_eq!(check.stderr, "");
    assert!(check.json()["result"]["sentences"].is_array());

    let eval = ragcite(["eval", HELD_OUT, "--format", "json", "--model"])
        .args([model.as_os_str()])
        .json(0);
    // Shipped first, then the trained model beside it.
    assert_eq!(eval["groups"][0]["model"], "shipped");
    let agreement = &eval["groups"][1]["agreement"];
    assert_eq!(eval["groups"][1]["model"], model.to_str().unwrap());
    assert_eq!(agreement["sentences"], 24);
    assert!(agreement["rocAuc"].as_f64().unwrap() > 0.9, "{agreement}");
}

#[test]
fn training_twice_gives_the_same_bytes() {
    let options = [
        "--trees",
        "40",
        "--depth",
        "3",
        "--learning-rate",
        "0.1",
        "--min-leaf",
        "5",
    ];
    let (_a, first) = trained(&options);
    let (_b, second) = trained(&options);
    let first = std::fs::read(first).unwrap();
    assert_eq!(first, std::fs::read(second).unwrap());
    let text = String::from_utf8(first).unwrap();
    assert!(
        text.contains("trees depth=3 n=40 rate=0.1 leaf=5"),
        "{text}"
    );
}

#[test]
fn several_files_and_lenient_labels_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("both.json");
    let run = train(&[LABELLED, HELD_OUT], &out, &["--lenient"]).exits(0);
    assert!(run.stderr.contains("trained on 84 units"), "{}", run.stderr);
}

#[test]
fn bad_input_is_one_line_exit_2_and_no_file() {
    for (file, wanted) in [
        (
            "testdata/train/one-class.jsonl",
            "testdata/train/one-class.jsonl: cannot train: all 12 labelled units are supported",
        ),
        (
            "testdata/train/uncited.jsonl",
            "testdata/train/uncited.jsonl: cannot train: no labelled unit with features",
        ),
        (
            "testdata/train/array.json",
            "testdata/train/array.json: line 1: invalid JSON",
        ),
        (
            "testdata/train/missing.jsonl",
            "testdata/train/missing.jsonl: cannot read",
        ),
        (
            "crates/ragcite/src/support/model/model.json",
            "line 1: the record has no `chunks`",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("model.json");
        let line = ragcite(["train", file, "-o"])
            .args([out.as_os_str()])
            .input_error();
        assert!(line.contains(wanted), "{line} (wanted {wanted})");
        assert!(
            names_in(dir.path()).is_empty(),
            "{file}: left {:?}",
            names_in(dir.path())
        );
    }
}

#[test]
fn an_empty_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "\n").unwrap();
    let out = dir.path().join("model.json");
    let line = ragcite([
        "train".as_ref(),
        empty.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ])
    .input_error();
    assert!(line.contains("empty.jsonl: no records"), "{line}");
    assert_eq!(names_in(dir.path()), ["empty.jsonl"]);
}

#[test]
fn a_failed_train_leaves_an_earlier_file_alone() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("model.json");
    std::fs::write(&out, "earlier").unwrap();
    train(&["testdata/train/one-class.jsonl"], &out, &[]).exits(2);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier");
    assert_eq!(names_in(dir.path()), ["model.json"]);
}

#[test]
fn an_output_folder_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let line = ragcite(["train", LABELLED, "-o"])
        .args([dir.path().as_os_str()])
        .input_error();
    assert!(line.ends_with("is a directory, not a file"), "{line}");
    assert!(names_in(dir.path()).is_empty());
}

#[test]
fn options_out_of_range_are_usage_errors() {
    for (option, value) in [
        ("--depth", "0"),
        ("--depth", "9"),
        ("--trees", "0"),
        ("--trees", "5001"),
        ("--learning-rate", "0"),
        ("--learning-rate", "1.5"),
        ("--learning-rate", "x"),
        ("--min-leaf", "0"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("model.json");
        let stderr = train(&[LABELLED], &out, &[option, value]).usage_error();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(option), "{stderr}");
        assert!(names_in(dir.path()).is_empty());
    }
    let line = ragcite(["train", LABELLED]).usage_error();
    assert!(line.contains("--output"), "{line}");
}

/// Issue 38: a label that is no boolean was dropped and a model written; now the record is bad
/// and nothing is written. `null` is "not judged": skipped, and said.
#[test]
fn labels_that_are_no_booleans_stop_the_training() {
    let dir = tempfile::tempdir().unwrap();
    let labelled = std::fs::read_to_string(LABELLED).expect("the labelled file");
    let first = labelled.lines().next().expect("a line");
    let broken = first
        .replacen("\"label\": true", "\"label\": \"true\"", 1)
        .replacen("\"label\": false", "\"label\": 0", 1);
    assert_ne!(broken, first, "the first line has a label");
    let file = dir.path().join("broken.jsonl");
    std::fs::write(&file, format!("{broken}\n{labelled}")).unwrap();
    let out = dir.path().join("model.json");
    let line = ragcite([
        "train".as_ref(),
        file.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ])
    .input_error();
    assert!(
        line.contains("broken.jsonl: line 1: `sentences[0].label` is a"),
        "{line}"
    );
    assert!(
        line.contains("every record must be read to train"),
        "{line}"
    );
    assert!(!out.exists());
    let unjudged = first
        .replacen("\"label\": true", "\"label\": null", 1)
        .replacen("\"label\": false", "\"label\": null", 1);
    std::fs::write(&file, format!("{unjudged}\n{labelled}")).unwrap();
    let run = train(&[file.to_str().unwrap()], &out, &[]).exits(0);
    assert!(run.stderr.contains("trained on 60 units"), "{}", run.stderr);
    assert!(
        run.stderr.contains("not judged (label null)"),
        "{}",
        run.stderr
    );
}
