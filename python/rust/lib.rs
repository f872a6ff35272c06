//! `ragcite._native`, the extension module of the Python package: the `ragcite` command line
//! (the `ragcite-cli` crate, the binary's own, so that the console script is that program) and
//! the functions behind the Python API. Each function takes text and options as the command line
//! would, runs the same code as `ragcite check`, `batch` or `quote --format json` with the Python
//! interpreter released, and returns that JSON document as a string; `ragcite/__init__.py` turns
//! Python objects into that text and the JSON into dicts.

// A program's entry points: the console script prints.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::cell::Cell;
use std::ffi::OsString;
use std::io;

use clap::Parser as _;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use ragcite_cli as app;
use ragcite_cli::cli::{BatchArgs, CheckArgs, Cli, Command};

/// The same allocator as the binary, for the same speed.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    _native,
    InputError,
    PyValueError,
    "An input ragcite cannot read, or an option it does not take: the message is the line the \
     command line prints after `ragcite: error: `."
);

/// The name the answer and the chunks get in reports (the command line gives the file's path).
const ANSWER_NAME: &str = "<answer>";
const CHUNKS_NAME: &str = "<chunks>";
/// The name of records given as Python objects; `.jsonl` makes them read one per line.
const RECORDS_NAME: &str = "<records>.jsonl";

fn input_error(message: String) -> PyErr {
    InputError::new_err(message)
}

/// Parses a command line the way `ragcite` does, without any configuration file: the Python
/// functions do what their arguments say.
fn parse(argv: Vec<String>) -> PyResult<Command> {
    let argv = std::iter::once("ragcite".to_string()).chain(argv);
    Cli::try_parse_from(argv)
        .map(|cli| cli.command)
        .map_err(|e| input_error(app::usage_message(&e)))
}

fn check_args(with_chunks: bool, options: Vec<String>) -> PyResult<CheckArgs> {
    let mut argv = vec!["check".to_string(), ANSWER_NAME.to_string()];
    if with_chunks {
        argv.push(CHUNKS_NAME.to_string());
    }
    argv.extend(["--format".to_string(), "json".to_string()]);
    argv.extend(options);
    match parse(argv)? {
        Command::Check(args) => Ok(args),
        _ => unreachable!("`check` parses to Command::Check"),
    }
}

fn batch_args(files: Vec<String>, format: &str, options: Vec<String>) -> PyResult<BatchArgs> {
    let mut argv = vec!["batch".to_string()];
    argv.extend(files);
    argv.extend(["--format".to_string(), format.to_string()]);
    argv.extend(options);
    match parse(argv)? {
        Command::Batch(args) => Ok(args),
        _ => unreachable!("`batch` parses to Command::Batch"),
    }
}

