//! The default output: a table of sentences, a table of chunks, the warnings and a one-line
//! summary. Colour only underlines what the words already say.
//!
//! Every cell's text is cut to a bounded length and made printable before layout (see
//! `Entry` and `crate::escape::printable`), so that a table costs the same whatever the
//! input; colour is a property of the cell that comfy-table applies to each line after layout,
//! so it is never measured as text, never cut by wrapping and never escaped.
//!
//! Layout. Each column says how it may give up width (see `Fit`): our own words and numbers
//! never wrap, ids and lists wrap between items, the sentence and the preview are cut with `…`,
//! free text wraps at spaces. `layout` leaves out columns, free text first, until the rest fits
//! the width at their narrowest, then shares what is left. The widths are decided here, not by
//! comfy-table's dynamic arrangement, because cutting a sentence with `…` and packing whole
//! items into lines need the column's width before the cell is made.

use std::io::{self, Write};

use comfy_table::{
    Attribute, Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets,
};
use owo_colors::OwoColorize;

use super::{BatchEmitter, BatchEnd, BatchInputs, Emitter, Run, batch_summary_line, summary_line};
use crate::batch::RecordOutcome;
use crate::batch::identity::At;
use crate::escape::{cut, printable, printable_line};
use crate::report::{
    ChunkStatus, CitationFinding, Contradiction, QuoteCheck, SentenceResult, Verdict, plural,
    preview,
};

/// Missing words shown per sentence before the rest are counted.
const MISSING_WORDS_SHOWN: usize = 8;

/// What a cell may hold, whatever the input: laying out a cell costs more than its length (a
/// long unbreakable word is split again for each line), so every text is cut before layout.
///
/// Longest text of a cell, in characters (a sentence, what is wrong, a bad record's reason).
const CELL_CHARS: usize = 2_000;
/// Longest id or item of a list (a chunk id, a record id, a file name), in characters.
const ITEM_CHARS: usize = 200;
/// Longest word, number or marker quoted by `what is wrong`, in characters.
const WORD_CHARS: usize = 40;
/// Items of a list shown before the rest are counted (cited ids, unknown markers, missing
/// numbers).
const LIST_SHOWN: usize = 20;

/// At most [`LIST_SHOWN`] items, each cut to `chars`, and how many more there were.
fn shown<S: AsRef<str>>(items: &[S], chars: usize) -> (Vec<String>, usize) {
    let shown = items
        .iter()
        .take(LIST_SHOWN)
        .map(|item| cut(item.as_ref(), chars).into_owned())
        .collect();
    (shown, items.len().saturating_sub(LIST_SHOWN))
}

/// Items joined by `, `, each cut to [`WORD_CHARS`], at most `most` of them and then
/// ` (+N more)`.
fn word_list<S: AsRef<str>>(items: &[S], most: usize) -> String {
    let (words, _) = shown(&items[..items.len().min(most)], WORD_CHARS);
    let more = items.len().saturating_sub(most);
    let mut line = words.join(", ");
    if more > 0 {
        line.push_str(&format!(" (+{more} more)"));
    }
    line
}

/// How a column gives up width when the table is narrow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fit {
    /// Our own words and numbers (`verdict`, `status`, `cov`): as wide as the widest cell,
    /// never wrapped.
    Word,
    /// Our own short items (verdict counts, limits, sentence numbers), joined by `, `: lines
    /// break between items, never inside one.
    Items,
    /// Ids from the inputs, joined by `, `: whole while there is room, then split, because an
    /// id (a URL, a UUID) can be wider than any column could be.
    Ids,
    /// One line of text from the inputs, cut with `…` to the column's width, within these
    /// bounds (`sentence`, `preview`).
    Cut { least: usize, most: usize },
    /// Free text, wrapped at spaces; at least this wide when shown (`what is wrong`).
    Wrap { least: usize },
}

/// Ids are split across lines before their column is narrower than this.
const IDS_LEAST: usize = 12;

/// A column: its header and how it fits.
#[derive(Debug, Clone, Copy)]
pub(super) struct Column {
    header: &'static str,
    fit: Fit,
}

pub(super) const fn column(header: &'static str, fit: Fit) -> Column {
    Column { header, fit }
}

/// The sentence table. The sentence goes first when room is short, then what is wrong, then
/// the position and the scores; `#`, `verdict` and `cited` always stay.
const SENTENCE_COLUMNS: [Column; 8] = [
    column("#", Fit::Word),
    column("at", Fit::Word),
    column("verdict", Fit::Word),
    column("cov", Fit::Word),
    column("sup", Fit::Word),
    column("cited", Fit::Ids),
    column("sentence", Fit::Wrap { least: 30 }),
    column("what is wrong", Fit::Wrap { least: 20 }),
];
const SENTENCE_DROPS: [usize; 5] = [6, 7, 1, 3, 4];

