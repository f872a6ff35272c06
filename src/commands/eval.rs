//! `ragcite eval`: agreement with human labels, per group and overall, for the shipped model
//! and, side by side, the model `--model` names.

use std::io;

use anyhow::{Context, Result, bail};
use ragcite::emit::eval::{EvalRun, ModelRun, write_json, write_table};
use ragcite::eval::{Judging, Reading, write_features};
use ragcite::{Checker, Model, Options};

use super::{record_limit, written};
use crate::cli::{EvalArgs, EvalFormat};
use crate::exit::ExitStatus;
use crate::files::{OutputFile, STDIN_NAME, open_transcript, read_bounded, stdin_at_most_once};

pub fn run(args: &EvalArgs) -> Result<ExitStatus> {
    stdin_at_most_once(&args.files)?;
    let options = args.checking.options()?;
    // The shipped model, then the one asked for when it is another.
    let mut models = vec![("shipped".to_string(), Model::shipped())];
    if args.checking.model != "shipped" {
        models.push((args.checking.model.clone(), options.model.clone()));
    }
    // Standard input is read once, and kept when two models read it.
    let stdin = if models.len() > 1 && args.files.iter().any(|f| f == "-") {
        Some(read_bounded(
            io::stdin().lock(),
            STDIN_NAME,
            args.max_input_size,
        )?)
    } else {
        None
    };
    let mut export = args
        .features
        .as_deref()
        .map(OutputFile::create)
        .transpose()?;
    let mut export_error = None;
    let mut runs = Vec::new();
    let last = models.len() - 1;
    for (k, (name, model)) in models.into_iter().enumerate() {
        let checker = Checker::new(Options {
            model,
            keep_features: args.features.is_some(),
            ..options.clone()
        });
        let mut judging = Judging::default();
        for file in &args.files {
            let reader: Box<dyn io::BufRead + Send> = match (&stdin, file.as_str()) {
                (Some(bytes), "-") => Box::new(io::Cursor::new(bytes.clone())),
                _ => open_transcript(file).with_context(|| format!("{file}: cannot read"))?,
            };
            // The features are those of the model asked for.
            let exporting = k == last;
            judging.read_each(
                reader,
                file,
                &checker,
                Reading {
                    lenient: args.lenient,
                    group_by: &args.group_by,
                    max_line: record_limit(args.max_record_size),
                },
                |record| {
                    if exporting
                        && let Some(out) = export.as_mut()
                        && export_error.is_none()
                        && let Err(e) = write_features(out.writer(), record)
                    {
                        export_error = Some(e);
                    }
                },
            )?;
        }
        if judging.groups.values().all(Vec::is_empty)
            && judging.detected.values().all(Vec::is_empty)
        {
            let first = judging
                .bad
                .first()
                .map(|bad| format!("; the first bad record: {bad}"))
                .unwrap_or_default();
            bail!(
                "{}: no labelled unit to measure ({} records read, {} bad, {} not judged){first}",
                args.files.join(", "),
                judging.records,
                judging.bad.len(),
                ragcite::emit::eval::units(judging.not_judged)
            );
        }
        let results = judging.agreements(options.threshold);
        runs.push(ModelRun {
            model: name,
            judging,
            results,
        });
    }
    if let Some(out) = export {
        let path = args.features.as_deref().unwrap_or_default();
        if let Some(e) = export_error {
            return Err(e).with_context(|| format!("{path}: cannot write"));
        }
        out.finish()?;
    }
    let run = EvalRun {
        files: &args.files,
        threshold: options.threshold,
        lang: if options.auto_language {
            "auto"
        } else {
            options.language.code()
        },
        lenient: args.lenient,
        group_by: &args.group_by,
        models: &runs,
    };
    let mut out = io::stdout().lock();
    let result = match args.format {
        EvalFormat::Json => write_json(&mut out, &run),
        EvalFormat::Table => write_table(&mut out, &run, crate::terminal::output_width()),
    };
    written(result, "report")?;
    Ok(ExitStatus::Success)
}
