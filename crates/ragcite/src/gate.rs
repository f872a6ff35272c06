//! Gate: compares a result's counts with the limits and says which were exceeded, by how much:
//! one answer's counts with [`Limits`], a batch's failing and bad records and rates with
//! [`BatchLimits`]. The exit code follows from this outcome, never from the printers.

use serde::Serialize;

use crate::report::Counts;

/// The most of each kind of problem a check may have and still pass; `None` is unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    pub max_uncited: Option<usize>,
    pub max_number_mismatch: Option<usize>,
    pub max_unsupported: Option<usize>,
    pub max_unknown_markers: Option<usize>,
    pub max_misquotes: Option<usize>,
    /// Added in schema 3.0.
    pub max_contradicted: Option<usize>,
    pub max_weak: Option<usize>,
    /// Most abstentions (`no-claim` sentences of kind `abstention`); unlimited by default.
    /// Added in schema 3.1.
    pub max_abstentions: Option<usize>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_uncited: Some(0),
            max_number_mismatch: Some(0),
            max_unsupported: Some(0),
            max_unknown_markers: Some(0),
            max_misquotes: Some(0),
            max_contradicted: Some(0),
            max_weak: None,
            max_abstentions: None,
        }
    }
}

/// One limit that was exceeded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LimitFailure {
    /// The option that sets the limit (`max-uncited`).
    pub limit: &'static str,
    /// What it counts (`uncited-claim` sentences, `unknown markers`).
    pub counts: &'static str,
    pub found: usize,
    pub allowed: usize,
    /// How far over the limit: `found - allowed`.
    pub over: usize,
}

impl std::fmt::Display for LimitFailure {
    /// `1 uncited-claim > --max-uncited 0 (+1)`: what every summary says of a failed limit.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `1 unknown marker`, `2 unknown markers`; verdict names stay as they are.
        let counts = match self.counts.strip_suffix('s') {
            Some(one) if self.found == 1 => one,
            _ => self.counts,
        };
        write!(
            f,
            "{} {counts} > --{} {} (+{})",
            self.found, self.limit, self.allowed, self.over
        )
    }
}

/// Whether every limit held, and which did not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct GateOutcome {
    pub passed: bool,
    pub failures: Vec<LimitFailure>,
}

impl Limits {
    /// The limits in the order they are reported, with the option name, what they count and
    /// the count found.
    fn checks(&self, counts: &Counts) -> [(&'static str, &'static str, Option<usize>, usize); 8] {
        [
            (
                "max-uncited",
                "uncited-claim",
                self.max_uncited,
                counts.uncited_claim,
            ),
            (
                "max-number-mismatch",
                "number-mismatch",
                self.max_number_mismatch,
                counts.number_mismatch,
            ),
            (
                "max-unsupported",
                "unsupported-citation",
                self.max_unsupported,
                counts.unsupported_citation,
            ),
            (
                "max-unknown-markers",
                "unknown markers",
                self.max_unknown_markers,
                counts.unknown_markers,
            ),
            (
                "max-misquotes",
                "misquotes",
                self.max_misquotes,
                counts.misquote + counts.misquoted_citations,
            ),
            (
                "max-contradicted",
                "contradicted",
                self.max_contradicted,
                counts.contradicted,
            ),
            (
                "max-weak",
                "weak-support",
                self.max_weak,
                counts.weak_support,
            ),
            (
                "max-abstentions",
                "abstentions",
                self.max_abstentions,
                counts.abstentions,
            ),
        ]
    }

    pub fn evaluate(&self, counts: &Counts) -> GateOutcome {
        let failures: Vec<LimitFailure> = self
            .checks(counts)
            .into_iter()
            .filter_map(|(limit, what, allowed, found)| {
                let allowed = allowed?;
                (found > allowed).then(|| LimitFailure {
                    limit,
                    counts: what,
                    found,
                    allowed,
                    over: found - allowed,
                })
            })
            .collect();
        GateOutcome {
            passed: failures.is_empty(),
            failures,
        }
    }
}

/// Limits on the whole batch, next to the per-record limits of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchLimits {
    /// Applied to each record, as `check` applies them; a record over any is failing.
    pub per_record: Limits,
    pub max_uncited_rate: Option<f64>,
    pub max_number_mismatch_rate: Option<f64>,
    pub max_unsupported_rate: Option<f64>,
    /// Added in schema 3.0.
    pub max_contradicted_rate: Option<f64>,
    /// Highest share of checked records that abstain at least once; unlimited by default.
    /// Added in schema 3.1.
    pub max_abstention_rate: Option<f64>,
    pub max_failing_records: Option<usize>,
    pub max_bad_records: Option<usize>,
}

impl Default for BatchLimits {
    fn default() -> Self {
        BatchLimits {
            per_record: Limits::default(),
            max_uncited_rate: None,
            max_number_mismatch_rate: None,
            max_unsupported_rate: None,
            max_contradicted_rate: None,
            max_abstention_rate: None,
            max_failing_records: Some(0),
            max_bad_records: Some(0),
        }
    }
}

