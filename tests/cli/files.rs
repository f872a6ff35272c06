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
