//! Compare: two transcripts of the same questions (two prompts, two models), each read and
//! checked as `batch` reads and checks a transcript, put side by side. Records are matched by
//! id, then by question, then by position ([`match_records`]); findings within a matched pair
//! by rule and text ([`crate::batch::identity::Found::key`]), wherever they stand. Which side is
//! better is decided on one share, plainly: problem sentences (claims that are not supported)
//! per claim sentence, over the matched records.

use std::cmp::Ordering;
use std::collections::{HashMap, VecDeque};

use serde::Serialize;

use crate::batch::RecordOutcome;
use crate::batch::identity::{At, normalised};
use crate::report::{Counts, Verdict};

/// One record of a transcript, as the comparison keeps it: who it is, its counts and its
/// findings (a few strings per finding; not its report).
#[derive(Debug, Clone, PartialEq)]
pub struct SideRecord {
    /// 1-based position among the side's records.
    pub index: usize,
    pub file: String,
    /// Line of the file the record starts on.
    pub line: usize,
    /// Its id, or its position when it names none; `None` for a record that could not be read.
    pub id: Option<String>,
    /// Whether it names its id.
    pub has_id: bool,
    /// Its question, when it has one.
    pub question: Option<String>,
    /// Its verdict counts; `None` for a record that could not be read.
    pub counts: Option<Counts>,
    /// Why it could not be read.
    pub error: Option<String>,
    pub findings: Vec<SideFinding>,
}

/// A finding of a record, as the comparison keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SideFinding {
    /// Its rule id (`uncited-claim`, `unknown-marker`, ...).
    pub rule: &'static str,
    /// What identifies it within its record, wherever it stands (rule, text).
    #[serde(skip)]
    pub key: String,
    /// The sentence's index in its answer; `null` for a citation.
    pub sentence: Option<usize>,
    /// The citation's index; `null` for a sentence.
    pub citation: Option<usize>,
    /// The sentence, or the citation's quotation.
    pub text: String,
}

impl SideRecord {
    /// What the comparison keeps of a record `batch::run` checked and marked.
    pub fn of(outcome: &RecordOutcome) -> Self {
        let mut record = SideRecord {
            index: outcome.index,
            file: outcome.file.to_string(),
            line: outcome.line,
            id: None,
            has_id: false,
            question: None,
            counts: None,
            error: None,
            findings: Vec::new(),
        };
        let checked = match &outcome.result {
            Ok(checked) => checked,
            Err(error) => {
                record.error = Some(error.clone());
                return record;
            }
        };
        let result = &checked.report.result;
        record.id = Some(checked.id.clone());
        record.has_id = checked.has_id;
        record.question = checked.answer.question.clone();
        record.counts = Some(result.counts);
        record.findings = outcome
            .findings
            .iter()
            .filter_map(|found| {
                let (sentence, citation, text) = match found.at {
                    At::Sentence(index) => {
                        let s = result.sentences.iter().find(|s| s.index == index)?;
                        (Some(index), None, s.sentence.clone())
                    }
                    At::Citation(index) => {
                        let c = result.citations.iter().find(|c| c.index == index)?;
                        (None, Some(index), c.quote.as_ref()?.text.clone())
                    }
                    At::Record => return None,
                };
                Some(SideFinding {
                    rule: found.rule,
                    key: found.key.clone(),
                    sentence,
                    citation,
                    text,
                })
            })
            .collect();
        record
    }

    /// Its question, normalised, when it has a non-blank one.
    fn question_key(&self) -> Option<String> {
        let question = normalised(self.question.as_deref()?);
        (!question.is_empty()).then_some(question)
    }

    fn reference(&self) -> RecordRef {
        RecordRef {
            file: self.file.clone(),
            line: self.line,
            index: self.index,
            id: self.id.clone(),
            question: self.question.clone(),
            error: self.error.clone(),
        }
    }
}

/// How two records were matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum MatchedBy {
    /// Both name the same id.
    Id,
    /// Their questions are the same (case and white space aside), and at least one names no
    /// id or its id has no match.
    Question,
    /// Neither names an id or has a question: the n-th such record of A with the n-th of B.
    Position,
}

