//! `ragcite compare`: two transcripts of the same questions, each read and checked as `batch`
//! reads and checks one (`batch::Reading`), compared by the library
//! ([`ragcite::compare`]) and written as a table, JSON or an HTML page.

use std::io::{self, Write};

use anyhow::{Result, bail};
use ragcite::Checker;
use ragcite::batch::identity::Identities;
use ragcite::batch::{Aggregate, RecordOutcome};
use ragcite::compare::{self, SideRecord};
use ragcite::emit::compare::CompareTable;
use ragcite::emit::json::CompareInputs;
use ragcite::emit::{BatchEmitter, BatchEnd, BatchFields, BatchInputs};

use super::batch::{Interrupt, Reading, check_transcripts};
use super::written;
use crate::cli::{CompareArgs, CompareFormat};
use crate::exit::ExitStatus;
use crate::files::open_transcript;

/// The command line's `compare`: SIGINT and SIGTERM stop it as they stop `batch`.
pub fn run(args: &CompareArgs) -> Result<ExitStatus> {
    let interrupt = Interrupt::install()?;
    let files = [args.a.clone(), args.b.clone()];
    check_transcripts(&files)?;
    let fields = args.fields();
    let options = args.checking.options()?;
    let checker = Checker::new(options.clone());
    // The per-record limits decide nothing here: only the records' verdicts are compared.
    let limits = ragcite::Limits::default();
    let names: Vec<String> = files.iter().map(|f| args.output.name_of(f)).collect();
    let mut sides = Vec::with_capacity(2);
    for (file, name) in files.iter().zip(&names) {
        let reading = Reading {
            files: std::slice::from_ref(file),
            names: std::slice::from_ref(name),
            fields: &fields,
            records: args.records.as_deref(),
            max_record_size: args.max_record_size,
            trace_limits: (args.max_open_traces, args.max_trace_memory),
            checker: &checker,
            limits: &limits,
        };
        let mut kept = Keep::default();
        // Opened and read on a thread of its own, so that a signal ends a wait for input.
        let open = |file: &str| interrupt.open(file, open_transcript);
        let stopped = reading.read(
            &open,
            &interrupt,
            &mut kept,
            &mut io::sink(),
            &mut Aggregate::default(),
            &mut Identities::default(),
        )?;
        if let Some(stopped) = stopped {
            return stopped.status("nothing was compared");
        }
        sides.push(kept.records);
    }
    let comparison = compare::compare(&names[0], &sides[0], &names[1], &sides[1]);
    if comparison.matching.matched == 0 {
        bail!(
            "{} and {}: no record of one matches a record of the other by id, question or \
             position: nothing to compare",
            names[0],
            names[1]
        );
    }
    let inputs = CompareInputs {
        a: names[0].clone(),
        b: names[1].clone(),
        threshold: options.threshold,
        model: args.checking.model.clone(),
        lang: args.checking.lang.to_string(),
        fields: BatchFields {
            id: fields.id.clone(),
            answer: fields.answer.clone(),
            contexts: fields.contexts.clone(),
            question: fields.question.clone(),
        },
        config: args.output.config_used.clone(),
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = (|| -> io::Result<()> {
        match args.format {
            CompareFormat::Table => CompareTable {
                style: args.output.table(),
                all: args.all,
            }
            .write(&inputs, &comparison, &mut out)?,
            CompareFormat::Json => {
                ragcite::emit::json::write_compare(&inputs, &comparison, &mut out)?;
            }
            CompareFormat::Html => {
                ragcite::emit::html_compare::write_html(&inputs, &comparison, &mut out)?;
            }
        }
        out.flush()
    })();
    written(result, "comparison")?;
    Ok(if args.fail_if_worse && comparison.fails_if_worse() {
        ExitStatus::LimitsExceeded
    } else {
        ExitStatus::Success
    })
}

/// Keeps what the comparison needs of each record, in input order.
#[derive(Debug, Default)]
struct Keep {
    records: Vec<SideRecord>,
}

impl BatchEmitter for Keep {
    fn begin(&mut self, _inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        self.records.push(SideRecord::of(record));
        Ok(())
    }

    fn finish(&mut self, _end: &BatchEnd<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}
