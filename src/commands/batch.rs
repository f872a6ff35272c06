//! `ragcite batch`: every record of the transcript files, streamed and checked in parallel.

mod interrupt;

use std::io::{self, Write};
use std::sync::Arc;

use anyhow::{Result, bail};
use ragcite::Checker;
use ragcite::batch::baseline::{Baseline, FindingOptions};
use ragcite::batch::identity::Identities;
use ragcite::batch::{self, Aggregate, BatchError};
use ragcite::emit::{BatchEmitter, BatchEnd, BatchFields, BatchInputs};

use super::{warn, written};
use crate::cli::{BatchArgs, Scope};
use crate::exit::ExitStatus;
use crate::files::{
    DEFAULT_MAX_INPUT, STDIN_NAME, check_is_file, open_transcript, read_input, stdin_at_most_once,
};

pub use interrupt::Interrupt;

/// The command line's `batch`: SIGINT and SIGTERM stop reading (the records read are still
/// checked and written, then a summary that says the output is incomplete) while it runs.
pub fn run(args: &BatchArgs) -> Result<ExitStatus> {
    let interrupt = Interrupt::install()?;
    memory_kept_flat();
    report_until(
        args,
        &mut io::BufWriter::new(io::stdout().lock()),
        &interrupt,
    )
}

/// mimalloc's `mi_option_purge_delay` (mimalloc.h; the crate names only some of the options).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Keeps the memory of a long batch as flat as its records: freed pages go back to the system
/// at once (mimalloc keeps them for a second by default); transparent huge pages are off for
/// every command (`main`: one record's worth of small blocks would keep a whole 2 MiB page
/// resident). Measured on 50 MB of eval records, `--format json`: a peak of 90 MiB without
/// either, 46 MiB with both, in the same CPU time (docs/performance.md). Set for the command
/// line's process only, not when the Python package calls [`report`].
fn memory_kept_flat() {
    // SAFETY: mi_option_set takes no pointer; options may be set at any time (mimalloc reads
    // the purge delay each time it purges).
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

/// The files of `args`, each checked to be a file before anything is written, then read and
/// reported to `out` (standard output for the command line, a buffer for the Python package).
#[allow(
    dead_code,
    reason = "the Python package calls it; the binary runs `run`"
)]
pub fn report(args: &BatchArgs, out: &mut dyn Write) -> Result<ExitStatus> {
    report_until(args, out, &Interrupt::never())
}

/// [`report`], reading until `interrupt` says a signal came.
fn report_until(
    args: &BatchArgs,
    out: &mut dyn Write,
    interrupt: &Interrupt,
) -> Result<ExitStatus> {
    check_transcripts(&args.files)?;
    // Opened and read on threads of their own while signals are handled, so that a signal
    // ends a wait for input.
    let open = |file: &str| interrupt.open(file, open_transcript);
    write_until(args, &open, out, interrupt)
}

/// Fails unless each of `files` is a file or a Giskard report folder, and standard input comes
/// once at most: checked before anything is written, so that a typo fails cleanly.
pub(super) fn check_transcripts(files: &[String]) -> Result<()> {
    stdin_at_most_once(files)?;
    for file in files.iter().filter(|f| *f != "-") {
        if !batch::giskard::is_report_folder(std::path::Path::new(file)) {
            check_is_file(file)?;
        }
    }
    Ok(())
}

/// Every record of the files (`open` opens one) checked, the report written to `out` in the
/// chosen format, and the exit status. The Python package calls it with its own records.
#[allow(
    dead_code,
    reason = "the Python package calls it; the binary runs `run`"
)]
pub fn write(
    args: &BatchArgs,
    open: &dyn Fn(&str) -> io::Result<Box<dyn io::BufRead + Send>>,
    out: &mut dyn Write,
) -> Result<ExitStatus> {
    write_until(args, open, out, &Interrupt::never())
}