/// The chunk table. The preview goes first, then the numbers from the right; the id, the
/// status and how often it is cited always stay.
const CHUNK_COLUMNS: [Column; 6] = [
    column("chunk", Fit::Ids),
    column("status", Fit::Word),
    column("cited", Fit::Word),
    column("supports", Fit::Word),
    column("best", Fit::Word),
    column(
        "preview",
        Fit::Cut {
            least: 20,
            most: 120,
        },
    ),
];
const CHUNK_DROPS: [usize; 4] = [5, 4, 3, 2];

/// The citation table. The cited text goes first, then the source label (the chunk id names
/// the same chunk), then the sentences.
const CITATION_COLUMNS: [Column; 5] = [
    column("citation", Fit::Word),
    column("source", Fit::Ids),
    column("chunk", Fit::Ids),
    column("sentences", Fit::Items),
    column("cited text", Fit::Wrap { least: 16 }),
];
const CITATION_DROPS: [usize; 3] = [4, 1, 3];

/// The batch table. The first problem goes first, then the limits exceeded; the record, its
/// line and its verdicts always stay. The line is `<file>:<line>` when several files are read,
/// and a file's path can be long: it is split like an id.
const BATCH_COLUMNS: [Column; 5] = [
    column("record", Fit::Ids),
    column("line", Fit::Ids),
    column("verdicts", Fit::Items),
    column("limits exceeded", Fit::Items),
    column("first problem", Fit::Wrap { least: 30 }),
];
const BATCH_DROPS: [usize; 2] = [4, 3];

/// How a cell is coloured, when colour is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Paint {
    Plain,
    Fg(Color),
    Dim,
}

/// A cell before layout: its items (one for text; the ids or items of a list) made printable,
/// and its colour.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    items: Vec<String>,
    paint: Paint,
}

impl Entry {
    /// One text, cut to [`CELL_CHARS`].
    pub(super) fn text(text: &str) -> Self {
        Entry {
            items: vec![printable(&cut(text, CELL_CHARS)).into_owned()],
            paint: Paint::Plain,
        }
    }

    /// A list of ids or items, `-` when there is none: at most [`LIST_SHOWN`] of them, each
    /// cut to [`ITEM_CHARS`], the last followed by `(+N more)` when there were more.
    pub(super) fn list<S: AsRef<str>>(items: &[S]) -> Self {
        if items.is_empty() {
            return Entry::text("-");
        }
        let (mut items, more) = shown(items, ITEM_CHARS);
        if more > 0
            && let Some(last) = items.last_mut()
        {
            last.push_str(&format!(" (+{more} more)"));
        }
        Entry {
            items: items
                .iter()
                .map(|item| printable(item).into_owned())
                .collect(),
            paint: Paint::Plain,
        }
    }

    pub(super) fn painted(mut self, paint: Paint) -> Self {
        self.paint = paint;
        self
    }

    /// The items with the `,` that joins them: where a list may break.
    fn pieces(&self) -> impl Iterator<Item = String> + '_ {
        let last = self.items.len().saturating_sub(1);
        self.items.iter().enumerate().map(move |(k, item)| {
            if k < last {
                format!("{item},")
            } else {
                item.clone()
            }
        })
    }

    /// The cell's text for a column of this fit and content width.
    fn content(&self, fit: Fit, width: usize) -> String {
        match fit {
            Fit::Word | Fit::Wrap { .. } => self.items.join("\n"),
            Fit::Cut { .. } => preview(&self.items.join(" "), width),
            Fit::Items | Fit::Ids => pack(self.pieces(), width),
        }
    }

    /// The comfy-table cell of this entry's laid-out text, with its colour.
    fn cell(&self, text: String) -> Cell {
        let cell = Cell::new(text);
        match self.paint {
            Paint::Plain => cell,
            Paint::Fg(color) => cell.fg(color),
            Paint::Dim => cell.add_attribute(Attribute::Dim),
        }
    }
}

/// Width of text in columns: its longest line, in characters.
fn width_of(text: &str) -> usize {
    text.lines()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0)
}

/// Pieces joined by spaces, a new line started when the next piece does not fit `width`.
fn pack(pieces: impl Iterator<Item = String>, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for piece in pieces {
        let n = width_of(&piece);
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(&piece);
        line += n;
    }
    out
}

