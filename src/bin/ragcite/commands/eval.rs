//! `ragcite eval`: agreement with human labels, per group and overall.

use std::io;

use anyhow::{Context, Result};
use ragcite::Checker;
use ragcite::emit::eval::{EvalRun, write_json, write_table};
use ragcite::eval::Judging;

use super::written;
use crate::app::cli::{EvalArgs, EvalFormat};
use crate::app::exit::ExitStatus;
use crate::app::files::{open_transcript, stdin_at_most_once};

pub fn run(args: &EvalArgs) -> Result<ExitStatus> {
    stdin_at_most_once(&args.files)?;
    let options = args.checking.options();
    let checker = Checker::new(options);
    let mut judging = Judging::default();
    for file in &args.files {
        let reader = open_transcript(file).with_context(|| format!("{file}: cannot read"))?;
        judging.read(reader, file, &checker, args.lenient, &args.group_by)?;
    }
    let results = judging.agreements(options.threshold);
    let run = EvalRun {
        files: &args.files,
        threshold: options.threshold,
        lang: options.language.code(),
        lenient: args.lenient,
        group_by: &args.group_by,
        judging: &judging,
        results: &results,
    };
    let mut out = io::stdout().lock();
    let result = match args.format {
        EvalFormat::Json => write_json(&mut out, &run),
        EvalFormat::Table => write_table(&mut out, &run),
    };
    written(result, "report")?;
    Ok(ExitStatus::Success)
}
