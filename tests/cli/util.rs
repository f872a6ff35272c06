//! The one way the tests run the `ragcite` binary: [`ragcite`] builds a [`Run`], whose methods
//! run it and check what it gave ([`Output`]).
//!
//! Every run is cut off from the machine it runs on, so that a test gives the same result in any
//! checkout, terminal or CI job:
//!
//! - Configuration. `check`, `batch` and `compare` apply the `.ragcite.toml`, `ragcite.toml` or
//!   `pyproject.toml` they find walking up from the working directory to `/`, so one file in any
//!   folder above the checkout would change the results. The runner adds `--isolated` to those
//!   subcommands (and `serve`, the only others that read configuration and accept the
//!   flag) unless the test passes `--isolated` or `--config` itself. The configuration tests opt
//!   into discovery with [`Tree::ragcite`], in a temporary tree with no configuration above it.
//! - Working directory: the crate root, unless the test names another ([`Run::in_dir`]). The
//!   outputs name the inputs as given (`testdata/eiffel/answer.md`), the CI formats relative to
//!   the project root (the nearest folder with `.git` above the working directory), and the
//!   snapshots show those names; so runs stay in the checkout, and `--isolated` keeps out what
//!   lies above it. (`.ci/run` runs the tests once more in a clone below a `.ragcite.toml` to
//!   check that.)
//! - Environment: the colour, terminal, CI and backtrace variables removed ([`SCRUBBED`]), and
//!   `COLUMNS=120` unless the test sets another width ([`Run::columns`]).
//! - Standard input: empty unless the test gives some ([`Run::stdin`]).
//!
//! `tests/properties.rs` and `tests/hostile.rs` include this file too (`#[path]`), so they use
//! only part of it.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

/// The crate root: where every run happens unless the test says otherwise, and what fixture
/// paths like `testdata/eiffel/answer.md` are relative to.
pub const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The subcommands that read configuration files (`src/config.rs`), and so get
/// `--isolated`.
const CONFIGURED: [&str; 4] = ["check", "batch", "compare", "serve"];

/// Variables removed from every run: colour choices (`NO_COLOR`, `CLICOLOR_FORCE` and
/// `FORCE_COLOR` are read by ragcite, the others by terminal libraries), the terminal, CI markers
/// (`CI` turns the progress bar off), and backtraces (which would change a panic's message).
pub const SCRUBBED: [&str; 12] = [
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "FORCE_COLOR",
    "TERM",
    "COLORTERM",
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "JENKINS_URL",
    "RUST_BACKTRACE",
    "RUST_LIB_BACKTRACE",
];

/// A support model file that gives every cited sentence the same support, sigmoid(3) =
/// 0.9526: one tree of one leaf (the format of `src/support/model.rs`).
pub const CONSTANT_MODEL: &str = r#"{"format": "ragcite-support-model", "version": 1,
"kind": "trees", "features": [{"name": "recall"}], "base": 3.0,
"trees": [{"feature": [-1], "threshold": [0], "left": [-1], "right": [-1], "value": [0.0]}]}"#;

/// The table width of every run unless the test sets another.
const COLUMNS: u16 = 120;

/// `ragcite <args>`, isolated as the module documentation says.
pub fn ragcite<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Run {
        program: PathBuf::from(env!("CARGO_BIN_EXE_ragcite")),
        args: args.into_iter().map(|a| a.as_ref().to_owned()).collect(),
        dir: PathBuf::from(ROOT),
        env: Vec::new(),
        stdin: None,
        timeout: None,
        discover_config: false,
    }
}

/// `relative` under the crate root.
pub fn path(relative: &str) -> PathBuf {
    Path::new(ROOT).join(relative)
}

/// A run of the binary, built up before it runs.
#[derive(Debug, Clone)]
pub struct Run {
    program: PathBuf,
    args: Vec<OsString>,
    dir: PathBuf,
    /// Set (`Some`) or removed (`None`) after [`SCRUBBED`] and `COLUMNS`, in order.
    env: Vec<(OsString, Option<OsString>)>,
    stdin: Option<Vec<u8>>,
    timeout: Option<Duration>,
    discover_config: bool,
}

