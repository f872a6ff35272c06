//! The sentence table's narrow form: one block per sentence, as `kubectl describe` and
//! `cargo tree` stay readable in a narrow terminal. A block is a head line (number, verdict,
//! where, what it cites and its scores), the sentence in full, wrapped, and what is wrong, one
//! item a line; nothing is dropped for lack of width.

use std::io::{self, Write};

use owo_colors::OwoColorize;
use unicode_width::UnicodeWidthChar;

use super::{CELL_CHARS, Entry, ITEM_CHARS, Paint, TableEmitter, problems, shown};
use crate::escape::{cut, printable};
use crate::input::collapse_white_space;
use crate::report::SentenceResult;

/// How far the sentence and what is wrong are indented under the head line.
const INDENT: &str = "   ";

/// Writes one block per sentence for a terminal `width` columns wide.
pub(super) fn write_blocks(
    out: &mut dyn Write,
    sentences: &[SentenceResult],
    width: usize,
    color: bool,
) -> io::Result<()> {
    for (k, s) in sentences.iter().enumerate() {
        if k > 0 {
            writeln!(out)?;
        }
        // In the colour the table's verdict cell has.
        let verdict = match TableEmitter::verdict(s.verdict).paint {
            Paint::Fg(fg) if color => painted(s.verdict.name(), fg),
            Paint::Dim if color => s.verdict.name().dimmed().to_string(),
            _ => s.verdict.name().to_string(),
        };
        let mut head = vec![
            format!("{}. {verdict}", s.index),
            format!("{}:{}", s.start.line, s.start.column),
        ];
        if !s.cited.is_empty() {
            let (ids, more) = shown(&s.cited, ITEM_CHARS);
            let mut cited = format!("cites {}", ids.join(", "));
            if more > 0 {
                cited.push_str(&format!(" (+{more} more)"));
            }
            head.push(printable(&cited).into_owned());
            if s.verdict.is_claim() {
                head.push(format!("cov {:.2}", s.coverage));
                head.push(format!("sup {:.2}", s.support));
            }
        }
        // The items stay whole: their spaces do not break (the verdict's colour codes take no
        // room).
        let head: Vec<String> = head
            .iter()
            .map(|item| item.replace(' ', "\u{a0}"))
            .collect();
        for line in wrap(&head.join(" · "), width, "")
            .into_iter()
            .map(|line| line.replace('\u{a0}', " "))
        {
            writeln!(out, "{line}")?;
        }
        let sentence = collapse_white_space(&cut(&s.sentence, CELL_CHARS));
        for line in wrap(&printable(&sentence), width, INDENT) {
            writeln!(out, "{line}")?;
        }
        for problem in problems(s).lines() {
            for line in wrap(problem, width, &format!("{INDENT}- ")) {
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}

/// How a table's rows read as blocks: the cells that make the head line (each after its prefix),
/// the cells written under it as `<label>: <cell>`, and the cell written last as a `- ` item.
#[derive(Debug, Clone, Copy)]
pub(in crate::emit) struct BlockLayout<'a> {
    pub head: &'a [(usize, &'a str)],
    pub labelled: &'a [(usize, &'a str)],
    pub item: Option<usize>,
}

/// The batch table's rows (record, line, verdicts, limits exceeded, first problem) as blocks.
pub(super) const RECORD_BLOCKS: BlockLayout<'static> = BlockLayout {
    head: &[(0, ""), (1, "line "), (2, "")],
    labelled: &[(3, "limits exceeded")],
    item: Some(4),
};

