//! The `ragcite` command: parses the command line, reads the inputs, runs the library's check,
//! writes the chosen format and turns the gate's outcome into the exit code.

mod cli;
mod config;
mod exit;
mod generate;

use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

/// mimalloc instead of the system allocator: the stemmer and the report allocate many small
/// strings, and glibc's malloc took a sixth of the time of a large check.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::{Context, Result, bail};
use clap::Parser;
use ragcite::emit::github::GithubEmitter;
use ragcite::emit::gitlab::GitlabEmitter;
use ragcite::emit::json::BatchJsonEmitter;
use ragcite::emit::json::JsonEmitter;
use ragcite::emit::jsonl::BatchJsonLinesEmitter;
use ragcite::emit::junit::JunitEmitter;
use ragcite::emit::sarif::SarifEmitter;
use ragcite::emit::table::BatchTableEmitter;
use ragcite::emit::table::TableEmitter;
use ragcite::emit::{
    AnswerInput, BatchEmitter, BatchEnd, BatchFields, BatchInputs, Emitter, InputFile, Inputs, Run,
};
use ragcite::{Checker, Limits, Options, batch, input};

use cli::{
    BatchArgs, BatchFormat, CheckArgs, Cli, ColorChoice, Command, EvalArgs, EvalFormat,
    ExplainArgs, FieldKey, Format, LimitArgs, QuoteArgs, QuoteFormat,
};
use exit::ExitStatus;

/// How standard input is named in messages and reports.
const STDIN_NAME: &str = "<stdin>";

/// Output width when neither the terminal nor `COLUMNS` gives one: what a pipe, a file or a CI
/// log gets, so that it does not depend on the terminal the command was started from.
const DEFAULT_WIDTH: u16 = 100;

/// Narrower than this, the tables are laid out for this width anyway: below it even the
/// columns that never wrap no longer fit beside each other.
const MIN_WIDTH: u16 = 60;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The maintainers' `generate` is no subcommand of the clap definition, so that completions
    // and man pages, generated from that definition, never offer it.
    if args.get(1).is_some_and(|arg| arg == "generate") {
        return match generate::run(&args[2..]) {
            Ok(()) => ExitStatus::Success.into(),
            Err(err) => {
                let _ = writeln!(io::stderr(), "ragcite: error: {err:#}");
                ExitStatus::Error.into()
            }
        };
    }
    let args = match config::apply(args) {
        Ok(args) => args,
        Err(err) => {
            let _ = writeln!(io::stderr(), "ragcite: error: {err:#}");
            return ExitStatus::Error.into();
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    match run(cli) {
        Ok(status) => status.into(),
        Err(err) if is_broken_pipe(&err) => ExitStatus::Success.into(),
        Err(err) => {
            // One line, whatever the input put into the message.
            let message: String = format!("{err:#}")
                .chars()
                .map(|c| match c {
                    '\n' | '\r' | '\t' => " ".to_string(),
                    c if c.is_control() => c.escape_unicode().to_string(),
                    c => c.to_string(),
                })
                .collect();
            let _ = writeln!(io::stderr(), "ragcite: error: {message}");
            ExitStatus::Error.into()
        }
    }
}

/// Help and version print as clap lays them out; a usage error becomes one line on stderr, like
/// every other error, so that CI logs stay readable.
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let shows_help = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if shows_help {
        let _ = e.print();
    } else {
        let rendered = e.render().to_string();
        let message: Vec<&str> = rendered
            .lines()
            .map(str::trim)
            .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
            .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
            .collect();
        let message = message.join(" ");
        let message = message.strip_prefix("error: ").unwrap_or(&message);
        let _ = writeln!(
            io::stderr(),
            "ragcite: error: {message} (see `ragcite --help`)"
        );
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// A closed pipe (`ragcite check ... | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> Result<ExitStatus> {
    match cli.command {
        Command::Check(args) => check(&args),
        Command::Batch(args) => batch(&args),
        Command::Quote(args) => quote(&args),
        Command::Eval(args) => eval(&args),
        Command::Explain(args) => explain(&args),
    }
}

/// Reads a path, or standard input for `-`, naming the file in every error.
fn read_input(path: &str) -> Result<(Vec<u8>, String)> {
    if path == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .with_context(|| format!("{STDIN_NAME}: cannot read"))?;
        return Ok((bytes, STDIN_NAME.to_string()));
    }
    let metadata = std::fs::metadata(path).with_context(|| format!("{path}: cannot read"))?;
    if metadata.is_dir() {
        bail!("{path}: is a directory, not a file");
    }
    let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
    Ok((bytes, path.to_string()))
}

