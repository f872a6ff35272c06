//! The files ragcite writes (`train -o`, `eval --features`) and the inputs it reads, against
//! hostile paths and endless inputs: a symlink planted at a temporary name is never followed, a
//! target that is no regular file is refused and left as it was, a replaced file keeps its mode;
//! every input is read up to a limit, past which the run ends with one error line, exit 2. Every
//! file is made in a temporary folder; the only device paths used are `/dev/zero`, which is
//! only read, and `/dev/full`, whose metadata only is read.

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::util::{Output, ragcite};

const LABELLED: &str = "testdata/train/labelled.jsonl";
const EVAL_LABELLED: &str = "testdata/eval/labelled.jsonl";

/// `ragcite train LABELLED -o <out>`.
fn train_to(out: &Path) -> Output {
    ragcite(["train", LABELLED, "-o"])
        .args([out.as_os_str()])
        .output()
}

/// Makes a FIFO at `path`.
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

/// The process id the next child is likely to get, from the kernel's last one.
fn next_pids() -> std::ops::Range<u32> {
    let last = std::fs::read_to_string("/proc/sys/kernel/ns_last_pid")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .unwrap_or_else(std::process::id);
    last + 1..last + 2001
}

/// Asserts an error line that names `path` and says it is no regular file.
#[track_caller]
fn refused_as_not_regular(out: Output, path: &Path) {
    let line = out.input_error();
    assert!(
        line.contains(&path.display().to_string())
            && line.contains("exists and is not a regular file")
            && line.contains("ragcite writes only regular files"),
        "{line}"
    );
}

#[test]
fn a_symlink_planted_at_a_temporary_name_is_not_followed() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").expect("victim written");
    let out = dir.path().join("model.json");
    // The names a temporary file of `model.json` could get from a process id: a symlink to the
    // victim at each of them.
    let planted: Vec<PathBuf> = next_pids()
        .map(|pid| dir.path().join(format!(".model.json.{pid}.tmp")))
        .collect();
    for link in &planted {
        std::os::unix::fs::symlink(&victim, link).expect("symlink planted");
    }
    train_to(&out).exits(0);
    let victim_now = std::fs::read_to_string(&victim).expect("the victim");
    assert!(
        victim_now == "precious",
        "the victim was overwritten through a planted symlink ({} bytes now)",
        victim_now.len()
    );
    assert!(
        std::fs::read_to_string(&out)
            .expect("the model")
            .contains("ragcite-support-model")
    );
    for link in &planted {
        let meta = std::fs::symlink_metadata(link).expect("the planted link is still there");
        assert!(meta.file_type().is_symlink(), "{}", link.display());
    }
    // No temporary file is left behind.
    let left: Vec<PathBuf> = std::fs::read_dir(dir.path())
        .expect("the folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| *p != victim && *p != out && !planted.contains(p))
        .collect();
    assert_eq!(left, Vec::<PathBuf>::new());
}

#[test]
fn a_symlink_given_as_output_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").expect("victim written");
    let link = dir.path().join("model.json");
    std::os::unix::fs::symlink(&victim, &link).expect("symlink");
    refused_as_not_regular(train_to(&link), &link);
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("the link")
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious"
    );
    // The same for `eval --features`.
    refused_as_not_regular(
        ragcite(["eval", EVAL_LABELLED, "--features"])
            .args([link.as_os_str()])
            .output(),
        &link,
    );
    assert_eq!(
        std::fs::read_to_string(&victim).expect("victim"),
        "precious"
    );
}

#[test]
fn a_fifo_given_as_output_is_refused_and_left_a_fifo() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fifo = dir.path().join("model.json");
    mkfifo(&fifo);
    refused_as_not_regular(train_to(&fifo), &fifo);
    let meta = std::fs::symlink_metadata(&fifo).expect("the FIFO");
    assert!(meta.file_type().is_fifo());
}

