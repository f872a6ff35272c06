//! `ragcite quote`: one quotation against one document; exit 0 when found, 1 when not.

use std::io;

use anyhow::{Context, Result, bail};
use ragcite::emit::quote::{QuoteReport, write_json, write_text};
use ragcite::input;
use ragcite::quote::find_in_document;

use super::written;
use crate::cli::{QuoteArgs, QuoteFormat};
use crate::exit::ExitStatus;
use crate::files::read_input;

pub fn run(args: &QuoteArgs) -> Result<ExitStatus> {
    let quote_from_stdin = args.quote.is_none() && args.quote_file.is_none();
    if args.document == "-" && quote_from_stdin {
        bail!(
            "the document and the quote cannot both come from standard input: give QUOTE or --quote-file"
        );
    }
    let (document, document_name) = read_input(&args.document, args.max_input_size)?;
    // The document is decoded first, so that its errors come before the quote's.
    input::decode(&document).with_context(|| document_name.clone())?;
    let quote = match (&args.quote, &args.quote_file) {
        (Some(quote), _) => quote.clone(),
        (None, path) => {
            let (bytes, name) = read_input(path.as_deref().unwrap_or("-"), args.max_input_size)?;
            input::decode(&bytes)
                .with_context(|| name.clone())?
                .to_string()
        }
    };
    if quote.trim().is_empty() {
        bail!("the quote is empty");
    }
    let found = find_in_document(&document, &quote).with_context(|| document_name.clone())?;
    let report = QuoteReport::new(&found, &document);
    let mut out = io::stdout().lock();
    let result = match args.format {
        QuoteFormat::Json => write_json(&mut out, &report),
        QuoteFormat::Text => write_text(&mut out, &report),
    };
    written(result, "result")?;
    Ok(if found.found {
        ExitStatus::Success
    } else {
        ExitStatus::LimitsExceeded
    })
}
