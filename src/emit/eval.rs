//! What `ragcite eval` writes: the agreement of each group as a table with the score
//! distribution, or as one JSON document.

use std::io::{self, Write};

use crate::eval::{Agreement, FlagPrecision, Histogram, Judging};

/// Bad records listed under the table; the count says how many there were in all.
const BAD_RECORDS_LISTED: usize = 20;

/// One eval run: what was read, how, and the agreement of each group.
#[derive(Debug, Clone, Copy)]
pub struct EvalRun<'a> {
    pub files: &'a [String],
    pub threshold: f64,
    pub lang: &'a str,
    pub lenient: bool,
    pub group_by: &'a str,
    pub judging: &'a Judging,
    /// Each group's agreement, then `(all)` when there are several.
    pub results: &'a [(String, Agreement)],
}

/// The run as one pretty-printed JSON document.
pub fn write_json(out: &mut dyn Write, run: &EvalRun) -> io::Result<()> {
    let groups: Vec<serde_json::Value> = run
        .results
        .iter()
        .map(|(group, a)| serde_json::json!({"group": group, "agreement": a}))
        .collect();
    let document = serde_json::json!({
        "schemaVersion": super::json::SCHEMA_VERSION,
        "tool": {"name": "ragcite", "version": env!("CARGO_PKG_VERSION")},
        "inputs": {
            "files": run.files,
            "threshold": run.threshold,
            "lang": run.lang,
            "lenient": run.lenient,
            "groupBy": run.group_by,
        },
        "records": run.judging.records,
        "badRecords": run.judging.bad,
        "groups": groups,
    });
    serde_json::to_writer_pretty(&mut *out, &document)?;
    writeln!(out)
}

/// The run as a table, the score distribution of the last group, and the bad records.
pub fn write_table(out: &mut dyn Write, run: &EvalRun) -> io::Result<()> {
    let mut table = comfy_table::Table::new();
    table
        .load_style(comfy_table::presets::UTF8_FULL_CONDENSED)
        .set_header([
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
            "best t (macro-F1)",
        ]);
    let precision = |f: &FlagPrecision| match f.precision {
        Some(p) => format!("{p:.3} ({})", f.flagged),
        None => "-".to_string(),
    };
    for (group, a) in run.results {
        let c = a.confusion;
        table.add_row([
            group.clone(),
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
            format!("{:.2} ({:.3})", a.best_threshold, a.best_macro_f1),
        ]);
    }
    writeln!(out, "{table}")?;
    if let Some((group, a)) = run.results.last() {
        writeln!(
            out,
            "score distribution ({group}; each █ is a share of its class):"
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
    let bad = &run.judging.bad;
    for line in bad.iter().take(BAD_RECORDS_LISTED) {
        writeln!(out, "bad record: {line}")?;
    }
    writeln!(
        out,
        "{} records read, {} bad{}",
        run.judging.records,
        bad.len(),
        if bad.len() > BAD_RECORDS_LISTED {
            " (the first 20 listed)"
        } else {
            ""
        }
    )
}
