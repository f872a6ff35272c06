//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning, one result per finding.

use std::io::{self, Write};

use serde::Serialize;

use super::findings::{BatchFindings, Finding, Rule, check_findings, stopped_line};
use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, write_document};
use crate::batch::RecordOutcome;

/// A displayed path as a SARIF `artifactLocation.uri`: percent-encoded as a relative URI
/// reference, or a `file://` URI for a path outside the working directory. `<stdin>` stays as
/// it is: it names no file, and GitHub shows it as written.
pub fn sarif_uri(display: &str) -> String {
    if display == "<stdin>" {
        return display.to_string();
    }
    let windows_drive =
        display.as_bytes().get(1) == Some(&b':') && display.as_bytes()[0].is_ascii_alphabetic();
    let absolute = display.starts_with('/') || windows_drive;
    let mut uri = String::new();
    if absolute {
        uri.push_str(if windows_drive { "file:///" } else { "file://" });
    }
    for (i, byte) in display.bytes().enumerate() {
        let keep = byte.is_ascii_alphanumeric()
            || b"-._~/!$&'()*+,;=@".contains(&byte)
            || (windows_drive && i == 1);
        if keep {
            uri.push(char::from(byte));
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    uri
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
struct ArtifactLocation {
    uri: String,
}

/// Without an end, SARIF's region runs to the end of the start line.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<usize>,
}

/// Versioned, so that a change of what is hashed can be told from a new finding.
#[derive(Debug, Serialize)]
struct Fingerprints {
    #[serde(rename = "ragcite/v1")]
    v1: String,
}

impl SarifResult {
    fn new(finding: &Finding) -> Self {
        SarifResult {
            rule_id: finding.rule.id(),
            rule_index: finding.rule.index(),
            level: finding.level().name(),
            message: Text::new(finding.message.clone()),
            locations: [Location {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: sarif_uri(&finding.path),
                    },
                    region: Region {
                        start_line: finding.start.line.max(1),
                        start_column: finding.start.column.max(1),
                        end_line: finding.end.map(|end| end.line.max(1)),
                        end_column: finding.end.map(|end| end.column.max(1)),
                    },
                },
            }],
            partial_fingerprints: Fingerprints {
                v1: finding.stable_hash(),
            },
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
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
    /// The notification points at the line where the file's structure broke, when known.
    fn new(stopped: Option<&str>, path: &str) -> Self {
        Invocation {
            execution_successful: stopped.is_none(),
            tool_execution_notifications: stopped
                .map(|reason| {
                    let reason = if reason.is_empty() {
                        "an unknown point"
                    } else {
                        reason
                    };
                    Notification {
                        message: Text::new(format!(
                            "the batch stopped at {reason}: the records after it were not checked"
                        )),
                        level: "error",
                        locations: stopped_line(reason)
                            .map(|line| NotificationLocation {
                                physical_location: LinePhysicalLocation {
                                    artifact_location: ArtifactLocation {
                                        uri: sarif_uri(path),
                                    },
                                    region: LineRegion { start_line: line },
                                },
                            })
                            .into_iter()
                            .collect(),
                    }
                })
                .into_iter()
                .collect(),
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
    column_kind: &'static str,
    results: Vec<SarifResult>,
    invocations: [Invocation; 1],
}

/// Writes SARIF 2.1.0 for `check` (one pretty-printed document) and `batch` (streamed: the
/// header at `begin`, one result per line as records finish, and the closing at `finish`, which
/// always runs, so that a batch that stops early still leaves a valid document).
///
/// GitHub code scanning keeps at most 25,000 results per run; a larger batch is better gated
/// with `--format github` or JUnit.
#[derive(Debug, Default)]
pub struct SarifEmitter {
    findings: BatchFindings,
    written: usize,
}

impl Emitter for SarifEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let findings = check_findings(run.report, &run.inputs.answer.path);
        let log = Log {
            schema: SCHEMA_URI,
            version: "2.1.0",
            runs: [SarifRun {
                tool: tool(),
                column_kind: "unicodeCodePoints",
                results: findings.iter().map(SarifResult::new).collect(),
                invocations: [Invocation::new(None, &run.inputs.answer.path)],
            }],
        };
        write_document(out, &log)
    }
}

impl BatchEmitter for SarifEmitter {
    fn file(&mut self, path: &str) {
        self.findings.set_file(path);
    }

    fn begin(&mut self, inputs: &BatchInputs, out: &mut dyn Write) -> io::Result<()> {
        self.findings = BatchFindings::new(inputs);
        self.written = 0;
        write!(
            out,
            "{{\"$schema\":{},\"version\":\"2.1.0\",\"runs\":[{{\"tool\":{},\"columnKind\":\"unicodeCodePoints\",\"results\":[",
            serde_json::to_string(SCHEMA_URI)?,
            serde_json::to_string(&tool())?
        )
    }

    fn record(&mut self, record: &RecordOutcome, out: &mut dyn Write) -> io::Result<()> {
        for finding in self.findings.of(record) {
            if self.written > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            serde_json::to_writer(&mut *out, &SarifResult::new(&finding))?;
            self.written += 1;
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        writeln!(
            out,
            "\n],\"invocations\":[{}]}}]}}",
            serde_json::to_string(&Invocation::new(end.stopped, self.findings.path()))?
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn uris_are_percent_encoded() {
        assert_eq!(sarif_uri("a b/ü.md"), "a%20b/%C3%BC.md");
        assert_eq!(sarif_uri("<stdin>"), "<stdin>");
        assert_eq!(sarif_uri("/abs/x:y.md"), "file:///abs/x%3Ay.md");
        assert_eq!(sarif_uri("C:/x.md"), "file:///C:/x.md");
    }
}