impl BatchLimits {
    /// The batch limits the options give: unset rate limits are off; without a rate limit, no
    /// record may fail unless `max_failing_records` says how many may; with one, failing
    /// records are counted only when `max_failing_records` is given.
    pub fn new(
        per_record: Limits,
        rates: [Option<f64>; 5],
        max_failing_records: Option<usize>,
        max_bad_records: usize,
    ) -> Self {
        let [
            max_uncited_rate,
            max_number_mismatch_rate,
            max_unsupported_rate,
            max_contradicted_rate,
            max_abstention_rate,
        ] = rates;
        let any_rate = rates.iter().any(Option::is_some);
        BatchLimits {
            per_record,
            max_uncited_rate,
            max_number_mismatch_rate,
            max_unsupported_rate,
            max_contradicted_rate,
            max_abstention_rate,
            max_failing_records: match (max_failing_records, any_rate) {
                (Some(n), _) => Some(n),
                (None, true) => None,
                (None, false) => Some(0),
            },
            max_bad_records: Some(max_bad_records),
        }
    }

    /// The batch's gate, from its failing and bad records and its rates.
    pub fn evaluate(&self, failing_records: usize, bad_records: usize, rates: &Rates) -> BatchGate {
        let limits = self;
        let mut failures = Vec::new();
        let counted = [
            (
                "max-failing-records",
                "failing records",
                limits.max_failing_records,
                failing_records,
            ),
            (
                "max-bad-records",
                "bad records",
                limits.max_bad_records,
                bad_records,
            ),
        ];
        for (limit, what, allowed, found) in counted {
            if let Some(allowed) = allowed
                && found > allowed
            {
                failures.push(LimitFailure {
                    limit,
                    counts: what,
                    found,
                    allowed,
                    over: found - allowed,
                });
            }
        }
        let rates = [
            (
                "max-uncited-rate",
                "uncited-claim rate",
                limits.max_uncited_rate,
                rates.uncited,
            ),
            (
                "max-number-mismatch-rate",
                "number-mismatch rate",
                limits.max_number_mismatch_rate,
                rates.number_mismatch,
            ),
            (
                "max-unsupported-rate",
                "unsupported-citation rate",
                limits.max_unsupported_rate,
                rates.unsupported,
            ),
            (
                "max-contradicted-rate",
                "contradicted rate",
                limits.max_contradicted_rate,
                rates.contradicted,
            ),
            (
                "max-abstention-rate",
                "abstention rate",
                limits.max_abstention_rate,
                rates.abstentions,
            ),
        ];
        let mut rate_failures = Vec::new();
        for (limit, what, allowed, found) in rates {
            if let Some(allowed) = allowed
                && found > allowed + 1e-9
            {
                rate_failures.push(RateFailure {
                    limit,
                    counts: what,
                    found,
                    allowed,
                    over: found - allowed,
                });
            }
        }
        BatchGate {
            passed: failures.is_empty() && rate_failures.is_empty(),
            failures,
            rate_failures,
        }
    }
}

/// Shares of claim sentences with a verdict, over all checked records, and the share of
/// checked records that abstain.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Rates {
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub uncited: f64,
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub number_mismatch: f64,
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub unsupported: f64,
    /// Added in schema 3.0.
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub contradicted: f64,
    /// Checked records with at least one abstention / checked records (0 when none was
    /// checked): how often the system declines, not a share of sentences. Added in schema 3.1.
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub abstentions: f64,
}

impl Rates {
    /// The shares of the claim sentences of `counts` (of one, when there are none).
    pub fn of(counts: &Counts) -> Self {
        let claims = counts.claims.max(1) as f64;
        Rates {
            uncited: counts.uncited_claim as f64 / claims,
            number_mismatch: counts.number_mismatch as f64 / claims,
            unsupported: counts.unsupported_citation as f64 / claims,
            contradicted: counts.contradicted as f64 / claims,
            abstentions: 0.0,
        }
    }

    /// These rates with the share of `checked` records that abstain (`abstaining` of them).
    pub fn with_abstaining(self, abstaining: usize, checked: usize) -> Self {
        Rates {
            abstentions: abstaining as f64 / checked.max(1) as f64,
            ..self
        }
    }
}

/// Whether the batch passed, with each count and rate limit that failed.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchGate {
    pub passed: bool,
    pub failures: Vec<LimitFailure>,
    pub rate_failures: Vec<RateFailure>,
}

/// A rate limit that was exceeded.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RateFailure {
    pub limit: &'static str,
    pub counts: &'static str,
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub found: f64,
    pub allowed: f64,
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub over: f64,
}

