//! `ragcite eval`: agreement with human labels, per group and overall.

use std::io;

use anyhow::{Context, Result};
use ragcite::Checker;
use ragcite::emit::eval::{EvalRun, write_json, write_table};
use ragcite::eval::{Judging, write_features};

use super::written;
use crate::app::cli::{EvalArgs, EvalFormat};
use crate::app::exit::ExitStatus;
use crate::app::files::{OutputFile, open_transcript, stdin_at_most_once};

pub fn run(args: &EvalArgs) -> Result<ExitStatus> {
    stdin_at_most_once(&args.files)?;
    let options = args.checking.options()?;
    let checker = Checker::new(options.clone());
    let mut judging = Judging::default();
    let mut export = args
        .features
        .as_deref()
        .map(OutputFile::create)
        .transpose()?;
    let mut export_error = None;
    for file in &args.files {
        let reader = open_transcript(file).with_context(|| format!("{file}: cannot read"))?;
        judging.read_each(
            reader,
            file,
            &checker,
            args.lenient,
            &args.group_by,
            |record| {
                if let Some(out) = export.as_mut()
                    && export_error.is_none()
                    && let Err(e) = write_features(out.writer(), record)
                {
                    export_error = Some(e);
                }
            },
        )?;
    }
    if let Some(out) = export {
        let path = args.features.as_deref().unwrap_or_default();
        if let Some(e) = export_error {
            return Err(e).with_context(|| format!("{path}: cannot write"));
        }
        out.finish()?;
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
