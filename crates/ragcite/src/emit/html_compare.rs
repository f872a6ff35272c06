//! `compare --format html`: one self-contained HTML page of a comparison, in the look of the
//! batch report (its stylesheet, its Content-Security-Policy): the rates side by side, how the
//! records matched, the records that changed with their findings new and fixed, and those that
//! matched nothing. It is static: no script runs, nothing is fetched, and every text from the
//! inputs is escaped.

use std::io::{self, Write};

use super::html::{escape, head};
use super::json::CompareInputs;
use crate::compare::{Better, Comparison, MatchedBy, RecordChange, RecordRef, Side, SideFinding};
use crate::report::Verdict;

/// Writes the page.
pub fn write_html(
    inputs: &CompareInputs,
    comparison: &Comparison,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut page = head("ragcite comparison", "");
    page.push_str("<body>\n<main id=\"main\">\n<h1>ragcite comparison</h1>\n");
    page.push_str(&format!(
        "<p class=\"inputs\">A: <code>{}</code>; B: <code>{}</code>; {}.</p>\n",
        escape(&inputs.a),
        escape(&inputs.b),
        escape(&inputs.decided())
    ));
    let (passed, verdict) = match comparison.better {
        Better::B => (" data-passed=\"true\"", "B is better"),
        Better::A => (" data-passed=\"false\"", "B is worse"),
        Better::Tie => ("", "A and B tie"),
    };
    page.push_str(&format!(
        "<p id=\"better\" class=\"gate\"{passed}>{verdict}</p>\n<p id=\"summary\" class=\"summary\">{}</p>\n",
        escape(&comparison.summary_line())
    ));
    page.push_str(
        "<p class=\"limits\">Better means fewer problem sentences (claims that are not supported) per claim sentence over the matched records. ragcite measures lexical overlap, not entailment: a side that states fewer claims, or abstains more, can look better. Treat the verdicts as pointers for review.</p>\n",
    );
    rates(comparison, &mut page);
    matching(comparison, &mut page);
    changes(comparison, &mut page);
    page.push_str("</main>\n</body>\n</html>\n");
    out.write_all(page.as_bytes())
}

fn side_name(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::A) => "A",
        Some(Side::B) => "B",
        None => "–",
    }
}

use super::compare::{line_difference, points, rate_cell as percent};

/// A verdict's name as a badge, in its colour, or a plain name for what is no verdict.
fn badge(name: &str) -> String {
    if Verdict::ALL.iter().any(|v| v.name() == name) {
        format!(
            "<span class=\"verdict-badge verdict-{0}\">{0}</span>",
            escape(name)
        )
    } else {
        escape(&name.replace('-', " "))
    }
}