/// `--color always|never` win; in `auto`, NO_COLOR with any non-empty value turns colour off,
/// CLICOLOR_FORCE or FORCE_COLOR (non-empty, not `0`) turn it on, else colour on a terminal.
fn use_color(choice: ColorChoice) -> bool {
    let value = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let forced = |name: &str| value(name).is_some_and(|v| v != "0");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if value("NO_COLOR").is_some() => false,
        ColorChoice::Auto if forced("CLICOLOR_FORCE") || forced("FORCE_COLOR") => true,
        ColorChoice::Auto => io::stdout().is_terminal(),
    }
}

/// The width the tables are laid out for (see [`choose_width`]).
fn output_width() -> u16 {
    let terminal = if io::stdout().is_terminal() {
        comfy_table::Table::new().width()
    } else {
        None
    };
    let columns = std::env::var("COLUMNS").ok();
    choose_width(terminal, columns.as_deref())
}

/// The terminal's width when it is known and not 0, else `COLUMNS` when it is a positive whole
/// number, else [`DEFAULT_WIDTH`]; never below [`MIN_WIDTH`]. A pseudo-terminal that was never
/// given a size (`script`, some CI runners, pre-commit) reports 0 columns, and laying out for
/// that would squeeze every column to one character.
fn choose_width(terminal: Option<u16>, columns: Option<&str>) -> u16 {
    let from_columns = || {
        let value: u64 = columns?.trim().parse().ok()?;
        (value > 0).then(|| u16::try_from(value).unwrap_or(u16::MAX))
    };
    terminal
        .filter(|&width| width > 0)
        .or_else(from_columns)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

fn check(args: &CheckArgs) -> Result<ExitStatus> {
    if args.answer == "-" && args.chunks.as_deref() == Some("-") {
        bail!("only one of ANSWER and CHUNKS can be `-` (standard input)");
    }
    let stdin_name = |name: String| match &args.output.stdin_filename {
        Some(given) if name == STDIN_NAME => given.clone(),
        _ => name,
    };
    let (answer_bytes, answer_name) = read_input(&args.answer)?;
    let answer_name = stdin_name(answer_name);
    let mut answer = input::read_answer(&answer_bytes, args.answer_format.0)
        .with_context(|| answer_name.clone())?;
    if answer.text.trim().is_empty() {
        bail!("{answer_name}: the response holds no answer text");
    }
    drop(answer_bytes);
    // A chunks file wins over the sources the response carries.
    let (chunks, chunks_name) = match &args.chunks {
        Some(path) => {
            let (chunk_bytes, chunks_name) = read_input(path)?;
            let chunks_name = stdin_name(chunks_name);
            let chunks = input::read_chunks_named(&chunk_bytes, path)
                .with_context(|| chunks_name.clone())?;
            (chunks, chunks_name)
        }
        None => match answer.sources.take() {
            Some(sources) => (sources, answer_name.clone()),
            None => bail!(
                "{answer_name}: {}",
                input::response::where_sources_are(answer.format)
            ),
        },
    };

    let options = Options {
        threshold: args.checking.threshold,
        language: args.checking.lang.0,
    };
    let limits = limits_of(&args.limits);
    let report = Checker::new(options).check(&answer, &chunks);
    let gate = limits.evaluate(&report.result.counts);
    let inputs = Inputs {
        answer: AnswerInput {
            path: answer_name,
            format: answer.format.name().to_string(),
            streamed: answer.streamed,
            tokens: answer.usage,
        },
        chunks: InputFile {
            path: chunks_name,
            format: serde_name(&chunks.format),
        },
        threshold: options.threshold,
        lang: options.language.code().to_string(),
        limits,
    };
    let emitter: Box<dyn Emitter> = match args.format {
        Format::Table => Box::new(TableEmitter {
            color: use_color(args.output.color),
            width: output_width(),
        }),
        Format::Json => Box::new(JsonEmitter),
        Format::Sarif => Box::new(SarifEmitter::default()),
        Format::Github => Box::new(GithubEmitter::default()),
        Format::Gitlab => Box::new(GitlabEmitter::default()),
        Format::Junit => Box::new(JunitEmitter::default()),
    };
    let run = Run {
        report: &report,
        gate: &gate,
        inputs: &inputs,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let written = emitter.emit(&run, &mut out).and_then(|()| out.flush());
    if let Some(left_out) = emitter.left_out(&run) {
        warn(&left_out);
    }
    match written {
        // A reader that stops early (`| head`) does not change what the check found.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the report")
        }
        _ => Ok(ExitStatus::from(&gate)),
    }
}

/// One warning line on standard error: what a report left out, and how to see it all.
fn warn(message: &str) {
    let _ = writeln!(io::stderr(), "ragcite: warning: {message}");
}

fn limits_of(args: &LimitArgs) -> Limits {
    Limits {
        max_uncited: Some(args.max_uncited),
        max_number_mismatch: Some(args.max_number_mismatch),
        max_unsupported: Some(args.max_unsupported),
        max_unknown_markers: Some(args.max_unknown_markers),
        max_misquotes: Some(args.max_misquotes),
        max_weak: args.max_weak,
    }
}

/// `ragcite batch`: every record of a transcript file, streamed and checked in parallel.
fn batch(args: &BatchArgs) -> Result<ExitStatus> {
    if args.files.iter().filter(|f| *f == "-").count() > 1 {
        bail!("standard input (`-`) can be read only once");
    }
    let name_of = |file: &str| -> String {
        if file == "-" {
            args.output
                .stdin_filename
                .clone()
                .unwrap_or_else(|| STDIN_NAME.to_string())
        } else {
            file.to_string()
        }
    };
    // Every file is checked before anything is written, so that a typo fails cleanly.
    for file in args.files.iter().filter(|f| *f != "-") {
        let metadata = std::fs::metadata(file).with_context(|| format!("{file}: cannot read"))?;
        if metadata.is_dir() {
            bail!("{file}: is a directory, not a file");
        }
    }
    let mut fields = batch::Fields::default();
    let mut overridden = std::collections::HashSet::new();
    for (key, path) in &args.fields {
        let list = match key {
            FieldKey::Answer => &mut fields.answer,
            FieldKey::Contexts => &mut fields.contexts,
            FieldKey::Id => &mut fields.id,
        };
        // The first --field for a key replaces the aliases; further ones are tried after it.
        if overridden.insert(*key as u8) {
            list.clear();
        }
        list.push(path.clone());
    }
    let any_rate = args.max_uncited_rate.is_some()
        || args.max_number_mismatch_rate.is_some()
        || args.max_unsupported_rate.is_some();
    let limits = batch::BatchLimits {
        per_record: limits_of(&args.limits),
        max_uncited_rate: args.max_uncited_rate,
        max_number_mismatch_rate: args.max_number_mismatch_rate,
        max_unsupported_rate: args.max_unsupported_rate,
        max_failing_records: match (args.max_failing_records, any_rate) {
            (Some(n), _) => Some(n),
            (None, true) => None,
            (None, false) => Some(0),
        },
        max_bad_records: Some(args.max_bad_records),
    };
    let options = Options {
        threshold: args.checking.threshold,
        language: args.checking.lang.0,
    };
    let inputs = BatchInputs {
        files: args.files.iter().map(|f| name_of(f)).collect(),
        threshold: options.threshold,
        lang: options.language.code().to_string(),
        limits,
        fields: BatchFields {
            id: fields.id.clone(),
            answer: fields.answer.clone(),
            contexts: fields.contexts.clone(),
        },
    };
    let mut emitter: Box<dyn BatchEmitter> = match args.format {
        BatchFormat::Table => Box::new(BatchTableEmitter::new(
            TableEmitter {
                color: use_color(args.output.color),
                width: output_width(),
            },
            args.all,
        )),
        BatchFormat::Json => Box::new(BatchJsonEmitter::default()),
        BatchFormat::Jsonl => Box::new(BatchJsonLinesEmitter),
        BatchFormat::Sarif => Box::new(SarifEmitter::default()),
        BatchFormat::Github => Box::new(GithubEmitter::default()),
        BatchFormat::Gitlab => Box::new(GitlabEmitter::default()),
        BatchFormat::Junit => Box::new(JunitEmitter::default()),
    };
    let checker = Checker::new(options);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut aggregate = batch::Aggregate::default();
    let mut index = 0;
    // The file being read when the batch stopped, and why.
    let mut stopped: Option<(String, String)> = None;
    let written = (|| -> Result<bool, io::Error> {
        emitter.begin(&inputs, &mut out)?;
        for (file, name) in args.files.iter().zip(&inputs.files) {
            let reader = match open_transcript(file) {
                Ok(reader) => reader,
                Err(e) => {
                    stopped = Some((name.clone(), format!("cannot read: {e}")));
                    break;
                }
            };
            emitter.file(name);
            // A `.jsonl` or `.csv` name, given or for standard input, says the layout.
            let scanner = batch::scan::RecordScanner::named(reader, name);
            let records = batch::traces::Records::new(scanner);
            let name: std::sync::Arc<str> = name.as_str().into();
            let outcome = batch::run(
                records,
                &name,
                &fields,
                &checker,
                &limits.per_record,
                &mut index,
                &mut aggregate,
                |record| emitter.record(record, &mut out),
            );
            match outcome {
                Ok(()) => {}
                Err(batch::BatchError::Output(e)) => return Err(e),
                Err(batch::BatchError::Scan(e)) => {
                    stopped = Some((name.to_string(), e.to_string()));
                    break;
                }
            }
        }
        let gate = aggregate.evaluate(&limits);
        let reason = stopped.as_ref().map(|(file, why)| {
            if inputs.files.len() > 1 {
                format!("{file}: {why}")
            } else {
                why.clone()
            }
        });
        let end = BatchEnd {
            aggregate: &aggregate,
            gate: &gate,
            stopped: reason.as_deref(),
        };
        emitter.finish(&end, &mut out)?;
        out.flush()?;
        Ok(gate.passed)
    })();
    if let Some(left_out) = emitter.left_out() {
        warn(&left_out);
    }
    match (written, stopped) {
        // A reader that stopped early: the exit code says what the records read so far found.
        (Err(e), _) if e.kind() == io::ErrorKind::BrokenPipe => {
            Ok(if aggregate.evaluate(&limits).passed {
                ExitStatus::Success
            } else {
                ExitStatus::LimitsExceeded
            })
        }
        (Err(e), _) => Err(e).context("cannot write the report"),
        (Ok(_), Some((file, why))) => bail!("{file}: {why}: the output is incomplete"),
        (Ok(true), None) => Ok(ExitStatus::Success),
        (Ok(false), None) => Ok(ExitStatus::LimitsExceeded),
    }
}

/// A transcript file, or standard input for `-`, buffered, with a progress bar when large.
fn open_transcript(file: &str) -> io::Result<Box<dyn io::BufRead + Send>> {
    if file == "-" {
        return Ok(Box::new(io::BufReader::new(io::stdin())));
    }
    let handle = std::fs::File::open(file)?;
    let len = handle.metadata()?.len();
    Ok(match progress_bar(len) {
        Some(bar) => Box::new(io::BufReader::with_capacity(1 << 16, bar.wrap_read(handle))),
        None => Box::new(io::BufReader::with_capacity(1 << 16, handle)),
    })
}

/// Files smaller than this finish before a progress bar would help.
const PROGRESS_MIN_BYTES: u64 = 16 * 1024 * 1024;

/// A progress bar on stderr for a large file, only on a terminal and never in CI logs.
fn progress_bar(len: u64) -> Option<indicatif::ProgressBar> {
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    if len < PROGRESS_MIN_BYTES || in_ci || !io::stderr().is_terminal() {
        return None;
    }
    // Cleared when the file is done, so that it never mixes with the report.
    let bar = indicatif::ProgressBar::new(len).with_finish(indicatif::ProgressFinish::AndClear);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
    )
    .ok()?;
    bar.set_style(style);
    Some(bar)
}

