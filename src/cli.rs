//! The command line, defined once with clap; completions and the man page are generated from it.

// The doc comments of the arguments are their `--help` text, written for a terminal
// (`[default: <stdin>]`, `[serve]`), not rustdoc links or HTML.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

mod batch_args;
mod compare;
mod formats;
mod values;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use ragcite::Language;

use self::batch_args::parse_field;
pub use self::batch_args::{BatchArgs, BatchFormat, FieldKey};
use self::compare::COMPARE_AFTER_HELP;
pub use self::compare::{CompareArgs, CompareFormat};
use self::formats::FORMATS_AFTER_HELP;
pub use self::formats::{FormatsAction, FormatsArgs, ListFormat, PathArgs};
use self::values::{parse_learning_rate, parse_marker, parse_rate, parse_size, parse_threshold};
#[cfg(feature = "service")]
use self::values::{parse_origin, parse_per_second};
use ragcite::batch::{self, BatchLimits};
use ragcite::emit::api::{ApiEmitter, ReadInputs};
use ragcite::emit::diagnostics::{ConciseEmitter, FullEmitter};
use ragcite::emit::github::GithubEmitter;
use ragcite::emit::gitlab::GitlabEmitter;
use ragcite::emit::html::HtmlEmitter;
use ragcite::emit::html_batch::BatchHtmlEmitter;
use ragcite::emit::json::{BatchJsonEmitter, JsonEmitter};
use ragcite::emit::jsonl::BatchJsonLinesEmitter;
use ragcite::emit::junit::JunitEmitter;
use ragcite::emit::sarif::SarifEmitter;
use ragcite::emit::table::{BatchTableEmitter, TableEmitter};
use ragcite::emit::{BatchEmitter, Emitter};

const ABOUT: &str = "Lint the citations of a RAG answer against the retrieved chunks";

const LONG_ABOUT: &str = "\
Lint the citations of a RAG answer against the retrieved chunks.

ragcite splits an answer into sentences, reads their citation markers ([1], [doc2], [^1], ^1, \
【4†source】, (source: x), ...) and checks each sentence against the chunks it cites: uncited \
claims, citations to chunks that do not share the sentence's words, numbers missing from the \
cited chunk, markers that point nowhere, and chunks never used.

It is deterministic and lexical: no model, no network. Lexical overlap is not entailment: a \
paraphrase can look unsupported and a negated claim can look supported. Treat the results as \
pointers for review.";

const CHECK_AFTER_HELP: &str = "\
ragcite is lexical: it measures shared words and numbers, not entailment. A paraphrase can look \
unsupported and a negated claim can look supported; treat results as pointers for review.

Exit codes: 0 every limit held; 1 a limit was exceeded; 2 usage or input error.

A response that carries its sources (Bedrock Knowledge Bases, Azure On Your Data, Perplexity, \
Vertex AI RAG, OpenAI file search, LangChain, LlamaIndex, Haystack) needs no CHUNKS; given both, \
the chunks file is used. JSON of no known response format is an error: --answer-format text \
reads it as prose.

Examples:
  ragcite check answer.md chunks.json
  ragcite check bedrock-response.json
  ragcite check converse-response.json converse-request.json
  model-cli ask question | ragcite check - chunks.json --format json
  ragcite check answer.md chunks.csv --threshold 0.6 --max-uncited 2";

const BATCH_AFTER_HELP: &str = "\
Each record is checked exactly as `check` checks one answer, with the per-answer limits; a record \
over any of them is failing. The batch fails when failing records, bad records or a rate exceed \
their limits.

Transcripts: a JSON array of records; JSON Lines (.jsonl, .ndjson); CSV with a header (.csv, \
.tsv; RAGAS to_csv and EvaluationResult CSV, list cells as Python literals); an object holding \
the records under results.results (promptfoo), testCases or testRunData.testCases (DeepEval), \
samples, goldens, data, rows, examples or traces, or under the path --records names; pandas \
tables (split, index and columns orients); LangChain, LlamaIndex and Haystack outputs one per \
line; OpenInference / Phoenix spans (OTel JSON or the spans dataframe), LangSmith runs, OTLP \
JSON (OpenInference or GenAI), Opik spans, Braintrust rows, Langfuse traces and observations \
and MLflow traces, one record per trace; ALCE, LongCite, DSPy, RAGChecker and MLflow evaluate \
results; a Giskard RAGET report folder. Records are found through the field names of RAGAS, \
DeepEval, promptfoo and LangChain, then of those exports; --field points a field elsewhere.