/// Which records of A and B are the same question.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Matching {
    /// Positions in A's and B's records, and how they were matched, in A's order.
    pub pairs: Vec<(usize, usize, MatchedBy)>,
    /// Positions of the records of A with no match (unreadable ones included), in order.
    pub only_a: Vec<usize>,
    /// The same for B.
    pub only_b: Vec<usize>,
}

/// Matches the records of two transcripts: first by the id they name (the n-th record of an id
/// in A with the n-th of that id in B), then the rest by question, then those with neither an id
/// nor a question by position among themselves. Unreadable records match nothing.
pub fn match_records(a: &[SideRecord], b: &[SideRecord]) -> Matching {
    // Whether each record may still be matched: read, and not matched yet.
    let mut a_free: Vec<bool> = a.iter().map(|r| r.counts.is_some()).collect();
    let mut b_free: Vec<bool> = b.iter().map(|r| r.counts.is_some()).collect();
    let mut pairs = Vec::new();
    let mut pair_by = |key: &dyn Fn(&SideRecord) -> Option<String>,
                       by: MatchedBy,
                       a_free: &mut Vec<bool>,
                       b_free: &mut Vec<bool>| {
        let mut waiting: HashMap<String, VecDeque<usize>> = HashMap::new();
        for (k, record) in b.iter().enumerate().filter(|(k, _)| b_free[*k]) {
            if let Some(key) = key(record) {
                waiting.entry(key).or_default().push_back(k);
            }
        }
        for (i, record) in a.iter().enumerate() {
            if !a_free[i] {
                continue;
            }
            let Some(key) = key(record) else {
                continue;
            };
            if let Some(k) = waiting.get_mut(&key).and_then(VecDeque::pop_front) {
                a_free[i] = false;
                b_free[k] = false;
                pairs.push((i, k, by));
            }
        }
    };
    let id = |r: &SideRecord| r.has_id.then(|| r.id.clone()).flatten();
    pair_by(&id, MatchedBy::Id, &mut a_free, &mut b_free);
    pair_by(
        &SideRecord::question_key,
        MatchedBy::Question,
        &mut a_free,
        &mut b_free,
    );
    let anonymous = |r: &SideRecord| !r.has_id && r.question_key().is_none();
    let a_rest: Vec<usize> = (0..a.len())
        .filter(|&i| a_free[i] && anonymous(&a[i]))
        .collect();
    let b_rest: Vec<usize> = (0..b.len())
        .filter(|&k| b_free[k] && anonymous(&b[k]))
        .collect();
    for (&i, &k) in a_rest.iter().zip(&b_rest) {
        a_free[i] = false;
        b_free[k] = false;
        pairs.push((i, k, MatchedBy::Position));
    }
    pairs.sort_by_key(|&(i, _, _)| i);
    let (mut in_a, mut in_b) = (vec![false; a.len()], vec![false; b.len()]);
    for &(i, k, _) in &pairs {
        in_a[i] = true;
        in_b[k] = true;
    }
    let unmatched = |matched: &[bool]| (0..matched.len()).filter(|&n| !matched[n]).collect();
    Matching {
        only_a: unmatched(&in_a),
        only_b: unmatched(&in_b),
        pairs,
    }
}

/// Which side of a comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    A,
    B,
}

/// Which side is better overall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Better {
    A,
    B,
    /// The same share of problem sentences on both sides.
    Tie,
}

/// A record as the comparison names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordRef {
    pub file: String,
    /// Line of the file the record starts on.
    pub line: usize,
    /// 1-based position among its side's records.
    pub index: usize,
    /// Its id, or its position when it names none; `null` for a record that could not be read.
    pub id: Option<String>,
    pub question: Option<String>,
    /// Why it could not be read; `null` when it was checked.
    pub error: Option<String>,
}

/// How the records were matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchingSummary {
    pub matched: usize,
    pub by_id: usize,
    pub by_question: usize,
    pub by_position: usize,
    /// Records of A with no match in B (unreadable ones included).
    pub only_in_a: Vec<RecordRef>,
    /// Records of B with no match in A.
    pub only_in_b: Vec<RecordRef>,
}

/// A side's totals over its matched records.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SideTotals {
    /// The transcript, as given.
    pub file: String,
    /// Records read, unreadable ones included.
    pub records: usize,
    pub unreadable: usize,
    /// Verdict counts summed over the matched records.
    pub counts: Counts,
    /// Claim sentences that are not supported.
    pub problems: usize,
    /// `problems` / claim sentences (0 without claims): the share that decides which side is
    /// better.
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub problem_rate: f64,
    /// Matched records with at least one abstention.
    pub abstaining_records: usize,
}

