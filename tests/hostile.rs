//! Hostile inputs against the real binary: huge, deep, binary, unreadable and special files,
//! batches that break part way, and inputs built to make the work super-linear.
//!
//! Every run is a child process with a timeout (60 s by default, `RAGCITE_HOSTILE_TIMEOUT` in
//! seconds to change it), killed when it runs over; every test asserts the exit code, that
//! there was no panic, and, for input errors, that standard error is exactly one line naming the
//! file. Inputs are generated into a temporary directory.
//!
//! Each test prints how long its runs took (`cargo test --test hostile -- --nocapture`). The
//! largest inputs are scaled down on a debug build, so that the file stays within about a minute;
//! set `RAGCITE_HOSTILE_FULL=1` (or build with `--release`) for the full sizes, and
//! `RAGCITE_BIN=target/release/ragcite` to run another binary than the one Cargo built for the
//! tests.
//!
//! Tests marked `#[ignore = "bug: ..."]` show bugs that are not fixed yet; run them with
//! `cargo test --test hostile -- --ignored --nocapture`.

// Test programs: they may say what they skipped.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

// The runner of the CLI tests, for the command it builds: isolated from configuration files, with
// a clean environment. This file runs it itself, to time it and kill it.
#[path = "cli/util.rs"]
#[allow(dead_code, reason = "tests/cli/ uses the rest")]
mod util;

// ---------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------

/// The binary under test: `RAGCITE_BIN`, or the one Cargo built with the tests.
fn binary() -> PathBuf {
    match std::env::var_os("RAGCITE_BIN") {
        Some(path) => fs::canonicalize(&path).unwrap_or_else(|_| PathBuf::from(path)),
        None => PathBuf::from(env!("CARGO_BIN_EXE_ragcite")),
    }
}

/// Whether to use the full input sizes (release build, or `RAGCITE_HOSTILE_FULL=1`).
fn full_size() -> bool {
    !cfg!(debug_assertions) || std::env::var("RAGCITE_HOSTILE_FULL").is_ok_and(|v| v == "1")
}

/// `full` bytes (or items) with the full sizes, else `scaled`.
fn size(full: usize, scaled: usize) -> usize {
    if full_size() { full } else { scaled }
}

fn timeout() -> Duration {
    let secs = std::env::var("RAGCITE_HOSTILE_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    Duration::from_secs(secs)
}

/// What a run of the binary gave.
struct Outcome {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: String,
    elapsed: Duration,
    timed_out: bool,
    what: String,
}

impl Outcome {
    fn stdout_text(&self) -> &str {
        std::str::from_utf8(&self.stdout).expect("stdout is UTF-8")
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.stdout)
            .unwrap_or_else(|e| panic!("{}: stdout is not one JSON document: {e}", self.what))
    }

    fn secs(&self) -> f64 {
        self.elapsed.as_secs_f64()
    }
}

/// Waits for `child`, killing it after the timeout.
fn wait(child: &mut Child, started: Instant) -> (Option<i32>, bool) {
    let limit = timeout();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for ragcite") {
            return (status.code(), false);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let status = child.wait().expect("waiting for the killed ragcite");
            return (status.code(), true);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// `ragcite <args>` in `dir`, as the CLI tests' runner builds it (`--isolated` added to `check`
/// and `batch`, the environment cleaned).
fn command_in(dir: &Path, args: &[&str]) -> util::Run {
    util::ragcite(args).in_dir(dir).program(binary())
}

/// Runs `ragcite <args>` in `dir`, with standard output and error sent to files (outputs may be
/// larger than a pipe holds) and `stdin` written from a thread.
fn run_in(dir: &Path, args: &[&str], stdin: Option<Vec<u8>>) -> Outcome {
    let run = command_in(dir, args);
    let what = run.what();
    let out_path = dir.join(format!(".stdout-{}", std::process::id()));
    let err_path = dir.join(format!(".stderr-{}", std::process::id()));
    let started = Instant::now();
    let mut child = run
        .command()
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(fs::File::create(&out_path).unwrap())
        .stderr(fs::File::create(&err_path).unwrap())
        .spawn()
        .expect("ragcite starts");
    let writer = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let (code, timed_out) = wait(&mut child, started);
    let elapsed = started.elapsed();
    if let Some(writer) = writer {
        let _ = writer.join();
    }
    let stdout = fs::read(&out_path).unwrap();
    let stderr = String::from_utf8_lossy(&fs::read(&err_path).unwrap()).into_owned();
    let _ = fs::remove_file(&out_path);
    let _ = fs::remove_file(&err_path);
    Outcome {
        code,
        stdout,
        stderr,
        elapsed,
        timed_out,
        what,
    }
}

/// `ragcite check ANSWER CHUNKS --format json` in `dir`.
fn check_json(dir: &Path, answer: &str, chunks: &str) -> Outcome {
    run_in(dir, &["check", answer, chunks, "--format", "json"], None)
}

/// Asserts that the run finished in time, without a panic, with one of `codes`.
fn assert_clean(out: &Outcome, codes: &[i32]) {
    assert!(
        !out.timed_out,
        "{}: still running after {:?}; killed",
        out.what,
        timeout()
    );
    for sign in ["panicked", "stack backtrace", "RUST_BACKTRACE"] {
        assert!(
            !out.stderr.contains(sign),
            "{}: panic ({sign}):\n{}",
            out.what,
            out.stderr
        );
    }
    assert_ne!(out.code, Some(101), "{}: exit 101 (panic)", out.what);
    assert!(
        out.code.is_some_and(|c| codes.contains(&c)),
        "{}: exit {:?}, expected one of {codes:?}; stderr:\n{}",
        out.what,
        out.code,
        out.stderr
    );
}

/// Runs ragcite in `dir` with `args` and asserts the input error of `file` (see
/// [`assert_input_error`]).
fn assert_run_is_input_error(dir: &Path, args: &[&str], file: &str, contains: &str) {
    assert_input_error(&run_in(dir, args, None), file, contains);
}

/// Asserts an input error: exit 2 and exactly one line on stderr, `ragcite: error: ` then the
/// file's name, holding `contains`.
fn assert_input_error(out: &Outcome, file: &str, contains: &str) {
    assert_clean(out, &[2]);
    let line = out.stderr.strip_suffix('\n').unwrap_or_else(|| {
        panic!(
            "{}: stderr does not end in a line break: {:?}",
            out.what, out.stderr
        )
    });
    assert!(
        !line.contains(['\n', '\r']),
        "{}: stderr is more than one line: {:?}",
        out.what,
        out.stderr
    );
    let prefix = format!("ragcite: error: {file}");
    assert!(
        line.starts_with(&prefix),
        "{}: stderr should start {prefix:?}: {line:?}",
        out.what
    );
    assert!(
        line.contains(contains),
        "{}: stderr should say {contains:?}: {line:?}",
        out.what
    );
}

fn report(label: &str, out: &Outcome) {
    println!(
        "[hostile] {label}: {:.2} s, exit {:?} ({})",
        out.secs(),
        out.code,
        binary().display()
    );
}

fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// A small chunks file that the answers below cite.
fn write_chunks(dir: &Path) {
    fs::write(
        dir.join("chunks.json"),
        r#"[{"id": "1", "text": "The tower is 330 metres tall and built of iron."},
            {"id": "2", "text": "Paris is the capital of France."}]"#,
    )
    .unwrap();
}

fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

// ---------------------------------------------------------------------------------------------
// Huge answers
// ---------------------------------------------------------------------------------------------

/// An answer with no white space at all: one word of 50 MB (5 MB on a debug build). It is one
/// sentence with one content word, so `no-claim`, or an input error; never a crash. How its
/// time grows is measured by the benchmark `adversarial` (`cargo bench -- adversarial`).
#[test]
fn an_answer_without_white_space_is_one_sentence() {
    let dir = tempdir();
    write_chunks(dir.path());
    let bytes = size(50_000_000, 5_000_000);
    let name = format!("word-{bytes}.txt");
    fs::write(dir.path().join(&name), "a".repeat(bytes)).unwrap();
    let out = run_in(
        dir.path(),
        &["check", &name, "chunks.json", "--format", "json"],
        None,
    );
    report(
        &format!("answer of {} without white space", megabytes(bytes)),
        &out,
    );
    assert_clean(&out, &[0, 1, 2]);
    if out.code == Some(2) {
        assert_input_error(&out, &name, "");
    } else {
        let doc = out.json();
        let sentences = doc["result"]["sentences"].as_array().unwrap();
        assert_eq!(sentences.len(), 1);
        assert_eq!(sentences[0]["span"]["end"], bytes);
    }
}

/// A single JSON Lines record whose answer is a 30 MB string of sentences (1 MB on a debug
/// build) is checked like any other.
#[test]
fn a_huge_single_json_lines_record_is_checked() {
    let dir = tempdir();
    let target = size(30_000_000, 1_000_000);
    let words = [
        "tower", "Paris", "iron", "lattice", "metres", "built", "engineer", "visitors", "river",
    ];
    let mut answer = String::with_capacity(target + 100);
    let mut k = 0usize;
    while answer.len() < target {
        for j in 0..10 {
            answer.push_str(words[(k * 7 + j * 3) % words.len()]);
            answer.push(' ');
        }
        answer.push_str(if k.is_multiple_of(3) {
            "[1]. "
        } else {
            "330 metres [2].\n"
        });
        k += 1;
    }
    let record = serde_json::json!({
        "id": "huge",
        "answer": answer,
        "contexts": ["The tower is 330 metres tall and built of iron.", "Paris has visitors."],
    });
    let line = format!("{record}\n");
    fs::write(dir.path().join("huge.jsonl"), &line).unwrap();
    let out = run_in(
        dir.path(),
        &["batch", "huge.jsonl", "--format", "jsonl"],
        None,
    );
    report(
        &format!(
            "one JSON Lines record with a {} answer",
            megabytes(answer.len())
        ),
        &out,
    );
    assert_clean(&out, &[0, 1]);
    let lines: Vec<Value> = out
        .stdout_text()
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2, "one record and the summary");
    assert_eq!(lines[0]["type"], "record");
    assert_eq!(lines[0]["id"], "huge");
    assert!(lines[0]["error"].is_null(), "{}", lines[0]["error"]);
    assert!(lines[0]["counts"]["sentences"].as_u64().unwrap() >= k as u64);
    assert_eq!(lines[1]["type"], "summary");
    assert_eq!(lines[1]["complete"], true);
}

// ---------------------------------------------------------------------------------------------
// Markers and chunks in bulk
// ---------------------------------------------------------------------------------------------

fn marker_line(markers: usize) -> String {
    format!("The tower is tall {}\n", "[1]".repeat(markers))
}