/// A unit enum's serde name (`"bracket-blocks"`), for `inputs`.
fn serde_name<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `ragcite eval`: agreement with human labels, per group and overall.
fn eval(args: &EvalArgs) -> Result<ExitStatus> {
    use rayon::prelude::*;
    use std::collections::BTreeMap;
    if args.files.iter().filter(|f| *f == "-").count() > 1 {
        bail!("standard input (`-`) can be read only once");
    }
    let checker = Checker::new(Options {
        threshold: args.checking.threshold,
        language: args.checking.lang.0,
    });
    let mut groups: BTreeMap<String, Vec<ragcite::eval::Judged>> = BTreeMap::new();
    let mut bad: Vec<String> = Vec::new();
    let mut records = 0usize;
    for file in &args.files {
        let reader = open_transcript(file).with_context(|| format!("{file}: cannot read"))?;
        let mut lines = io::BufRead::lines(reader).enumerate();
        loop {
            // A window of lines at a time, checked in parallel, keeps memory flat.
            let mut window = Vec::with_capacity(512);
            for (k, line) in lines.by_ref() {
                let line = line.with_context(|| format!("{file}: line {}: cannot read", k + 1))?;
                if !line.trim().is_empty() {
                    window.push((k + 1, line));
                }
                if window.len() == 512 {
                    break;
                }
            }
            if window.is_empty() {
                break;
            }
            records += window.len();
            let judged: Vec<(usize, Result<ragcite::eval::JudgedRecord, String>)> = window
                .par_iter()
                .map(|(line, text)| {
                    let record = serde_json::from_str::<serde_json::Value>(text)
                        .map_err(|e| format!("invalid JSON: {e}"))
                        .and_then(|value| {
                            ragcite::eval::judge_record(
                                &value,
                                &checker,
                                args.lenient,
                                &args.group_by,
                            )
                        });
                    (*line, record)
                })
                .collect();
            for (line, record) in judged {
                match record {
                    Ok(record) => groups.entry(record.group).or_default().extend(record.units),
                    Err(e) => bad.push(format!("{file}: line {line}: {e}")),
                }
            }
        }
    }
    let threshold = args.checking.threshold;
    let mut results: Vec<(String, ragcite::eval::Agreement)> = groups
        .iter()
        .map(|(group, units)| (group.clone(), ragcite::eval::agreement(units, threshold)))
        .collect();
    if groups.len() > 1 {
        let all: Vec<ragcite::eval::Judged> = groups.values().flatten().copied().collect();
        results.push((
            "(all)".to_string(),
            ragcite::eval::agreement(&all, threshold),
        ));
    }
    let mut out = io::stdout().lock();
    let written = match args.format {
        EvalFormat::Json => {
            let groups: Vec<serde_json::Value> = results
                .iter()
                .map(|(group, a)| serde_json::json!({"group": group, "agreement": a}))
                .collect();
            let document = serde_json::json!({
                "schemaVersion": ragcite::emit::json::SCHEMA_VERSION,
                "tool": {"name": "ragcite", "version": env!("CARGO_PKG_VERSION")},
                "inputs": {"files": args.files, "threshold": threshold, "lang": args.checking.lang.0.code(), "lenient": args.lenient, "groupBy": args.group_by},
                "records": records,
                "badRecords": bad,
                "groups": groups,
            });
            serde_json::to_writer_pretty(&mut out, &document)
                .map_err(io::Error::from)
                .and_then(|()| writeln!(out))
        }
        EvalFormat::Table => write_eval_table(&mut out, &results, &bad, records),
    };
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the report")
        }
        _ => Ok(ExitStatus::Success),
    }
}

