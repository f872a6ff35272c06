//! `--format jsonl` for a batch: one JSON object per line, written as each record finishes, in
//! input order (`"type": "record"`), then one `"type": "summary"` line. The objects are those
//! of `--format json`; the summary line also carries the document's `inputs`.

use std::io::{self, Write};

use super::json::{BatchClosing, LinesClosing, RecordSummary};
use super::{BatchEmitter, BatchEnd, BatchInputs};
use crate::batch::RecordOutcome;

#[derive(Debug, Default)]
pub struct BatchJsonLinesEmitter {
    /// What the batch was run on and how, for the summary line.
    inputs: Option<BatchInputs>,
}

impl BatchEmitter for BatchJsonLinesEmitter {
    fn shows_fingerprints(&self) -> bool {
        true
    }

    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.inputs = Some(inputs.clone());
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        crate::escape::to_writer(&mut *out, &RecordSummary::new(record))?;
        // Each line is flushed so that a reader sees records as they finish.
        out.write_all(b"\n")?;
        out.flush()
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        let closing = BatchClosing::new(end);
        match &self.inputs {
            Some(inputs) => {
                crate::escape::to_writer(&mut *out, &LinesClosing { closing, inputs })?;
            }
            None => crate::escape::to_writer(&mut *out, &closing)?,
        }
        out.write_all(b"\n")
    }
}