#[test]
fn dev_full_as_output_is_refused_and_stays_a_device() {
    // Only its metadata is read: ragcite refuses it before opening anything.
    let full = Path::new("/dev/full");
    let Ok(before) = std::fs::symlink_metadata(full) else {
        return;
    };
    assert!(before.file_type().is_char_device());
    refused_as_not_regular(train_to(full), full);
    let after = std::fs::symlink_metadata(full).expect("/dev/full");
    assert!(after.file_type().is_char_device());
}

#[test]
fn a_replaced_file_keeps_its_mode() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("model.json");
    std::fs::write(&out, "old").expect("written");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    train_to(&out).exits(0);
    let meta = std::fs::metadata(&out).expect("the model");
    assert_eq!(meta.permissions().mode() & 0o7777, 0o600);
    assert!(
        std::fs::read_to_string(&out)
            .expect("the model")
            .contains("ragcite-support-model")
    );
    // A new file gets the usual mode (0666 less the umask), not a temporary file's 0600.
    let new = dir.path().join("new.json");
    train_to(&new).exits(0);
    let mode = std::fs::metadata(&new).expect("new").permissions().mode() & 0o777;
    assert_ne!(mode, 0o600, "a new file is not private: {mode:o}");
}

#[test]
fn an_output_in_a_missing_folder_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("missing").join("model.json");
    let line = train_to(&out).input_error();
    assert!(
        line.contains(&out.display().to_string()) && line.contains("does not exist"),
        "{line}"
    );
    assert!(!dir.path().join("missing").exists());
}

// ---------------------------------------------------------------------------------------------
// Input size limits

const ANSWER: &str = "testdata/eiffel/answer.md";
const CHUNKS: &str = "testdata/eiffel/chunks.json";

/// Asserts exit 2 with exactly one error line on stderr naming `name` and `limit`; gives the
/// line.
#[track_caller]
fn one_error_line(out: Output, name: &str, limit: &str) -> String {
    let out = out.exits(2).no_panic();
    let line = out.stderr.strip_suffix('\n').unwrap_or(&out.stderr);
    assert!(
        !line.contains('\n') && line.starts_with("ragcite: error: "),
        "one error line: {:?}",
        out.stderr
    );
    assert!(line.contains(name) && line.contains(limit), "{line}");
    line.to_string()
}

#[test]
fn check_stops_reading_an_endless_answer_or_chunks_at_the_limit() {
    let line = ragcite(["check", "/dev/zero", CHUNKS, "--max-input-size", "1KiB"])
        .timeout(std::time::Duration::from_secs(60))
        .input_error();
    assert!(
        line.contains("/dev/zero") && line.contains("1 KiB") && line.contains("--max-input-size"),
        "{line}"
    );
    let line = ragcite(["check", ANSWER, "/dev/zero", "--max-input-size", "4096"])
        .timeout(std::time::Duration::from_secs(60))
        .input_error();
    assert!(
        line.contains("/dev/zero") && line.contains("4 KiB"),
        "{line}"
    );
    // Standard input the same.
    let line = ragcite(["check", "-", CHUNKS, "--max-input-size", "1KiB"])
        .stdin(vec![b'a'; 4096])
        .input_error();
    assert!(line.contains("<stdin>") && line.contains("1 KiB"), "{line}");
    // A file within the limit is read as before.
    let out = ragcite([
        "check",
        ANSWER,
        CHUNKS,
        "--max-input-size",
        "1MiB",
        "--format",
        "json",
    ])
    .output()
    .no_panic();
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    out.json();
}

#[test]
fn quote_stops_reading_an_endless_document_at_the_limit() {
    let line = ragcite(["quote", "/dev/zero", "a quote", "--max-input-size", "1KiB"])
        .timeout(std::time::Duration::from_secs(60))
        .input_error();
    assert!(
        line.contains("/dev/zero") && line.contains("1 KiB"),
        "{line}"
    );
    let line = ragcite([
        "quote",
        ANSWER,
        "--quote-file",
        "/dev/zero",
        "--max-input-size",
        "2k",
    ])
    .timeout(std::time::Duration::from_secs(60))
    .input_error();
    assert!(
        line.contains("/dev/zero") && line.contains("2 KiB"),
        "{line}"
    );
}

