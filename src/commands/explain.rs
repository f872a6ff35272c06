//! `ragcite explain`: what each verdict means and what to do about it; the support model's
//! features; or, for an answer and its chunks, each sentence's verdict and the features that
//! moved its support the most.

use std::io::{self, Write};

use anyhow::{Result, bail};
use clap::ValueEnum;
use ragcite::emit::explain::{write_explanations, write_features, write_sentences};
use ragcite::{Checker, Verdict};

use super::check::read_inputs;
use super::written;
use crate::cli::{ExplainArgs, VerdictArg};
use crate::exit::ExitStatus;

pub fn run(args: &ExplainArgs) -> Result<ExitStatus> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = if args.features {
        write_features(&mut out)
    } else {
        match args.items.as_slice() {
            [] => write_explanations(&mut out, &Verdict::ALL),
            [one] if VerdictArg::from_str(one, true).is_ok() => {
                let verdict = VerdictArg::from_str(one, true).map_err(anyhow::Error::msg)?;
                write_explanations(&mut out, &[verdict.0])
            }
            [one] if one != "-" && !std::path::Path::new(one).exists() => {
                let names: Vec<&str> = Verdict::ALL.iter().map(|v| v.name()).collect();
                bail!(
                    "`{one}` is neither a verdict ({}) nor a file",
                    names.join(", ")
                );
            }
            [answer, rest @ ..] => {
                let chunks = rest.first().map(String::as_str);
                if answer == "-" && chunks == Some("-") {
                    bail!("only one of ANSWER and CHUNKS can be `-` (standard input)");
                }
                let (answer, chunks) =
                    read_inputs(answer, chunks, args.answer_format.0, args.max_input_size)?;
                let options = args.checking.options()?;
                let threshold = options.threshold;
                let claims = options
                    .claim_model
                    .clone()
                    .map(|model| (model, options.claim_threshold));
                let checker = Checker::new(options);
                let report = checker.check(&answer, &chunks);
                write_sentences(
                    &mut out,
                    &report,
                    &chunks.chunks,
                    checker.language_for(&answer, &chunks).1,
                    threshold,
                    claims.as_ref().map(|(model, t)| (model.as_ref(), *t)),
                )
            }
        }
    };
    written(result.and_then(|()| out.flush()), "explanation")?;
    Ok(ExitStatus::Success)
}
