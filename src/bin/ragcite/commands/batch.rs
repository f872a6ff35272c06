//! `ragcite batch`: every record of the transcript files, streamed and checked in parallel.

use std::io::{self, Write};
use std::sync::Arc;

use anyhow::{Result, bail};
use ragcite::Checker;
use ragcite::batch::{self, Aggregate, BatchError};
use ragcite::emit::{BatchEnd, BatchFields, BatchInputs};

use super::{warn, written};
use crate::app::cli::BatchArgs;
use crate::app::exit::ExitStatus;
use crate::app::files::{check_is_file, open_transcript, stdin_at_most_once};

pub fn run(args: &BatchArgs) -> Result<ExitStatus> {
    report(args, &mut io::BufWriter::new(io::stdout().lock()))
}

/// The files of `args`, each checked to be a file before anything is written, then read and
/// reported to `out` (standard output for the command line, a buffer for the Python package).
pub fn report(args: &BatchArgs, out: &mut dyn Write) -> Result<ExitStatus> {
    stdin_at_most_once(&args.files)?;
    // Every file is checked before anything is written, so that a typo fails cleanly.
    for file in args.files.iter().filter(|f| *f != "-") {
        check_is_file(file)?;
    }
    write(args, &open_transcript, out)
}

/// Every record of the files (`open` opens one) checked, the report written to `out` in the
/// chosen format, and the exit status. The Python package calls it with its own records.
pub fn write(
    args: &BatchArgs,
    open: &dyn Fn(&str) -> io::Result<Box<dyn io::BufRead + Send>>,
    out: &mut dyn Write,
) -> Result<ExitStatus> {
    let fields = args.fields();
    let limits = args.limits();
    let options = args.checking.options()?;
    let inputs = BatchInputs {
        files: args.files.iter().map(|f| args.output.name_of(f)).collect(),
        threshold: options.threshold,
        model: args.checking.model.clone(),
        lang: options.language.code().to_string(),
        limits,
        fields: BatchFields {
            id: fields.id.clone(),
            answer: fields.answer.clone(),
            contexts: fields.contexts.clone(),
        },
    };
    let mut emitter = args.format.emitter(&args.output, args.all);
    let checker = Checker::new(options.clone());
    let mut aggregate = Aggregate::default();
    let mut stopped: Option<Stopped> = None;
    let result = (|| -> io::Result<()> {
        emitter.begin(&inputs, out)?;
        let mut index = 0;
        for (file, name) in args.files.iter().zip(&inputs.files) {
            let reader = match open(file) {
                Ok(reader) => reader,
                Err(e) => {
                    stopped = Some(Stopped::new(name, format!("cannot read: {e}")));
                    break;
                }
            };
            emitter.file(name);
            // A `.jsonl` or `.csv` name, given or for standard input, says the layout.
            let scanner = batch::scan::RecordScanner::named(reader, name)
                .with_max_record(super::record_limit(args.max_record_size));
            let records = batch::traces::Records::new(scanner);
            let name: Arc<str> = name.as_str().into();
            let outcome = batch::run(
                records,
                &name,
                &fields,
                &checker,
                &limits.per_record,
                &mut index,
                &mut aggregate,
                |record| emitter.record(record, out),
            );
            match outcome {
                Ok(()) => {}
                Err(BatchError::Output(e)) => return Err(e),
                Err(BatchError::Scan(e)) => {
                    stopped = Some(Stopped::new(&name, e.to_string()));
                    break;
                }
            }
        }
        let gate = aggregate.evaluate(&limits);
        // The file is named only when there are several.
        let reason = stopped.as_ref().map(|s| match inputs.files.len() {
            1 => s.why.clone(),
            _ => s.to_string(),
        });
        let end = BatchEnd {
            aggregate: &aggregate,
            gate: &gate,
            stopped: reason.as_deref(),
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
        bail!("{stopped}: the output is incomplete");
    }
    Ok(if aggregate.evaluate(&limits).passed {
        ExitStatus::Success
    } else {
        ExitStatus::LimitsExceeded
    })
}

/// The file being read when the batch stopped, and why.
struct Stopped {
    file: String,
    why: String,
}

impl Stopped {
    fn new(file: &str, why: String) -> Self {
        Stopped {
            file: file.to_string(),
            why,
        }
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.why)
    }
}