/// What a column needs, in characters of content: `least` to be shown at all, `whole` to
/// split nothing, `want` to show everything without wrapping; `text` for free text, which
/// fills every character it is given, where a list fills only the lines of whole items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Need {
    least: usize,
    whole: usize,
    want: usize,
    text: bool,
}

impl Need {
    fn of(column: &Column, entries: &[&Entry]) -> Need {
        let header = width_of(column.header);
        let widest = |f: &dyn Fn(&Entry) -> usize| {
            entries.iter().map(|e| f(e)).max().unwrap_or(0).max(header)
        };
        let lines = |e: &Entry| width_of(&e.items.join("\n"));
        let piece = |e: &Entry| e.pieces().map(|p| width_of(&p)).max().unwrap_or(0);
        let joined = |e: &Entry| width_of(&e.pieces().collect::<Vec<_>>().join(" "));
        let (least, whole, want) = match column.fit {
            Fit::Word => {
                let w = widest(&lines);
                (w, w, w)
            }
            Fit::Items => {
                let w = widest(&piece);
                (w, w, widest(&joined))
            }
            Fit::Ids => {
                let whole = widest(&piece);
                (whole.min(IDS_LEAST.max(header)), whole, widest(&joined))
            }
            Fit::Cut { least, most } => {
                let want = widest(&|e: &Entry| preview(&e.items.join(" "), most).chars().count());
                let least = least.min(want).max(header);
                (least, least, want)
            }
            Fit::Wrap { least } => {
                let want = widest(&lines);
                let least = least.min(want).max(header);
                (least, least, want)
            }
        };
        Need {
            least,
            whole: whole.max(least),
            want: want.max(whole).max(least),
            text: matches!(column.fit, Fit::Cut { .. } | Fit::Wrap { .. }),
        }
    }
}

/// Characters of a row that are no content: a border before each column and one at the end,
/// and a space of padding on each side of each column.
fn frame(columns: usize) -> usize {
    3 * columns + 1
}

/// The width of a table that shows the columns `shown`, column `i` at `widths[i]`.
pub(super) fn table_width(widths: &[usize], shown: &[bool]) -> usize {
    let columns = shown.iter().filter(|s| **s).count();
    let content: usize = widths
        .iter()
        .zip(shown)
        .filter(|(_, s)| **s)
        .map(|(w, _)| w)
        .sum();
    frame(columns) + content
}

/// Which columns a table at most `width` wide shows, column `i` at least `least[i]` wide: the
/// columns of `drops` are left out, in that order, while those shown do not fit.
pub(super) fn columns_shown(
    least: &[usize],
    drops: impl IntoIterator<Item = usize>,
    width: usize,
) -> Vec<bool> {
    let mut shown = vec![true; least.len()];
    for drop in drops {
        if table_width(least, &shown) <= width {
            break;
        }
        shown[drop] = false;
    }
    shown
}

/// Content widths of the columns for a table at most `width` wide, `None` for the columns left
/// out. While the columns shown, each at its least, do not fit, the next column of `drops` is
/// left out. What is left is shared evenly, first so that no id is split, then so that fewer
/// lines wrap. `used(i, w)` is the width column `i` fills when given `w`: a list given room for
/// part of an item keeps only what its lines fill, and the free text gets the rest. A column
/// never gets more than it wants, so a table with little in it is narrower than the width.
fn layout(
    width: usize,
    needs: &[Need],
    drops: &[usize],
    used: &dyn Fn(usize, usize) -> usize,
) -> Vec<Option<usize>> {
    let least: Vec<usize> = needs.iter().map(|n| n.least).collect();
    let shown = columns_shown(&least, drops.iter().copied(), width);
    let mut spare = width.saturating_sub(table_width(&least, &shown));
    let mut widths: Vec<Option<usize>> = needs
        .iter()
        .zip(&shown)
        .map(|(n, s)| s.then_some(n.least))
        .collect();
    grow(&mut widths, needs, &mut spare, &|n| n.whole);
    grow(&mut widths, needs, &mut spare, &|n| n.want);
    let mut freed = 0;
    for (i, width) in widths.iter_mut().enumerate() {
        if let Some(w) = width
            && !needs[i].text
        {
            let kept = used(i, *w).clamp(needs[i].least, *w);
            freed += *w - kept;
            *w = kept;
        }
    }
    spare += freed;
    grow(&mut widths, needs, &mut spare, &|n| {
        if n.text { n.want } else { 0 }
    });
    widths
}

