//! Streams the records of a transcript file, one at a time, with the line each starts on: a
//! JSON array, JSON Lines, an object holding the records under `results.results` (promptfoo),
//! `testCases` or `testRunData.testCases` (DeepEval), `samples` or `goldens`, or CSV with a
//! header (RAGAS `to_csv`), each row handed out as a JSON object. Only one record is held in
//! memory at a time.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

/// Largest record accepted, in bytes; a larger one is reported as a bad record and skipped.
pub const MAX_RECORD_BYTES: usize = 256 * 1024 * 1024;

/// Keys under which an object holds the records.
pub const RECORD_KEYS: &[&str] = &["results", "testCases", "samples", "goldens"];

/// Keys under which an object may hold an object that holds the records: promptfoo writes
/// `results.results`, DeepEval's test-run file `testRunData.testCases`.
pub const NESTING_KEYS: &[&str] = &["results", "testRunData"];

/// One record's JSON text and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawRecord {
    /// 1-based line of the record's first byte in the file.
    pub line: usize,
    pub bytes: Vec<u8>,
}

/// What the scanner yields: a record, or a record that could not be read (and was skipped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scanned {
    Record(RawRecord),
    Bad { line: usize, message: String },
}

/// An error that stops the scan: the file's structure is broken, or it cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("line {line}: {message}")]
    Structure { line: usize, message: String },
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// How the file holds its records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Nothing read yet.
    Start,
    /// One record per line.
    Lines,
    /// Inside the array of records.
    Array,
    /// Records already read into `queue` (a container written on one line).
    Queued,
    /// Rows of CSV, read by `csv`.
    Csv,
    /// No more records.
    Done,
}

/// The rows of a CSV transcript: the reader, the header, and the line the CSV starts on.
type CsvRows<'a> = (
    csv::Reader<Box<dyn BufRead + Send + 'a>>,
    csv::StringRecord,
    usize,
);

/// Reads records from a byte stream.
pub struct RecordScanner<'a> {
    reader: Box<dyn BufRead + Send + 'a>,
    line: usize,
    mode: Mode,
    force_lines: bool,
    /// Lines already read while deciding the format, to be handed out as JSON Lines records.
    pending: VecDeque<(usize, Vec<u8>)>,
    queue: VecDeque<Scanned>,
    /// Whether the records are the file's top-level array (nothing may follow it).
    top_level_array: bool,
    /// Whether a JSON Lines file had any line, blank lines aside.
    seen_line: bool,
    /// Records read from the array so far.
    elements: usize,
    /// CSV: `Some(tabs)` reads the file as CSV (with tabs), whatever it starts with.
    force_csv: Option<bool>,
    /// CSV: the reader of the rows, their header, and the line the CSV starts on.
    csv: Option<CsvRows<'a>>,
}

impl<'a> RecordScanner<'a> {
    /// `force_lines` reads the file as JSON Lines whatever it starts with (a `.jsonl` name).
    pub fn new(reader: impl BufRead + Send + 'a, force_lines: bool) -> Self {
        RecordScanner {
            reader: Box::new(reader),
            line: 1,
            mode: Mode::Start,
            force_lines,
            pending: VecDeque::new(),
            queue: VecDeque::new(),
            top_level_array: false,
            seen_line: false,
            elements: 0,
            force_csv: None,
            csv: None,
        }
    }

    /// A scanner for the file named `name` (which names it only): `.jsonl` and `.ndjson` are
    /// JSON Lines, `.csv` and `.tsv` CSV, whatever they start with; any other name is
    /// recognised from the content.
    pub fn named(reader: impl BufRead + Send + 'a, name: &str) -> Self {
        let lower = name.to_ascii_lowercase();
        let lines = lower.ends_with(".jsonl") || lower.ends_with(".ndjson");
        let mut scanner = RecordScanner::new(reader, lines);
        scanner.force_csv = if lower.ends_with(".csv") {
            Some(false)
        } else if lower.ends_with(".tsv") {
            Some(true)
        } else {
            None
        };
        scanner
    }

    fn peek(&mut self) -> Result<Option<u8>, ScanError> {
        Ok(self.reader.fill_buf()?.first().copied())
    }