#[test]
fn batch_stops_at_a_record_over_the_limit() {
    let out = ragcite([
        "batch",
        "/dev/zero",
        "--max-record-size",
        "1KiB",
        "--format",
        "jsonl",
    ])
    .timeout(std::time::Duration::from_secs(60))
    .output();
    let line = one_error_line(out.clone(), "/dev/zero", "1 KiB");
    assert!(line.contains("a record longer than"), "{line}");
    let summary: serde_json::Value =
        serde_json::from_str(out.stdout.lines().last().expect("a summary line")).expect("JSON");
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["complete"], false);
    // Standard input, as JSON Lines, and a record of an array.
    let mut long = br#"{"answer": "x", "contexts": ["x"]}"#.to_vec();
    long.extend(b"\n{\"answer\": \"");
    long.extend(vec![b'y'; 8192]);
    let out = ragcite(["batch", "-", "--max-record-size", "4KiB"])
        .stdin(long)
        .output();
    one_error_line(out, "<stdin>", "4 KiB");
    let mut array = b"[{\"answer\": \"".to_vec();
    array.extend(vec![b'y'; 8192]);
    array.extend(b"\", \"contexts\": [\"y\"]}]");
    let out = ragcite(["batch", "-", "--max-record-size", "4KiB"])
        .stdin(array)
        .output();
    one_error_line(out, "<stdin>", "4 KiB");
    // CSV: a row without end.
    let mut csv = b"answer,contexts\n\"".to_vec();
    csv.extend(vec![b'z'; 100_000]);
    let out = ragcite([
        "batch",
        "-",
        "--stdin-filename",
        "rows.csv",
        "--max-record-size",
        "4KiB",
    ])
    .stdin(csv)
    .output();
    one_error_line(out, "rows.csv", "4 KiB");
}