/// [`write`], reading until `interrupt` says a signal came.
fn write_until(
    args: &BatchArgs,
    open: &dyn Fn(&str) -> io::Result<Box<dyn io::BufRead + Send>>,
    out: &mut dyn Write,
    interrupt: &Interrupt,
) -> Result<ExitStatus> {
    let fields = args.fields();
    let limits = args.limits();
    let options = args.checking.options()?;
    let mut emitter = args.format.emitter(&args.output, args.all);
    let finding_options = FindingOptions {
        threshold: options.threshold,
        model: args.checking.model.clone(),
        lang: args.checking.lang.to_string(),
        citation_scope: match args.checking.citation_scope {
            Scope::Sentence => "sentence",
            Scope::Paragraph => "paragraph",
        }
        .to_string(),
        marker: args
            .checking
            .marker
            .as_ref()
            .map(|m| m.as_str().to_string()),
        claim_threshold: Some(options.claim_threshold),
        claim_model: Some(args.checking.claim_model.clone()),
    };
    // The baseline is read before anything is written, so that a wrong one fails cleanly.
    let mut identities = match &args.baseline {
        Some(path) => match read_baseline(path, &args.files, interrupt)? {
            Ok(baseline) => {
                let differences = baseline.options.differences(&finding_options);
                if !differences.is_empty() {
                    bail!(
                        "{}: made with other options than this run's: {}: its findings would \
                         not match this run's; write it again with this run's options",
                        baseline.file,
                        differences.join(", ")
                    );
                }
                Identities::with_baseline(baseline)
            }
            Err(stopped) => return stopped.status("nothing was checked"),
        },
        None if emitter.shows_fingerprints() => Identities::default(),
        None => Identities::unshown(),
    };
    let inputs = BatchInputs {
        files: args.files.iter().map(|f| args.output.name_of(f)).collect(),
        threshold: finding_options.threshold,
        model: finding_options.model,
        lang: finding_options.lang,
        citation_scope: finding_options.citation_scope,
        marker: finding_options.marker,
        claim_threshold: options.claim_threshold,
        claim_model: args.checking.claim_model.clone(),
        limits,
        fields: BatchFields {
            id: fields.id.clone(),
            answer: fields.answer.clone(),
            contexts: fields.contexts.clone(),
            question: fields.question.clone(),
        },
        config: args.output.config_used.clone(),
    };
    let checker = Checker::new(options.clone());
    let reading = Reading {
        files: &args.files,
        names: &inputs.files,
        fields: &fields,
        records: args.records.as_deref(),
        max_record_size: args.max_record_size,
        trace_limits: (args.max_open_traces, args.max_trace_memory),
        checker: &checker,
        limits: &limits.per_record,
    };
    let mut aggregate = Aggregate::default();
    let mut stopped: Option<Stopped> = None;
    let result = (|| -> io::Result<()> {
        emitter.begin(&inputs, out)?;
        stopped = reading.read(
            open,
            interrupt,
            &mut *emitter,
            out,
            &mut aggregate,
            &mut identities,
        )?;
        let gate = identities.gate(&aggregate, &limits);
        // The file is named only when there are several.
        let reason = stopped.as_ref().map(|s| match inputs.files.len() {
            1 => s.why.clone(),
            _ => s.to_string(),
        });
        let baseline = identities.outcome();
        let end = BatchEnd {
            aggregate: &aggregate,
            gate: &gate,
            stopped: reason.as_deref(),
            baseline: baseline.as_ref(),
        };
        emitter.finish(&end, out)?;
        out.flush()
    })();
    if let Some(left_out) = emitter.left_out() {
        warn(&left_out);
    }
    // After a reader that stopped early, the exit code says what the records read so far found.
    let reader_left = matches!(&result, Err(e) if e.kind() == io::ErrorKind::BrokenPipe);
    written(result, "report")?;
    if let Some(stopped) = stopped
        && !reader_left
    {
        return stopped.status("the output is incomplete");
    }
    Ok(if identities.gate(&aggregate, &limits).passed {
        ExitStatus::Success
    } else {
        ExitStatus::LimitsExceeded
    })
}

/// The findings of an earlier `batch --format json`, read whole (up to
/// [`DEFAULT_MAX_INPUT`]); a file that is no such document is an input error that names it.
/// A signal that comes while it waits for the file stops the run.
fn read_baseline(
    path: &str,
    files: &[String],
    interrupt: &Interrupt,
) -> Result<Result<Baseline, Stopped>> {
    if path == "-" && files.iter().any(|f| f == "-") {
        bail!("standard input (`-`) can be read only once: name the baseline's file");
    }
    let owned = path.to_string();
    let read = match interrupt.wait_for(move || read_input(&owned, DEFAULT_MAX_INPUT)) {
        Ok(read) => read,
        Err(signal) => {
            let shown = if path == "-" { STDIN_NAME } else { path };
            let why = format!(
                "interrupted by {} while reading the baseline",
                signal.name()
            );
            return Ok(Err(Stopped::signalled(shown, why, signal)));
        }
    };
    let (bytes, shown) = read.map_err(|e| {
        // Batch has no --max-input-size: the baseline's limit is fixed.
        let message = format!("{e:#}");
        match message.split_once(" (--max-input-size") {
            Some((head, _)) => anyhow::anyhow!("{head}: too large for a baseline"),
            None => e,
        }
    })?;
    Baseline::read(&bytes, &shown)
        .map(Ok)
        .map_err(|e| anyhow::anyhow!("{shown}: not a baseline: {e}"))
}

/// How `batch` and `compare` read transcripts: the files, the fields and the records' limit, and
/// what checks each record.
pub(super) struct Reading<'a> {
    pub files: &'a [String],
    /// The files as reports name them (`-` as `<stdin>` or `--stdin-filename`).
    pub names: &'a [String],
    pub fields: &'a batch::Fields,
    /// `--records`: where the array of records is in a file that is one JSON object.
    pub records: Option<&'a str>,
    pub max_record_size: u64,
    /// `--max-open-traces` and `--max-trace-memory`: how a trace export is joined.
    pub trace_limits: (u32, u64),
    pub checker: &'a Checker,
    pub limits: &'a ragcite::Limits,
}