/// One line holding 100,000 markers is one sentence citing chunk 1.
#[test]
fn a_line_of_100000_markers_is_one_sentence() {
    let dir = tempdir();
    write_chunks(dir.path());
    fs::write(dir.path().join("markers.md"), marker_line(100_000)).unwrap();
    let out = check_json(dir.path(), "markers.md", "chunks.json");
    report("a line of 100,000 markers", &out);
    assert_clean(&out, &[0, 1]);
    let doc = out.json();
    let sentences = doc["result"]["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), 1);
    assert_eq!(sentences[0]["markers"], serde_json::json!(["1"]));
    assert_eq!(sentences[0]["cited"], serde_json::json!(["1"]));
    assert_eq!(sentences[0]["checkWorthy"], serde_json::json!([]));
}

/// Answers once quadratic to check, checked at a size where that showed: a line of 200,000
/// `[1]` markers (each looked back for the start of its line), 30,000 cited sentences on one line
/// (each sentence's trailing markers looked back over the line), a dotted token of 8,000
/// `ab.` (each full stop walked back over the token), a line of `^1` (each number looked back
/// to the text's start for a source named in words: 2.8 s for 100 kB, and the test's timeout
/// for 1 MB) and a line of `[1]:` (each looked back to the line's start for a link
/// definition). Each gives its sentences and never
/// crashes; the benchmark `adversarial` measures how their time grows
/// (`cargo bench -- adversarial`), since a test that times itself fails on a busy machine.
#[test]
fn answers_once_quadratic_are_checked() {
    let dir = tempdir();
    write_chunks(dir.path());
    let sentence = format!("The tower is tall.{}[1]", " ".repeat(60));
    let cases = [
        ("markers.md", marker_line(200_000), 1),
        (
            "one-line.md",
            format!("{}\n", format!("{sentence} ").repeat(30_000)),
            30_000,
        ),
        (
            "dotted.md",
            format!("The version is {}\n", "ab.".repeat(8_000)),
            1,
        ),
        (
            "carets.md",
            format!(
                "The tower is tall {}\n",
                "^1".repeat(size(500_000, 200_000))
            ),
            1,
        ),
        (
            "colons.md",
            format!(
                "The tower is tall {}\n",
                "[1]:".repeat(size(250_000, 100_000))
            ),
            1,
        ),
        (
            "superscripts.md",
            format!(
                "The tower is tall {}\n",
                "¹,".repeat(size(250_000, 100_000))
            ),
            1,
        ),
        (
            "sups.md",
            format!(
                "The tower is tall {}\n",
                "<sup>1".repeat(size(250_000, 100_000))
            ),
            1,
        ),
        (
            "sources.md",
            format!(
                "The tower is tall [1].\n\nSources:\n{}",
                "- [1] a, b; c | https://x.example/1\n".repeat(size(100_000, 40_000))
            ),
            size(100_000, 40_000) + 2,
        ),
    ];
    for (name, text, sentences) in cases {
        fs::write(dir.path().join(name), &text).unwrap();
        let out = run_in(
            dir.path(),
            &["check", name, "chunks.json", "--format", "json"],
            None,
        );
        report(&format!("{name} ({})", megabytes(text.len())), &out);
        assert_clean(&out, &[0, 1]);
        assert_eq!(
            out.json()["result"]["counts"]["sentences"],
            sentences,
            "{name}"
        );
    }
}

/// A flood of the user's own markers (`--marker`, the documented `{{cite:…}}`): 800 kB of them
/// on one line took 23 s, four times as long per doubling (after each marker the next built-in
/// one was looked for up to the text's end); and a line where every `{{` starts a match too
/// long to be a marker (each refused one searched the whole rest again).
#[test]
fn a_flood_of_custom_markers_is_checked() {
    let dir = tempdir();
    write_chunks(dir.path());
    let cases = [
        (
            "cites.md",
            r"\{\{cite:(\w+)\}\}",
            format!(
                "The tower is tall {}\n",
                "{{cite:1}}".repeat(size(80_000, 40_000))
            ),
        ),
        (
            "braces.md",
            r"\{\{(.+?)\}\}",
            format!(
                "The tower is tall {}}}}} {{{{1}}}}\n",
                "{{x".repeat(size(100_000, 30_000))
            ),
        ),
    ];
    for (name, marker, text) in cases {
        fs::write(dir.path().join(name), &text).unwrap();
        let out = run_in(
            dir.path(),
            &[
                "check",
                name,
                "chunks.json",
                "--marker",
                marker,
                "--format",
                "json",
            ],
            None,
        );
        report(&format!("{name} ({})", megabytes(text.len())), &out);
        assert_clean(&out, &[0, 1]);
        let doc = out.json();
        assert_eq!(doc["result"]["counts"]["sentences"], 1, "{name}");
        assert_eq!(
            doc["result"]["sentences"][0]["cited"],
            serde_json::json!(["1"]),
            "{name}"
        );
    }
}

/// 100,000 chunks: every one is reported, the answer's markers resolve among them.
#[test]
fn one_hundred_thousand_chunks() {
    let dir = tempdir();
    let mut chunks = String::from("[");
    for k in 0..100_000 {
        if k > 0 {
            chunks.push(',');
        }
        write!(
            chunks,
            r#"{{"id": "c{k}", "text": "The tower number {k} stands in district {} of the city."}}"#,
            k % 20
        )
        .unwrap();
    }
    chunks.push(']');
    fs::write(dir.path().join("chunks.json"), &chunks).unwrap();
    fs::write(
        dir.path().join("answer.md"),
        "The tower number 5 stands in the city [c5].\nThe tower stands in district 19 [c99999].\n",
    )
    .unwrap();
    let out = check_json(dir.path(), "answer.md", "chunks.json");
    report(
        &format!("100,000 chunks ({})", megabytes(chunks.len())),
        &out,
    );
    assert_clean(&out, &[0, 1]);
    let doc = out.json();
    assert_eq!(doc["result"]["chunks"].as_array().unwrap().len(), 100_000);
    let sentences = doc["result"]["sentences"].as_array().unwrap();
    assert_eq!(sentences[0]["cited"], serde_json::json!(["c5"]));
    assert_eq!(sentences[0]["verdict"], "supported");
    assert_eq!(sentences[1]["cited"], serde_json::json!(["c99999"]));
}

// ---------------------------------------------------------------------------------------------
// Deep nesting
// ---------------------------------------------------------------------------------------------

/// JSON nested 100,000 deep, as chunks, as a provider response, and as batch records: an
/// input error naming the file (or a bad record), never a stack overflow.
#[test]
fn json_nested_100000_deep_is_an_input_error() {
    let dir = tempdir();
    write_chunks(dir.path());
    fs::write(dir.path().join("answer.md"), "The tower is tall [1].\n").unwrap();
    let depth = 100_000;
    let arrays = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let objects = format!("{}1{}", r#"{"text":"#.repeat(depth), "}".repeat(depth));
    fs::write(dir.path().join("deep.json"), &arrays).unwrap();
    fs::write(dir.path().join("deep-objects.json"), &objects).unwrap();
    for file in ["deep.json", "deep-objects.json"] {
        let out = run_in(dir.path(), &["check", "answer.md", file], None);
        report(&format!("chunks nested {depth} deep ({file})"), &out);
        assert_input_error(&out, file, "invalid JSON");
    }
    let unterminated = "[".repeat(depth);
    fs::write(dir.path().join("open.json"), &unterminated).unwrap();
    let out = run_in(dir.path(), &["check", "answer.md", "open.json"], None);
    report("chunks opened 100,000 deep, never closed", &out);
    assert_input_error(&out, "open.json", "invalid JSON");

    // An Ollama response whose message nests deep: read as a response, so a JSON error.
    let response = format!(
        r#"{{"model": "m", "done": true, "message": {}"x"{}}}"#,
        r#"{"content":"#.repeat(depth),
        "}".repeat(depth)
    );
    fs::write(dir.path().join("response.json"), &response).unwrap();
    for format in ["auto", "ollama", "openai", "anthropic", "gemini", "cohere"] {
        let out = run_in(
            dir.path(),
            &[
                "check",
                "response.json",
                "chunks.json",
                "--answer-format",
                format,
            ],
            None,
        );
        report(
            &format!("response nested {depth} deep, --answer-format {format}"),
            &out,
        );
        assert_clean(&out, &[0, 1, 2]);
        if out.code == Some(2) {
            assert_input_error(&out, "response.json", "");
        }
    }

    // Batch: a deep record in JSON Lines is a bad record; a deep record in an array too.
    let good =
        r#"{"id": "ok", "answer": "The tower is tall [1].", "contexts": ["The tower is tall."]}"#;
    let deep_record = format!(r#"{{"id": "deep", "answer": "x", "contexts": {arrays}}}"#);
    fs::write(
        dir.path().join("deep.jsonl"),
        format!("{good}\n{deep_record}\n{good}\n"),
    )
    .unwrap();
    fs::write(
        dir.path().join("deep-array.json"),
        format!("[{good},\n{deep_record},\n{good}]"),
    )
    .unwrap();
    for file in ["deep.jsonl", "deep-array.json"] {
        let out = run_in(
            dir.path(),
            &["batch", file, "--format", "json", "--max-bad-records", "1"],
            None,
        );
        report(
            &format!("batch with a record nested {depth} deep ({file})"),
            &out,
        );
        assert_clean(&out, &[0]);
        let doc = out.json();
        assert_eq!(doc["aggregate"]["records"], 3);
        assert_eq!(doc["aggregate"]["badRecords"], 1);
        assert_eq!(doc["complete"], true);
    }
    // A batch file that is nothing but an array nested deep: one record, bad.
    let out = run_in(
        dir.path(),
        &["batch", "deep.json", "--format", "json"],
        None,
    );
    report(&format!("batch file nested {depth} deep"), &out);
    assert_clean(&out, &[1, 2]);
}

// ---------------------------------------------------------------------------------------------
// NUL bytes and invalid UTF-8
// ---------------------------------------------------------------------------------------------

#[test]
fn nul_bytes_in_the_answer_and_in_chunks() {
    let dir = tempdir();
    write_chunks(dir.path());
    fs::write(
        dir.path().join("answer.md"),
        b"The tower\0 is 330 metres tall [1].\n\0\0\0\nParis is the capital\0 [2].\n",
    )
    .unwrap();
    let out = check_json(dir.path(), "answer.md", "chunks.json");
    report("NUL bytes in the answer", &out);
    assert_clean(&out, &[0, 1]);
    let doc = out.json();
    let sentences = doc["result"]["sentences"].as_array().unwrap();
    assert_eq!(sentences.len(), 2);
    assert_eq!(
        sentences[0]["sentence"],
        "The tower\0 is 330 metres tall [1]."
    );
    assert_eq!(sentences[0]["verdict"], "supported");

    // Every other output format copes with the NUL too.
    for format in ["table", "sarif", "github", "gitlab", "junit"] {
        let out = run_in(
            dir.path(),
            &[
                "check",
                "answer.md",
                "chunks.json",
                "--format",
                format,
                "--color",
                "never",
            ],
            None,
        );
        assert_clean(&out, &[0, 1]);
        if format == "junit" {
            assert!(!out.stdout.contains(&0), "JUnit XML holds a NUL byte");
        }
    }

    // A raw NUL inside a JSON string is invalid JSON; escaped, it is text.
    fs::write(dir.path().join("raw.json"), b"[\"The tower\0 is tall.\"]").unwrap();
    let out = run_in(dir.path(), &["check", "answer.md", "raw.json"], None);
    report("a raw NUL in JSON chunks", &out);
    assert_input_error(&out, "raw.json", "invalid JSON");
    fs::write(
        dir.path().join("escaped.json"),
        b"[\"The tower\\u0000 is 330 metres tall.\"]",
    )
    .unwrap();
    let out = check_json(dir.path(), "answer.md", "escaped.json");
    assert_clean(&out, &[0, 1]);
    // Text chunks with NUL bytes.
    fs::write(
        dir.path().join("chunks.txt"),
        b"[1] The tower\0 is 330\0 metres tall.\n[2] Paris\0\n",
    )
    .unwrap();
    let out = check_json(dir.path(), "answer.md", "chunks.txt");
    report("NUL bytes in text chunks", &out);
    assert_clean(&out, &[0, 1]);
    assert_eq!(out.json()["inputs"]["chunks"]["format"], "bracket-blocks");

    // An answer of nothing but NUL bytes has no visible text but is not white space either.
    fs::write(dir.path().join("nuls.md"), [0u8; 64]).unwrap();
    let out = run_in(dir.path(), &["check", "nuls.md", "chunks.json"], None);
    report("an answer of NUL bytes only", &out);
    assert_clean(&out, &[0, 1, 2]);

    // `quote` on a document with NUL bytes.
    fs::write(
        dir.path().join("doc.txt"),
        b"The tower\0 is 330 metres tall.",
    )
    .unwrap();
    let out = run_in(dir.path(), &["quote", "doc.txt", "330 metres tall"], None);
    assert_clean(&out, &[0]);
    // A batch record with a raw NUL is a bad record, not a stop.
    fs::write(
        dir.path().join("nul.jsonl"),
        b"{\"answer\": \"The tower\0 is tall [1].\", \"contexts\": [\"x\"]}\n{\"answer\": \"The tower\\u0000 is tall [1].\", \"contexts\": [\"The tower is tall.\"]}\n",
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["batch", "nul.jsonl", "--format", "json"],
        None,
    );
    report("NUL bytes in batch records", &out);
    assert_clean(&out, &[1]);
    let doc = out.json();
    assert_eq!(doc["aggregate"]["badRecords"], 1);
    assert_eq!(doc["aggregate"]["checked"], 1);
}

#[test]
fn invalid_utf8_in_the_middle_of_a_stream_answer() {
    let dir = tempdir();
    write_chunks(dir.path());
    let mut stream = Vec::new();
    stream.extend_from_slice(
        br#"{"model":"m","message":{"role":"assistant","content":"The tower "},"done":false}"#,
    );
    stream.push(b'\n');
    stream.extend_from_slice(br#"{"model":"m","message":{"role":"assistant","content":"is "#);
    let bad_at = stream.len();
    stream.extend_from_slice(b"\xff\xfe tall [1].\"},\"done\":false}\n");
    stream.extend_from_slice(
        br#"{"model":"m","message":{"role":"assistant","content":""},"done":true}"#,
    );
    stream.push(b'\n');
    fs::write(dir.path().join("chat.ndjson"), &stream).unwrap();
    let out = run_in(dir.path(), &["check", "chat.ndjson", "chunks.json"], None);
    report("invalid UTF-8 inside an NDJSON stream answer", &out);
    assert_input_error(
        &out,
        "chat.ndjson",
        &format!("invalid UTF-8 at byte {bad_at}"),
    );
    assert!(
        out.stdout.is_empty(),
        "check wrote output for an input error"
    );

    // The same from standard input, named with --stdin-filename.
    let out = run_in(
        dir.path(),
        &[
            "check",
            "-",
            "chunks.json",
            "--stdin-filename",
            "chat.ndjson",
        ],
        Some(stream.clone()),
    );
    assert_input_error(
        &out,
        "chat.ndjson",
        &format!("invalid UTF-8 at byte {bad_at}"),
    );

    // Invalid UTF-8 in an SSE stream and in chunks, and a truncated multi-byte character at the
    // very end.
    let mut sse = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"The tower ".to_vec();
    let sse_bad = sse.len();
    sse.extend_from_slice(b"\xc3(\"}}]}\n\ndata: [DONE]\n\n");
    fs::write(dir.path().join("chat.sse"), &sse).unwrap();
    assert_run_is_input_error(
        dir.path(),
        &["check", "chat.sse", "chunks.json"],
        "chat.sse",
        &format!("invalid UTF-8 at byte {sse_bad}"),
    );
    fs::write(
        dir.path().join("cut.md"),
        b"The tower is tall [1]. \xe2\x82",
    )
    .unwrap();
    assert_run_is_input_error(
        dir.path(),
        &["check", "cut.md", "chunks.json"],
        "cut.md",
        "invalid UTF-8 at byte 23",
    );
    fs::write(dir.path().join("answer.md"), "The tower is tall [1].\n").unwrap();
    fs::write(
        dir.path().join("bad.json"),
        b"[\"The tower \x80 is tall.\"]",
    )
    .unwrap();
    assert_run_is_input_error(
        dir.path(),
        &["check", "answer.md", "bad.json"],
        "bad.json",
        "invalid UTF-8 at byte 12",
    );
}

#[test]
fn invalid_utf8_in_the_middle_of_a_batch() {
    let dir = tempdir();
    let good = |id: &str| {
        format!(
            r#"{{"id": "{id}", "answer": "The tower is tall [1].", "contexts": ["The tower is tall."]}}"#
        )
    };
    let mut file = Vec::new();
    for k in 0..3 {
        file.extend_from_slice(good(&format!("a{k}")).as_bytes());
        file.push(b'\n');
    }
    file.extend_from_slice(
        b"{\"id\": \"bad\", \"answer\": \"The \xff\xfe tower [1].\", \"contexts\": [\"x\"]}\n",
    );
    for k in 0..3 {
        file.extend_from_slice(good(&format!("b{k}")).as_bytes());
        file.push(b'\n');
    }
    fs::write(dir.path().join("evals.jsonl"), &file).unwrap();
    for (format, allowed, code) in [("jsonl", "0", 1), ("json", "1", 0)] {
        let out = run_in(
            dir.path(),
            &[
                "batch",
                "evals.jsonl",
                "--format",
                format,
                "--max-bad-records",
                allowed,
            ],
            None,
        );
        report(
            &format!("invalid UTF-8 in a JSON Lines batch (--format {format})"),
            &out,
        );
        assert_clean(&out, &[code]);
        let records: Vec<Value> = if format == "jsonl" {
            let lines: Vec<Value> = out
                .stdout_text()
                .lines()
                .map(|l| serde_json::from_str(l).expect("every line is JSON"))
                .collect();
            assert_eq!(lines.last().unwrap()["type"], "summary");
            assert_eq!(lines.last().unwrap()["complete"], true);
            lines[..lines.len() - 1].to_vec()
        } else {
            out.json()["records"].as_array().unwrap().clone()
        };
        assert_eq!(records.len(), 7);
        let bad: Vec<&Value> = records.iter().filter(|r| !r["error"].is_null()).collect();
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0]["line"], 4);
        assert!(
            out.stderr.is_empty(),
            "a bad record is not an error: {}",
            out.stderr
        );
    }
    // The same bytes in a JSON array: a bad record too, the rest checked.
    let mut array = b"[\n".to_vec();
    for (k, line) in file
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        if k > 0 {
            array.extend_from_slice(b",\n");
        }
        array.extend_from_slice(line);
    }
    array.extend_from_slice(b"\n]\n");
    fs::write(dir.path().join("evals.json"), &array).unwrap();
    let out = run_in(
        dir.path(),
        &["batch", "evals.json", "--format", "json"],
        None,
    );
    report("invalid UTF-8 in a JSON array batch", &out);
    assert_clean(&out, &[1]);
    let doc = out.json();
    assert_eq!(doc["aggregate"]["records"], 7);
    assert_eq!(doc["aggregate"]["badRecords"], 1);
    assert_eq!(doc["complete"], true);
}

// ---------------------------------------------------------------------------------------------
// Directories, FIFOs, unreadable files
// ---------------------------------------------------------------------------------------------

#[test]
fn a_directory_is_an_input_error() {
    let dir = tempdir();
    write_chunks(dir.path());
    fs::write(dir.path().join("answer.md"), "The tower is tall [1].\n").unwrap();
    fs::create_dir(dir.path().join("folder")).unwrap();
    let cases: [&[&str]; 6] = [
        &["check", "folder", "chunks.json"],
        &["check", "answer.md", "folder"],
        &["batch", "folder"],
        &["batch", "answer.md", "folder", "--format", "json"],
        &["quote", "folder", "the tower"],
        &["quote", "answer.md", "--quote-file", "folder"],
    ];
    for args in cases {
        let out = run_in(dir.path(), args, None);
        assert_input_error(&out, "folder", "is a directory");
        assert!(
            out.stdout.is_empty(),
            "{}: wrote {:?}",
            out.what,
            out.stdout_text()
        );
    }
}

#[cfg(target_os = "linux")]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// Runs `args` while a thread writes `content` into the FIFO at `fifo`. If ragcite never opens
/// the FIFO, the writer is released by opening the FIFO's read end here, so the test cannot hang.
#[cfg(target_os = "linux")]
fn run_with_fifo(dir: &Path, fifo: &str, content: &[u8], args: &[&str]) -> Outcome {
    use std::os::unix::fs::OpenOptionsExt as _;
    let path = dir.join(fifo);
    mkfifo(&path);
    let writer_path = path.clone();
    let content = content.to_vec();
    let writer = std::thread::spawn(move || {
        let mut pipe = fs::OpenOptions::new()
            .write(true)
            .open(&writer_path)
            .unwrap();
        let _ = pipe.write_all(&content);
    });
    let out = run_in(dir, args, None);
    if !writer.is_finished() {
        // O_NONBLOCK: open the read end without waiting for a writer.
        let _reader = fs::OpenOptions::new()
            .read(true)
            .custom_flags(0o4000)
            .open(&path);
        let _ = writer.join();
    } else {
        let _ = writer.join();
    }
    fs::remove_file(&path).unwrap();
    out
}

#[cfg(target_os = "linux")]
#[test]
fn a_fifo_as_answer_chunks_batch_input_and_document() {
    let dir = tempdir();
    write_chunks(dir.path());
    fs::write(
        dir.path().join("answer.md"),
        "The tower is 330 metres tall [1].\n",
    )
    .unwrap();
    let answer = b"The tower is 330 metres tall [1].\n";
    let out = run_with_fifo(
        dir.path(),
        "answer.fifo",
        answer,
        &["check", "answer.fifo", "chunks.json", "--format", "json"],
    );
    report("a FIFO as the answer", &out);
    assert_clean(&out, &[0]);
    assert_eq!(out.json()["result"]["sentences"][0]["verdict"], "supported");

    let out = run_with_fifo(
        dir.path(),
        "chunks.fifo",
        br#"[{"id": "1", "text": "The tower is 330 metres tall."}]"#,
        &["check", "answer.md", "chunks.fifo", "--format", "json"],
    );
    report("a FIFO as the chunks", &out);
    assert_clean(&out, &[0]);
    assert_eq!(out.json()["result"]["sentences"][0]["verdict"], "supported");

    let records = concat!(
        r#"{"id": "a", "answer": "The tower is 330 metres tall [1].", "contexts": ["The tower is 330 metres tall."]}"#,
        "\n",
        r#"{"id": "b", "answer": "The tower is 330 metres tall [1].", "contexts": ["The tower is 330 metres tall."]}"#,
        "\n"
    );
    let out = run_with_fifo(
        dir.path(),
        "evals.fifo",
        records.as_bytes(),
        &["batch", "evals.fifo", "--format", "json"],
    );
    report("a FIFO as batch input", &out);
    assert_clean(&out, &[0]);
    assert_eq!(out.json()["aggregate"]["checked"], 2);

    // A FIFO whose name ends in .jsonl, read as JSON Lines.
    let out = run_with_fifo(
        dir.path(),
        "evals.jsonl",
        records.as_bytes(),
        &["batch", "evals.jsonl", "--format", "jsonl"],
    );
    assert_clean(&out, &[0]);
    assert_eq!(out.stdout_text().lines().count(), 3);

    let out = run_with_fifo(
        dir.path(),
        "doc.fifo",
        b"The tower is 330 metres tall.",
        &["quote", "doc.fifo", "330 metres tall"],
    );
    report("a FIFO as the quote's document", &out);
    assert_clean(&out, &[0]);

    // A FIFO whose writer writes nothing: an empty answer.
    let out = run_with_fifo(
        dir.path(),
        "empty.fifo",
        b"",
        &["check", "empty.fifo", "chunks.json"],
    );
    assert_input_error(&out, "empty.fifo", "empty");
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_is_an_input_error() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempdir();
    write_chunks(dir.path());
    fs::write(dir.path().join("answer.md"), "The tower is tall [1].\n").unwrap();
    let locked = dir.path().join("locked.md");
    fs::write(&locked, "The tower is tall [1].\n").unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::File::open(&locked).is_ok() {
        println!(
            "[hostile] skipped chmod 000: this process can still read the file (running as root)"
        );
    } else {
        for args in [
            &["check", "locked.md", "chunks.json"][..],
            &["batch", "locked.md"][..],
            &["quote", "locked.md", "the tower"][..],
        ] {
            let out = run_in(dir.path(), args, None);
            assert_input_error(&out, "locked.md", "cannot read");
        }
    }
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o644)).unwrap();

    // Files that cannot be read even by root: a read that fails with EIO, and a path through a
    // file.
    if Path::new("/proc/self/mem").exists() {
        for args in [
            &["check", "/proc/self/mem", "chunks.json"][..],
            &["check", "answer.md", "/proc/self/mem"][..],
            &["quote", "/proc/self/mem", "the tower"][..],
            &["quote", "answer.md", "--quote-file", "/proc/self/mem"][..],
        ] {
            let out = run_in(dir.path(), args, None);
            report(&format!("unreadable /proc/self/mem: {}", args[0]), &out);
            assert_input_error(&out, "/proc/self/mem", "cannot read");
        }
        let out = run_in(
            dir.path(),
            &["batch", "/proc/self/mem", "--format", "json"],
            None,
        );
        report("unreadable /proc/self/mem: batch", &out);
        // The file opens, and the first read fails: the batch stops, its output incomplete.
        assert_input_error(&out, "/proc/self/mem", "the output is incomplete");
        assert!(out.stderr.contains("os error 5"), "{}", out.stderr);
        // The batch output is still a complete document.
        let doc = out.json();
        assert_eq!(doc["complete"], false);
    }
    assert_run_is_input_error(
        dir.path(),
        &["check", "answer.md/x", "chunks.json"],
        "answer.md/x",
        "cannot read",
    );
    assert_run_is_input_error(
        dir.path(),
        &["check", "missing.md", "chunks.json"],
        "missing.md",
        "cannot read",
    );
}