With --baseline (what an earlier `batch --format json` wrote), only findings it does not hold \
count against the limits: a record fails on its new findings alone, --max-bad-records counts the \
new bad records, a rate the new findings among all claim sentences (abstentions are no findings \
and count whole). Findings are matched by fingerprint: rule, text and record id (else \
question), wherever they stand. The summary says how many are new, fixed and unchanged.

Exit codes: 0 every limit held; 1 a limit was exceeded; 2 usage or input error, or the file \
broke off part way (the output then says it is incomplete); 130 interrupted by SIGINT, 143 by \
SIGTERM (the records read are written, then a summary that says the output is incomplete).

Examples:
  ragcite batch evals.jsonl
  ragcite batch dataset.csv .deepeval/.latest_test_run.json
  ragcite batch spans.jsonl
  ragcite batch results.json --max-uncited-rate 0.05 --format jsonl
  ragcite batch runs.jsonl --field answer=outputs.text --field contexts=docs[].page_content
  ragcite batch evals.jsonl --baseline main.json";

const EVAL_AFTER_HELP: &str = "\
Each record is one JSON line: either {\"sentences\": [{\"text\", \"label\"}], \"chunks\": [...]} (each \
sentence's text, with its markers, checked against the chunks), or {\"answer\", \"chunks\" or \
\"contexts\", \"label\": bool} (the whole answer) or \"labels\": [bool per sentence]. A unit of \
several sentences is supported when every claim sentence is; its score is the lowest.

Run it on your own labelled transcripts to choose --threshold for your domain: the report \
gives the threshold that maximises macro-F1 on them.

Exit codes: 0 measured; 2 usage or input error.";

const TRAIN_AFTER_HELP: &str = "\
Reads labelled records as `ragcite eval` does, computes the support features of each labelled \
unit's deciding sentence and chunk (as the formula chooses it), fits gradient-boosted regression \
trees to the labels, chooses the threshold with the best macro-F1 on the training units and \
folds it in, so that the model's threshold is 0.5. The same files and options give the same \
model file, byte for byte. Use it with --model PATH (or `model = \"PATH\"` in .ragcite.toml).

Exit codes: 0 written; 2 usage or input error (nothing is written).

Examples:
  ragcite train labelled.jsonl -o model.json
  ragcite eval held-out.jsonl --model model.json";

const QUOTE_AFTER_HELP: &str = "\
Matching is exact after normalising both sides: Unicode NFKC, <sup>/<sub> tags dropped, dashes \
unified, curly quotes straightened, white space collapsed, case folded, soft hyphens removed, words \
hyphenated across a line break rejoined. An ellipsis (… or ...) splits the quote into fragments \
that must all appear, in order. Offsets are characters into the document as given.

Exit codes: 0 found; 1 not found; 2 usage or input error.

Examples:
  ragcite quote paper.txt \"the results were not significant\"
  ragcite quote paper.txt --quote-file claim.txt --format json";

#[derive(Debug, Parser)]
#[command(name = "ragcite", version, about = ABOUT, long_about = LONG_ABOUT)]
#[command(
    propagate_version = true,
    arg_required_else_help = true,
    args_override_self = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check an answer's citations against the retrieved chunks
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Check every record of an eval transcript file (RAGAS, DeepEval, promptfoo, traces, JSON Lines, CSV)
    #[command(after_help = BATCH_AFTER_HELP)]
    Batch(BatchArgs),
    /// Compare two transcripts of the same questions (two prompts, two models): rates, findings fixed and new, which is better
    #[command(after_help = COMPARE_AFTER_HELP)]
    Compare(CompareArgs),
    /// Measure agreement with human labels: ROC-AUC, macro-F1, the best threshold
    #[command(after_help = EVAL_AFTER_HELP)]
    Eval(EvalArgs),
    /// Fit your own support model on labelled transcripts (gradient-boosted trees)
    #[command(after_help = TRAIN_AFTER_HELP)]
    Train(TrainArgs),
    /// Verify that a quotation is word for word in a document, or show the closest passage
    #[command(after_help = QUOTE_AFTER_HELP)]
    Quote(QuoteArgs),
    /// Explain a verdict (what it means, how it is decided, what to do), or each sentence of an answer
    Explain(ExplainArgs),
    /// List the answer formats (readers and profiles), or say which one a file matches
    #[command(after_help = FORMATS_AFTER_HELP)]
    Formats(FormatsArgs),
    /// Serve the HTTP API (the RAG Citation Debugger contract) and MCP at /mcp
    #[cfg(feature = "service")]
    #[command(after_help = SERVE_AFTER_HELP)]
    Serve(ServeArgs),
    /// Serve the MCP tools over stdio (rag_citation_debugger, verify_citation)
    #[cfg(feature = "service")]
    Mcp(McpArgs),
}