impl Reading<'_> {
    /// Reads and checks every record of the files (`open` opens one; a Giskard report folder is
    /// read as one), handing each to `emitter` in input order after `identities` marked it.
    /// Returns what stopped the reading before the end, if anything did (a broken file, a
    /// signal); an error only when writing failed.
    pub(super) fn read(
        &self,
        open: &dyn Fn(&str) -> io::Result<Box<dyn io::BufRead + Send>>,
        interrupt: &Interrupt,
        emitter: &mut dyn BatchEmitter,
        out: &mut dyn Write,
        aggregate: &mut Aggregate,
        identities: &mut Identities,
    ) -> io::Result<Option<Stopped>> {
        let mut index = 0;
        for (file, name) in self.files.iter().zip(self.names) {
            if let Some(signal) = interrupt.received() {
                return Ok(Some(Stopped::interrupted(name, index, signal)));
            }
            // A Giskard report folder: its testset and answers side by side.
            let folder = (file != "-")
                .then(|| std::path::Path::new(file))
                .filter(|path| batch::giskard::is_report_folder(path));
            let limit = super::record_limit(self.max_record_size);
            let (open_traces, trace_memory) = self.trace_limits;
            let records = if let Some(folder) = folder {
                match batch::giskard::ReportFolder::open(folder, limit) {
                    Ok(folder) => batch::traces::Records::of(folder),
                    Err(e) => return Ok(Some(Stopped::new(name, format!("cannot read: {e}")))),
                }
            } else {
                let reader = match open(file) {
                    // After a signal, the reader ends where it is: what was read is still checked.
                    Ok(reader) => interrupt.reader(reader),
                    Err(e) => {
                        return Ok(Some(match interrupt.received() {
                            // A signal ended the wait for the file to open.
                            Some(signal) => Stopped::interrupted(name, index, signal),
                            None => Stopped::new(name, format!("cannot read: {e}")),
                        }));
                    }
                };
                // A `.jsonl` or `.csv` name, given or for standard input, says the layout.
                let mut scanner =
                    batch::scan::RecordScanner::named(reader, name).with_max_record(limit);
                if let Some(path) = self.records {
                    scanner = scanner.with_records_path(path);
                }
                batch::traces::Records::new(scanner).with_limits(
                    usize::try_from(open_traces).unwrap_or(usize::MAX),
                    super::record_limit(trace_memory),
                )
            };
            emitter.file(name);
            let name: Arc<str> = name.as_str().into();
            let outcome = batch::run(
                records,
                &name,
                self.fields,
                self.checker,
                self.limits,
                &mut index,
                aggregate,
                identities,
                |record| emitter.record(record, out),
            );
            // Whatever the reader made of its early end, the run was interrupted.
            if let Some(signal) = interrupt.received() {
                return Ok(Some(Stopped::interrupted(&name, index, signal)));
            }
            match outcome {
                Ok(()) => {}
                Err(BatchError::Output(e)) => return Err(e),
                Err(BatchError::Scan(e)) => return Ok(Some(Stopped::new(&name, e.to_string()))),
            }
        }
        Ok(None)
    }
}

/// The file being read when the batch stopped, and why.
pub(super) struct Stopped {
    file: String,
    why: String,
    /// The signal that stopped it, if one did.
    signal: Option<Signal>,
}

impl Stopped {
    /// The end of a run that stopped, `what` saying what that means for its output: after a
    /// signal, one line on stderr and the signal's exit status; else that line as the error.
    pub(super) fn status(&self, what: &str) -> Result<ExitStatus> {
        if let Some(signal) = self.signal {
            let line = crate::error_message(&anyhow::anyhow!("{self}: {what}"));
            let _ = writeln!(io::stderr(), "ragcite: error: {line}");
            return Ok(signal.status());
        }
        bail!("{self}: {what}");
    }

    fn new(file: &str, why: String) -> Self {
        Stopped {
            file: file.to_string(),
            why,
            signal: None,
        }
    }

    /// Stopped by `signal`, `why` saying where.
    fn signalled(file: &str, why: String, signal: Signal) -> Self {
        Stopped {
            file: file.to_string(),
            why,
            signal: Some(signal),
        }
    }

    /// Interrupted after `records` records.
    fn interrupted(file: &str, records: usize, signal: Signal) -> Self {
        Stopped {
            file: file.to_string(),
            why: format!("record {}: interrupted by {}", records + 1, signal.name()),
            signal: Some(signal),
        }
    }
}

/// A signal that stops a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
}

impl Signal {
    fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
        }
    }

    fn status(self) -> ExitStatus {
        match self {
            Signal::Interrupt => ExitStatus::Interrupted,
            Signal::Terminate => ExitStatus::Terminated,
        }
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.why)
    }
}