/// One check, as `ragcite check --format json` prints it.
fn check_one(args: &CheckArgs, answer: Vec<u8>, chunks: Option<Vec<u8>>) -> Result<String, String> {
    let chunks = Cell::new(chunks);
    let read_chunks = |_: &str| Ok(chunks.take().unwrap_or_default());
    let mut out = Vec::new();
    let (_, written) = app::commands::check::write(args, answer, &read_chunks, &mut out)
        .map_err(|e| app::error_message(&e))?;
    written.map_err(|e| e.to_string())?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// Runs the `ragcite` command line with `args` (the program name first) and returns its exit
/// code; what it prints goes to the process's standard output and error.
#[pyfunction]
fn main(py: Python<'_>, args: Vec<OsString>) -> u8 {
    py.detach(|| app::main(args))
}

/// `ragcite check ANSWER [CHUNKS] --format json OPTIONS...` on the given bytes.
#[pyfunction]
fn check(
    py: Python<'_>,
    answer: Vec<u8>,
    chunks: Option<Vec<u8>>,
    options: Vec<String>,
) -> PyResult<String> {
    let args = check_args(chunks.is_some(), options)?;
    py.detach(|| check_one(&args, answer, chunks))
        .map_err(input_error)
}

/// One record of `check_many`: the answer, its chunks (none: the sources its response
/// carries), its question.
type Record = (Vec<u8>, Option<Vec<u8>>, Option<String>);

/// `check` over many `(answer, chunks, question)` records, on every core (`question`, when
/// given, as `--question`); the first input error, in input order, is raised with the index of
/// its record.
#[pyfunction]
fn check_many(py: Python<'_>, records: Vec<Record>, options: Vec<String>) -> PyResult<Vec<String>> {
    let mut with_chunks = check_args(true, options.clone())?;
    let mut without_chunks = check_args(false, options.clone())?;
    // The model is read once, and a bad model file is the call's error, not a record's.
    let model = app::cli::load_model(&with_chunks.checking.model)
        .map_err(|e| input_error(app::error_message(&e)))?;
    with_chunks.checking.loaded = Some(std::sync::Arc::clone(&model));
    without_chunks.checking.loaded = Some(std::sync::Arc::clone(&model));
    // A record's question: its own arguments, `--question` added (one argument, so that a
    // question starting with `-` is no option), the model shared.
    let asked = |chunks: bool, question: String| -> Result<CheckArgs, String> {
        let mut options = options.clone();
        options.push(format!("--question={question}"));
        let mut args = check_args(chunks, options).map_err(|e| e.to_string())?;
        args.checking.loaded = Some(std::sync::Arc::clone(&model));
        Ok(args)
    };
    let results: Vec<Result<String, String>> = py.detach(|| {
        records
            .into_par_iter()
            .map(|(answer, chunks, question)| {
                let args = match chunks {
                    Some(_) => &with_chunks,
                    None => &without_chunks,
                };
                match question {
                    Some(question) => asked(chunks.is_some(), question)
                        .and_then(|args| check_one(&args, answer, chunks)),
                    None => check_one(args, answer, chunks),
                }
            })
            .collect()
    });
    results
        .into_iter()
        .enumerate()
        .map(|(index, result)| result.map_err(|e| input_error(format!("records[{index}]: {e}"))))
        .collect()
}

/// `ragcite batch FILES... --format FORMAT OPTIONS...`: the report and the exit code. With
/// `records` (JSON Lines bytes), those are the one file, named `<records>.jsonl`.
#[pyfunction]
fn batch(
    py: Python<'_>,
    files: Vec<String>,
    records: Option<Vec<u8>>,
    format: &str,
    options: Vec<String>,
) -> PyResult<(String, u8)> {
    let in_memory = records.is_some();
    let files = if in_memory {
        vec![RECORDS_NAME.to_string()]
    } else {
        files
    };
    let args = batch_args(files, format, options)?;
    let records = std::sync::Mutex::new(records);
    let open = |_: &str| -> io::Result<Box<dyn io::BufRead + Send>> {
        let bytes = records.lock().ok().and_then(|mut r| r.take());
        Ok(Box::new(io::Cursor::new(bytes.unwrap_or_default())))
    };
    let mut out = Vec::new();
    let status = py
        .detach(|| match in_memory {
            true => app::commands::batch::write(&args, &open, &mut out),
            false => app::commands::batch::report(&args, &mut out),
        })
        .map_err(|e| input_error(app::error_message(&e)))?;
    let report = String::from_utf8(out).map_err(|e| input_error(e.to_string()))?;
    Ok((report, status.code()))
}

/// The end of `ragcite batch --format json` (`summary`, `aggregate`, `gate`, `complete`,
/// `error`) for records checked elsewhere, from the sum of their totals (JSON: `records`,
/// `checked`, `badRecords`, `failingRecords`, `counts`) and the batch's options.
#[pyfunction]
fn summarize(totals: &str, options: Vec<String>) -> PyResult<String> {
    let args = batch_args(vec![RECORDS_NAME.to_string()], "json", options)?;
    let totals: ragcite::batch::Totals =
        serde_json::from_str(totals).map_err(|e| input_error(format!("the totals: {e}")))?;
    let aggregate = ragcite::batch::Aggregate::from_totals(totals);
    let gate = aggregate.evaluate(&args.limits());
    let end = ragcite::emit::BatchEnd {
        aggregate: &aggregate,
        gate: &gate,
        stopped: None,
        baseline: None,
    };
    let mut closing = ragcite::emit::json::BatchClosing::new(&end);
    closing.kind = None;
    serde_json::to_string(&closing).map_err(|e| input_error(e.to_string()))
}

/// `ragcite quote DOCUMENT QUOTE --format json`: where the quote is in the document.
#[pyfunction]
fn verify_quote(py: Python<'_>, document: Vec<u8>, quote: String) -> PyResult<(String, bool)> {
    if quote.trim().is_empty() {
        return Err(input_error("the quote is empty".to_string()));
    }
    let found = py
        .detach(|| ragcite::quote::find_in_document(&document, &quote))
        .map_err(|e| input_error(format!("<document>: {e}")))?;
    let mut out = Vec::new();
    let report = ragcite::emit::quote::QuoteReport::new(&found, &document);
    ragcite::emit::quote::write_json(&mut out, &report).map_err(|e| input_error(e.to_string()))?;
    let json = String::from_utf8(out).map_err(|e| input_error(e.to_string()))?;
    Ok((json, found.found))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add_function(wrap_pyfunction!(main, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(check_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch, m)?)?;
    m.add_function(wrap_pyfunction!(summarize, m)?)?;
    m.add_function(wrap_pyfunction!(verify_quote, m)?)?;
    Ok(())
}
