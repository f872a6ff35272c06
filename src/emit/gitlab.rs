//! `--format gitlab` (being written).

use std::io::{self, Write};

use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run};
use crate::batch::RecordOutcome;

/// Writes the gitlab report for `check` and `batch`.
#[derive(Debug, Default)]
pub struct GitlabEmitter;

impl Emitter for GitlabEmitter {
    fn emit(&self, _run: &Run<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Err(io::Error::other("--format gitlab is not written yet"))
    }
}

impl BatchEmitter for GitlabEmitter {
    fn begin(&mut self, _inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        Err(io::Error::other("--format gitlab is not written yet"))
    }

    fn record(&mut self, _record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _end: &BatchEnd<'_>, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}