impl Run {
    /// More arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Runs in `dir`: absolute, or relative to the crate root.
    pub fn in_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.dir = Path::new(ROOT).join(dir);
        self
    }

    /// Sets a variable (after the scrubbing, so that a test can set a scrubbed one).
    pub fn env(mut self, name: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        let value = value.as_ref().to_owned();
        self.env.push((name.as_ref().to_owned(), Some(value)));
        self
    }

    /// Removes a variable, `COLUMNS` included.
    pub fn env_remove(mut self, name: impl AsRef<OsStr>) -> Self {
        self.env.push((name.as_ref().to_owned(), None));
        self
    }

    /// `COLUMNS=<columns>` instead of 120.
    pub fn columns(self, columns: u16) -> Self {
        self.env("COLUMNS", columns.to_string())
    }

    /// Writes `bytes` to standard input.
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.stdin = Some(bytes.into());
        self
    }

    /// Kills the run after `limit` (its exit code is then `None`).
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// Runs another build of ragcite (`RAGCITE_BIN` of `tests/hostile.rs`).
    #[allow(dead_code, reason = "only tests/hostile.rs runs another build")]
    pub fn program(mut self, program: impl Into<PathBuf>) -> Self {
        self.program = program.into();
        self
    }

    /// The arguments the binary gets: the test's, with `--isolated` right after `check` or
    /// `batch` unless the test asked for configuration (`--config`, [`Tree::ragcite`]) or passed
    /// `--isolated` already. Right after the subcommand, so that it never follows `--` or
    /// becomes the value of an option the test left without one.
    pub fn argv(&self) -> Vec<OsString> {
        let mut args = self.args.clone();
        let subcommand = args
            .iter()
            .position(|a| !a.to_string_lossy().starts_with('-'));
        let configured =
            subcommand.is_some_and(|at| CONFIGURED.contains(&args[at].to_string_lossy().as_ref()));
        let asked = args.iter().any(|a| {
            let a = a.to_string_lossy();
            a == "--isolated" || a == "--config" || a.starts_with("--config=")
        });
        if let Some(at) = subcommand
            && configured
            && !asked
            && !self.discover_config
        {
            args.insert(at + 1, OsString::from("--isolated"));
        }
        args
    }

    /// The command line, for messages: `ragcite check --isolated a.md b.json`.
    pub fn what(&self) -> String {
        let mut what = String::from("ragcite");
        for arg in self.argv() {
            what.push(' ');
            what.push_str(&arg.to_string_lossy());
        }
        if self.dir != Path::new(ROOT) {
            what.push_str(&format!(" (in {})", self.dir.display()));
        }
        what
    }

    /// The command, for a test that needs to spawn it itself (a closed pipe, a FIFO, a
    /// pseudo-terminal, a timed run). Standard input, output and error are left to the test.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(self.argv()).current_dir(&self.dir);
        for name in SCRUBBED {
            command.env_remove(name);
        }
        command.env("COLUMNS", COLUMNS.to_string());
        for (name, value) in &self.env {
            match value {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        command
    }

    /// Runs the binary to its end (or the timeout) and gives what it wrote.
    #[track_caller]
    pub fn output(self) -> Output {
        let what = self.what();
        let mut command = assert_cmd::Command::from_std(self.command());
        // Piped and closed at once when there is no input: the run never waits for a terminal.
        command.write_stdin(self.stdin.unwrap_or_default());
        if let Some(limit) = self.timeout {
            command.timeout(limit);
        }
        let output = command
            .output()
            .unwrap_or_else(|e| panic!("`{what}` does not run: {e}"));
        let text = |bytes: Vec<u8>, stream: &str| {
            String::from_utf8(bytes).unwrap_or_else(|e| panic!("{stream} of `{what}`: {e}"))
        };
        Output {
            code: output.status.code(),
            stdout: text(output.stdout, "stdout"),
            stderr: text(output.stderr, "stderr"),
            what,
        }
    }

    /// Runs, asserts the exit code, and gives the output.
    #[track_caller]
    pub fn exits(self, code: i32) -> Output {
        self.output().exits(code)
    }

    /// Runs, asserts the exit code and that nothing is on stderr, and gives the output.
    #[track_caller]
    pub fn exits_quietly(self, code: i32) -> Output {
        self.output().exits_quietly(code)
    }

    /// Runs, asserts the exit code and that nothing is on stderr, and gives stdout.
    #[track_caller]
    pub fn stdout(self, code: i32) -> String {
        self.output().exits_quietly(code).stdout
    }

    /// Runs, asserts the exit code and that nothing is on stderr, and parses stdout as one JSON
    /// document.
    #[track_caller]
    pub fn json(self, code: i32) -> Value {
        self.output().exits_quietly(code).json()
    }

    /// Runs and asserts an input error (see [`Output::input_error`]); gives the line.
    #[track_caller]
    pub fn input_error(self) -> String {
        self.output().input_error()
    }

    /// Runs and asserts a usage error (see [`Output::usage_error`]); gives stderr.
    #[track_caller]
    pub fn usage_error(self) -> String {
        self.output().usage_error()
    }
}