fn write_eval_table(
    out: &mut dyn Write,
    results: &[(String, ragcite::eval::Agreement)],
    bad: &[String],
    records: usize,
) -> io::Result<()> {
    let mut table = comfy_table::Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_header([
            "group",
            "n",
            "pos/neg",
            "AUC",
            "P",
            "R",
            "F1",
            "macro-F1",
            "TP/FP/FN/TN",
            "nm prec",
            "mq prec",
            "best t (macro-F1)",
        ]);
    let precision = |f: &ragcite::eval::FlagPrecision| match f.precision {
        Some(p) => format!("{p:.3} ({})", f.flagged),
        None => "-".to_string(),
    };
    for (group, a) in results {
        let c = a.confusion;
        table.add_row([
            group.clone(),
            a.sentences.to_string(),
            format!("{}/{}", a.positives, a.negatives),
            a.roc_auc.map_or("-".to_string(), |x| format!("{x:.3}")),
            format!("{:.3}", a.precision),
            format!("{:.3}", a.recall),
            format!("{:.3}", a.f1),
            format!("{:.3}", a.macro_f1),
            format!(
                "{}/{}/{}/{}",
                c.true_positive, c.false_positive, c.false_negative, c.true_negative
            ),
            precision(&a.number_mismatch),
            precision(&a.misquote),
            format!("{:.2} ({:.3})", a.best_threshold, a.best_macro_f1),
        ]);
    }
    writeln!(out, "{table}")?;
    if let Some((group, a)) = results.last() {
        writeln!(
            out,
            "score distribution ({group}; each █ is a share of its class):"
        )?;
        let total = |h: &ragcite::eval::Histogram| h.bins.iter().sum::<usize>().max(1);
        let (pos_total, neg_total) = (total(&a.positive_scores), total(&a.negative_scores));
        for bin in 0..10 {
            let bar = |count: usize, of: usize| "█".repeat((count * 40).div_ceil(of).min(40));
            writeln!(
                out,
                "  {:.1}-{:.1}  supported {:>6} {:<40}  unsupported {:>6} {}",
                bin as f64 / 10.0,
                (bin + 1) as f64 / 10.0,
                a.positive_scores.bins[bin],
                bar(a.positive_scores.bins[bin], pos_total),
                a.negative_scores.bins[bin],
                bar(a.negative_scores.bins[bin], neg_total),
            )?;
        }
    }
    for line in bad.iter().take(20) {
        writeln!(out, "bad record: {line}")?;
    }
    writeln!(
        out,
        "{records} records read, {} bad{}",
        bad.len(),
        if bad.len() > 20 {
            " (the first 20 listed)"
        } else {
            ""
        }
    )
}