#[test]
fn batch_on_dev_zero_ends_with_the_default_limit() {
    let out = ragcite(["batch", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(120))
        .output();
    let line = one_error_line(out, "/dev/zero", "64 MiB");
    assert!(line.contains("--max-record-size"), "{line}");
}

#[test]
fn eval_and_train_stop_at_a_line_over_the_limit() {
    let line = one_error_line(
        ragcite(["eval", "/dev/zero", "--max-record-size", "1KiB"])
            .timeout(std::time::Duration::from_secs(60))
            .output(),
        "/dev/zero",
        "1 KiB",
    );
    assert!(line.contains("longer than"), "{line}");
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("model.json");
    one_error_line(
        ragcite(["train", "/dev/zero", "--max-record-size", "1KiB", "-o"])
            .args([out.as_os_str()])
            .timeout(std::time::Duration::from_secs(60))
            .output(),
        "/dev/zero",
        "1 KiB",
    );
    assert!(!out.exists());
    // Standard input kept for two models is bounded by --max-input-size.
    let line = one_error_line(
        ragcite([
            "eval",
            "-",
            "--model",
            "formula",
            "--max-input-size",
            "1KiB",
        ])
        .stdin(vec![b'\n'; 4096])
        .output(),
        "<stdin>",
        "1 KiB",
    );
    assert!(line.contains("--max-input-size"), "{line}");
}

#[test]
fn sizes_are_read_with_their_units() {
    for bad in ["", "1.5MiB", "-1", "12XB", "99999999999999999999"] {
        let err = ragcite(["check", ANSWER, CHUNKS])
            .args([format!("--max-input-size={bad}")])
            .usage_error();
        assert!(err.contains("--max-input-size"), "{bad}: {err}");
    }
    for good in [
        "100000", "64KiB", "64k", "64K", "1M", "1mib", "1GiB", "1g", "10B",
    ] {
        ragcite([
            "quote",
            ANSWER,
            "tower",
            "--max-input-size",
            good,
            "--format",
            "json",
        ])
        .output()
        .no_panic();
    }
}

#[test]
fn an_endless_configuration_file_is_an_error() {
    let line = ragcite(["check", ANSWER, CHUNKS, "--config", "/dev/zero"])
        .timeout(std::time::Duration::from_secs(60))
        .input_error();
    assert!(
        line.contains("/dev/zero") && line.contains("1 MiB"),
        "{line}"
    );
}

// ---------------------------------------------------------------------------------------------
// Interrupted and truncated batches

/// Writes `count` JSON Lines records to `path`.
fn write_records(path: &Path, count: usize) {
    let mut text = String::new();
    for k in 0..count {
        let record = serde_json::json!({
            "id": format!("r{k}"),
            "answer": format!("The tower is {} metres tall and was built in 1889 [1]. It is made of iron [2].", 300 + k % 50),
            "contexts": ["The tower is 330 metres tall and was built in 1889.", "It is made of wrought iron."],
        });
        text.push_str(&record.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).expect("records written");
}

/// Sends `signal` (`INT`, `TERM`) to `child`, runs `then`, and waits for the child's end; fails
/// (killing it) unless it ends within `limit` of the signal.
fn signal_and_wait(
    child: &mut std::process::Child,
    signal: &str,
    limit: std::time::Duration,
    then: impl FnOnce(),
) -> std::process::ExitStatus {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    then();
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ragcite did not stop within {limit:?} of SIG{signal}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Runs `batch FILE --format jsonl`, sends `signal` once the first line is out, and gives the
/// exit code, the lines written and stderr. The run is killed if it takes over a minute.
fn interrupted_batch(signal: &str) -> (Option<i32>, Vec<serde_json::Value>, String) {
    use std::io::{BufRead, Read};
    use std::process::Stdio;
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("records.jsonl");
    let total = 20_000;
    write_records(&file, total);
    let mut child = ragcite(["batch"])
        .args([file.as_os_str()])
        .args(["--format", "jsonl"])
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ragcite starts");
    let mut stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a first line");
    assert!(first.ends_with('\n'), "a first record line: {first:?}");
    let mut rest = String::new();
    let status = signal_and_wait(&mut child, signal, Duration::from_secs(60), || {
        stdout
            .read_to_string(&mut rest)
            .expect("the rest of stdout");
    });
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    let lines: Vec<serde_json::Value> = first
        .lines()
        .chain(rest.lines())
        .map(|line| serde_json::from_str(line).expect("every line is JSON"))
        .collect();
    let records = lines.iter().filter(|l| l["type"] == "record").count();
    assert!(
        records < total,
        "the run was not interrupted: {records} records"
    );
    (status.code(), lines, stderr)
}

#[test]
fn an_interrupted_batch_ends_with_an_incomplete_summary_and_130() {
    let (code, lines, stderr) = interrupted_batch("INT");
    let last = lines.last().expect("a last line");
    assert_eq!(
        last["type"], "summary",
        "the last line is the summary: {last}"
    );
    assert_eq!(last["complete"], false);
    let error = last["error"].as_str().expect("an error");
    assert!(error.contains("interrupted by SIGINT"), "{error}");
    // Every record before the summary was written whole, and the aggregate counts them.
    let records = lines.iter().filter(|l| l["type"] == "record").count();
    assert_eq!(last["aggregate"]["records"], records);
    assert_eq!(code, Some(130), "stderr: {stderr}");
    let line = stderr.strip_suffix('\n').expect("one line");
    assert!(
        !line.contains('\n')
            && line.starts_with("ragcite: error: ")
            && line.contains("interrupted by SIGINT: the output is incomplete"),
        "{stderr}"
    );
}

#[test]
fn a_terminated_batch_ends_with_an_incomplete_summary_and_143() {
    let (code, lines, stderr) = interrupted_batch("TERM");
    let last = lines.last().expect("a last line");
    assert_eq!(last["type"], "summary", "{last}");
    assert_eq!(last["complete"], false);
    assert!(
        last["error"]
            .as_str()
            .is_some_and(|e| e.contains("SIGTERM"))
    );
    assert_eq!(code, Some(143), "stderr: {stderr}");
}

#[test]
fn a_json_lines_file_cut_inside_its_last_line_is_incomplete() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("cut.jsonl");
    write_records(&file, 3);
    let text = std::fs::read_to_string(&file).expect("records");
    // Cut inside the third record.
    std::fs::write(&file, &text[..text.len() - 20]).expect("cut");
    let out = ragcite(["batch"])
        .args([file.as_os_str()])
        .args(["--format", "jsonl", "--max-failing-records", "9"])
        .output()
        .exits(2)
        .no_panic();
    let lines: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let last = lines.last().expect("a summary");
    assert_eq!(last["type"], "summary");
    assert_eq!(last["complete"], false);
    assert_eq!(last["aggregate"]["records"], 2);
    assert_eq!(last["aggregate"]["badRecords"], 0);
    let error = last["error"].as_str().expect("an error");
    assert!(
        error.starts_with("line 3: ") && error.contains("cut-off"),
        "{error}"
    );
    assert!(
        out.stderr.contains("the output is incomplete"),
        "{}",
        out.stderr
    );
    // A last line without a line break that is a whole record is read as one.
    std::fs::write(&file, text.trim_end()).expect("no final line break");
    let summary = ragcite(["batch"])
        .args([file.as_os_str()])
        .args(["--format", "json", "--max-failing-records", "9"])
        .json(0);
    assert_eq!(summary["complete"], true);
    assert_eq!(summary["aggregate"]["records"], 3);
}

// ---------------------------------------------------------------------------------------------
// Signals while waiting on input

/// Waits until process `pid` handles SIGINT and SIGTERM (bits 2 and 15 of `SigCgt` in
/// `/proc/PID/status`), so that a signal sent next meets ragcite's handlers, not the default.
fn wait_for_handlers(pid: u32) {
    use std::time::{Duration, Instant};
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|line| line.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok());
        match caught {
            Some(mask) if mask & 0x4002 == 0x4002 => return,
            // No /proc: give the process time to start.
            None if !Path::new("/proc/self/status").exists() => {
                std::thread::sleep(Duration::from_secs(1));
                return;
            }
            _ => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    panic!("process {pid} never handled SIGINT and SIGTERM");
}

/// Starts `args` with standard input a pipe left open and silent, waits until it handles
/// signals (and `wait` more), sends `signal` (`INT` or `TERM`), and gives the exit code, stdout
/// and stderr. Fails unless the run ends within 10 s of the signal.
fn signalled_while_waiting(
    args: &[&std::ffi::OsStr],
    signal: &str,
    wait: std::time::Duration,
) -> (Option<i32>, String, String) {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::Duration;
    let mut child = ragcite(args)
        .command()
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ragcite starts");
    // Kept open, never written: standard input that is open but silent.
    let stdin = child.stdin.take();
    wait_for_handlers(child.id());
    std::thread::sleep(wait);
    let status = signal_and_wait(&mut child, signal, Duration::from_secs(10), || {});
    drop(stdin);
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut stdout)
        .expect("stdout");
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    (status.code(), stdout, stderr)
}

/// Asserts the end of a run stopped by `signal`: its exit code, and one error line that names
/// `file` and the signal.
#[track_caller]
fn stopped_by(signal: &str, file: &str, (code, stdout, stderr): &(Option<i32>, String, String)) {
    let expected = match signal {
        "INT" => 130,
        _ => 143,
    };
    assert_eq!(
        *code,
        Some(expected),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let line = stderr.strip_suffix('\n').expect("one line");
    assert!(
        !line.contains('\n')
            && line.starts_with("ragcite: error: ")
            && line.contains(file)
            && line.contains(&format!("interrupted by SIG{signal}")),
        "{stderr}"
    );
}

#[test]
fn a_signal_ends_a_batch_that_waits_on_a_fifo_or_silent_input() {
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fifo = dir.path().join("records.jsonl");
    mkfifo(&fifo);
    let fifo_name = fifo.to_string_lossy().to_string();
    for signal in ["INT", "TERM"] {
        // A FIFO no writer opened: the run waits to open it.
        let ended = signalled_while_waiting(
            &[
                "batch".as_ref(),
                fifo.as_os_str(),
                "--format".as_ref(),
                "jsonl".as_ref(),
            ],
            signal,
            Duration::from_millis(200),
        );
        stopped_by(signal, &fifo_name, &ended);
        let last = ended.1.lines().last().expect("a summary");
        let last: serde_json::Value = serde_json::from_str(last).expect("JSON");
        assert_eq!(last["type"], "summary", "{last}");
        assert_eq!(last["complete"], false, "{last}");
        // Standard input open and silent: the run waits to read it.
        let ended = signalled_while_waiting(
            &[
                "batch".as_ref(),
                "-".as_ref(),
                "--format".as_ref(),
                "jsonl".as_ref(),
            ],
            signal,
            Duration::from_millis(200),
        );
        stopped_by(signal, "<stdin>", &ended);
    }
}

#[test]
fn a_signal_ends_a_batch_whose_fifo_went_silent_with_the_records_read() {
    use std::io::Write;
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fifo = dir.path().join("records.jsonl");
    mkfifo(&fifo);
    let records = dir.path().join("two.jsonl");
    write_records(&records, 2);
    let text = std::fs::read(&records).expect("records");
    // The writer opens the FIFO (which waits for the reader), writes two records, and keeps it
    // open until the run ended.
    let (done, wait_done) = std::sync::mpsc::channel::<()>();
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .expect("the FIFO opens");
        file.write_all(&text).expect("records written");
        let _ = wait_done.recv();
    });
    let ended = signalled_while_waiting(
        &[
            "batch".as_ref(),
            fifo.as_os_str(),
            "--format".as_ref(),
            "jsonl".as_ref(),
        ],
        "TERM",
        Duration::from_millis(500),
    );
    let _ = done.send(());
    writer.join().expect("the writer ends");
    stopped_by("TERM", &fifo.to_string_lossy(), &ended);
    let lines: Vec<serde_json::Value> = ended
        .1
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let last = lines.last().expect("a summary");
    assert_eq!(last["type"], "summary", "{last}");
    assert_eq!(last["complete"], false, "{last}");
    // The records read before the wait are checked and written.
    assert_eq!(last["aggregate"]["records"], 2, "{last}");
    assert_eq!(lines.iter().filter(|l| l["type"] == "record").count(), 2);
}

#[test]
fn a_signal_ends_a_baseline_or_a_compare_that_waits_on_input() {
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fifo = dir.path().join("waits.json");
    mkfifo(&fifo);
    let fifo_name = fifo.to_string_lossy().to_string();
    let records = dir.path().join("records.jsonl");
    write_records(&records, 2);
    for signal in ["INT", "TERM"] {
        let ended = signalled_while_waiting(
            &[
                "batch".as_ref(),
                records.as_os_str(),
                "--baseline".as_ref(),
                fifo.as_os_str(),
            ],
            signal,
            Duration::from_millis(200),
        );
        stopped_by(signal, &fifo_name, &ended);
        assert_eq!(
            ended.1, "",
            "nothing is written before the baseline is read"
        );
        let ended = signalled_while_waiting(
            &["compare".as_ref(), fifo.as_os_str(), records.as_os_str()],
            signal,
            Duration::from_millis(200),
        );
        stopped_by(signal, &fifo_name, &ended);
        assert_eq!(ended.1, "");
        let ended = signalled_while_waiting(
            &["compare".as_ref(), records.as_os_str(), "-".as_ref()],
            signal,
            Duration::from_millis(200),
        );
        stopped_by(signal, "<stdin>", &ended);
    }
}