/// Gives `spare` to the columns shown below their `target`, evenly, until they reach it or it
/// runs out.
fn grow(
    widths: &mut [Option<usize>],
    needs: &[Need],
    spare: &mut usize,
    target: &dyn Fn(&Need) -> usize,
) {
    loop {
        let open: Vec<usize> = (0..needs.len())
            .filter(|&i| widths[i].is_some_and(|w| w < target(&needs[i])))
            .collect();
        if open.is_empty() || *spare == 0 {
            return;
        }
        let share = (*spare / open.len()).max(1);
        for i in open {
            let Some(w) = widths[i].as_mut() else {
                continue;
            };
            let give = share.min(target(&needs[i]) - *w).min(*spare);
            *w += give;
            *spare -= give;
        }
    }
}

/// Writes the human-readable tables.
#[derive(Debug, Clone, Copy)]
pub struct TableEmitter {
    /// Whether to colour verdicts, statuses and the summary.
    pub color: bool,
    /// Width of the terminal (or of the output) in columns.
    pub width: u16,
}

impl TableEmitter {
    pub(super) fn verdict(verdict: Verdict) -> Entry {
        Entry::text(verdict.name()).painted(match verdict {
            Verdict::Supported => Paint::Fg(Color::DarkGreen),
            Verdict::NumberMismatch
            | Verdict::UnsupportedCitation
            | Verdict::Misquote
            | Verdict::Contradicted => Paint::Fg(Color::DarkRed),
            Verdict::WeakSupport => Paint::Fg(Color::DarkYellow),
            Verdict::UncitedClaim => Paint::Fg(Color::DarkMagenta),
            Verdict::NoClaim => Paint::Dim,
        })
    }

    fn status(status: ChunkStatus) -> Entry {
        Entry::text(status.name()).painted(match status {
            ChunkStatus::Used => Paint::Fg(Color::DarkGreen),
            ChunkStatus::CitedButNotSupporting => Paint::Fg(Color::DarkRed),
            ChunkStatus::RelevantButUncited => Paint::Fg(Color::DarkYellow),
            ChunkStatus::Unused => Paint::Dim,
        })
    }

    /// Whether a table of these columns and rows shows every column at the width, each at
    /// least as wide as it needs to be shown.
    pub(super) fn fits<R: AsRef<[Entry]>>(&self, columns: &[Column], rows: &[R]) -> bool {
        let least: usize = columns
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let entries: Vec<&Entry> = rows.iter().map(|row| &row.as_ref()[i]).collect();
                Need::of(column, &entries).least
            })
            .sum();
        frame(columns.len()) + least <= usize::from(self.width)
    }

    /// A table of these columns and rows, laid out for the width (see [`layout`]).
    pub(super) fn table<R: AsRef<[Entry]>>(
        &self,
        columns: &[Column],
        drops: &[usize],
        rows: &[R],
    ) -> Table {
        let needs: Vec<Need> = columns
            .iter()
            .enumerate()
            .map(|(i, column)| {
                let entries: Vec<&Entry> = rows.iter().map(|row| &row.as_ref()[i]).collect();
                Need::of(column, &entries)
            })
            .collect();
        let used = |i: usize, width: usize| {
            rows.iter()
                .map(|row| width_of(&row.as_ref()[i].content(columns[i].fit, width)))
                .max()
                .unwrap_or(0)
                .max(width_of(columns[i].header))
        };
        let widths = layout(usize::from(self.width), &needs, drops, &used);
        let contents: Vec<Vec<String>> = rows
            .iter()
            .map(|row| {
                row.as_ref()
                    .iter()
                    .zip(columns)
                    .zip(&widths)
                    .map(|((entry, column), width)| match width {
                        Some(width) => entry.content(column.fit, *width),
                        None => String::new(),
                    })
                    .collect()
            })
            .collect();
        let mut table = Table::new();
        table
            .load_style(presets::UTF8_FULL_CONDENSED)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_width(self.width);
        // Whether stdout is a terminal was decided with --color; comfy-table must not decide
        // again.
        if self.color {
            table.force_no_tty().enforce_styling().style_text_only();
        } else {
            table.force_no_tty();
        }
        table.set_header(columns.iter().map(|c| c.header));
        for (row, content) in rows.iter().zip(contents) {
            table.add_row(
                row.as_ref()
                    .iter()
                    .zip(content)
                    .map(|(entry, text)| entry.cell(text)),
            );
        }
        table.set_constraints(widths.iter().map(|width| match width {
            // The absolute width counts the padding.
            Some(width) => ColumnConstraint::Absolute(Width::Fixed(
                u16::try_from(width + 2).unwrap_or(u16::MAX),
            )),
            None => ColumnConstraint::Hidden,
        }));
        table
    }
}

