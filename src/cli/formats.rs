//! `ragcite formats` (the list of formats, and which one reads a file) and the path options of
//! `check` (`--answer-path` and its companions), which describe a format on the command line.

use clap::{Args, Subcommand, ValueEnum};

use super::values::parse_size;

pub(super) const FORMATS_AFTER_HELP: &str = "\
Profiles are formats described as data: where the answer, the sources and the citations are \
in the JSON a stack returns. Add your own as [[format]] tables in .ragcite.toml (the schema is \
in docs/formats.md), or point `check` at the answer with --answer-path and --sources-path.";

#[derive(Debug, Args)]
pub struct FormatsArgs {
    #[command(subcommand)]
    pub action: Option<FormatsAction>,

    /// Output format
    #[arg(long, value_enum, default_value_t = ListFormat::Table, global = true)]
    pub format: ListFormat,
}

#[derive(Debug, Subcommand)]
pub enum FormatsAction {
    /// Say which formats a file matches, with their scores, and which one reads it
    Detect {
        /// The file (`-` reads standard input)
        #[arg(value_name = "FILE")]
        file: String,

        /// Largest input read whole, in bytes or with a unit (64KiB, 256MiB, 1GiB)
        #[arg(long, default_value = "256MiB", value_parser = parse_size, value_name = "SIZE")]
        max_input_size: u64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// Aligned columns, for people
    Table,
    /// One JSON document, for machines
    Json,
}

/// Where the answer and its sources are in a JSON document that no format reads (`check`).
#[derive(Debug, Args, Default)]
pub struct PathArgs {
    /// Path to the answer's text in a JSON answer file (`output.text`, `steps[-1].content[?type=text].text`; see docs/formats.md for the path language)
    #[arg(long, value_name = "PATH")]
    pub answer_path: Option<String>,

    /// Path to the list of sources in the same file (`results[]`)
    #[arg(long, value_name = "PATH", requires = "answer_path")]
    pub sources_path: Option<String>,

    /// Path to a source's id within each source (a template such as `{file} p. {page}` also works) [default: its URL, else its position]
    #[arg(long, value_name = "PATH", requires = "sources_path")]
    pub source_id_path: Option<String>,

    /// Path to a source's text within each source [default: `text`]
    #[arg(long, value_name = "PATH", requires = "sources_path")]
    pub source_text_path: Option<String>,
}

impl PathArgs {
    /// The format these paths describe, when an answer path is given.
    pub fn format(&self) -> anyhow::Result<Option<ragcite::AnswerFormat>> {
        let Some(answer) = &self.answer_path else {
            return Ok(None);
        };
        // Each path is checked on its own, so that the error names the option.
        use ragcite::input::path::{Path, Template};
        let paths = [
            ("--answer-path", Some(answer), false),
            ("--sources-path", self.sources_path.as_ref(), false),
            ("--source-id-path", self.source_id_path.as_ref(), true),
            ("--source-text-path", self.source_text_path.as_ref(), false),
        ];
        for (option, value, template) in paths {
            if let Some(value) = value {
                let checked = if template {
                    Template::parse(value).map(drop)
                } else {
                    Path::parse(value).map(drop)
                };
                checked.map_err(|e| anyhow::anyhow!("{option} `{value}`: {e}"))?;
            }
        }
        let spec = ragcite::input::response::profile::ProfileSpec {
            name: "paths".to_string(),
            title: "the paths given on the command line".to_string(),
            detect: vec![answer.clone()],
            answer: vec![answer.clone()],
            sources: self.sources_path.iter().cloned().collect(),
            source_id: self.source_id_path.iter().cloned().collect(),
            source_text: Some(
                self.source_text_path
                    .clone()
                    .unwrap_or_else(|| "text".to_string()),
            ),
            ..Default::default()
        };
        let profile = ragcite::input::response::profile::Profile::new(spec, true)
            .map_err(|e| anyhow::anyhow!("{}", e.replace("format `paths`: ", "")))?;
        Ok(Some(ragcite::AnswerFormat::Profile(
            ragcite::input::ProfileRef(Box::leak(Box::new(profile))),
        )))
    }
}
