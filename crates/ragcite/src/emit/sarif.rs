//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning, one result per finding, each with a
//! complete region, a URI relative to the project's root (`%SRCROOT%`), and its identity as
//! `partialFingerprints.primaryLocationLineHash`, so that code scanning keeps one alert per
//! finding and tracks it across unrelated edits instead of hashing the line.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use super::findings::{BatchFindings, Finding, Occurrences, Rule, check_findings, stopped_line};
use super::location::{SRCROOT, folder_uri, project_root, sarif_uri, working_directory};
use super::{BatchEmitter, BatchEnd, BatchInputs, ConfigUsed, Emitter, Run, write_document};
use crate::batch::RecordOutcome;

/// Most results GitHub code scanning accepts in one run: a larger upload is rejected whole.
pub const MAX_RESULTS: usize = 25_000;

/// What a run left out past [`MAX_RESULTS`], and how to see it all.
fn left_out_message(left_out: usize, found: usize) -> String {
    format!(
        "{left_out} of {found} findings were left out of the SARIF report: GitHub code scanning \
         accepts at most {MAX_RESULTS} results per run; `--format json` lists them all"
    )
}

const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The package's repository or home page, when Cargo.toml names one (SARIF forbids an empty
/// `informationUri`, so it is left out otherwise).
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")]
        .into_iter()
        .find(|uri| !uri.is_empty())
}

#[derive(Debug, Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn new(text: impl Into<String>) -> Self {
        Text { text: text.into() }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    driver: Driver,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    information_uri: Option<&'static str>,
    rules: Vec<Descriptor>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Descriptor {
    id: &'static str,
    name: &'static str,
    short_description: Text,
    full_description: Text,
    help: Text,
    default_configuration: Configuration,
}

#[derive(Debug, Serialize)]
struct Configuration {
    level: &'static str,
}

fn tool() -> Tool {
    Tool {
        driver: Driver {
            name: "ragcite",
            version: env!("CARGO_PKG_VERSION"),
            information_uri: information_uri(),
            rules: Rule::ALL
                .iter()
                .map(|rule| Descriptor {
                    id: rule.id(),
                    name: rule.name(),
                    short_description: Text::new(rule.summary()),
                    full_description: Text::new(rule.explanation()),
                    help: Text::new(rule.explanation()),
                    default_configuration: Configuration {
                        level: rule.level().name(),
                    },
                })
                .collect(),
        },
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: [Location; 1],
    partial_fingerprints: Fingerprints,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

impl ArtifactLocation {
    fn of(path: &str) -> Self {
        let (uri, uri_base_id) = sarif_uri(path);
        ArtifactLocation { uri, uri_base_id }
    }
}

/// Complete, as code scanning wants it: an end on every region.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Debug, Serialize)]
struct Fingerprints {
    /// The finding's identity and its occurrence in the file (`hash:1`), in the form GitHub
    /// gives its own line hashes; given, it is what code scanning tracks the alert by.
    #[serde(rename = "primaryLocationLineHash")]
    primary_location_line_hash: String,
    /// ragcite's own, versioned: a change of what is hashed gets a new version.
    #[serde(rename = "ragcite/v2")]
    v2: String,
}

impl SarifResult {
    fn new(finding: &Finding, occurrence: usize) -> Self {
        let start_line = finding.start.line.max(1);
        let start_column = finding.start.column.max(1);
        let end_line = finding.end.line.max(start_line);
        let end_column = if end_line == start_line {
            finding.end.column.max(start_column)
        } else {
            finding.end.column.max(1)
        };
        SarifResult {
            rule_id: finding.rule.id(),
            rule_index: finding.rule.index(),
            level: finding.level().name(),
            message: Text::new(finding.message.clone()),
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation::of(&finding.path),
                    region: Region {
                        start_line,
                        start_column,
                        end_line,
                        end_column,
                    },
                },
            }],
            partial_fingerprints: Fingerprints {
                primary_location_line_hash: format!("{}:{occurrence}", finding.identity()),
                v2: finding.unique_identity(occurrence),
            },
        }
    }
}

/// The base URI of the relative URIs: the project's root.
#[derive(Debug, Serialize)]
struct BaseUri {
    uri: String,
}

fn original_uri_base_ids() -> BTreeMap<&'static str, BaseUri> {
    project_root()
        .map(|root| {
            (
                SRCROOT,
                BaseUri {
                    uri: folder_uri(root),
                },
            )
        })
        .into_iter()
        .collect()
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    working_directory: Option<BaseUri>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
    properties: InvocationProperties,
}

/// What decided the run, in the invocation's property bag: the configuration file applied (or
/// why none was) and the lines of the answers that were not checked (code, comments or hidden
/// text).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct InvocationProperties {
    config: ConfigUsed,
    unchecked_lines: usize,
}

/// What an invocation says besides its results.
struct Said<'a> {
    /// Why a batch stopped early.
    stopped: Option<&'a str>,
    /// The file of the run (a batch's last).
    path: &'a str,
    /// What was left out past [`MAX_RESULTS`].
    left_out: Option<String>,
    /// What decided the verdicts ([`super::decided_line`]), a note.
    decided: String,
    config: &'a ConfigUsed,
    unchecked_lines: usize,
    /// The check's warnings.
    warnings: &'a [String],
}