/// What a run gave: its exit code (`None` when killed) and what it wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The command line, for messages.
    pub what: String,
}

impl Output {
    /// Asserts the exit code.
    #[track_caller]
    pub fn exits(self, code: i32) -> Self {
        assert_eq!(
            self.code,
            Some(code),
            "exit code of `{}`\nstdout:\n{}\nstderr:\n{}",
            self.what,
            self.stdout,
            self.stderr
        );
        self
    }

    /// Asserts the exit code and that nothing is on stderr.
    #[track_caller]
    pub fn exits_quietly(self, code: i32) -> Self {
        let out = self.exits(code);
        assert_eq!(out.stderr, "", "stderr of `{}`", out.what);
        out
    }

    /// Stdout as one JSON document.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout of `{}` is not one JSON document ({e}):\n{}\nstderr:\n{}",
                self.what, self.stdout, self.stderr
            )
        })
    }

    /// Asserts that stderr shows no panic.
    #[track_caller]
    pub fn no_panic(self) -> Self {
        assert!(
            !self.stderr.contains("panicked") && !self.stderr.to_lowercase().contains("backtrace"),
            "`{}` panicked:\n{}",
            self.what,
            self.stderr
        );
        self
    }

    /// Asserts an input error: exit 2, nothing on stdout, no panic, and exactly one line on
    /// stderr, which starts `ragcite: error: `. Gives that line without its line break.
    #[track_caller]
    pub fn input_error(self) -> String {
        let out = self.exits(2).no_panic();
        assert_eq!(out.stdout, "", "stdout of `{}`", out.what);
        let line = out.stderr.strip_suffix('\n').unwrap_or_else(|| {
            panic!(
                "stderr of `{}` does not end its line: {:?}",
                out.what, out.stderr
            )
        });
        assert!(
            !line.contains('\n'),
            "stderr of `{}` is more than one line: {:?}",
            out.what,
            out.stderr
        );
        assert!(
            line.starts_with("ragcite: error: "),
            "stderr of `{}`: {line:?}",
            out.what
        );
        line.to_string()
    }

    /// Asserts a usage error from the argument parser: exit 2, nothing on stdout, no panic.
    /// Gives stderr (the parser's message and usage, several lines).
    #[track_caller]
    pub fn usage_error(self) -> String {
        let out = self.exits(2).no_panic();
        assert_eq!(out.stdout, "", "stdout of `{}`", out.what);
        out.stderr
    }
}

// ---------------------------------------------------------------------------------------------
// A pseudo-terminal (script from util-linux)

/// `word` quoted for sh.
fn sh_quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Runs `run` (its command, arguments and environment) inside a pseudo-terminal made by
/// `script`, after `stty cols <tty_columns>`: standard output and error are that terminal. Gives
/// the exit code (137 when killed at the timeout) and what the terminal showed, with its line
/// ends made `\n`; `None` when `script` is not installed (the caller says so and skips).
pub fn in_a_pseudo_terminal(run: &Run, tty_columns: u16) -> Option<(Option<i32>, String)> {
    let installed = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !installed {
        println!("skipped: `script` (util-linux) is not installed");
        return None;
    }
    let inner = run.command();
    let words: Vec<String> = std::iter::once(inner.get_program())
        .chain(inner.get_args())
        .map(|word| sh_quote(&word.to_string_lossy()))
        .collect();
    // Killed after the run's timeout (two minutes without one), so that a hang fails the test
    // instead of holding it.
    let limit = run.timeout.map_or(120, |limit| limit.as_secs().max(1));
    let command = format!(
        "stty cols {tty_columns} && exec timeout --foreground -s KILL {limit} {}",
        words.join(" ")
    );
    let mut script = Command::new("script");
    script.args(["-qec", &command, "/dev/null"]);
    if let Some(dir) = inner.get_current_dir() {
        script.current_dir(dir);
    }
    for (name, value) in inner.get_envs() {
        match value {
            Some(value) => script.env(name, value),
            None => script.env_remove(name),
        };
    }
    let output = script
        .env("SHELL", "/bin/sh")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    let stdout = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    Some((output.status.code(), stdout.replace("\r\n", "\n")))
}

// ---------------------------------------------------------------------------------------------
// Configuration discovery

/// A temporary directory tree for the configuration tests, from which discovery finds only the
/// files the test wrote: [`Tree::new`] checks that no configuration lies above it. Paths are
/// canonical, as the binary sees its working directory.
pub struct Tree {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
}

