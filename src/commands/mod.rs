//! One file per subcommand: each reads its inputs, runs the library and writes the chosen
//! format, and returns the exit status the gate decided.

pub mod batch;
pub mod check;
pub mod compare;
pub mod eval;
pub mod explain;
pub mod formats;
#[cfg(feature = "service")]
pub mod mcp;
pub mod quote;
#[cfg(feature = "service")]
pub mod serve;
pub mod train;

use std::io::{self, Write};

use anyhow::{Context, Result};

/// What writing a report came to: a reader that stops early (`| head`) changes nothing the
/// check found, so a closed pipe is no error; any other failure is.
fn written(result: io::Result<()>, what: &str) -> Result<()> {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(e).with_context(|| format!("cannot write the {what}"))
        }
        _ => Ok(()),
    }
}

/// One warning line on standard error: what a report left out, and how to see it all; what
/// the input put into it escaped, as in an error line.
fn warn(message: &str) {
    let message = ragcite::escape::printable_line(message);
    let _ = writeln!(io::stderr(), "ragcite: warning: {message}");
}

/// `--max-record-size` as the readers take it (a size past the address space is no limit).
fn record_limit(bytes: u64) -> usize {
    usize::try_from(bytes).unwrap_or(usize::MAX - 1)
}
