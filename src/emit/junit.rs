//! `--format junit` (being written).

use std::io::{self, Write};

use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run};
use crate::batch::RecordOutcome;

/// Writes the junit report for `check` and `batch`.
#[derive(Debug, Default)]
pub struct JunitEmitter;

impl Emitter for JunitEmitter {
    fn emit(&self, _run: &Run<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Err(io::Error::other("--format junit is not written yet"))
    }
}

impl BatchEmitter for JunitEmitter {
    fn begin(&mut self, _inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        Err(io::Error::other("--format junit is not written yet"))
    }

    fn record(&mut self, _record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _end: &BatchEnd<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}