#[cfg(feature = "service")]
const SERVE_AFTER_HELP: &str = "\
Endpoints: POST /api/v1/calculate (answer, chunks, supportThreshold), POST /api/v1/quote \
(document, quote), GET /api/v1/tool, GET /api/v1/openapi.json, GET /healthz, MCP (Streamable \
HTTP) at /mcp. Errors are RFC 9457 problem documents. The first line on stderr is \
`listening on http://HOST:PORT`; then one line per request. SIGINT or SIGTERM stops accepting \
connections, lets the requests in flight finish and exits 0. Options may also come from the \
[serve] table of the configuration file.";

#[cfg(feature = "service")]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to bind; anything but a loopback address exposes the server to the network
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDRESS")]
    pub host: std::net::IpAddr,

    /// Port to bind; 0 picks a free one (the first line on stderr says which)
    #[arg(long, default_value_t = 8080, value_name = "PORT")]
    pub port: u16,

    /// A folder whose files verify_citation can name by their path in it (document_id)
    #[arg(long, value_name = "DIR")]
    pub documents: Option<std::path::PathBuf>,

    /// Requests per second each client may make (a token bucket of that size); over it, 429
    #[arg(long, default_value = "100/s", value_parser = parse_per_second, value_name = "N/s")]
    pub rate_limit: std::num::NonZeroU32,

    /// Checks run at once [default: the number of cores]; when eight times as many wait, 503
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..), value_name = "N")]
    pub max_concurrent: Option<u16>,

    /// Checks one client address may run at once [default: one less than --max-concurrent, at least 1], so that a slot stays for the others; a freed slot goes to the client running the fewest
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..), value_name = "N")]
    pub max_concurrent_per_client: Option<u16>,

    /// Seconds a connection may stay silent before its request's headers, then take to send them, and again its body; then 408 or a closed connection
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600), value_name = "SECONDS")]
    pub timeout: u64,

    /// Connections open at once; beyond, the oldest one waiting for a request is closed, or the new one when none waits
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=65_536), value_name = "N")]
    pub max_connections: u32,

    /// Connections open at once from one client address (raise it behind a reverse proxy); beyond, as for --max-connections
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65_536), value_name = "N")]
    pub max_connections_per_client: u32,

    /// Seconds one check may run (from its start, not its wait); then it stops and the request gets 503 check-timeout
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), value_name = "SECONDS")]
    pub check_timeout: u64,

    /// Allow this origin (`https://example.com`, or `*` for any) to call the API from a browser; no CORS without it
    #[arg(long, value_name = "ORIGIN", value_parser = parse_origin)]
    pub cors: Option<String>,

    /// Let the --cors origin call /mcp too (its tools read the documents folder); without it, /mcp sends no CORS header
    #[arg(long, requires = "cors")]
    pub cors_mcp: bool,

    /// What scores support in every request: `shipped` (the model built in), `formula` (the
    /// hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`
    #[arg(long, value_name = "PATH", default_value = "shipped")]
    pub model: String,

    /// Read options from the [serve] table of this file instead of the configuration found above the working directory
    #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
    pub config: Option<String>,

    /// Ignore every configuration file
    #[arg(long)]
    pub isolated: bool,

    /// The configuration file that was applied, or why none was, as for `check` (every
    /// envelope names it).
    #[arg(skip)]
    pub config_used: ragcite::emit::ConfigUsed,
}

#[cfg(feature = "service")]
#[derive(Debug, Args)]
pub struct McpArgs {
    /// A folder whose files verify_citation can name by their path in it (document_id)
    #[arg(long, value_name = "DIR")]
    pub documents: Option<std::path::PathBuf>,

    /// What scores support in every call: `shipped` (the model built in), `formula` (the
    /// hand-weighted score of ragcite 0.1), or a model file written by `ragcite train`
    #[arg(long, value_name = "PATH", default_value = "shipped")]
    pub model: String,