/// Writes rows as blocks, one per row: the head line (a cell that is `-` or empty left out), the
/// labelled cells (the empty ones left out), the item, each wrapped to `width` under the head.
pub(in crate::emit) fn write_row_blocks<R: AsRef<[Entry]>>(
    out: &mut dyn Write,
    rows: &[R],
    layout: BlockLayout<'_>,
    width: usize,
    color: bool,
) -> io::Result<()> {
    let text = |row: &[Entry], i: usize| row.get(i).map(|e| e.items.join(", ")).unwrap_or_default();
    for (k, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        if k > 0 {
            writeln!(out)?;
        }
        // The items stay whole: their spaces do not break (colour codes take no room).
        let head: Vec<String> = layout
            .head
            .iter()
            .filter_map(|&(i, prefix)| {
                let cell = text(row, i);
                if cell.is_empty() || cell == "-" {
                    return None;
                }
                let cell = format!("{prefix}{cell}").replace(' ', "\u{a0}");
                Some(match row[i].paint {
                    Paint::Fg(fg) if color => painted(&cell, fg),
                    _ => cell,
                })
            })
            .collect();
        for line in wrap(&head.join(" · "), width, "")
            .into_iter()
            .map(|line| line.replace('\u{a0}', " "))
        {
            writeln!(out, "{line}")?;
        }
        for &(i, label) in layout.labelled {
            let cell = text(row, i);
            if cell.is_empty() {
                continue;
            }
            for line in wrap(&format!("{label}: {cell}"), width, INDENT) {
                writeln!(out, "{line}")?;
            }
        }
        if let Some(i) = layout.item {
            let cell = row.get(i).map(|e| e.items.join(" ")).unwrap_or_default();
            if !cell.is_empty() {
                for line in wrap(&cell, width, &format!("{INDENT}- ")) {
                    writeln!(out, "{line}")?;
                }
            }
        }
    }
    Ok(())
}

/// Text in the terminal colour closest to a table cell's.
fn painted(text: &str, fg: comfy_table::Color) -> String {
    use comfy_table::Color;
    match fg {
        Color::DarkRed | Color::Red => text.red().to_string(),
        Color::DarkGreen | Color::Green => text.green().to_string(),
        Color::DarkYellow | Color::Yellow => text.yellow().to_string(),
        Color::DarkMagenta | Color::Magenta => text.magenta().to_string(),
        _ => text.to_string(),
    }
}

/// Columns a character takes on a terminal; an escape sequence's characters take none (the
/// head's colour), which only [`wrap`]'s input from this module holds.
fn columns(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// `text` in lines at most `width` columns wide, the first starting with `first` and the rest
/// indented as wide (as [`INDENT`] when `first` is empty): broken at spaces, and inside a word only when the word alone is wider
/// than a line.
fn wrap(text: &str, width: usize, first: &str) -> Vec<String> {
    // A head line (no `first`) goes on under the sentence's indent.
    let indent = if first.is_empty() {
        INDENT.to_string()
    } else {
        " ".repeat(first.chars().count())
    };
    let room = width.saturating_sub(indent.len()).max(8);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut used = 0;
    let mut escape = false;
    let visible = |word: &str, escape: &mut bool| {
        word.chars()
            .map(|c| {
                // ANSI colour codes: ESC ... m take no columns.
                if c == '\u{1b}' {
                    *escape = true;
                }
                let n = if *escape { 0 } else { columns(c) };
                if *escape && c == 'm' {
                    *escape = false;
                }
                n
            })
            .sum::<usize>()
    };
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = visible(word, &mut escape);
        if used > 0 && used + 1 + n > room {
            lines.push(std::mem::take(&mut line));
            used = 0;
        }
        if used > 0 {
            line.push(' ');
            used += 1;
        }
        if n <= room {
            line.push_str(word);
            used += n;
            continue;
        }
        // A word wider than a line: split it where it fills the line.
        for c in word.chars() {
            let w = columns(c);
            if used + w > room && used > 0 {
                lines.push(std::mem::take(&mut line));
                used = 0;
            }
            line.push(c);
            used += w;
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(k, line)| {
            if k == 0 {
                format!("{first}{line}")
            } else {
                format!("{indent}{line}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn text_wraps_at_spaces_within_the_width_and_long_words_are_split() {
        assert_eq!(
            wrap("the reset link stays valid for one hour", 20, "   "),
            vec!["   the reset link", "   stays valid for", "   one hour"]
        );
        assert_eq!(
            wrap("aaaaaaaaaaaaaaaaaaaa b", 12, "- "),
            vec!["- aaaaaaaaaa", "  aaaaaaaaaa", "  b"]
        );
        // Wide characters take two columns.
        assert_eq!(wrap("富士山富士山", 10, "x "), vec!["x 富士山富", "  士山"]);
        // A head line goes on under the sentence's indent.
        assert_eq!(wrap("a b", 9, ""), vec!["a b"]);
        assert_eq!(wrap("aaaa bbbb", 8, ""), vec!["aaaa", "   bbbb"]);
        // Colour codes take none.
        assert_eq!(
            wrap("\u{1b}[31mred\u{1b}[0m word", 8, ""),
            vec!["\u{1b}[31mred\u{1b}[0m word"]
        );
        assert_eq!(wrap("", 10, "x"), vec!["x"]);
    }
}