/// One verdict's share of the claim sentences on each side.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RateRow {
    /// The verdict's name, or `abstaining-records` (the share of matched records that abstain
    /// at least once).
    pub name: &'static str,
    pub a: usize,
    pub b: usize,
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub a_rate: f64,
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub b_rate: f64,
    /// `bRate - aRate`.
    #[serde(serialize_with = "crate::rounding::rounded")]
    #[schemars(with = "f64")]
    pub difference: f64,
    /// The side this share favours (a higher share of `supported`, a lower one of a problem);
    /// `null` when the shares are equal, and for abstentions, which are neither.
    pub better: Option<Side>,
}

/// A verdict count that changed between the two sides of a record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct VerdictChange {
    pub verdict: Verdict,
    pub a: usize,
    pub b: usize,
}

/// What changed in one matched record.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecordChange {
    pub a: RecordRef,
    pub b: RecordRef,
    pub matched_by: MatchedBy,
    /// The verdict counts that differ, in the verdicts' order.
    pub verdicts: Vec<VerdictChange>,
    /// B's findings that A's record does not have.
    pub new: Vec<SideFinding>,
    /// A's findings that B's record does not have.
    pub fixed: Vec<SideFinding>,
    /// Findings both have (wherever they stand).
    pub unchanged: usize,
}

impl RecordChange {
    /// Whether anything differs: a verdict count, or a finding new or fixed.
    pub fn changed(&self) -> bool {
        !self.verdicts.is_empty() || !self.new.is_empty() || !self.fixed.is_empty()
    }
}

/// Findings new, fixed and unchanged over all matched records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
pub struct FindingTotals {
    pub new: usize,
    pub fixed: usize,
    pub unchanged: usize,
}

/// The comparison of two transcripts.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    /// Which side is better: fewer problem sentences per claim sentence over the matched
    /// records; `tie` when the shares are equal.
    pub better: Better,
    /// Whether every record of both sides was read and matched. Records left out (unreadable,
    /// or matching nothing) count in no share, and `compare --fail-if-worse` fails a comparison
    /// that is not complete, whichever side is better: a gate passes only what it compared.
    pub complete: bool,
    pub matching: MatchingSummary,
    pub a: SideTotals,
    pub b: SideTotals,
    /// Each claim verdict's share of the claim sentences, then the share of records that
    /// abstain, side by side.
    pub rates: Vec<RateRow>,
    pub findings: FindingTotals,
    /// Every matched record, in A's order, with what changed.
    pub records: Vec<RecordChange>,
}

/// Compares transcript A (`a_file`, its records `a`) with B.
pub fn compare(a_file: &str, a: &[SideRecord], b_file: &str, b: &[SideRecord]) -> Comparison {
    let matching = match_records(a, b);
    let mut totals = [Totals::new(a_file, a), Totals::new(b_file, b)];
    let mut findings = FindingTotals::default();
    let mut records = Vec::with_capacity(matching.pairs.len());
    for &(i, k, matched_by) in &matching.pairs {
        let (ra, rb) = (&a[i], &b[k]);
        let (ca, cb) = (ra.counts.unwrap_or_default(), rb.counts.unwrap_or_default());
        totals[0].add(&ca);
        totals[1].add(&cb);
        let verdicts = Verdict::ALL
            .iter()
            .filter(|v| ca.of_verdict(**v) != cb.of_verdict(**v))
            .map(|&verdict| VerdictChange {
                verdict,
                a: ca.of_verdict(verdict),
                b: cb.of_verdict(verdict),
            })
            .collect();
        let (new, unchanged) = beyond(&rb.findings, &ra.findings);
        let (fixed, _) = beyond(&ra.findings, &rb.findings);
        findings.new += new.len();
        findings.fixed += fixed.len();
        findings.unchanged += unchanged;
        records.push(RecordChange {
            a: ra.reference(),
            b: rb.reference(),
            matched_by,
            verdicts,
            new,
            fixed,
            unchanged,
        });
    }
    let [ta, tb] = totals;
    let rates = rate_rows(&ta, &tb, matching.pairs.len());
    let better = match shares(
        (ta.problems(), ta.counts.claims),
        (tb.problems(), tb.counts.claims),
    ) {
        Ordering::Less => Better::A,
        Ordering::Greater => Better::B,
        Ordering::Equal => Better::Tie,
    };
    let count = |by: MatchedBy| matching.pairs.iter().filter(|p| p.2 == by).count();
    let summary = MatchingSummary {
        matched: matching.pairs.len(),
        by_id: count(MatchedBy::Id),
        by_question: count(MatchedBy::Question),
        by_position: count(MatchedBy::Position),
        only_in_a: matching.only_a.iter().map(|&i| a[i].reference()).collect(),
        only_in_b: matching.only_b.iter().map(|&k| b[k].reference()).collect(),
    };
    Comparison {
        better,
        complete: summary.only_in_a.is_empty() && summary.only_in_b.is_empty(),
        matching: summary,
        a: ta.finish(),
        b: tb.finish(),
        rates,
        findings,
        records,
    }
}