    /// Seconds one rag_citation_debugger check may run (from its start); then it stops and the call gets a tool error
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600), value_name = "SECONDS")]
    pub check_timeout: u64,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The answer: plain text, Markdown, or a provider's response or framework output (`-` reads standard input)
    #[arg(value_name = "ANSWER")]
    pub answer: String,

    /// The retrieved chunks: JSON, JSON Lines, CSV, a provider's source list, Markdown headings, `[id]`/`id:` blocks, `---` or blank-line separated text (`-` reads standard input); optional when the answer carries its sources
    #[arg(value_name = "CHUNKS")]
    pub chunks: Option<String>,

    /// Output format
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,

    /// Read the answer as this format instead of recognising it [default: auto]
    #[arg(long, value_parser = AnswerFormatParser, default_value_t = AnswerFormatArg(None), hide_default_value = true, value_name = "FORMAT")]
    pub answer_format: AnswerFormatArg,

    /// Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error
    #[arg(long, default_value = "256MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_input_size: u64,

    /// The question the answer replies to: a figure it states is context, not a claim the answer must cite
    #[arg(long, value_name = "TEXT")]
    pub question: Option<String>,

    /// Seconds the check may run; then it stops and the run is an input error (exit 2) [default: no limit]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400), value_name = "SECONDS")]
    pub check_timeout: Option<u64>,

    #[command(flatten)]
    pub paths: PathArgs,

    #[command(flatten)]
    pub checking: CheckingArgs,

    #[command(flatten)]
    pub limits: LimitArgs,

    #[command(flatten)]
    pub output: OutputArgs,
}

/// How sentences are judged, for `check` and `batch`.
#[derive(Debug, Args)]
pub struct CheckingArgs {
    /// Support threshold: the `support` score a sentence's best cited chunk must reach (the
    /// support model's estimate that the chunk backs the sentence; see --model)
    #[arg(long, default_value_t = ragcite::DEFAULT_THRESHOLD, value_parser = parse_threshold, value_name = "0.1..1")]
    pub threshold: f64,

    /// Language of the stemmer, stop words, number format and abbreviations; `auto` detects it
    /// from the answer (and its chunks when the answer is short), English when the detector is
    /// unsure. A language given is used as is, with a warning when the answer looks written in
    /// another
    #[arg(long, value_enum, default_value_t = Lang(None), value_name = "LANG")]
    pub lang: Lang,

    /// What a citation marker covers: its sentence, or also (`paragraph`) the sentences without
    /// a marker before it in its paragraph, when it ends the paragraph
    #[arg(long, value_enum, default_value_t = Scope::Sentence, value_name = "SCOPE")]
    pub citation_scope: Scope,

    /// Your own marker form besides the built-in ones: a regular expression whose one capture
    /// group is the label (`\{\{cite:(\w+)\}\}` reads `{{cite:doc2}}` as a marker citing
    /// `doc2`)
    #[arg(long, value_parser = parse_marker, value_name = "REGEX")]
    pub marker: Option<std::sync::Arc<ragcite::marker::MarkerPattern>>,

    /// What scores support: `shipped` (the model built in), `formula` (the hand-weighted
    /// score of ragcite 0.1), or a model file written by `ragcite train`
    #[arg(long, value_name = "PATH", default_value = "shipped")]
    pub model: String,

    /// `--model` already loaded, for a caller that checks many answers with the same options
    /// (the Python package's `check_many`); `None` loads it.
    #[arg(skip)]
    pub loaded: Option<std::sync::Arc<ragcite::Model>>,

    /// Claim threshold: the claim score an English sentence without a citation must reach to
    /// be an uncited claim; higher flags fewer (the claim model's estimate that a reader wants
    /// it sourced; see --claim-model)
    #[arg(long, default_value_t = ragcite::DEFAULT_CLAIM_THRESHOLD, value_parser = parse_rate, value_name = "0..1")]
    pub claim_threshold: f64,

    /// What tells claims from sentences that need no source: `shipped` (the claim model built
    /// in), `rules` (the phrase rules alone, as ragcite 0.9), or a model file written by
    /// `ragcite train --claims`
    #[arg(long, value_name = "PATH", default_value = "shipped")]
    pub claim_model: String,
}

