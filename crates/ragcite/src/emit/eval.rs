//! What `ragcite eval` writes: the agreement of each group as a table with the score
//! distribution, or as one JSON document.

use std::io::{self, Write};

use super::table::columns_shown;
use crate::escape::printable_line;
use crate::eval::{Agreement, FlagPrecision, Histogram, Judging};

/// Bad records listed under the table; the count says how many there were in all.
const BAD_RECORDS_LISTED: usize = 20;

/// One eval run: what was read, how, and the agreement of each group under each model.
#[derive(Debug, Clone, Copy)]
pub struct EvalRun<'a> {
    pub files: &'a [String],
    pub threshold: f64,
    pub lang: &'a str,
    pub lenient: bool,
    pub group_by: &'a str,
    /// The shipped model first, then the model `--model` names when it is another.
    pub models: &'a [ModelRun],
}

/// The records judged with one model.
#[derive(Debug)]
pub struct ModelRun {
    /// `shipped`, `formula`, or the model file as given.
    pub model: String,
    pub judging: Judging,
    /// Each group's agreement, then `(all)` when there are several.
    pub results: Vec<(String, Agreement)>,
}

impl EvalRun<'_> {
    /// Each group's agreement under each model, group by group: (group, model, agreement).
    fn rows(&self) -> Vec<(&str, &str, &Agreement)> {
        let Some(first) = self.models.first() else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for (group, _) in &first.results {
            for run in self.models {
                if let Some((_, a)) = run.results.iter().find(|(g, _)| g == group) {
                    rows.push((group.as_str(), run.model.as_str(), a));
                }
            }
        }
        rows
    }

    /// The last model's judging: what was read (the same for every model).
    fn judging(&self) -> Option<&Judging> {
        self.models.last().map(|run| &run.judging)
    }
}

/// The run as one pretty-printed JSON document.
pub fn write_json(out: &mut dyn Write, run: &EvalRun) -> io::Result<()> {
    let groups: Vec<serde_json::Value> = run
        .rows()
        .into_iter()
        .map(
            |(group, model, a)| serde_json::json!({"group": group, "model": model, "agreement": a}),
        )
        .collect();
    let empty = Judging::default();
    let judging = run.judging().unwrap_or(&empty);
    let model = run.models.last().map_or("shipped", |m| m.model.as_str());
    let document = serde_json::json!({
        "schemaVersion": super::json::SCHEMA_VERSION,
        "tool": {"name": "ragcite", "version": env!("CARGO_PKG_VERSION")},
        "inputs": {
            "files": run.files,
            "threshold": run.threshold,
            "model": model,
            "models": run.models.iter().map(|m| &m.model).collect::<Vec<_>>(),
            "lang": run.lang,
            "lenient": run.lenient,
            "groupBy": run.group_by,
        },
        "records": judging.records,
        "badRecords": judging.bad,
        "notJudged": judging.not_judged,
        "groups": groups,
    });
    crate::escape::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// `1 unit`, `3 units`.
pub fn units(n: usize) -> String {
    format!("{n} unit{}", if n == 1 { "" } else { "s" })
}

/// Columns left out first when the table is narrower than its columns at their least, in this
/// order: the flag precisions and the confusion counts (in the JSON), then the detection
/// columns, the best threshold, the class counts and the figures; `group`, `n` and `macro-F1`
/// stay.
const DROPPED_FIRST: [&str; 14] = [
    "ct prec",
    "mq prec",
    "nm prec",
    "TP/FP/FN/TN",
    "abst rec",
    "claim rec",
    "abst prec",
    "claim prec",
    "best t (macro-F1)",
    "pos/neg",
    "R",
    "P",
    "F1",
    "AUC",
];

/// The widest a histogram bar is; narrower outputs get shorter bars, at least [`BAR_MIN`].
const BAR_MAX: usize = 40;
const BAR_MIN: usize = 5;
/// Characters of a histogram line besides its two bars.
const HISTOGRAM_TEXT: usize = 49;

/// Width of text in columns: its characters.
fn width_of(text: &str) -> usize {
    text.chars().count()
}

/// The most of its width the `group` column (names from the input) claims before the figures'
/// columns are left out: a longer name wraps between its words.
const GROUP_CLAIMS: usize = 24;

/// The width a column claims: its header's and its cells' whole width, so that no figure wraps;
/// for the first column (`group`), at most [`GROUP_CLAIMS`] but never less than its longest word.
fn claimed(column: usize, header: &str, cells: &[&String]) -> usize {
    let texts = || std::iter::once(header).chain(cells.iter().map(|c| c.as_str()));
    let whole = texts().map(width_of).max().unwrap_or(1);
    if column > 0 {
        return whole;
    }
    let word = texts()
        .flat_map(str::split_whitespace)
        .map(width_of)
        .max()
        .unwrap_or(1);
    whole.min(GROUP_CLAIMS).max(word)
}

/// Which columns fit in `width`, and the width each claims: those of [`DROPPED_FIRST`] are left
/// out, in its order, while the columns shown, each at the width it claims, do not fit.
fn shown_columns(header: &[&str], rows: &[Vec<String>], width: usize) -> (Vec<bool>, Vec<usize>) {
    let claims: Vec<usize> = header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let cells: Vec<&String> = rows.iter().filter_map(|r| r.get(i)).collect();
            claimed(i, h, &cells)
        })
        .collect();
    let drops = DROPPED_FIRST
        .iter()
        .filter_map(|name| header.iter().position(|h| h == name));
    (columns_shown(&claims, drops, width), claims)
}