// ---------------------------------------------------------------------------------------------
// Batch that breaks part way
// ---------------------------------------------------------------------------------------------

fn batch_record(id: &str) -> String {
    format!(
        r#"{{"id": "{id}", "answer": "The tower is 330 metres tall [1].", "contexts": ["The tower is 330 metres tall."]}}"#
    )
}

/// Whether the XML's tags balance: every opened element is closed, in order, and one root.
fn xml_is_balanced(xml: &str) -> Result<(), String> {
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<?") {
            rest = &after[after.find("?>").ok_or("unclosed <?")? + 2..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = &after[after.find("-->").ok_or("unclosed comment")? + 3..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("<![CDATA[") {
            rest = &after[after.find("]]>").ok_or("unclosed CDATA")? + 3..];
            continue;
        }
        // The tag ends at the first `>` outside a quoted attribute value.
        let mut quote: Option<char> = None;
        let end = rest
            .char_indices()
            .find(|&(_, c)| match (quote, c) {
                (Some(q), c) if c == q => {
                    quote = None;
                    false
                }
                (Some(_), _) => false,
                (None, '"' | '\'') => {
                    quote = Some(c);
                    false
                }
                (None, c) => c == '>',
            })
            .map(|(k, _)| k)
            .ok_or("unclosed tag")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or(format!("</{name}> closes nothing"))?;
            if open != name.trim() {
                return Err(format!("<{open}> closed by </{name}>"));
            }
        } else {
            let name = tag
                .split(|c: char| c.is_whitespace() || c == '/')
                .next()
                .unwrap_or("")
                .to_string();
            if stack.is_empty() {
                roots += 1;
            }
            if !tag.ends_with('/') {
                stack.push(name);
            }
        }
    }
    if !stack.is_empty() {
        return Err(format!("unclosed: {stack:?}"));
    }
    if roots != 1 {
        return Err(format!("{roots} root elements"));
    }
    if !rest.trim().is_empty() {
        return Err(format!("text after the root: {rest:?}"));
    }
    Ok(())
}