/// `ragcite quote`: one quotation against one document; exit 0 when found, 1 when not.
fn quote(args: &QuoteArgs) -> Result<ExitStatus> {
    let quote_from_stdin = args.quote.is_none() && args.quote_file.is_none();
    if args.document == "-" && quote_from_stdin {
        bail!(
            "the document and the quote cannot both come from standard input: give QUOTE or --quote-file"
        );
    }
    let (document_bytes, document_name) = read_input(&args.document)?;
    let document = input::decode(&document_bytes).with_context(|| document_name.clone())?;
    let quote_text = match (&args.quote, &args.quote_file) {
        (Some(quote), _) => quote.clone(),
        (None, path) => {
            let (bytes, name) = read_input(path.as_deref().unwrap_or("-"))?;
            input::decode(&bytes)
                .with_context(|| name.clone())?
                .to_string()
        }
    };
    if quote_text.trim().is_empty() {
        bail!("the quote is empty");
    }
    let mut found = ragcite::quote::QuoteSearch::new(document).find(strip_quote_marks(&quote_text));
    // Offsets count in the document as given: a byte-order mark is one character, three bytes.
    let bom = document_bytes.len() - document.len();
    if bom > 0 {
        let shift = |pair: &mut [usize; 2], by: usize| pair.iter_mut().for_each(|o| *o += by);
        if let Some(offsets) = &mut found.offsets {
            shift(offsets, 1);
        }
        if let Some(offsets) = &mut found.byte_offsets {
            shift(offsets, bom);
        }
        if let Some(closest) = &mut found.closest {
            shift(&mut closest.offsets, 1);
        }
    }
    let mut out = io::stdout().lock();
    let written = match args.format {
        QuoteFormat::Json => serde_json::to_writer(&mut out, &found)
            .map_err(io::Error::from)
            .and_then(|()| writeln!(out)),
        QuoteFormat::Text => writeln!(out, "{}", describe_quote(&found)),
    };
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            return Err(e).context("cannot write the result");
        }
        _ => {}
    }
    Ok(if found.found {
        ExitStatus::Success
    } else {
        ExitStatus::LimitsExceeded
    })
}