impl Tree {
    #[track_caller]
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path().canonicalize().expect("a canonical path");
        for above in root.ancestors().skip(1) {
            let found = [".ragcite.toml", "ragcite.toml"]
                .map(|name| above.join(name))
                .into_iter()
                .find(|path| path.is_file())
                .or_else(|| {
                    let pyproject = above.join("pyproject.toml");
                    let text = std::fs::read_to_string(&pyproject).ok()?;
                    text.contains("tool.ragcite").then_some(pyproject)
                });
            if let Some(found) = found {
                panic!(
                    "{} lies above the temporary directory {}: discovery would find it where a \
                     test expects none; move it, or set TMPDIR to a folder with no configuration \
                     above it",
                    found.display(),
                    root.display()
                );
            }
        }
        Tree { _dir: dir, root }
    }

    /// Writes `text` to `relative` (creating its directories) and returns its path.
    pub fn write(&self, relative: &str, text: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("directories made");
        std::fs::write(&path, text).expect("written");
        path
    }

    /// Creates a directory and returns its path.
    pub fn dir(&self, relative: &str) -> PathBuf {
        let path = self.root.join(relative);
        std::fs::create_dir_all(&path).expect("directories made");
        path
    }

    /// `ragcite <args>` run in `dir`, a directory of the tree, with configuration discovery on:
    /// no `--isolated` is added.
    #[track_caller]
    pub fn ragcite<I, S>(&self, dir: &Path, args: I) -> Run
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        assert!(
            dir.starts_with(&self.root),
            "{} is not in the tree",
            dir.display()
        );
        let mut run = ragcite(args).in_dir(dir);
        run.discover_config = true;
        run
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the JSON outputs

/// An array of strings, as strings.
#[track_caller]
pub fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not an array: {value}"))
        .iter()
        .map(|v| {
            v.as_str()
                .unwrap_or_else(|| panic!("not a string: {v}"))
                .to_string()
        })
        .collect()
}

/// A `[start, end]` pair of offsets.
#[track_caller]
pub fn pair(offsets: &Value) -> (usize, usize) {
    let list = offsets
        .as_array()
        .unwrap_or_else(|| panic!("offsets are not an array: {offsets}"));
    assert_eq!(list.len(), 2, "{offsets}");
    let n = |v: &Value| usize::try_from(v.as_u64().expect("an offset")).expect("fits");
    (n(&list[0]), n(&list[1]))
}

/// Characters `[start, end)` of `text`.
#[track_caller]
pub fn chars(text: &str, offsets: &Value) -> String {
    let (start, end) = pair(offsets);
    assert!(start <= end, "{offsets}");
    text.chars().skip(start).take(end - start).collect()
}

/// The text of the chunk `id` in the JSON chunks file `chunks` (relative to the crate root).
#[track_caller]
pub fn chunk_text(chunks: &str, id: &str) -> String {
    let text = std::fs::read_to_string(path(chunks)).expect("the chunks file");
    let list: Value = serde_json::from_str(&text).expect("chunks are JSON");
    list.as_array()
        .expect("an array of chunks")
        .iter()
        .find(|c| c["id"] == id)
        .and_then(|c| c["text"].as_str())
        .unwrap_or_else(|| panic!("no chunk {id} in {chunks}"))
        .to_string()
}

/// The sentences of `check --format json --lang lang` on an answer and chunks given as (id,
/// text), written to a fresh directory.
#[track_caller]
pub fn check_sentences(answer: &str, chunks: &[(&str, &str)], lang: &str) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("answer.md"), answer).unwrap();
    let chunks: Vec<Value> = chunks
        .iter()
        .map(|(id, text)| serde_json::json!({"id": id, "text": text}))
        .collect();
    std::fs::write(
        dir.path().join("chunks.json"),
        Value::from(chunks).to_string(),
    )
    .unwrap();
    let out = ragcite([
        "check",
        "answer.md",
        "chunks.json",
        "--format",
        "json",
        "--lang",
        lang,
    ])
    .in_dir(dir.path())
    .output();
    assert!(matches!(out.code, Some(0 | 1)), "{}", out.stderr);
    out.json()["result"]["sentences"]
        .as_array()
        .unwrap_or_else(|| panic!("no sentences: {}", out.stdout))
        .clone()
}

/// The worked example's verdicts (testdata/eiffel), in sentence order.
pub const EIFFEL_VERDICTS: [&str; 4] = [
    "supported",
    "number-mismatch",
    "unsupported-citation",
    "uncited-claim",
];

/// The `verdict` of each sentence of a JSON array of sentences, in order.
pub fn verdicts_in(sentences: &Value) -> Vec<String> {
    sentences
        .as_array()
        .unwrap_or_else(|| panic!("no sentences in {sentences}"))
        .iter()
        .map(|s| s["verdict"].as_str().unwrap_or_default().to_string())
        .collect()
}
