//! `ragcite compare`: two transcripts of the same questions, read and checked as `batch` reads
//! and checks them, side by side.

use clap::{Args, ValueEnum};

use super::values::parse_size;
use super::{CheckingArgs, FieldKey, OutputArgs, parse_field};

pub(super) const COMPARE_AFTER_HELP: &str = "\
A and B are two transcripts of the same questions (anything `batch` reads), checked with the same \
options. Records are matched by id; those without an id or whose id has no match, by question; \
those with neither, by position among them. The rates are over the matched records' claim \
sentences. B is better when it has fewer problem sentences (claims that are not supported) per \
claim sentence; equal shares are a tie. A finding is matched within its record by rule and text, \
wherever its sentence stands, so a moved sentence is neither new nor fixed.

Exit codes: 0 compared, whichever side is better; 1 with --fail-if-worse, B is worse than A, \
records were left out (unreadable or unmatched, on either side: the summary says INCOMPLETE), or \
B has more lines not checked (code, comments or hidden text) than A; 2 \
usage or input error, a transcript that broke off, or no record matched; 130 interrupted by \
SIGINT, 143 by SIGTERM. Without --fail-if-worse the comparison is a report: two prompts' \
transcripts always differ, so failing on a difference would fail every run.

Examples:
  ragcite compare old-prompt.jsonl new-prompt.jsonl
  ragcite compare main.jsonl pr.jsonl --fail-if-worse
  ragcite compare a.jsonl b.jsonl --format html > comparison.html";

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The first transcript (the old prompt or model): anything `batch` reads (`-` reads standard input)
    #[arg(value_name = "A")]
    pub a: String,

    /// The second transcript, of the same questions (the new prompt or model)
    #[arg(value_name = "B")]
    pub b: String,

    /// Output format
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,

    /// Exit 1 when B is worse than A (more problem sentences per claim sentence), when records were left out (unreadable or unmatched), or when B has more lines not checked than A
    #[arg(long)]
    pub fail_if_worse: bool,

    /// List every record that changed in the table, not only the first 20
    #[arg(long)]
    pub all: bool,

    /// Where a field is in each record, as KEY=PATH (KEY: answer, contexts, id or question); repeatable
    #[arg(long = "field", value_name = "KEY=PATH", value_parser = parse_field)]
    pub fields: Vec<(FieldKey, String)>,

    /// Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces)
    #[arg(long = "records", value_name = "PATH")]
    pub records: Option<String>,

    /// Largest record (a JSON line, a CSV row, an element of the array of records), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run
    #[arg(long, default_value = "64MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_record_size: u64,

    /// Most traces of a trace export open at once (their spans waiting for the rest); opening one more closes the oldest, as at the end of the file
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000), value_name = "N")]
    pub max_open_traces: u32,

    /// Most memory the open traces of a trace export hold, in bytes or with a unit (256MiB, 1GiB); past it the oldest is closed, as at the end of the file
    #[arg(long, default_value = "256MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_trace_memory: u64,

    #[command(flatten)]
    pub checking: CheckingArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// The rates side by side, the records that changed and a one-line summary, for people
    Table,
    /// One JSON document: the matching, both sides' rates, each matched record's changes
    Json,
    /// One self-contained HTML page of the same
    Html,
}

impl CompareArgs {
    /// Where each field is in a record, as for `batch`.
    pub fn fields(&self) -> ragcite::batch::Fields {
        super::fields_of(&self.fields)
    }
}