/// What is wrong with a sentence, one item a line.
fn problems(s: &SentenceResult) -> String {
    let mut lines = Vec::new();
    if let Some(kind) = s.kind {
        lines.push(not_a_claim(kind, s.kind_cue.as_deref()));
    }
    if !s.unknown_markers.is_empty() {
        lines.push(format!(
            "unknown markers: {}",
            word_list(&s.unknown_markers, LIST_SHOWN)
        ));
    }
    if s.verdict == Verdict::Contradicted
        && let Some(contradiction) = &s.contradiction
    {
        lines.push(contradiction_line(contradiction));
    }
    for quote in s.quotes.iter().filter(|q| !q.found()) {
        lines.push(misquote_line(quote));
    }
    if !s.missing_numbers.is_empty() {
        lines.push(format!(
            "missing numbers: {}",
            word_list(&s.missing_numbers, LIST_SHOWN)
        ));
    }
    if let Some(first) = s.derived.first() {
        lines.push(format!("derived: {}", cut(&first.how, ITEM_CHARS)));
    }
    let shows_words = matches!(
        s.verdict,
        Verdict::UnsupportedCitation | Verdict::WeakSupport | Verdict::NumberMismatch
    );
    if shows_words && !s.missing_words.is_empty() {
        lines.push(format!(
            "missing words: {}",
            word_list(&s.missing_words, MISSING_WORDS_SHOWN)
        ));
    }
    if let Some(chunk) = &s.suggested_citation {
        lines.push(format!(
            "suggested citation: {} (coverage {:.2})",
            cut(chunk, ITEM_CHARS),
            s.best_coverage
        ));
    }
    lines.extend(citation_lines(s));
    lines.join("\n")
}

/// Why a `no-claim` sentence is not checked, as `explain` says it: `not a claim: pleasantry
/// ("Let me know")`; the cue is cut, as a sentence may be long.
pub(crate) fn not_a_claim(kind: crate::claim::Kind, cue: Option<&str>) -> String {
    match cue {
        Some(cue) => format!(
            "not a claim: {} (\"{}\")",
            kind.name(),
            cut(cue, WORD_CHARS)
        ),
        None => format!("not a claim: {}", kind.name()),
    }
}

/// Most abstentions the summary quotes, and the characters of each.
const ABSTENTIONS_SHOWN: usize = 5;
const ABSTENTION_CHARS: usize = 60;

/// `abstains on: "The provided documents do not say how…"; "…"`: the sentences where the
/// answer declines, shortened and escaped for one terminal line; `None` when there are none.
pub(crate) fn abstains_line(sentences: &[SentenceResult]) -> Option<String> {
    let abstentions: Vec<&SentenceResult> = sentences
        .iter()
        .filter(|s| s.kind == Some(crate::claim::Kind::Abstention))
        .collect();
    if abstentions.is_empty() {
        return None;
    }
    let mut quoted: Vec<String> = abstentions
        .iter()
        .take(ABSTENTIONS_SHOWN)
        .map(|s| {
            format!(
                "\"{}\"",
                printable_line(&preview(&s.sentence, ABSTENTION_CHARS))
            )
        })
        .collect();
    if abstentions.len() > ABSTENTIONS_SHOWN {
        quoted.push(format!(
            "… ({} more)",
            abstentions.len() - ABSTENTIONS_SHOWN
        ));
    }
    Some(format!("abstains on: {}", quoted.join("; ")))
}

/// Which of several cited chunks decided, and the citations that add nothing: `decided by 2`,
/// `adds nothing: 5`. A sentence citing one chunk needs neither; a contradicted one names its
/// chunk already.
fn citation_lines(s: &SentenceResult) -> Vec<String> {
    let mut lines = Vec::new();
    if !s.verdict.is_claim() || s.cited.len() < 2 {
        return lines;
    }
    if s.verdict != Verdict::Contradicted
        && let Some(chunk) = &s.deciding_chunk
    {
        lines.push(format!("decided by {}", cut(chunk, ITEM_CHARS)));
    }
    let idle: Vec<&str> = s
        .cited_chunks
        .iter()
        .filter(|c| c.finding == CitationFinding::AddsNothing)
        .map(|c| c.chunk.as_str())
        .collect();
    // When every citation adds nothing, the verdict says so already.
    if !idle.is_empty() && idle.len() < s.cited_chunks.len() {
        lines.push(format!("adds nothing: {}", word_list(&idle, LIST_SHOWN)));
    }
    lines
}

