//! `ragcite train`: fits a support model on labelled transcripts and writes its file.

use std::io::{self, Write};

use anyhow::{Context, Result, anyhow, bail};
use ragcite::eval::{Judging, Reading};
use ragcite::support::model::train::{Sample, TrainOptions, train};
use ragcite::{Checker, Model, Options};

use crate::cli::TrainArgs;
use crate::exit::ExitStatus;
use crate::files::{OutputFile, open_transcript, stdin_at_most_once};

pub fn run(args: &TrainArgs) -> Result<ExitStatus> {
    stdin_at_most_once(&args.files)?;
    let options = TrainOptions {
        trees: usize::from(args.trees),
        depth: usize::from(args.depth),
        learning_rate: args.learning_rate,
        min_leaf: args.min_leaf as usize,
    };
    options.check().map_err(|e| anyhow!("cannot train: {e}"))?;
    // Created first, so that an unwritable path fails before the files are read; removed
    // unless finished.
    let mut out = OutputFile::create(&args.output)?;
    // The features of the pair the formula decides on, as `eval --model formula --features`.
    let checker = Checker::new(Options {
        model: Model::formula(),
        keep_features: true,
        ..Options::default()
    });
    let mut samples = Vec::new();
    let mut claims = Vec::new();
    let mut not_judged = 0;
    for file in &args.files {
        let reader = open_transcript(file).with_context(|| format!("{file}: cannot read"))?;
        let mut judging = Judging::default();
        let reading = Reading {
            lenient: args.lenient,
            group_by: "dataset",
            max_line: super::record_limit(args.max_record_size),
        };
        judging.read_each(reader, file, &checker, reading, |record| {
            claims.extend(record.claims.iter().cloned());
            samples.extend(record.units.iter().filter_map(|unit| {
                unit.features.map(|features| Sample {
                    features,
                    label: unit.label,
                    blocked: unit.blocked,
                })
            }))
        })?;
        if let Some(first) = judging.bad.first() {
            let more = judging.bad.len() - 1;
            let also = if more > 0 {
                format!(" (and {more} more bad records)")
            } else {
                String::new()
            };
            bail!("{first}{also}: every record must be read to train");
        }
        not_judged += judging.not_judged;
        if judging.records == 0 {
            bail!("{file}: no records (a labelled JSON Lines file is one record a line)");
        }
    }
    if args.claims {
        let trained = ragcite::eval::claims::train(&claims, &options)
            .map_err(|e| anyhow!("{}: cannot train: {e}", args.files.join(", ")))?;
        out.writer()
            .write_all(trained.to_json().as_bytes())
            .with_context(|| format!("{}: cannot write", args.output))?;
        out.finish()?;
        let _ = writeln!(
            io::stderr(),
            "ragcite: trained a claim model on {} sentences ({} claims), threshold {} folded in: \
             wrote {}",
            trained.units,
            trained.positives,
            trained.threshold,
            ragcite::escape::printable_line(&args.output)
        );
        return Ok(ExitStatus::Success);
    }
    let trained = train(&samples, &options)
        .map_err(|e| anyhow!("{}: cannot train: {e}", args.files.join(", ")))?;
    out.writer()
        .write_all(trained.to_json().as_bytes())
        .with_context(|| format!("{}: cannot write", args.output))?;
    out.finish()?;
    let unjudged = match not_judged {
        0 => String::new(),
        n => format!(
            ", {} not judged (label null)",
            ragcite::emit::eval::units(n)
        ),
    };
    let _ = writeln!(
        io::stderr(),
        "ragcite: trained on {} units ({} supported){unjudged}, threshold {} folded in: wrote {}",
        trained.units,
        trained.positives,
        trained.threshold,
        ragcite::escape::printable_line(&args.output)
    );
    Ok(ExitStatus::Success)
}