/// A transcript whose structure breaks after two records: every output format still writes a
/// complete document that says it is incomplete, and exits 2 with one line on stderr.
#[test]
fn a_batch_that_breaks_part_way_still_writes_a_complete_document() {
    let dir = tempdir();
    let (a, b) = (batch_record("a"), batch_record("b"));
    let broken = [
        (
            "cut-string.json",
            format!("[\n{a},\n{b},\n{{\"id\": \"c\", \"answer\": \"The tow"),
        ),
        ("no-close.json", format!("[\n{a},\n{b}\n")),
        ("stray-brace.json", format!("[\n{a},\n{b}\n}}\n")),
        ("two-arrays.json", format!("[\n{a},\n{b}\n]\n[{a}]\n")),
        (
            "samples.json",
            format!("{{\"samples\": [\n{a},\n{b},\n{{\"id\":"),
        ),
    ];
    for (file, text) in &broken {
        fs::write(dir.path().join(file), text).unwrap();
        for format in [
            "json", "sarif", "jsonl", "junit", "table", "github", "gitlab",
        ] {
            let out = run_in(
                dir.path(),
                &["batch", file, "--format", format, "--color", "never"],
                None,
            );
            report(
                &format!("batch {file} breaks part way, --format {format}"),
                &out,
            );
            assert_input_error(&out, file, "the output is incomplete");
            let stdout = out.stdout_text();
            match format {
                "json" => {
                    let doc = out.json();
                    assert_eq!(doc["complete"], false, "{file}");
                    assert!(doc["error"].is_string(), "{file}");
                    assert_eq!(doc["records"].as_array().unwrap().len(), 2, "{file}");
                    assert_eq!(doc["aggregate"]["checked"], 2, "{file}");
                }
                "sarif" | "gitlab" => {
                    let doc = out.json();
                    let text = doc.to_string();
                    assert!(
                        text.contains("batch-stopped") || text.contains("stopped"),
                        "{file}: {text}"
                    );
                    if format == "sarif" {
                        assert_eq!(doc["version"], "2.1.0");
                        assert_eq!(
                            doc["runs"][0]["invocations"][0]["executionSuccessful"],
                            false
                        );
                    }
                }
                "jsonl" => {
                    let lines: Vec<Value> = stdout
                        .lines()
                        .map(|l| {
                            serde_json::from_str(l).unwrap_or_else(|e| panic!("{file}: {l:?}: {e}"))
                        })
                        .collect();
                    let last = lines.last().unwrap();
                    assert_eq!(last["type"], "summary", "{file}");
                    assert_eq!(last["complete"], false, "{file}");
                    assert!(last["error"].is_string(), "{file}");
                    assert_eq!(lines.len(), 3, "{file}: two records and the summary");
                }
                "junit" => {
                    assert!(stdout.starts_with("<?xml"), "{file}: {stdout}");
                    xml_is_balanced(stdout).unwrap_or_else(|e| panic!("{file}: {e}:\n{stdout}"));
                    assert!(stdout.contains("batch-stopped"), "{file}");
                }
                _ => {
                    assert!(stdout.contains("INCOMPLETE"), "{file}, {format}: {stdout}");
                }
            }
        }
    }
}