/// `text` wrapped at spaces to lines of at most `width` characters (a longer word stays whole).
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        let n = width_of(word);
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

/// The run as a table laid out for `width` columns (the table's least columns dropped when it
/// would not fit, and named under it), the score distribution of the last group, and the bad
/// records; the group names and bad records, which come from the input, escaped for a terminal.
pub fn write_table(out: &mut dyn Write, run: &EvalRun, width: u16) -> io::Result<()> {
    let width = usize::from(width);
    let rows = run.rows();
    // Detection columns only for sets labelled for them.
    let claims = rows.iter().any(|(_, _, a)| a.claim_detection.is_some());
    let abstentions = rows
        .iter()
        .any(|(_, _, a)| a.abstention_detection.is_some());
    let mut header = vec![
        "group",
        "n",
        "pos/neg",
        "AUC",
        "P",
        "R",
        "F1",
        "macro-F1",
        "TP/FP/FN/TN",
        "nm prec",
        "mq prec",
        "ct prec",
        "best t (macro-F1)",
    ];
    if claims {
        header.extend(["claim prec", "claim rec"]);
    }
    if abstentions {
        header.extend(["abst prec", "abst rec"]);
    }
    let mut cells: Vec<Vec<String>> = Vec::with_capacity(rows.len());
    let precision = |f: &FlagPrecision| match f.precision {
        Some(p) => format!("{p:.3} ({})", f.flagged),
        None => "-".to_string(),
    };
    let compared = run.models.len() > 1;
    // `0.750 (120)`: the figure, and in brackets what it is taken over (flagged, positives).
    let share = |value: Option<f64>, over: usize| match value {
        Some(v) => format!("{v:.3} ({over})"),
        None => format!("- ({over})"),
    };
    for (group, model, a) in rows {
        let c = a.confusion;
        let mut row = vec![
            printable_line(&if compared {
                format!("{group} ({model})")
            } else {
                group.to_string()
            }),
            a.sentences.to_string(),
            format!("{}/{}", a.positives, a.negatives),
            a.roc_auc.map_or("-".to_string(), |x| format!("{x:.3}")),
            format!("{:.3}", a.precision),
            format!("{:.3}", a.recall),
            format!("{:.3}", a.f1),
            format!("{:.3}", a.macro_f1),
            format!(
                "{}/{}/{}/{}",
                c.true_positive, c.false_positive, c.false_negative, c.true_negative
            ),
            precision(&a.number_mismatch),
            precision(&a.misquote),
            precision(&a.contradicted),
            format!("{:.2} ({:.3})", a.best_threshold, a.best_macro_f1),
        ];
        let detection = |d: &Option<crate::eval::Detection>| match d {
            Some(d) => [share(d.precision, d.flagged), share(d.recall, d.positives)],
            None => ["-".to_string(), "-".to_string()],
        };
        if claims {
            row.extend(detection(&a.claim_detection));
        }
        if abstentions {
            row.extend(detection(&a.abstention_detection));
        }
        cells.push(row);
    }
    let (shown, claims) = shown_columns(&header, &cells, width);
    let mut table = comfy_table::Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
        .set_width(u16::try_from(width).unwrap_or(u16::MAX))
        .force_no_tty()
        .set_header(
            header
                .iter()
                .zip(&shown)
                .filter(|(_, s)| **s)
                .map(|(h, _)| *h),
        );
    // The figures' columns at their whole width: comfy-table wraps only the group names.
    table.set_constraints(
        claims
            .iter()
            .enumerate()
            .zip(&shown)
            .filter(|(_, s)| **s)
            .map(|((i, claim), _)| {
                let fixed = comfy_table::Width::Fixed(u16::try_from(claim + 2).unwrap_or(u16::MAX));
                if i == 0 {
                    comfy_table::ColumnConstraint::LowerBoundary(fixed)
                } else {
                    comfy_table::ColumnConstraint::Absolute(fixed)
                }
            }),
    );
    for row in cells {
        table.add_row(
            row.into_iter()
                .zip(&shown)
                .filter(|(_, s)| **s)
                .map(|(c, _)| c),
        );
    }
    writeln!(out, "{table}")?;
    let left_out: Vec<&str> = header
        .iter()
        .zip(&shown)
        .filter(|(_, s)| !**s)
        .map(|(h, _)| *h)
        .collect();
    if !left_out.is_empty() {
        let note = format!(
            "not shown at this width: {} (a wider terminal, COLUMNS, or --format json shows them)",
            left_out.join(", ")
        );
        writeln!(out, "{}", wrap(&note, width))?;
    }
    let last = run
        .models
        .last()
        .and_then(|m| Some((m.model.as_str(), m.results.last()?)));
    if let Some((model, (group, a))) = last {
        let heading = format!(
            "score distribution ({}, {} model; each █ is a share of its class):",
            printable_line(group),
            printable_line(model)
        );
        writeln!(out, "{}", wrap(&heading, width))?;
        let total = |h: &Histogram| h.bins.iter().sum::<usize>().max(1);
        let (pos_total, neg_total) = (total(&a.positive_scores), total(&a.negative_scores));
        // Two bars beside the text, as long as the width allows.
        let longest = (width.saturating_sub(HISTOGRAM_TEXT) / 2).clamp(BAR_MIN, BAR_MAX);
        for bin in 0..10 {
            let bar =
                |count: usize, of: usize| "█".repeat((count * longest).div_ceil(of).min(longest));
            writeln!(
                out,
                "  {:.1}-{:.1}  supported {:>6} {:<longest$}  unsupported {:>6} {}",
                bin as f64 / 10.0,
                (bin + 1) as f64 / 10.0,
                a.positive_scores.bins[bin],
                bar(a.positive_scores.bins[bin], pos_total),
                a.negative_scores.bins[bin],
                bar(a.negative_scores.bins[bin], neg_total),
            )?;
        }
    }
    let empty = Judging::default();
    let judging = run.judging().unwrap_or(&empty);
    let bad = &judging.bad;
    for line in bad.iter().take(BAD_RECORDS_LISTED) {
        let line = format!("bad record: {}", printable_line(line));
        writeln!(out, "{}", wrap(&line, width))?;
    }
    writeln!(
        out,
        "{} records read, {} bad{}{}",
        judging.records,
        bad.len(),
        if bad.len() > BAD_RECORDS_LISTED {
            " (the first 20 listed)"
        } else {
            ""
        },
        match judging.not_judged {
            0 => String::new(),
            n => format!(", {} not judged (label null)", units(n)),
        }
    )
}
