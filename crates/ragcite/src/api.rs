//! The API of `ragcite serve` and the tools of `ragcite mcp`, without the transport: the
//! requests (read, every problem listed), the envelope of the original contract, the quotation
//! check with its document folder, the OpenAPI document and the tool descriptions. The server
//! and the MCP transports (in the binary, behind the `service` feature) only move bytes; the
//! same functions give `check --format api` its output.

pub mod contract;
pub mod envelope;
pub mod json;
pub mod request;
pub mod verify;

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::check::{Checker, Options};
use crate::deadline::{Deadline, Expired};
use crate::gate::GateOutcome;
use crate::report::Report;
use crate::support::model::Model;
use envelope::{Envelope, EnvelopeParts};
use request::{CalculateRequest, FieldError};

/// Where `check --format api` says the service is: `ragcite serve`'s default address.
pub const DEFAULT_BASE_URL: &str = "http://127.0.0.1:8080";

/// Runs a `calculate` request with the support model `model` (a server setting, not a field of
/// the request): the check, and its envelope as JSON.
pub fn calculate(
    request: &CalculateRequest,
    model: &Arc<Model>,
    computed_at: &str,
    base_url: &str,
) -> serde_json::Value {
    calculate_within(request, model, computed_at, base_url, &Deadline::none())
        .expect("a check without a deadline runs to its end")
}

/// [`calculate`] that gives up soon after `deadline` passes, with `Expired`. No configuration
/// file is read: the envelope says `isolated`.
pub fn calculate_within(
    request: &CalculateRequest,
    model: &Arc<Model>,
    computed_at: &str,
    base_url: &str,
    deadline: &Deadline,
) -> Result<serde_json::Value, Expired> {
    let (report, gate) = check_within(request, model, deadline)?;
    Ok(envelope_value(
        request,
        &report,
        &gate,
        computed_at,
        base_url,
        &crate::report::ConfigUsed::isolated(),
    ))
}

/// The check of a `calculate` request and its gate under the default limits, without the
/// envelope (the MCP tool also writes a summary of them: `emit::api::tool_summary`).
pub fn check_within(
    request: &CalculateRequest,
    model: &Arc<Model>,
    deadline: &Deadline,
) -> Result<(Report, GateOutcome), Expired> {
    let checker = Checker::new(Options {
        threshold: request.threshold,
        language: request.language,
        auto_language: request.auto_language,
        model: Arc::clone(model),
        keep_features: false,
        citation_scope: request.citation_scope,
        marker: None,
        ..Options::default()
    });
    let report = checker.check_within(&request.answer, &request.chunks, deadline)?;
    let gate = crate::gate::Limits::default().evaluate(&report.result.counts);
    Ok((report, gate))
}

/// The envelope of a checked `calculate` request, as JSON; `config` is the configuration file
/// the server applied, or why none was.
pub fn envelope_value(
    request: &CalculateRequest,
    report: &Report,
    gate: &GateOutcome,
    computed_at: &str,
    base_url: &str,
    config: &crate::report::ConfigUsed,
) -> serde_json::Value {
    let envelope = Envelope::new(EnvelopeParts {
        report,
        answer: &request.answer_text,
        chunks: &request.chunks_text,
        threshold: request.threshold,
        answer_format: request.answer.format.name(),
        chunks_format: request.chunks.format.name(),
        computed_at,
        base_url,
        read: Some(envelope::Read {
            answer: &request.answer,
            chunks: &request.chunks,
        }),
        gate: Some(gate),
        config,
    });
    serde_json::to_value(&envelope).expect("the envelope serialises")
}

/// An RFC 9457 problem document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// An extension member: how many problems were found beyond the `errors` listed (at most
    /// [`request::MAX_LISTED_ERRORS`]); absent when every one is listed.
    #[serde(rename = "moreErrors", skip_serializing_if = "Option::is_none")]
    pub more_errors: Option<usize>,
}

impl Problem {
    /// A problem with a short `code` (`invalid-input`, `rate-limited`), whose `type` is `about:blank`
    /// as RFC 9457 asks when no page documents it.
    pub fn new(status: u16, title: &str, code: &str, detail: impl Into<String>) -> Self {
        Problem {
            kind: "about:blank".to_string(),
            title: title.to_string(),
            status,
            detail: detail.into(),
            code: Some(code.to_string()),
            errors: Vec::new(),
            more_errors: None,
        }
    }

    /// The problem of a body that is not strict JSON, for a transport that reads a body
    /// itself (such as `/mcp`): 400, naming the key given twice; 413 for too many values.
    pub fn from_json_error(error: json::JsonError) -> Self {
        match error {
            json::JsonError::Syntax(detail) => {
                Problem::new(400, "Malformed JSON body", "malformed-json", detail)
            }
            duplicate @ json::JsonError::Duplicate { .. } => Problem::new(
                400,
                "Duplicate key",
                "duplicate-key",
                format!("{duplicate} (JSON keys must be unique)"),
            ),
            json::JsonError::TooManyValues(limit) => Problem::new(
                413,
                "Request body too large",
                "too-many-values",
                format!(
                    "the body holds more than {limit} JSON values; an MCP message needs far fewer"
                ),
            ),
        }
    }

    /// The problem a request error is: 400 for a malformed body, 422 with every field.
    pub fn from_request(error: request::RequestError) -> Self {
        match error {
            request::RequestError::Malformed(detail) => {
                Problem::new(400, "Malformed JSON body", "malformed-json", detail)
            }
            request::RequestError::Invalid(errors) => {
                let mut fields: Vec<&str> =
                    errors.listed.iter().map(|e| e.field.as_str()).collect();
                let more = errors.and_more();
                fields.extend(more.as_deref());
                let detail = format!(
                    "{} invalid {}: {}",
                    request::thousands(errors.len()),
                    if errors.len() == 1 { "field" } else { "fields" },
                    fields.join(", ")
                );
                Problem {
                    more_errors: (errors.more > 0).then_some(errors.more),
                    errors: errors.listed,
                    ..Problem::new(422, "Invalid input", "invalid-input", detail)
                }
            }
        }
    }
}

/// `computedAt`: the time `SOURCE_DATE_EPOCH` gives (seconds since 1970, for reproducible
/// outputs), else now; RFC 3339 in UTC, to the second.
pub fn computed_at() -> String {
    let seconds = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    rfc3339(seconds)
}

/// `seconds` since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (the civil calendar, proleptic Gregorian).
fn rfc3339(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let second_of_day = seconds.rem_euclid(86_400);
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        second_of_day / 3600,
        second_of_day % 3600 / 60,
        second_of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duplicate_key_is_a_400_naming_it() {
        let error = json::parse_unique(br#"{"params": {"a": 1, "a": 2}}"#).expect_err("duplicate");
        let problem = Problem::from_json_error(error);
        assert_eq!(problem.status, 400);
        assert_eq!(
            problem.detail,
            "the key `a` is given more than once in `params` (JSON keys must be unique)"
        );
    }

    #[test]
    fn rfc3339_dates_are_civil_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_083_199), "2026-11-30T23:59:59Z");
        assert_eq!(rfc3339(-1), "1969-12-31T23:59:59Z");
        assert_eq!(rfc3339(4_102_444_800), "2100-01-01T00:00:00Z");
    }
}