/// The findings of `these` beyond those of `those` (matched by key, each as often as it comes),
/// in their order, and how many are in both.
fn beyond(these: &[SideFinding], those: &[SideFinding]) -> (Vec<SideFinding>, usize) {
    let mut left: HashMap<&str, usize> = HashMap::new();
    for finding in those {
        *left.entry(finding.key.as_str()).or_insert(0) += 1;
    }
    let mut both = 0;
    let mut extra = Vec::new();
    for finding in these {
        match left.get_mut(finding.key.as_str()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                both += 1;
            }
            _ => extra.push(finding.clone()),
        }
    }
    (extra, both)
}

/// A side's totals while they are summed.
struct Totals {
    file: String,
    records: usize,
    unreadable: usize,
    counts: Counts,
    abstaining_records: usize,
}

impl Totals {
    fn new(file: &str, records: &[SideRecord]) -> Self {
        Totals {
            file: file.to_string(),
            records: records.len(),
            unreadable: records.iter().filter(|r| r.counts.is_none()).count(),
            counts: Counts::default(),
            abstaining_records: 0,
        }
    }

    fn add(&mut self, counts: &Counts) {
        self.counts.add(counts);
        self.abstaining_records += usize::from(counts.abstentions > 0);
    }

    fn problems(&self) -> usize {
        self.counts.claims - self.counts.supported
    }

    fn finish(self) -> SideTotals {
        let problems = self.problems();
        SideTotals {
            file: self.file,
            records: self.records,
            unreadable: self.unreadable,
            counts: self.counts,
            problems,
            problem_rate: share(problems, self.counts.claims),
            abstaining_records: self.abstaining_records,
        }
    }
}

/// `part / whole`, 0 when `whole` is 0.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// `na / wa` against `nb / wb`, compared exactly (as products of whole numbers), a share of
/// nothing being 0.
fn shares((na, wa): (usize, usize), (nb, wb): (usize, usize)) -> Ordering {
    match (wa, wb) {
        (0, 0) => Ordering::Equal,
        // One side has no claims: its share is 0.
        (0, _) => 0.cmp(&nb),
        (_, 0) => na.cmp(&0),
        _ => (na as u128 * wb as u128).cmp(&(nb as u128 * wa as u128)),
    }
}

/// Each claim verdict's share of the claim sentences on both sides, then the share of matched
/// records that abstain.
fn rate_rows(a: &Totals, b: &Totals, matched: usize) -> Vec<RateRow> {
    let row = |name, (na, wa): (usize, usize), (nb, wb): (usize, usize), higher_is_better| {
        let (a_rate, b_rate) = (share(na, wa), share(nb, wb));
        let order = shares((na, wa), (nb, wb));
        let better = match (higher_is_better, order) {
            (_, Ordering::Equal) | (None, _) => None,
            (Some(true), Ordering::Greater) | (Some(false), Ordering::Less) => Some(Side::A),
            (Some(_), _) => Some(Side::B),
        };
        RateRow {
            name,
            a: na,
            b: nb,
            a_rate,
            b_rate,
            difference: b_rate - a_rate,
            better,
        }
    };
    // The claim verdicts, in `Verdict::ALL`'s order.
    let mut rows: Vec<RateRow> = Verdict::ALL
        .iter()
        .filter(|v| v.is_claim())
        .map(|&v| {
            row(
                v.name(),
                (a.counts.of_verdict(v), a.counts.claims),
                (b.counts.of_verdict(v), b.counts.claims),
                Some(v == Verdict::Supported),
            )
        })
        .collect();
    rows.push(row(
        "abstaining-records",
        (a.abstaining_records, matched),
        (b.abstaining_records, matched),
        None,
    ));
    rows
}