/// The per-answer limits, for `check` and (per record) `batch`.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Most uncited claims allowed
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_uncited: usize,

    /// Most number mismatches allowed
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_number_mismatch: usize,

    /// Most unsupported citations allowed
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_unsupported: usize,

    /// Most unknown markers (distinct labels that resolve to no chunk) allowed
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_unknown_markers: usize,

    /// Most misquotes allowed (quotations not found in the cited chunk)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_misquotes: usize,

    /// Most contradicted sentences allowed (a cited chunk says the opposite)
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub max_contradicted: usize,

    /// Most weakly supported sentences allowed [default: unlimited]
    #[arg(long, value_name = "N")]
    pub max_weak: Option<usize>,

    /// Most abstentions allowed (sentences saying the sources do not cover something) [default: unlimited]
    #[arg(long, value_name = "N")]
    pub max_abstentions: Option<usize>,
}

/// Colour and naming of standard input, for `check` and `batch`.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// When to colour the table (NO_COLOR and CLICOLOR_FORCE are honoured in `auto`)
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,

    /// The name to give standard input in reports [default: <stdin>]
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<String>,

    /// Read options from this file instead of the .ragcite.toml, ragcite.toml or pyproject.toml found above the working directory
    #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
    pub config: Option<String>,

    /// Ignore every configuration file
    #[arg(long)]
    pub isolated: bool,

    /// The configuration file that was applied, or why none was: set by `ragcite_cli::main`
    /// from what `config::apply` did, never from the command line (a caller that parses
    /// without reading configuration, such as the Python package, keeps `isolated`).
    #[arg(skip)]
    pub config_used: ragcite::emit::ConfigUsed,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Labelled JSON Lines files (`-` reads standard input)
    #[arg(value_name = "LABELLED", required = true)]
    pub files: Vec<String>,

    #[command(flatten)]
    pub checking: CheckingArgs,

    /// Use `label_lenient` where a sentence has one
    #[arg(long)]
    pub lenient: bool,

    /// The record field whose value groups the results
    #[arg(long, value_name = "FIELD", default_value = "dataset")]
    pub group_by: String,

    /// Output format
    #[arg(long, value_enum, default_value_t = EvalFormat::Table)]
    pub format: EvalFormat,

    /// Also write each labelled unit's support features, label and source ids to this JSON
    /// Lines file, for fitting a model (scripts/data/fit-support.py)
    #[arg(long, value_name = "PATH")]
    pub features: Option<String>,

    /// Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run
    #[arg(long, default_value = "64MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_record_size: u64,

    /// Largest standard input kept in memory when two models read it, in bytes or with a unit
    #[arg(long, default_value = "256MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_input_size: u64,
}

#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Labelled JSON Lines files, as `ragcite eval` reads them (`-` reads standard input)
    #[arg(value_name = "LABELLED", required = true)]
    pub files: Vec<String>,

    /// Write the model file here (written whole or not at all)
    #[arg(short, long, value_name = "PATH")]
    pub output: String,

    /// Boosting rounds: one tree each
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(1..=5000), value_name = "N")]
    pub trees: u16,

    /// Depth of each tree
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=8), value_name = "N")]
    pub depth: u8,

    /// Shrinkage of each tree's values
    #[arg(long, default_value_t = 0.05, value_parser = parse_learning_rate, value_name = "0..1")]
    pub learning_rate: f64,

    /// Fewest labelled units a leaf may hold
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..), value_name = "N")]
    pub min_leaf: u32,

    /// Use `label_lenient` where a sentence has one
    #[arg(long)]
    pub lenient: bool,

    /// Fit a claim model instead (for --claim-model): on whole answers whose sentences carry
    /// `claim`, `worthy` or `kind` labels
    #[arg(long)]
    pub claims: bool,

    /// Largest record (a labelled JSON line), in bytes or with a unit (64KiB, 64MiB, 1GiB); a longer one stops the run
    #[arg(long, default_value = "64MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_record_size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalFormat {
    /// A table per group and score histograms, for people
    Table,
    /// One JSON document, for machines
    Json,
}

#[derive(Debug, Args)]
pub struct QuoteArgs {
    /// The document the quote should come from (`-` reads standard input)
    #[arg(value_name = "DOCUMENT")]
    pub document: String,

    /// The quotation; without it and without --quote-file, it is read from standard input
    #[arg(value_name = "QUOTE", conflicts_with = "quote_file")]
    pub quote: Option<String>,

    /// Read the quotation from a file
    #[arg(long, value_name = "PATH")]
    pub quote_file: Option<String>,

    /// Output format
    #[arg(long, value_enum, default_value_t = QuoteFormat::Text)]
    pub format: QuoteFormat,