fn rates(comparison: &Comparison, page: &mut String) {
    let (a, b) = (&comparison.a, &comparison.b);
    let better = match comparison.better {
        Better::A => Some(Side::A),
        Better::B => Some(Side::B),
        Better::Tie => None,
    };
    page.push_str(
        "<h2>Rates</h2>\n<div class=\"table-wrap\">\n<table id=\"rates\">\n<caption>Shares of the claim sentences of the matched records</caption>\n<thead><tr><th scope=\"col\">Verdict</th><th scope=\"col\">A</th><th scope=\"col\">B</th><th scope=\"col\">B − A (points)</th><th scope=\"col\">Better</th></tr></thead>\n<tbody>\n",
    );
    let mut row = |name: String, a: String, b: String, difference: f64, side: Option<Side>| {
        page.push_str(&format!(
            "<tr><th scope=\"row\">{name}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(&a),
            escape(&b),
            points(difference),
            side_name(side)
        ));
    };
    row(
        "problem sentences".to_string(),
        percent(a.problem_rate, a.problems),
        percent(b.problem_rate, b.problems),
        b.problem_rate - a.problem_rate,
        better,
    );
    for rate in &comparison.rates {
        row(
            badge(rate.name),
            percent(rate.a_rate, rate.a),
            percent(rate.b_rate, rate.b),
            rate.difference,
            rate.better,
        );
    }
    if let Some((a, b, fewer)) = comparison.unchecked_row() {
        // A count of lines, not a share: its difference is in lines.
        page.push_str(&format!(
            "<tr id=\"unchecked\"><th scope=\"row\">lines not checked</th><td>{a}</td><td>{b}</td><td>{}</td><td>{}</td></tr>\n",
            line_difference(a, b),
            side_name(fewer)
        ));
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
}

/// How a record is named: its id (or position) and where it is.
fn record(r: &RecordRef) -> String {
    let id = r.id.clone().unwrap_or_else(|| format!("#{}", r.index));
    format!(
        "{}<span class=\"record-file\">{}:{}</span>",
        escape(&id),
        escape(&r.file),
        r.line
    )
}

fn matching(comparison: &Comparison, page: &mut String) {
    let m = &comparison.matching;
    page.push_str(&format!(
        "<h2>Matching</h2>\n<p id=\"matching\">{}</p>\n",
        escape(&comparison.matching_line())
    ));
    if m.only_in_a.is_empty() && m.only_in_b.is_empty() {
        return;
    }
    page.push_str(
        "<div class=\"table-wrap\">\n<table id=\"unmatched\">\n<caption>Records that matched nothing</caption>\n<thead><tr><th scope=\"col\">Only in</th><th scope=\"col\">Record</th><th scope=\"col\">Question or error</th></tr></thead>\n<tbody>\n",
    );
    for (side, records) in [("A", &m.only_in_a), ("B", &m.only_in_b)] {
        for r in records.iter() {
            let about = match (&r.error, &r.question) {
                (Some(error), _) => {
                    format!("<span class=\"error\">unreadable: {}</span>", escape(error))
                }
                (None, Some(question)) => escape(question),
                (None, None) => String::new(),
            };
            page.push_str(&format!(
                "<tr><td>{side}</td><td>{}</td><td>{about}</td></tr>\n",
                record(r)
            ));
        }
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
}

fn findings(what: &str, list: &[SideFinding]) -> String {
    if list.is_empty() {
        return String::new();
    }
    let items: String = list
        .iter()
        .map(|f| {
            let at = match (f.sentence, f.citation) {
                (Some(sentence), _) => format!("sentence {sentence}"),
                (None, Some(citation)) => format!("citation {citation}"),
                (None, None) => "record".to_string(),
            };
            format!(
                "<li>{} <span class=\"kind\">{at}</span> {}</li>",
                badge(f.rule),
                escape(&f.text)
            )
        })
        .collect();
    format!("<p class=\"missing-label\">{what}</p><ul class=\"chunk-list\">{items}</ul>")
}

fn changes(comparison: &Comparison, page: &mut String) {
    let changed: Vec<&RecordChange> = comparison.records.iter().filter(|r| r.changed()).collect();
    page.push_str("<h2>Records that changed</h2>\n");
    if changed.is_empty() {
        page.push_str("<p>No matched record changed.</p>\n");
        return;
    }
    page.push_str(
        "<div class=\"table-wrap\">\n<table id=\"changes\">\n<caption>Matched records whose verdicts or findings differ</caption>\n<thead><tr><th scope=\"col\">A</th><th scope=\"col\">B</th><th scope=\"col\">Matched by</th><th scope=\"col\">Verdicts A → B</th><th scope=\"col\">Findings</th></tr></thead>\n<tbody>\n",
    );
    for change in changed {
        let by = match change.matched_by {
            MatchedBy::Id => "id",
            MatchedBy::Question => "question",
            MatchedBy::Position => "position",
        };
        let verdicts: Vec<String> = change
            .verdicts
            .iter()
            .map(|v| format!("{} {} → {}", badge(v.verdict.name()), v.a, v.b))
            .collect();
        let mut found = findings(&format!("{} new", change.new.len()), &change.new);
        found.push_str(&findings(
            &format!("{} fixed", change.fixed.len()),
            &change.fixed,
        ));
        page.push_str(&format!(
            "<tr class=\"record\"><td>{}</td><td>{}</td><td>{by}</td><td>{}</td><td>{found}</td></tr>\n",
            record(&change.a),
            record(&change.b),
            verdicts.join("<br>")
        ));
    }
    page.push_str("</tbody>\n</table>\n</div>\n");
}