/// The quote without one pair of quotation marks around it, as users often paste it.
fn strip_quote_marks(quote: &str) -> &str {
    let trimmed = quote.trim();
    for (open, close) in [
        ('“', '”'),
        ('"', '"'),
        ('«', '»'),
        ('„', '“'),
        ('「', '」'),
        ('‘', '’'),
    ] {
        if let Some(inner) = trimmed
            .strip_prefix(open)
            .and_then(|q| q.strip_suffix(close))
            && !inner.trim().is_empty()
        {
            return inner;
        }
    }
    trimmed
}

fn describe_quote(found: &ragcite::quote::QuoteMatch) -> String {
    match (&found.offsets, &found.closest) {
        (Some([start, end]), _) if found.found => {
            format!("found at characters {start}..{end}")
        }
        (_, Some(closest)) => format!(
            "not found; closest passage at characters {}..{} (similarity {:.2}, {} {}): {}",
            closest.offsets[0],
            closest.offsets[1],
            closest.similarity,
            closest.differing_words,
            if closest.differing_words == 1 {
                "word differs"
            } else {
                "words differ"
            },
            closest.text
        ),
        _ => "not found; no passage is close".to_string(),
    }
}

fn explain(args: &ExplainArgs) -> Result<ExitStatus> {
    let verdicts = match args.verdict {
        Some(v) => vec![v.0],
        None => ragcite::Verdict::ALL.to_vec(),
    };
    let mut out = io::stdout().lock();
    for (k, verdict) in verdicts.into_iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}: {}", verdict.name(), verdict.summary())?;
        writeln!(out)?;
        writeln!(out, "{}", verdict.explanation())?;
    }
    Ok(ExitStatus::Success)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_terminal_width_wins_over_columns() {
        assert_eq!(choose_width(Some(90), Some("150")), 90);
        assert_eq!(choose_width(Some(200), None), 200);
    }

    #[test]
    fn a_terminal_of_width_zero_falls_back_to_columns() {
        assert_eq!(choose_width(Some(0), Some("80")), 80);
        assert_eq!(choose_width(Some(0), None), 100);
    }

    #[test]
    fn columns_is_used_when_there_is_no_terminal() {
        assert_eq!(choose_width(None, Some("150")), 150);
        assert_eq!(choose_width(None, Some(" 72 ")), 72);
    }

    #[test]
    fn columns_that_is_no_positive_number_gives_the_default() {
        for columns in [
            None,
            Some("0"),
            Some("abc"),
            Some(""),
            Some("-80"),
            Some("80.5"),
        ] {
            assert_eq!(choose_width(None, columns), 100, "COLUMNS={columns:?}");
            assert_eq!(choose_width(Some(0), columns), 100, "COLUMNS={columns:?}");
        }
    }

    #[test]
    fn narrow_widths_are_raised_to_sixty() {
        assert_eq!(choose_width(Some(40), None), 60);
        assert_eq!(choose_width(None, Some("1")), 60);
        assert_eq!(choose_width(Some(0), Some("59")), 60);
        assert_eq!(choose_width(None, Some("60")), 60);
    }

    #[test]
    fn a_huge_columns_is_kept_within_range() {
        assert_eq!(choose_width(None, Some("70000")), u16::MAX);
    }
}