/// Characters of the chunk's passage shown before the contradicting words.
const BEFORE_CHARS: usize = 30;
/// Characters of the chunk's passage shown after them.
const AFTER_CHARS: usize = 50;

/// What a contradicting chunk says, its words marked in the passage around them:
/// `chunk 2: Empagliflozin *did not significantly reduce* all-cause mortality in the trial.`
fn contradiction_line(c: &Contradiction) -> String {
    let chunk = cut(&c.chunk, ITEM_CHARS);
    let (before, words, after) = marked(c);
    format!("chunk {chunk}: {before}*{words}*{after}")
}

/// The passage split around the contradicting words, each side cut at a space to a few words
/// (`…` where cut); the words alone, with `says` before them, when the passage does not hold
/// them as written.
pub(crate) fn marked(c: &Contradiction) -> (String, String, String) {
    let words = preview(&c.chunk_words, QUOTE_CHARS);
    let passage = preview(&c.passage, 2 * CELL_CHARS);
    let at = passage.find(&words).or_else(|| {
        passage
            .to_ascii_lowercase()
            .find(&words.to_ascii_lowercase())
    });
    let Some(at) = at.filter(|_| !words.is_empty()) else {
        let rest = preview(&passage, BEFORE_CHARS + AFTER_CHARS);
        let after = if rest.is_empty() {
            String::new()
        } else {
            format!(" in “{rest}”")
        };
        return ("says ".to_string(), words, after);
    };
    let end = at + words.len();
    let head = &passage[..at];
    let before = if head.chars().count() > BEFORE_CHARS {
        let skip = head.chars().count() - BEFORE_CHARS;
        let tail: String = head.chars().skip(skip).collect();
        // From the first whole word.
        let tail = tail.split_once(' ').map_or("", |(_, rest)| rest);
        format!("…{tail}")
    } else {
        head.to_string()
    };
    let after = preview(&passage[end..], AFTER_CHARS);
    // `preview` drops the space that starts the rest.
    let after = if passage[end..].starts_with(' ') {
        format!(" {after}")
    } else {
        after
    };
    (before, passage[at..end].to_string(), after)
}

/// Longest quotation or passage shown, in characters.
const QUOTE_CHARS: usize = 60;

/// A quotation not found: where it was looked for and the closest passage.
fn misquote_line(quote: &QuoteCheck) -> String {
    let mut line = format!("misquote: “{}”", preview(&quote.text, QUOTE_CHARS));
    if let Some(chunk) = &quote.chunk {
        line.push_str(&format!(" not in chunk {}", cut(chunk, ITEM_CHARS)));
    }
    if let Some(closest) = &quote.result.closest {
        line.push_str(&format!(
            "; closest ({:.2}, {} {}): “{}”",
            closest.similarity,
            closest.differing_words,
            plural(closest.differing_words, "word differs", "words differ"),
            preview(&closest.text, QUOTE_CHARS)
        ));
    }
    line
}

impl Emitter for TableEmitter {
    fn emit(&self, run: &Run<'_>, out: &mut dyn Write) -> io::Result<()> {
        let result = &run.report.result;
        let sentences: Vec<Vec<Entry>> = result
            .sentences
            .iter()
            .map(|s| {
                let scored = s.verdict.is_claim() && !s.cited.is_empty();
                let score = |value: f64| {
                    Entry::text(&if scored {
                        format!("{value:.2}")
                    } else {
                        "-".to_string()
                    })
                };
                vec![
                    Entry::text(&s.index.to_string()),
                    Entry::text(&format!("{}:{}", s.start.line, s.start.column)),
                    Self::verdict(s.verdict),
                    score(s.coverage),
                    score(s.support),
                    Entry::list(&s.cited),
                    Entry::text(&s.sentence),
                    Entry::text(&problems(s)),
                ]
            })
            .collect();
        if self.fits(&SENTENCE_COLUMNS, &sentences) {
            let table = self.table(&SENTENCE_COLUMNS, &SENTENCE_DROPS, &sentences);
            writeln!(out, "{table}")?;
        } else {
            blocks::write_blocks(out, &result.sentences, usize::from(self.width), self.color)?;
            writeln!(out)?;
        }

        if !result.chunks.is_empty() {
            let chunks: Vec<Vec<Entry>> = result
                .chunks
                .iter()
                .map(|c| {
                    vec![
                        Entry::list(std::slice::from_ref(&c.id)),
                        Self::status(c.status),
                        Entry::text(&c.times_cited.to_string()),
                        Entry::text(&c.supported_sentences.to_string()),
                        Entry::text(&format!("{:.2}", c.best_coverage)),
                        Entry::text(&c.preview),
                    ]
                })
                .collect();
            let table = self.table(&CHUNK_COLUMNS, &CHUNK_DROPS, &chunks);
            writeln!(out, "{table}")?;
        }

        if !result.citations.is_empty() {
            let citations: Vec<Vec<Entry>> = result
                .citations
                .iter()
                .map(|c| {
                    let quote = match &c.quote {
                        None => "-".to_string(),
                        Some(q) if q.found() => {
                            format!("found: “{}”", preview(&q.text, QUOTE_CHARS))
                        }
                        Some(q) => misquote_line(q),
                    };
                    let sentences: Vec<String> = c.sentences.iter().map(usize::to_string).collect();
                    vec![
                        Entry::text(&c.index.to_string()),
                        Entry::list(std::slice::from_ref(&c.source)),
                        Entry::list(c.chunk.as_slice()),
                        Entry::list(&sentences),
                        Entry::text(&quote),
                    ]
                })
                .collect();
            let table = self.table(&CITATION_COLUMNS, &CITATION_DROPS, &citations);
            writeln!(out, "{table}")?;
        }

        write_footer(out, run, self.color)
    }
}