    /// Largest document or quote file read, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error
    #[arg(long, default_value = "256MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_input_size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum QuoteFormat {
    /// One line: found where, or the closest passage and how far it is
    Text,
    /// {"found", "offsets", "byteOffsets", "closest"}
    Json,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A verdict to explain (all of them when left out), or an answer and its chunks, as
    /// `check` takes them, to explain sentence by sentence: its verdict and the features that
    /// pushed its support up or down the most
    #[arg(value_names = ["VERDICT|ANSWER", "CHUNKS"], num_args = 0..=2)]
    pub items: Vec<String>,

    /// List the support model's features and what each measures
    #[arg(long, conflicts_with = "items")]
    pub features: bool,

    /// Read the answer as this format instead of recognising it [default: auto]
    #[arg(long, value_parser = AnswerFormatParser, default_value_t = AnswerFormatArg(None), hide_default_value = true, value_name = "FORMAT")]
    pub answer_format: AnswerFormatArg,

    /// Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB); a larger one, or an endless one, is an input error
    #[arg(long, default_value = "256MiB", value_parser = parse_size, value_name = "SIZE")]
    pub max_input_size: u64,

    #[command(flatten)]
    pub checking: CheckingArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Coloured tables and a one-line summary, for people
    Table,
    /// Each finding as linters print theirs: its sentence with what decided underlined, the
    /// passage of the cited chunk, a note per cited chunk
    Full,
    /// One line per finding: `path:line:column: rule message`
    Concise,
    /// One JSON document (schemaVersion, inputs, result, warnings, gate), for machines
    Json,
    /// SARIF 2.1.0 for GitHub code scanning, one result per problem sentence
    Sarif,
    /// GitHub Actions workflow annotations
    Github,
    /// GitLab Code Quality report
    Gitlab,
    /// JUnit XML, one test case per claim sentence
    Junit,
    /// The envelope `ragcite serve` returns for the same inputs (RagCitationDebuggerResult)
    Api,
    /// One self-contained HTML page: each sentence highlighted by verdict, the chunks beside it
    Html,
}

/// `--color`, defined beside the terminal's own logic.
pub use crate::terminal::ColorChoice;

/// `--citation-scope`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// A marker covers the sentence it stands in
    Sentence,
    /// A paragraph's last sentence's markers also cover its earlier sentences without one
    Paragraph,
}

/// `--lang`: `auto` (`None`: detect it), then every language with its name for help and
/// completions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lang(pub Option<Language>);

static LANGS: std::sync::LazyLock<Vec<Lang>> = std::sync::LazyLock::new(|| {
    std::iter::once(Lang(None))
        .chain(Language::ALL.map(|l| Lang(Some(l))))
        .collect()
});

impl ValueEnum for Lang {
    fn value_variants<'a>() -> &'a [Self] {
        &LANGS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self.0 {
            None => PossibleValue::new("auto")
                .help("Detect the answer's language (English when unsure)"),
            Some(language) => PossibleValue::new(language.code()).help(language.name()),
        })
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.map_or("auto", Language::code))
    }
}

/// `--answer-format`: `auto` (recognise it) or one of the answer formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnswerFormatArg(pub Option<ragcite::AnswerFormat>);

/// `auto`, then every answer format.
static ANSWER_FORMATS: std::sync::LazyLock<Vec<AnswerFormatArg>> = std::sync::LazyLock::new(|| {
    std::iter::once(AnswerFormatArg(None))
        .chain(
            ragcite::AnswerFormat::every()
                .into_iter()
                .map(|f| AnswerFormatArg(Some(f))),
        )
        .collect()
});

impl ValueEnum for AnswerFormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        &ANSWER_FORMATS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self.0 {
            None => PossibleValue::new("auto").help("Recognise the format from the content"),
            Some(format) => PossibleValue::new(format.name()).help(format.summary()),
        })
    }
}

/// Reads `--answer-format` (and its default, `auto`) without reading the formats defined as
/// data (`profiles.toml`, a TOML file of a few hundred lines: 1.4 M instructions, a sixth of a
/// one-sentence check) unless the name is none of the built-in ones; help and errors list them
/// all, as [`ValueEnum`] does.
#[derive(Debug, Clone, Copy)]
pub struct AnswerFormatParser;

impl clap::builder::TypedValueParser for AnswerFormatParser {
    type Value = AnswerFormatArg;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<AnswerFormatArg, clap::Error> {
        if value == "auto" {
            return Ok(AnswerFormatArg(None));
        }
        if let Some(&format) = ragcite::AnswerFormat::ALL
            .iter()
            .find(|f| value == f.name())
        {
            return Ok(AnswerFormatArg(Some(format)));
        }
        clap::builder::EnumValueParser::<AnswerFormatArg>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            AnswerFormatArg::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

impl std::fmt::Display for AnswerFormatArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.map_or("auto", |format| format.name()))
    }
}