#[derive(Debug, Serialize)]
struct Notification {
    message: Text,
    level: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<NotificationLocation>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct NotificationLocation {
    physical_location: LinePhysicalLocation,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LinePhysicalLocation {
    artifact_location: ArtifactLocation,
    region: LineRegion,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct LineRegion {
    start_line: usize,
}

impl Invocation {
    /// A run that stopped early did not succeed, whatever it found: the results are partial.
    /// The notifications say where the file's structure broke, when it did, and what was left
    /// out past [`MAX_RESULTS`].
    /// What decided the verdicts is a note, and the check's warnings are warnings.
    fn new(said: Said<'_>) -> Self {
        let Said {
            stopped,
            path,
            left_out,
            decided,
            config,
            unchecked_lines,
            warnings,
        } = said;
        let mut notifications = Vec::new();
        if let Some(reason) = stopped {
            let reason = if reason.is_empty() {
                "an unknown point"
            } else {
                reason
            };
            notifications.push(Notification {
                message: Text::new(format!(
                    "the batch stopped at {reason}: the records after it were not checked"
                )),
                level: "error",
                locations: stopped_line(reason)
                    .map(|line| NotificationLocation {
                        physical_location: LinePhysicalLocation {
                            artifact_location: ArtifactLocation::of(path),
                            region: LineRegion { start_line: line },
                        },
                    })
                    .into_iter()
                    .collect(),
            });
        }
        if let Some(message) = left_out {
            notifications.push(Notification {
                message: Text::new(message),
                level: "warning",
                locations: Vec::new(),
            });
        }
        for warning in warnings {
            notifications.push(Notification {
                message: Text::new(warning.clone()),
                level: "warning",
                locations: Vec::new(),
            });
        }
        notifications.push(Notification {
            message: Text::new(decided),
            level: "note",
            locations: Vec::new(),
        });
        Invocation {
            execution_successful: stopped.is_none(),
            working_directory: working_directory().map(|dir| BaseUri {
                uri: folder_uri(&dir),
            }),
            tool_execution_notifications: notifications,
            properties: InvocationProperties {
                config: config.clone(),
                unchecked_lines,
            },
        }
    }
}

#[derive(Debug, Serialize)]
struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [SarifRun; 1],
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun {
    tool: Tool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    original_uri_base_ids: BTreeMap<&'static str, BaseUri>,
    column_kind: &'static str,
    results: Vec<SarifResult>,
    invocations: [Invocation; 1],
}

/// Writes SARIF 2.1.0 for `check` (one pretty-printed document) and `batch` (streamed: the
/// header at `begin`, one result per line as records finish, and the closing at `finish`, which
/// always runs, so that a batch that stops early still leaves a valid document).
///
/// At most [`MAX_RESULTS`] results are written, GitHub's limit per run: the findings past it
/// are counted, a notification in the run says so, and [`BatchEmitter::left_out`] says it
/// too.
#[derive(Debug, Default)]
pub struct SarifEmitter {
    findings: BatchFindings,
    occurrences: Occurrences,
    written: usize,
    left_out: usize,
    /// What decided the verdicts, and the configuration applied.
    decided: String,
    config: ConfigUsed,
}

impl Emitter for SarifEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let findings = check_findings(run.report, &run.inputs.answer.path);
        let mut occurrences = Occurrences::default();
        let results = findings
            .iter()
            .take(MAX_RESULTS)
            .map(|finding| SarifResult::new(finding, occurrences.next(finding)))
            .collect();
        let left_out = (findings.len() > MAX_RESULTS)
            .then(|| left_out_message(findings.len() - MAX_RESULTS, findings.len()));
        let log = Log {
            schema: SCHEMA_URI,
            version: "2.1.0",
            runs: [SarifRun {
                tool: tool(),
                original_uri_base_ids: original_uri_base_ids(),
                column_kind: "unicodeCodePoints",
                results,
                invocations: [Invocation::new(Said {
                    stopped: None,
                    path: &run.inputs.answer.path,
                    left_out,
                    decided: run.inputs.decided(),
                    config: &run.inputs.config,
                    unchecked_lines: run.report.result.counts.unchecked_lines,
                    warnings: &run.report.warnings,
                })],
            }],
        };
        write_document(out, &log)
    }

    fn left_out(&self, run: &Run<'_>) -> Option<String> {
        let found = check_findings(run.report, &run.inputs.answer.path).len();
        (found > MAX_RESULTS).then(|| left_out_message(found - MAX_RESULTS, found))
    }

    fn file_positions(&self) -> bool {
        true
    }
}

impl BatchEmitter for SarifEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
    }

    fn begin(&mut self, inputs: &BatchInputs, out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        self.occurrences = Occurrences::default();
        self.written = 0;
        self.left_out = 0;
        self.decided = inputs.decided();
        self.config = inputs.config.clone();
        write!(
            out,
            "{{\"$schema\":{},\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{},\"originalUriBaseIds\":{},\"columnKind\":\"unicodeCodePoints\",\"results\":[",
            crate::escape::to_string(SCHEMA_URI)?,
            crate::escape::to_string(&tool())?,
            crate::escape::to_string(&original_uri_base_ids())?
        )
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        for finding in self.findings.of(record) {
            if self.written == MAX_RESULTS {
                self.left_out += 1;
                continue;
            }
            if self.written > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            let occurrence = self.occurrences.next(&finding);
            crate::escape::to_writer(&mut *out, &SarifResult::new(&finding, occurrence))?;
            self.written += 1;
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "\n],\"invocations\":[{}]}}]}}",
            crate::escape::to_string(&Invocation::new(Said {
                stopped: end.stopped,
                path: self.findings.path(),
                left_out: BatchEmitter::left_out(self),
                decided: self.decided.clone(),
                config: &self.config,
                unchecked_lines: end.aggregate.counts.unchecked_lines,
                warnings: &[],
            }))?
        )
    }

    fn left_out(&self) -> Option<String> {
        (self.left_out > 0).then(|| left_out_message(self.left_out, self.written + self.left_out))
    }
}
