//! `ragcite explain`: what each verdict means and what to do about it.

use std::io;

use anyhow::Result;
use ragcite::Verdict;
use ragcite::emit::explain::write_explanations;

use crate::app::cli::ExplainArgs;
use crate::app::exit::ExitStatus;

pub fn run(args: &ExplainArgs) -> Result<ExitStatus> {
    let verdicts = match args.verdict {
        Some(v) => vec![v.0],
        None => Verdict::ALL.to_vec(),
    };
    write_explanations(&mut io::stdout().lock(), &verdicts)?;
    Ok(ExitStatus::Success)
}