/// A verdict name for `explain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VerdictArg(pub ragcite::Verdict);

impl ValueEnum for VerdictArg {
    fn value_variants<'a>() -> &'a [Self] {
        use ragcite::Verdict as V;
        &[
            VerdictArg(V::Supported),
            VerdictArg(V::Contradicted),
            VerdictArg(V::NumberMismatch),
            VerdictArg(V::WeakSupport),
            VerdictArg(V::UnsupportedCitation),
            VerdictArg(V::Misquote),
            VerdictArg(V::UncitedClaim),
            VerdictArg(V::NoClaim),
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.summary()))
    }
}

// Conversions from the arguments to what the library and the emitters take.

impl CheckingArgs {
    pub fn options(&self) -> anyhow::Result<ragcite::Options> {
        Ok(ragcite::Options {
            threshold: self.threshold,
            language: self.lang.0.unwrap_or_default(),
            auto_language: self.lang.0.is_none(),
            citation_scope: match self.citation_scope {
                Scope::Sentence => ragcite::CitationScope::Sentence,
                Scope::Paragraph => ragcite::CitationScope::Paragraph,
            },
            model: match &self.loaded {
                Some(model) => std::sync::Arc::clone(model),
                None => load_model(&self.model)?,
            },
            keep_features: false,
            marker: self.marker.clone(),
            claim_threshold: self.claim_threshold,
            claim_model: load_claim_model(&self.claim_model)?,
        })
    }
}

/// The claim model `--claim-model` names: `shipped`, `rules` (none), or a model file.
pub fn load_claim_model(
    name: &str,
) -> anyhow::Result<Option<std::sync::Arc<ragcite::support::model::claims::ClaimModel>>> {
    use anyhow::Context;
    use ragcite::support::model::claims::ClaimModel;
    match name {
        "shipped" => Ok(Some(ClaimModel::shipped())),
        "rules" => Ok(None),
        path => {
            let (bytes, shown) = crate::files::read_input(path, crate::files::DEFAULT_MAX_INPUT)?;
            let text = std::str::from_utf8(&bytes)
                .ok()
                .with_context(|| format!("{shown}: not a ragcite claim model: not UTF-8 text"))?;
            let model = ClaimModel::from_json(text)
                .map_err(|e| anyhow::anyhow!("{shown}: not a ragcite claim model: {e}"))?;
            Ok(Some(std::sync::Arc::new(model)))
        }
    }
}

/// What kind of model `--model` names: `shipped`, `formula` or `file`.
#[cfg(feature = "service")]
pub fn model_kind(name: &str) -> &'static str {
    match name {
        "shipped" => "shipped",
        "formula" => "formula",
        _ => "file",
    }
}

/// The model `--model` names: `shipped`, `formula`, or a model file.
pub fn load_model(name: &str) -> anyhow::Result<std::sync::Arc<ragcite::Model>> {
    use anyhow::Context;
    match name {
        "shipped" => Ok(ragcite::Model::shipped()),
        "formula" => Ok(ragcite::Model::formula()),
        path => {
            let (bytes, shown) = crate::files::read_input(path, crate::files::DEFAULT_MAX_INPUT)?;
            let text = std::str::from_utf8(&bytes)
                .ok()
                .with_context(|| format!("{shown}: not a ragcite support model: not UTF-8 text"))?;
            let model = ragcite::Model::from_json(text)
                .map_err(|e| anyhow::anyhow!("{shown}: not a ragcite support model: {e}"))?;
            Ok(std::sync::Arc::new(model))
        }
    }
}

impl LimitArgs {
    pub fn limits(&self) -> ragcite::Limits {
        ragcite::Limits {
            max_uncited: Some(self.max_uncited),
            max_number_mismatch: Some(self.max_number_mismatch),
            max_unsupported: Some(self.max_unsupported),
            max_unknown_markers: Some(self.max_unknown_markers),
            max_misquotes: Some(self.max_misquotes),
            max_contradicted: Some(self.max_contradicted),
            max_weak: self.max_weak,
            max_abstentions: self.max_abstentions,
        }
    }
}