    fn bump(&mut self) -> Result<Option<u8>, ScanError> {
        let byte = self.peek()?;
        if let Some(b) = byte {
            self.reader.consume(1);
            if b == b'\n' {
                self.line += 1;
            }
        }
        Ok(byte)
    }

    fn skip_space(&mut self) -> Result<Option<u8>, ScanError> {
        loop {
            match self.peek()? {
                Some(b' ' | b'\t' | b'\r' | b'\n') => {
                    self.bump()?;
                }
                other => return Ok(other),
            }
        }
    }

    fn structure(&self, message: impl Into<String>) -> ScanError {
        ScanError::Structure {
            line: self.line,
            message: message.into(),
        }
    }

    /// Reads one complete JSON value, copying its bytes into `into` when given (up to
    /// `MAX_RECORD_BYTES`; returns whether it fitted). Only the structure is followed
    /// (strings, escapes, brackets); the value itself is parsed later.
    fn value(&mut self, mut into: Option<&mut Vec<u8>>) -> Result<bool, ScanError> {
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        let mut fits = true;
        loop {
            let Some(b) = self.peek()? else {
                return if depth == 0 && !in_string {
                    Ok(fits)
                } else {
                    Err(self.structure("the file ends inside a record"))
                };
            };
            let ends_scalar = matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n');
            if !in_string && depth == 0 && ends_scalar {
                return Ok(fits);
            }
            self.bump()?;
            if let Some(buffer) = into.as_deref_mut() {
                if buffer.len() < MAX_RECORD_BYTES {
                    buffer.push(b);
                } else {
                    fits = false;
                }
            }
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => {
                        in_string = false;
                        if depth == 0 {
                            return Ok(fits);
                        }
                    }
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Ok(fits);
                    }
                }
                _ => {}
            }
        }
    }

    fn expect(&mut self, wanted: u8, what: &str) -> Result<(), ScanError> {
        match self.skip_space()? {
            Some(b) if b == wanted => {
                self.bump()?;
                Ok(())
            }
            Some(b) => Err(self.structure(format!(
                "expected {what}, found `{}`",
                char::from(b).escape_default()
            ))),
            None => Err(self.structure(format!("expected {what}, found the end of the file"))),
        }
    }

    /// Walks through an object (its `{` already read) to the array of records, and opens it.
    /// Returns false when the object holds no records.
    fn enter_container(&mut self, may_nest: bool) -> Result<bool, ScanError> {
        loop {
            match self.skip_space()? {
                Some(b'}') => {
                    self.bump()?;
                    return Ok(false);
                }
                Some(b',') => {
                    self.bump()?;
                    continue;
                }
                Some(b'"') => {}
                _ => return Err(self.structure("expected an object key")),
            }
            let mut key = Vec::new();
            self.value(Some(&mut key))?;
            let key: String = serde_json::from_slice(&key).unwrap_or_default();
            self.expect(b':', "`:`")?;
            let next = self.skip_space()?;
            if RECORD_KEYS.contains(&key.as_str()) && next == Some(b'[') {
                self.bump()?;
                return Ok(true);
            }
            if NESTING_KEYS.contains(&key.as_str()) && may_nest && next == Some(b'{') {
                self.bump()?;
                if self.enter_container(false)? {
                    return Ok(true);
                }
                continue;
            }
            self.value(None)?;
        }
    }

    /// Reads one line without its line break, or `None` at the end of the file.
    fn read_line(&mut self) -> Result<Option<(usize, Vec<u8>)>, ScanError> {
        let line = self.line;
        let mut bytes = Vec::new();
        if self.reader.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(None);
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
            self.line += 1;
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        Ok(Some((line, bytes)))
    }

    /// Decides how the file holds its records from its first bytes.
    /// Drops a UTF-8 byte-order mark at the start of the file, as `check` does.
    fn skip_bom(&mut self) -> Result<(), ScanError> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        if self.reader.fill_buf()?.starts_with(BOM) {
            self.reader.consume(BOM.len());
            return Ok(());
        }
        // A reader that hands out fewer bytes at a time: read the first three and put back
        // what is not a mark.
        let mut head = Vec::with_capacity(BOM.len());
        (&mut self.reader)
            .take(BOM.len() as u64)
            .read_to_end(&mut head)?;
        if head != BOM {
            let rest = std::mem::replace(&mut self.reader, Box::new(io::empty()));
            self.reader = Box::new(io::Cursor::new(head).chain(rest));
        }
        Ok(())
    }

    fn start(&mut self) -> Result<(), ScanError> {
        self.skip_bom()?;
        if self.force_lines {
            self.mode = Mode::Lines;
            return Ok(());
        }
        if let Some(tabs) = self.force_csv {
            self.skip_space()?;
            return self.start_csv(tabs, None);
        }
        match self.skip_space()? {
            None => return Err(self.structure("the file is empty: no records")),
            Some(b'[') => {
                self.bump()?;
                self.mode = Mode::Array;
                self.top_level_array = true;
            }
            Some(b'{') => {
                let Some((line, bytes)) = self.read_line()? else {
                    self.mode = Mode::Done;
                    return Ok(());
                };
                match serde_json::from_slice::<serde_json::Value>(&bytes) {
                    Ok(value) if holds_records(&value) => {
                        // A container written on one line: it is in memory already.
                        let mut inner = RecordScanner::new(io::Cursor::new(bytes), false);
                        inner.line = line;
                        inner.skip_space()?;
                        inner.bump()?;
                        inner.enter_container(true)?;
                        inner.mode = Mode::Array;
                        while let Some(item) = inner.step()? {
                            self.queue.push_back(item);
                        }
                        self.mode = Mode::Queued;
                    }
                    Ok(_) => {
                        self.pending.push_back((line, bytes));
                        self.mode = Mode::Lines;
                    }
                    Err(_) => {
                        // A broken first record of JSON Lines, or an object over several
                        // lines that holds the records: the next non-blank line tells.
                        let mut read = vec![(line, bytes)];
                        while let Some((next_line, next)) = self.read_line()? {
                            let blank = next.iter().all(u8::is_ascii_whitespace);
                            read.push((next_line, next));
                            if !blank {
                                break;
                            }
                        }
                        let second_is_record = read.len() > 1
                            && read.last().is_some_and(|(_, next)| {
                                matches!(
                                    serde_json::from_slice::<serde_json::Value>(next),
                                    Ok(serde_json::Value::Object(_))
                                )
                            });
                        if second_is_record {
                            self.pending.extend(read);
                            self.mode = Mode::Lines;
                            return Ok(());
                        }
                        // Put the lines back in front of the rest and walk into the object.
                        let mut again = Vec::new();
                        for (_, bytes) in &read {
                            again.extend_from_slice(bytes);
                            again.push(b'\n');
                        }
                        let rest = std::mem::replace(&mut self.reader, Box::new(io::empty()));
                        self.reader = Box::new(io::Cursor::new(again).chain(rest));
                        self.line = line;
                        self.skip_space()?;
                        self.bump()?;
                        if !self.enter_container(true)? {
                            return Err(self.structure(
                                "no records: expected a JSON array, JSON Lines, or an object holding them under `results.results`, `samples` or `goldens`",
                            ));
                        }
                        self.mode = Mode::Array;
                    }
                }
            }
            Some(b) => {
                let Some((line, first)) = self.read_line()? else {
                    return Err(self.structure("the file is empty: no records"));
                };
                match std::str::from_utf8(&first)
                    .ok()
                    .and_then(crate::input::chunks::csv_header)
                {
                    Some(tabs) => return self.start_csv(tabs, Some((line, first))),
                    None => {
                        self.line = line;
                        return Err(self.structure(format!(
                            "expected a JSON array of records, JSON Lines, an object holding them, or CSV with a header; found `{}`",
                            char::from(b).escape_default()
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads the rest of the file as CSV, `first` being its first line when it was read already.
    fn start_csv(&mut self, tabs: bool, first: Option<(usize, Vec<u8>)>) -> Result<(), ScanError> {
        let start_line = first.as_ref().map_or(self.line, |(line, _)| *line);
        let rest = std::mem::replace(&mut self.reader, Box::new(io::empty()));
        let reader: Box<dyn BufRead + Send + 'a> = match first {
            Some((_, mut bytes)) => {
                bytes.push(b'\n');
                Box::new(io::Cursor::new(bytes).chain(rest))
            }
            None => rest,
        };
        let mut csv = csv::ReaderBuilder::new()
            .delimiter(if tabs { b'\t' } else { b',' })
            .flexible(false)
            .from_reader(reader);
        let header = csv
            .headers()
            .map_err(|e| csv_error(&e, start_line))?
            .clone();
        if header.iter().all(|name| name.trim().is_empty()) {
            return Err(self.structure("the CSV has no header"));
        }
        self.csv = Some((csv, header, start_line));
        self.mode = Mode::Csv;
        Ok(())
    }

    /// The next CSV row, as a JSON object of the header's names (list cells read as lists).
    fn csv_row(&mut self) -> Result<Option<Scanned>, ScanError> {
        let Some((reader, header, start_line)) = self.csv.as_mut() else {
            return Ok(None);
        };
        let mut row = csv::StringRecord::new();
        let read = reader
            .read_record(&mut row)
            .map_err(|e| csv_error(&e, *start_line))?;
        if !read {
            self.mode = Mode::Done;
            return Ok(None);
        }
        let line = row
            .position()
            .map_or(*start_line, |p| *start_line + p.line() as usize - 1);
        let object: serde_json::Map<String, serde_json::Value> = header
            .iter()
            .zip(row.iter())
            .map(|(name, cell)| (name.to_string(), cell_value(cell)))
            .collect();
        let bytes = serde_json::to_vec(&object).map_err(io::Error::other)?;
        Ok(Some(Scanned::Record(RawRecord { line, bytes })))
    }

    fn step(&mut self) -> Result<Option<Scanned>, ScanError> {
        if self.mode == Mode::Start {
            self.start()?;
        }
        match self.mode {
            Mode::Start | Mode::Done => Ok(None),
            Mode::Queued => Ok(self.queue.pop_front()),
            Mode::Lines => loop {
                let next = match self.pending.pop_front() {
                    Some(first) => Some(first),
                    None => self.read_line()?,
                };
                let Some((line, bytes)) = next else {
                    self.mode = Mode::Done;
                    if !self.seen_line {
                        return Err(self.structure("the file is empty: no records"));
                    }
                    return Ok(None);
                };
                if bytes.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                self.seen_line = true;
                if bytes.len() > MAX_RECORD_BYTES {
                    return Ok(Some(Scanned::Bad {
                        line,
                        message: "the record is larger than 256 MiB".to_string(),
                    }));
                }
                return Ok(Some(Scanned::Record(RawRecord { line, bytes })));
            },
            Mode::Array => self.array_element(),
            Mode::Csv => self.csv_row(),
        }
    }

    fn array_element(&mut self) -> Result<Option<Scanned>, ScanError> {
        // After a record, a comma then the next record, or the end of the array.
        match (self.skip_space()?, self.elements > 0) {
            (Some(b']'), _) => {
                self.bump()?;
                self.mode = Mode::Done;
                if self.top_level_array && self.skip_space()?.is_some() {
                    return Err(self.structure(
                        "more content after the array of records (one array per file)",
                    ));
                }
                return Ok(None);
            }
            (Some(b','), true) => {
                self.bump()?;
                match self.skip_space()? {
                    Some(b']') => return Err(self.structure("a comma before `]`")),
                    None => {
                        return Err(self.structure("the file ends inside the array of records"));
                    }
                    _ => {}
                }
            }
            (None, _) => return Err(self.structure("the file ends inside the array of records")),
            (Some(b), true) => {
                return Err(self.structure(format!(
                    "expected `,` or `]` after a record, found `{}`",
                    char::from(b).escape_default()
                )));
            }
            (Some(b','), false) => return Err(self.structure("a comma before the first record")),
            (Some(_), false) => {}
        }
        self.elements += 1;
        let line = self.line;
        let mut bytes = Vec::new();
        let fits = self.value(Some(&mut bytes)).map_err(|e| match e {
            // Name the line where the broken record starts, not where the file ended.
            ScanError::Structure { message, .. } => ScanError::Structure {
                line,
                message: format!("the record starting here is broken: {message}"),
            },
            other => other,
        })?;
        if bytes.is_empty() {
            let found = self.peek()?.map_or(' ', char::from);
            return Err(self.structure(format!(
                "expected a record, found `{}`",
                found.escape_default()
            )));
        }
        if fits {
            Ok(Some(Scanned::Record(RawRecord { line, bytes })))
        } else {
            Ok(Some(Scanned::Bad {
                line,
                message: "the record is larger than 256 MiB".to_string(),
            }))
        }
    }
}

/// Whether a parsed object holds the records rather than being one.
fn holds_records(value: &serde_json::Value) -> bool {
    let Some(object) = value.as_object() else {
        return false;
    };
    let holds = |object: &serde_json::Map<String, serde_json::Value>| {
        RECORD_KEYS
            .iter()
            .any(|k| object.get(*k).is_some_and(|v| v.is_array()))
    };
    holds(object)
        || NESTING_KEYS.iter().any(|k| {
            object
                .get(*k)
                .and_then(serde_json::Value::as_object)
                .is_some_and(holds)
        })
}

/// A CSV cell as a JSON value: a list written as JSON or as a Python literal (`['a', "b's"]`,
/// as RAGAS `to_csv` writes lists) is a list; anything else is the string.
fn cell_value(cell: &str) -> serde_json::Value {
    let trimmed = cell.trim();
    if trimmed.starts_with('[') && trimmed.ends_with(']') {
        if let Ok(value @ serde_json::Value::Array(_)) = serde_json::from_str(trimmed) {
            return value;
        }
        if let Some(items) = python_list(trimmed) {
            return serde_json::Value::Array(
                items.into_iter().map(serde_json::Value::String).collect(),
            );
        }
    }
    serde_json::Value::String(cell.to_string())
}

/// A Python list literal of strings (`['a', "b's", 'c\\nd']`), as `repr` writes it; `None`
/// when it is something else.
fn python_list(text: &str) -> Option<Vec<String>> {
    let mut chars = text
        .strip_prefix('[')?
        .strip_suffix(']')?
        .chars()
        .peekable();
    let mut items = Vec::new();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let Some(quote) = chars.next() else {
            return Some(items);
        };
        if quote != '\'' && quote != '"' {
            return None;
        }
        let mut item = String::new();
        loop {
            match chars.next()? {
                c if c == quote => break,
                '\\' => match chars.next()? {
                    'n' => item.push('\n'),
                    't' => item.push('\t'),
                    'r' => item.push('\r'),
                    '0' => item.push('\0'),
                    'x' => item.push(hex_char(&mut chars, 2)?),
                    'u' => item.push(hex_char(&mut chars, 4)?),
                    'U' => item.push(hex_char(&mut chars, 8)?),
                    c @ ('\\' | '\'' | '"') => item.push(c),
                    c => {
                        item.push('\\');
                        item.push(c);
                    }
                },
                c => item.push(c),
            }
        }
        items.push(item);
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        match chars.next() {
            None => return Some(items),
            Some(',') => {}
            Some(_) => return None,
        }
    }
}

fn hex_char(chars: &mut impl Iterator<Item = char>, digits: usize) -> Option<char> {
    let hex: String = chars.take(digits).collect();
    if hex.len() != digits {
        return None;
    }
    char::from_u32(u32::from_str_radix(&hex, 16).ok()?)
}

fn csv_error(e: &csv::Error, start_line: usize) -> ScanError {
    let line = e
        .position()
        .map_or(start_line, |p| start_line + p.line() as usize - 1);
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("a row has {len} fields where the header has {expected_len}"),
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8".to_string(),
        csv::ErrorKind::Io(e) => return ScanError::Io(io::Error::new(e.kind(), e.to_string())),
        _ => e.to_string(),
    };
    ScanError::Structure { line, message }
}

impl Iterator for RecordScanner<'_> {
    type Item = Result<Scanned, ScanError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.step() {
            Ok(item) => item.map(Ok),
            Err(e) => {
                self.mode = Mode::Done;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests;