/// The one-line summary: whether the gate passed, the verdict tallies, and each limit that
/// failed with by how much.
pub fn summary_line(report: &crate::report::Report, gate: &GateOutcome) -> String {
    let mut line = format!(
        "{} · {}",
        if gate.passed { "PASS" } else { "FAIL" },
        report.counts_line()
    );
    if gate.passed {
        line.push_str(" · all limits held");
    } else {
        let failures: Vec<String> = gate.failures.iter().map(ToString::to_string).collect();
        line.push_str(&format!(" · limits exceeded: {}", failures.join(", ")));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_read_in_the_singular_for_one() {
        let counts = Counts {
            uncited_claim: 1,
            unknown_markers: 1,
            misquote: 2,
            ..Counts::default()
        };
        let failures: Vec<String> = Limits::default()
            .evaluate(&counts)
            .failures
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            failures,
            [
                "1 uncited-claim > --max-uncited 0 (+1)",
                "1 unknown marker > --max-unknown-markers 0 (+1)",
                "2 misquotes > --max-misquotes 0 (+2)",
            ]
        );
    }

    #[test]
    fn a_limit_fails_only_when_exceeded() {
        let counts = Counts {
            uncited_claim: 2,
            weak_support: 9,
            ..Counts::default()
        };
        let at_limit = Limits {
            max_uncited: Some(2),
            ..Limits::default()
        };
        assert!(at_limit.evaluate(&counts).passed);
        let above = Limits {
            max_uncited: Some(5),
            ..Limits::default()
        };
        assert!(above.evaluate(&counts).passed);
        let outcome = Limits::default().evaluate(&counts);
        assert!(!outcome.passed);
        assert_eq!(outcome.failures.len(), 1);
        assert_eq!(outcome.failures[0].limit, "max-uncited");
        assert_eq!(outcome.failures[0].over, 2);
    }

    #[test]
    fn contradicted_sentences_fail_by_default_and_their_rate_is_gated() {
        let counts = Counts {
            claims: 4,
            supported: 3,
            contradicted: 1,
            ..Counts::default()
        };
        let failures: Vec<String> = Limits::default()
            .evaluate(&counts)
            .failures
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(failures, ["1 contradicted > --max-contradicted 0 (+1)"]);
        let allowed = Limits {
            max_contradicted: Some(1),
            ..Limits::default()
        };
        assert!(allowed.evaluate(&counts).passed);

        let rates = Rates::of(&counts);
        assert_eq!(rates.contradicted, 0.25);
        let at = BatchLimits::new(allowed, [None, None, None, Some(0.25), None], None, 0);
        assert!(at.evaluate(0, 0, &rates).passed);
        let below = BatchLimits::new(allowed, [None, None, None, Some(0.2), None], None, 0);
        let gate = below.evaluate(0, 0, &rates);
        assert!(!gate.passed);
        assert_eq!(gate.rate_failures[0].limit, "max-contradicted-rate");
        assert_eq!(gate.rate_failures[0].counts, "contradicted rate");
        // A rate limit alone leaves failing records unlimited, as the others do.
        assert_eq!(below.max_failing_records, None);
    }

    #[test]
    fn abstentions_are_unlimited_by_default_and_their_rate_is_a_share_of_records() {
        let counts = Counts {
            sentences: 3,
            no_claim: 2,
            abstentions: 2,
            ..Counts::default()
        };
        assert!(Limits::default().evaluate(&counts).passed);
        let one = Limits {
            max_abstentions: Some(1),
            ..Limits::default()
        };
        let failures: Vec<String> = one
            .evaluate(&counts)
            .failures
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(failures, ["2 abstentions > --max-abstentions 1 (+1)"]);

        // One record of four abstains: a quarter, however many of its sentences do.
        let rates = Rates::of(&counts).with_abstaining(1, 4);
        assert_eq!(rates.abstentions, 0.25);
        assert_eq!(Rates::of(&counts).with_abstaining(0, 0).abstentions, 0.0);
        let at = BatchLimits::new(
            Limits::default(),
            [None, None, None, None, Some(0.25)],
            None,
            0,
        );
        assert!(at.evaluate(0, 0, &rates).passed);
        let below = BatchLimits::new(
            Limits::default(),
            [None, None, None, None, Some(0.2)],
            None,
            0,
        );
        let gate = below.evaluate(0, 0, &rates);
        assert_eq!(gate.rate_failures[0].limit, "max-abstention-rate");
        assert_eq!(gate.rate_failures[0].counts, "abstention rate");
    }

    #[test]
    fn every_limit_is_checked() {
        let counts = Counts {
            uncited_claim: 1,
            number_mismatch: 1,
            unsupported_citation: 1,
            unknown_markers: 1,
            misquote: 1,
            contradicted: 1,
            weak_support: 1,
            abstentions: 1,
            ..Counts::default()
        };
        let limits = Limits {
            max_weak: Some(0),
            max_abstentions: Some(0),
            ..Limits::default()
        };
        let names: Vec<_> = limits
            .evaluate(&counts)
            .failures
            .iter()
            .map(|f| f.limit)
            .collect();
        assert_eq!(
            names,
            [
                "max-uncited",
                "max-number-mismatch",
                "max-unsupported",
                "max-unknown-markers",
                "max-misquotes",
                "max-contradicted",
                "max-weak",
                "max-abstentions"
            ]
        );
    }
}