/// What every human output of a check ends with: the sentences the answer abstains on, the
/// warnings, and the one-line summary, `PASS`/`FAIL` coloured when `color`.
pub(crate) fn write_footer(out: &mut dyn Write, run: &Run<'_>, color: bool) -> io::Result<()> {
    if let Some(line) = abstains_line(&run.report.result.sentences) {
        writeln!(out, "{line}")?;
    }
    for warning in &run.report.warnings {
        let label = if color {
            "warning".yellow().bold().to_string()
        } else {
            "warning".to_string()
        };
        writeln!(out, "{label}: {}", printable(warning))?;
    }
    writeln!(out, "{}", run.inputs.decided())?;
    write_summary(
        out,
        &summary_line(run.report, run.gate),
        run.gate.passed,
        color,
    )
}

/// A summary line (`PASS · …` or `FAIL · …`), its first word green or red when `color`.
fn write_summary(out: &mut dyn Write, summary: &str, passed: bool, color: bool) -> io::Result<()> {
    if !color {
        return writeln!(out, "{summary}");
    }
    let (verdict, rest) = summary.split_at(4);
    let verdict = if passed {
        verdict.green().bold().to_string()
    } else {
        verdict.red().bold().to_string()
    };
    writeln!(out, "{verdict}{rest}")
}

/// Longest first problem's sentence shown by the batch table, in characters.
const FIRST_CHARS: usize = 200;

/// Records listed by the batch table unless `--all` is given.
pub const BATCH_ROWS: usize = 20;

/// A row of the batch table, kept until the end.
#[derive(Debug, Clone)]
struct RecordRow {
    /// How bad the record is: unreadable first, then by the number of problems.
    badness: (bool, usize),
    index: usize,
    cells: Vec<Entry>,
}

/// The batch table: the failing and unreadable records, worst first (at most
/// [`BATCH_ROWS`], or every record with `all`), then the summary line.
#[derive(Debug)]
pub struct BatchTableEmitter {
    pub style: TableEmitter,
    pub all: bool,
    rows: Vec<RecordRow>,
    /// Whether several files are read: rows then name the file with the line.
    several_files: bool,
    /// What decided the verdicts (see [`super::decided_line`]), written above the summary.
    decided: String,
}

impl BatchTableEmitter {
    pub fn new(style: TableEmitter, all: bool) -> Self {
        BatchTableEmitter {
            style,
            all,
            rows: Vec::new(),
            several_files: false,
            decided: String::new(),
        }
    }