impl OutputArgs {
    /// The name a file is given in messages and reports: standard input (`-`) is
    /// `--stdin-filename`, else `<stdin>`.
    pub fn name_of(&self, file: &str) -> String {
        match (file, &self.stdin_filename) {
            ("-", Some(given)) => given.clone(),
            ("-", None) => crate::files::STDIN_NAME.to_string(),
            _ => file.to_string(),
        }
    }

    /// The table emitter these options ask for, laid out for the output's width.
    pub fn table(&self) -> TableEmitter {
        TableEmitter {
            color: crate::terminal::use_color(self.color),
            width: crate::terminal::output_width(),
        }
    }
}

impl Format {
    /// The emitter for this format; `api` echoes the answer and chunks as given; `api` and
    /// `html` show the answer and chunks as `read`.
    pub fn emitter(
        self,
        output: &OutputArgs,
        answer: &str,
        chunks: &str,
        read: (&ragcite::Answer, &ragcite::Chunks),
    ) -> Box<dyn Emitter> {
        let owned = || ReadInputs {
            answer: read.0.clone(),
            chunks: read.1.clone(),
        };
        match self {
            Format::Api => Box::new(ApiEmitter {
                answer: answer.to_string(),
                chunks: chunks.to_string(),
                read: Some(owned()),
            }),
            Format::Html => Box::new(HtmlEmitter { read: owned() }),
            Format::Table => Box::new(output.table()),
            Format::Full => {
                let table = output.table();
                Box::new(FullEmitter {
                    color: table.color,
                    width: table.width,
                    read: owned(),
                    response: read.0.format != ragcite::AnswerFormat::Text,
                })
            }
            Format::Concise => Box::new(ConciseEmitter {
                color: output.table().color,
            }),
            Format::Json => Box::new(JsonEmitter),
            Format::Sarif => Box::new(SarifEmitter::default()),
            Format::Github => Box::new(GithubEmitter::default()),
            Format::Gitlab => Box::new(GitlabEmitter::default()),
            Format::Junit => Box::new(JunitEmitter::default()),
        }
    }
}

impl BatchFormat {
    /// `all`: the table lists every record, not only the worst failing ones.
    pub fn emitter(self, output: &OutputArgs, all: bool) -> Box<dyn BatchEmitter> {
        match self {
            BatchFormat::Table => Box::new(BatchTableEmitter::new(output.table(), all)),
            BatchFormat::Json => Box::new(BatchJsonEmitter::default()),
            BatchFormat::Jsonl => Box::new(BatchJsonLinesEmitter::default()),
            BatchFormat::Sarif => Box::new(SarifEmitter::default()),
            BatchFormat::Github => Box::new(GithubEmitter::default()),
            BatchFormat::Gitlab => Box::new(GitlabEmitter::default()),
            BatchFormat::Junit => Box::new(JunitEmitter::default()),
            BatchFormat::Html => Box::new(BatchHtmlEmitter::default()),
        }
    }
}

impl BatchArgs {
    /// Where each field is in a record: the default aliases, unless `--field` names a path.
    /// The first `--field` for a key replaces its aliases; further ones are tried after it.
    pub fn fields(&self) -> batch::Fields {
        fields_of(&self.fields)
    }

    pub fn limits(&self) -> BatchLimits {
        BatchLimits::new(
            self.limits.limits(),
            [
                self.max_uncited_rate,
                self.max_number_mismatch_rate,
                self.max_unsupported_rate,
                self.max_contradicted_rate,
                self.max_abstention_rate,
            ],
            self.max_failing_records,
            self.max_bad_records,
        )
    }
}

/// Where each field is in a record: the default aliases, unless `--field` names a path. The
/// first `--field` for a key replaces its aliases; further ones are tried after it.
fn fields_of(given: &[(FieldKey, String)]) -> batch::Fields {
    let mut fields = batch::Fields::default();
    let mut overridden = Vec::new();
    for (key, path) in given {
        let list = match key {
            FieldKey::Answer => &mut fields.answer,
            FieldKey::Contexts => &mut fields.contexts,
            FieldKey::Id => &mut fields.id,
            FieldKey::Question => &mut fields.question,
        };
        if !overridden.contains(key) {
            overridden.push(*key);
            list.clear();
        }
        list.push(path.clone());
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_language_is_offered() {
        assert_eq!(Lang::value_variants().len(), Language::ALL.len() + 1);
        assert_eq!(Lang::from_str("auto", false).unwrap(), Lang(None));
        assert!(Lang::from_str("fr", false).is_ok());
    }
}
