//! What `ragcite eval` writes: the agreement of each group as a table with the score
//! distribution, or as one JSON document.

use std::io::{self, Write};

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
        "groups": groups,
    });
    crate::escape::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// The run as a table, the score distribution of the last group, and the bad records; the
/// group names and bad records, which come from the input, escaped for a terminal.
pub fn write_table(out: &mut dyn Write, run: &EvalRun) -> io::Result<()> {
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
    let mut table = comfy_table::Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_header(header);
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
        table.add_row(row);
    }
    writeln!(out, "{table}")?;
    let last = run
        .models
        .last()
        .and_then(|m| Some((m.model.as_str(), m.results.last()?)));
    if let Some((model, (group, a))) = last {
        writeln!(
            out,
            "score distribution ({}, {} model; each █ is a share of its class):",
            printable_line(group),
            printable_line(model)
        )?;
        let total = |h: &Histogram| h.bins.iter().sum::<usize>().max(1);
        let (pos_total, neg_total) = (total(&a.positive_scores), total(&a.negative_scores));
        for bin in 0..10 {
            let bar = |count: usize, of: usize| "█".repeat((count * 40).div_ceil(of).min(40));
            writeln!(
                out,
                "  {:.1}-{:.1}  supported {:>6} {:<40}  unsupported {:>6} {}",
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
        writeln!(out, "bad record: {}", printable_line(line))?;
    }
    writeln!(
        out,
        "{} records read, {} bad{}",
        judging.records,
        bad.len(),
        if bad.len() > BAD_RECORDS_LISTED {
            " (the first 20 listed)"
        } else {
            ""
        }
    )
}