    fn row(&self, record: &RecordOutcome) -> Option<RecordRow> {
        let line = if self.several_files {
            // The file name is cut so that the line number stays.
            let file = cut(&record.file, ITEM_CHARS - 21);
            format!("{file}:{}", record.line)
        } else {
            record.line.to_string()
        };
        match &record.result {
            Err(message) => Some(RecordRow {
                badness: (true, 0),
                index: record.index,
                cells: vec![
                    Entry::text("-"),
                    Entry::list(&[line]),
                    Entry::text("bad record").painted(Paint::Fg(Color::DarkRed)),
                    Entry::text(""),
                    Entry::text(message),
                ],
            }),
            Ok(checked) if self.all || !checked.gate.passed => {
                let counts = &checked.report.result.counts;
                let verdicts: Vec<String> = Verdict::ALL
                    .iter()
                    .filter(|v| !matches!(v, Verdict::Supported | Verdict::NoClaim))
                    .filter(|v| counts.of_verdict(**v) > 0)
                    .map(|v| format!("{} {}", counts.of_verdict(*v), v.name()))
                    .collect();
                let problems = counts.claims - counts.supported + counts.unknown_markers;
                let sentences = &checked.report.result.sentences;
                // With a baseline, the first new finding: what the gate failed on.
                let first_new = record.findings.iter().find(|f| f.new == Some(true));
                let first = match first_new {
                    Some(found) => match found.at {
                        At::Sentence(index) => sentences
                            .iter()
                            .find(|s| s.index == index)
                            .map(|s| {
                                format!("new {}: {}", found.rule, preview(&s.sentence, FIRST_CHARS))
                            })
                            .unwrap_or_default(),
                        At::Citation(index) => format!("new {}: citation {index}", found.rule),
                        At::Record => String::new(),
                    },
                    None => sentences
                        .iter()
                        .find(|s| s.verdict.is_claim() && s.verdict != Verdict::Supported)
                        .map(|s| format!("{}: {}", s.verdict, preview(&s.sentence, FIRST_CHARS)))
                        .unwrap_or_default(),
                };
                let limits: Vec<String> = checked
                    .gate
                    .failures
                    .iter()
                    .map(|f| format!("--{} (+{})", f.limit, f.over))
                    .collect();
                Some(RecordRow {
                    badness: (false, problems),
                    index: record.index,
                    cells: vec![
                        Entry::list(std::slice::from_ref(&checked.id)),
                        Entry::list(&[line]),
                        if verdicts.is_empty() {
                            Entry::text("passed").painted(Paint::Fg(Color::DarkGreen))
                        } else {
                            Entry::list(&verdicts)
                        },
                        if limits.is_empty() {
                            Entry::text("")
                        } else {
                            Entry::list(&limits)
                        },
                        Entry::text(&first),
                    ],
                })
            }
            Ok(_) => None,
        }
    }
}

impl BatchEmitter for BatchTableEmitter {
    fn begin(&mut self, inputs: &BatchInputs, _out: &mut dyn Write) -> io::Result<()> {
        self.several_files = inputs.files.len() > 1;
        self.decided = inputs.decided();
        Ok(())
    }

    fn record(&mut self, record: &RecordOutcome, _out: &mut dyn Write) -> io::Result<()> {
        let Some(row) = self.row(record) else {
            return Ok(());
        };
        self.rows.push(row);
        if !self.all && self.rows.len() > 2 * BATCH_ROWS {
            // Keep only the worst rows so that memory stays flat on any file.
            self.rows
                .sort_by(|a, b| b.badness.cmp(&a.badness).then(a.index.cmp(&b.index)));
            self.rows.truncate(BATCH_ROWS);
        }
        Ok(())
    }

    fn finish(&mut self, end: &BatchEnd<'_>, out: &mut dyn Write) -> io::Result<()> {
        if !self.all {
            self.rows
                .sort_by(|a, b| b.badness.cmp(&a.badness).then(a.index.cmp(&b.index)));
        }
        let shown = if self.all {
            self.rows.len()
        } else {
            self.rows.len().min(BATCH_ROWS)
        };
        if shown > 0 {
            let rows: Vec<&Vec<Entry>> = self.rows[..shown].iter().map(|r| &r.cells).collect();
            if self.style.fits(&BATCH_COLUMNS, &rows) {
                let table = self.style.table(&BATCH_COLUMNS, &BATCH_DROPS, &rows);
                writeln!(out, "{table}")?;
            } else {
                blocks::write_row_blocks(
                    out,
                    &rows,
                    blocks::RECORD_BLOCKS,
                    usize::from(self.style.width),
                    self.style.color,
                )?;
                writeln!(out)?;
            }
            let hidden = end.aggregate.failing_records + end.aggregate.bad_records;
            if !self.all && hidden > shown {
                writeln!(
                    out,
                    "… and {} more failing or bad records (--all lists every record)",
                    hidden - shown
                )?;
            }
        }
        if !self.decided.is_empty() {
            writeln!(out, "{}", self.decided)?;
        }
        // The reason a batch stopped can quote the input.
        let summary = printable_line(&batch_summary_line(end));
        let passed = end.gate.passed && end.stopped.is_none();
        write_summary(out, &summary, passed, self.style.color)
    }
}

pub(super) mod blocks;
#[cfg(test)]
mod tests;
