//! `ragcite batch`'s arguments: the transcripts, the fields read from them, the limits and the
//! formats.

use super::*;

#[derive(Debug, Args)]
pub struct BatchArgs {
    /// The transcripts: JSON arrays, JSON Lines, CSV, promptfoo, RAGAS or DeepEval files, span and run exports, benchmark results, or Giskard RAGET report folders (`-` reads standard input)
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<String>,

    /// Output format
    #[arg(long, value_enum, default_value_t = BatchFormat::Table)]
    pub format: BatchFormat,

    /// Where a field is in each record, as KEY=PATH (KEY: answer, contexts or id; PATH like outputs.text or docs[].page_content); repeatable
    #[arg(long = "field", value_name = "KEY=PATH", value_parser = parse_field)]
    pub fields: Vec<(FieldKey, String)>,

    /// Where the array of records is in a file that is one JSON object, as a path of keys (data, results.results, traces), for when it cannot be told
    #[arg(long = "records", value_name = "PATH")]
    pub records: Option<String>,

    /// List every record in the table, not only the worst failing ones
    #[arg(long)]
    pub all: bool,

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
    pub limits: LimitArgs,

    /// Highest share of claim sentences, over all records, that may be uncited claims
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub max_uncited_rate: Option<f64>,

    /// Highest share of claim sentences that may be number mismatches
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub max_number_mismatch_rate: Option<f64>,

    /// Highest share of claim sentences that may be unsupported citations
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub max_unsupported_rate: Option<f64>,

    /// Highest share of claim sentences that may be contradicted
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub max_contradicted_rate: Option<f64>,

    /// Highest share of checked records that may abstain at least once [default: unlimited]
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub max_abstention_rate: Option<f64>,

    /// Most records over a per-record limit [default: 0, or unlimited when a rate limit is set]
    #[arg(long, value_name = "N")]
    pub max_failing_records: Option<usize>,

    /// Most records that cannot be read (bad JSON, no answer or contexts field)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_bad_records: usize,

    /// What an earlier `batch --format json` wrote: only findings it does not hold count against the limits, and the report says which were fixed
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<String>,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// A record field that `--field` can point elsewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKey {
    Answer,
    Contexts,
    Id,
    Question,
}

pub(super) fn parse_field(s: &str) -> Result<(FieldKey, String), String> {
    let (key, path) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}` is not KEY=PATH"))?;
    let key = match key.trim() {
        "answer" => FieldKey::Answer,
        "contexts" => FieldKey::Contexts,
        "id" => FieldKey::Id,
        "question" => FieldKey::Question,
        other => {
            return Err(format!(
                "unknown field `{other}` (expected answer, contexts, id or question)"
            ));
        }
    };
    let path = path.trim();
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(format!("`{path}` is not a field path (like outputs.text)"));
    }
    ragcite::input::path::Path::parse(path).map_err(|e| format!("`{path}`: {e}"))?;
    Ok((key, path.to_string()))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BatchFormat {
    /// The failing records, worst first, and a one-line summary, for people
    Table,
    /// One JSON document: inputs, one summary per record, aggregate, gate
    Json,
    /// One JSON object per record, written as records finish, then a summary line
    Jsonl,
    /// SARIF 2.1.0 for GitHub code scanning, one result per problem sentence
    Sarif,
    /// GitHub Actions workflow annotations
    Github,
    /// GitLab Code Quality report
    Gitlab,
    /// JUnit XML, one test case per record
    Junit,
    /// One self-contained HTML page: a sortable, filterable table of records, each expandable
    Html,
}