impl Comparison {
    /// The one line that ends the table: which side is better and by how much, how many records
    /// matched, and the findings new, fixed and unchanged.
    pub fn summary_line(&self) -> String {
        let (a, b) = (&self.a, &self.b);
        let verdict = match self.better {
            Better::A => "B is worse",
            Better::B => "B is better",
            Better::Tie => "A and B tie",
        };
        let matched = self.matching.matched;
        let mut line = format!(
            "{verdict}: problem sentences {:.1}% of claims in A, {:.1}% in B ({:+.1} points) over {matched} matched {}",
            a.problem_rate * 100.0,
            b.problem_rate * 100.0,
            (b.problem_rate - a.problem_rate) * 100.0,
            crate::report::plural(matched, "record", "records"),
        );
        let f = &self.findings;
        line.push_str(&format!(
            " · findings: {} new, {} fixed, {} unchanged",
            f.new, f.fixed, f.unchanged
        ));
        if !self.complete {
            let sides: Vec<String> = [
                ("A", &self.matching.only_in_a),
                ("B", &self.matching.only_in_b),
            ]
            .into_iter()
            .filter(|(_, left_out)| !left_out.is_empty())
            .map(|(side, left_out)| {
                let unreadable = left_out.iter().filter(|r| r.error.is_some()).count();
                let kinds: Vec<String> = [
                    (unreadable, "unreadable"),
                    (left_out.len() - unreadable, "unmatched"),
                ]
                .into_iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, kind)| format!("{n} {kind}"))
                .collect();
                format!("{} of {side} ({})", left_out.len(), kinds.join(", "))
            })
            .collect();
            line.push_str(&format!(
                " · INCOMPLETE: records left out: {}; --fail-if-worse fails",
                sides.join(", ")
            ));
        }
        if self.hides_more() {
            line.push_str(&format!(
                " · B leaves more lines not checked: {} in A, {} in B; --fail-if-worse fails",
                a.counts.unchecked_lines, b.counts.unchecked_lines
            ));
        }
        line
    }

    /// Whether B's matched records have more lines not checked (code, comments or hidden text)
    /// than A's: B may look better only because less of it was read.
    pub fn hides_more(&self) -> bool {
        self.b.counts.unchecked_lines > self.a.counts.unchecked_lines
    }

    /// The lines not checked on each side, their difference and the side with fewer, when either
    /// side has any: `None` when neither has (the row is then left out).
    pub fn unchecked_row(&self) -> Option<(usize, usize, Option<Side>)> {
        let (a, b) = (self.a.counts.unchecked_lines, self.b.counts.unchecked_lines);
        let fewer = match a.cmp(&b) {
            Ordering::Less => Some(Side::A),
            Ordering::Greater => Some(Side::B),
            Ordering::Equal => None,
        };
        (a > 0 || b > 0).then_some((a, b, fewer))
    }

    /// Whether `compare --fail-if-worse` fails: B is worse, records were left out, or B has more
    /// lines not checked than A.
    pub fn fails_if_worse(&self) -> bool {
        self.better == Better::A || !self.complete || self.hides_more()
    }

    /// How the records matched, on one line: `4 matched (3 by id, 1 by question)`.
    pub fn matching_line(&self) -> String {
        let m = &self.matching;
        let ways: Vec<String> = [
            (m.by_id, "by id"),
            (m.by_question, "by question"),
            (m.by_position, "by position"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, how)| format!("{n} {how}"))
        .collect();
        let mut line = format!("{} matched", m.matched);
        if !ways.is_empty() {
            line.push_str(&format!(" ({})", ways.join(", ")));
        }
        line.push_str(&format!(
            "; {} only in A, {} only in B",
            m.only_in_a.len(),
            m.only_in_b.len()
        ));
        line
    }
}

#[cfg(test)]
mod tests;