/// A batch over a pipe that closes early: README, Closed pipes: its exit code is the gate over
/// the records read so far, so a failing record already read makes it 1.
#[test]
fn a_batch_whose_reader_goes_away_exits_with_the_gate_so_far() {
    let dir = tempdir();
    let mut file = String::new();
    for k in 0..3000 {
        writeln!(
            file,
            r#"{{"id": "{k}", "answer": "The tower is 330 metres tall and built of iron.", "contexts": ["Nothing here at all."]}}"#
        )
        .unwrap();
    }
    fs::write(dir.path().join("failing.jsonl"), &file).unwrap();
    let started = Instant::now();
    let mut child = command_in(dir.path(), &["batch", "failing.jsonl", "--format", "jsonl"])
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    drop(reader); // the reader goes away, as `| head -1` does
    let (code, timed_out) = wait(&mut child, started);
    println!(
        "[hostile] batch | head -1: exit {code:?} in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    assert!(!timed_out);
    assert!(first.contains("\"type\":\"record\""), "{first}");
    assert_eq!(code, Some(1), "the records read so far failed their limits");
}

/// `[record record]`, records without a comma between them, is not JSON, but the batch reads
/// both records and passes (exit 0, `complete: true`); so does `[record, record,]` and
/// `[, record]`.
#[test]
fn a_record_array_without_commas_is_a_broken_file() {
    let dir = tempdir();
    let (a, b) = (batch_record("a"), batch_record("b"));
    for (file, text) in [
        ("missing-comma.json", format!("[\n{a}\n{b}\n]\n")),
        ("trailing-comma.json", format!("[\n{a},\n{b},\n]\n")),
        ("leading-comma.json", format!("[,\n{a},\n{b}\n]\n")),
    ] {
        fs::write(dir.path().join(file), text).unwrap();
        let out = run_in(dir.path(), &["batch", file, "--format", "json"], None);
        println!(
            "[hostile] {file}: exit {:?}, complete {}",
            out.code,
            out.json()["complete"]
        );
        assert_input_error(&out, file, "the output is incomplete");
    }
}

// ---------------------------------------------------------------------------------------------
// `quote` with a huge quotation
// ---------------------------------------------------------------------------------------------

/// A 5 MB document and a quotation of 100,000 words: one taken from the document (found) and
/// one of words in a random order (not found, with a closest passage). On a debug build the
/// quotation that is not found has 10,000 words.
#[test]
fn a_quote_of_100000_words_against_a_5mb_document() {
    let dir = tempdir();
    let vocabulary = [
        "tower", "paris", "iron", "lattice", "metres", "tall", "built", "engineer", "gustave",
        "eiffel", "visitors", "museum", "river", "seine", "bridge", "city", "france", "century",
    ];
    // A deterministic pseudo-random sequence (xorshift), so the test needs no seed handling.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut words = Vec::new();
    let mut bytes = 0;
    while bytes < 5_000_000 {
        let r = next();
        let word = format!("{}{}", vocabulary[(r % 18) as usize], (r >> 8) % 1000);
        bytes += word.len() + 1;
        words.push(word);
    }
    let document = words.join(" ");
    fs::write(dir.path().join("doc.txt"), &document).unwrap();
    let taken = words[1000..101_000].join(" ");
    fs::write(dir.path().join("taken.txt"), &taken).unwrap();
    let out = run_in(
        dir.path(),
        &[
            "quote",
            "doc.txt",
            "--quote-file",
            "taken.txt",
            "--format",
            "json",
        ],
        None,
    );
    report(
        &format!(
            "quote of 100,000 words found in a {} document",
            megabytes(document.len())
        ),
        &out,
    );
    assert_clean(&out, &[0]);
    let doc = out.json();
    assert_eq!(doc["found"], true);
    let start = words[..1000].iter().map(|w| w.len() + 1).sum::<usize>();
    assert_eq!(doc["byteOffsets"][0], start);
    assert_eq!(doc["byteOffsets"][1], start + taken.len());

    let count = size(100_000, 10_000);
    let shuffled: Vec<String> = (0..count)
        .map(|_| {
            let r = next();
            format!("{}{}", vocabulary[(r % 18) as usize], (r >> 8) % 1000)
        })
        .collect();
    fs::write(dir.path().join("shuffled.txt"), shuffled.join(" ")).unwrap();
    let out = run_in(
        dir.path(),
        &[
            "quote",
            "doc.txt",
            "--quote-file",
            "shuffled.txt",
            "--format",
            "json",
        ],
        None,
    );
    report(
        &format!(
            "quote of {count} words not found in a {} document",
            megabytes(document.len())
        ),
        &out,
    );
    assert_clean(&out, &[1]);
    let doc = out.json();
    assert_eq!(doc["found"], false);
    // A closest passage is shown only when at least half its words agree (docs/commands.md);
    // the words shuffled, none is close.
    match &doc["closest"] {
        Value::Null => {}
        closest => {
            let similarity = closest["similarity"].as_f64().unwrap();
            assert!((0.5..=1.0).contains(&similarity), "{similarity}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Terminal control characters
// ---------------------------------------------------------------------------------------------

/// The table writes the answer's and the chunks' text to the terminal as it is, so an answer
/// holding ESC sequences (from a model, or a poisoned chunk) can retitle the terminal, move the
/// cursor or hide lines of the report. With `--color never` the table should hold no control
/// characters but line breaks.
#[test]
fn the_table_writes_no_control_characters_from_the_input() {
    let dir = tempdir();
    fs::write(
        dir.path().join("answer.md"),
        "The tower \u{1b}]0;pwned\u{7} is 330 metres \u{1b}[2K tall [1].\nParis\0 is nice [2].\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("chunks.json"),
        r#"[{"id": "1", "text": "The tower \u001b[8m is 330 metres tall."}, {"id": "2", "text": "Paris"}]"#,
    )
    .unwrap();
    let out = run_in(
        dir.path(),
        &["check", "answer.md", "chunks.json", "--color", "never"],
        None,
    );
    assert_clean(&out, &[0, 1]);
    let controls: Vec<char> = out
        .stdout_text()
        .chars()
        .filter(|c| c.is_control() && *c != '\n')
        .collect();
    assert!(
        controls.is_empty(),
        "control characters in the table: {controls:?}"
    );
}

/// Error messages quote input text (a duplicate chunk id, a provider's error message). A line
/// break in it is replaced by a space, but a carriage return or an ESC sequence is written as
/// it is, so on a terminal the one-line message is overwritten (`\r`) or erased (`ESC [2K`).
#[test]
fn error_messages_hold_no_control_characters_from_the_input() {
    let dir = tempdir();
    fs::write(dir.path().join("answer.md"), "The tower is tall [1].\n").unwrap();
    fs::write(
        dir.path().join("dup.json"),
        r#"[{"id": "a\rb", "text": "x"}, {"id": "a\rb", "text": "y"}]"#,
    )
    .unwrap();
    fs::write(
        dir.path().join("esc.json"),
        r#"[{"id": "a\u001b[2Kb", "text": "x"}, {"id": "a\u001b[2Kb", "text": "y"}]"#,
    )
    .unwrap();
    fs::write(
        dir.path().join("error.json"),
        r#"{"error": "model not found\rragcite: all good"}"#,
    )
    .unwrap();
    for (args, file) in [
        (&["check", "answer.md", "dup.json"][..], "dup.json"),
        (&["check", "answer.md", "esc.json"][..], "esc.json"),
        (&["check", "error.json", "dup.json"][..], "error.json"),
    ] {
        let out = run_in(dir.path(), args, None);
        assert_input_error(&out, file, "");
        let controls: Vec<char> = out
            .stderr
            .trim_end_matches('\n')
            .chars()
            .filter(|c| c.is_control())
            .collect();
        assert!(
            controls.is_empty(),
            "{}: control characters in the error message: {controls:?}: {:?}",
            out.what,
            out.stderr
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Markdown an answer cannot hide behind
// ---------------------------------------------------------------------------------------------

/// Floods of what opens code or a comment without closing it, and of indented blocks: each
/// judged once, in bounded time (a flood of unclosed `<!--` searched the rest of the answer
/// for a `-->` once each).
#[test]
fn floods_of_unclosed_comments_fences_and_indented_blocks() {
    let dir = tempdir();
    write_chunks(dir.path());
    let n = size(400_000, 200_000);
    let floods = [
        ("comments.md", "<!--".repeat(n)),
        (
            "fences.md",
            (0..n / 2)
                .map(|k| format!("{}\n", "`".repeat(3 + k % 50)))
                .collect::<String>(),
        ),
        (
            "indented.md",
            format!("Intro.\n\n{}", "    x = 1;\n\n".repeat(n / 2)),
        ),
        (
            "comments-then-text.md",
            format!("{}\nThe tower is 330 metres tall [1].\n", "<!-- ".repeat(n)),
        ),
    ];
    for (name, text) in &floods {
        fs::write(dir.path().join(name), text).unwrap();
        let out = run_in(
            dir.path(),
            &["check", name, "chunks.json", "--format", "json"],
            None,
        );
        report(&format!("{name}, {}", megabytes(text.len())), &out);
        assert_clean(&out, &[0, 1]);
    }
    // The text after a flood of unclosed comments is checked.
    let out = run_in(
        dir.path(),
        &[
            "check",
            "comments-then-text.md",
            "chunks.json",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.json()["result"]["counts"]["supported"], 1);
}
