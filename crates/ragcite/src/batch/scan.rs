//! Streams the records of a transcript file, one at a time, with the line each starts on: a
//! JSON array, JSON Lines, an object holding the records under `results.results` (promptfoo),
//! `testCases` or `testRunData.testCases` (DeepEval), `samples`, `goldens`, `data` (ALCE's
//! `{"args", "data"}`), `rows`, `examples` or `traces` (MLflow's `search_traces` body), or under
//! the path that `--records` names; a table (`{"columns": [...], "data": [[...], ...]}`, the
//! pandas `orient="split"` layout; `orient="index"` and `orient="columns"` files up to the record
//! limit), each row handed out as an object of the column names; a file that is one JSON
//! object holding no records but an answer, as one record; or CSV with a header (RAGAS
//! `to_csv`), each row handed out as a JSON object. Only one record is held in memory at a time
//! (a file that is one object: the object, up to the record limit).

mod cells;
mod shapes;

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};

#[cfg(test)]
use cells::python_list;
use cells::{cell_value, csv_error, is_row_too_long};
use shapes::{holds_records, is_one_record, pandas_rows, table_row};

/// Largest record accepted by default, in bytes (`--max-record-size`): a JSON line, a CSV row,
/// an element of the array of records. A longer one stops the scan (its end may never come: an
/// endless input), after reading at most this many bytes of it.
pub const MAX_RECORD_BYTES: usize = 64 * 1024 * 1024;

/// What JSON nested past serde_json's recursion limit (128 levels) is, in messages.
pub const NESTED_TOO_DEEP: &str =
    "nested deeper than 128 levels (the JSON parser's limit, its guard against a stack overflow)";

/// Whether serde_json refused a value for its nesting.
pub fn too_deep(e: &serde_json::Error) -> bool {
    e.is_syntax() && e.to_string().starts_with("recursion limit exceeded")
}

/// A size in bytes as people read it: `64 MiB`, `1 KiB`, `1000 bytes`.
pub fn size_name(bytes: u64) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    match bytes {
        1 => "1 byte".to_string(),
        n => format!("{n} bytes"),
    }
}

/// Keys under which an object holds the records.
pub const RECORD_KEYS: &[&str] = &[
    "results",
    "testCases",
    "samples",
    "goldens",
    "data",
    "rows",
    "examples",
    "traces",
];

/// The [`RECORD_KEYS`] added with the export formats: a one-line object that has an answer
/// field of its own is a record that happens to hold such a list, not a container.
const LATE_RECORD_KEYS: &[&str] = &["data", "rows", "examples", "traces"];

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
    /// A record longer than the limit: the scan cannot tell where it ends without reading it
    /// all, and an endless input never ends.
    #[error("line {line}: a record longer than {} (--max-record-size raises it)", size_name(*.limit as u64))]
    TooLong { line: usize, limit: usize },
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// The error a bounded CSV reader gives when a row runs past the record limit.
#[derive(Debug, thiserror::Error)]
#[error("a record longer than the limit")]
struct RowTooLong;

/// The reader under `csv`: it gives at most `allowed` bytes in all, an offset moved forward
/// after each row, so that one row (or the header) cannot run past the record limit.
struct BoundedRows<R> {
    inner: R,
    read: u64,
    allowed: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R: Read> Read for BoundedRows<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let allowed = self.allowed.load(std::sync::atomic::Ordering::Relaxed);
        let left = allowed.saturating_sub(self.read);
        if left == 0 {
            return Err(io::Error::new(io::ErrorKind::InvalidData, RowTooLong));
        }
        let take = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..take])?;
        self.read += n as u64;
        Ok(n)
    }
}

/// How far past the start of a row the CSV reader may read ahead: its buffer.
const CSV_READ_AHEAD: u64 = 1 << 16;

/// What comes next in an object: a member's key, the object's end, or the input's end.
enum Member {
    Key(String),
    Closed,
    End,
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
    csv::Reader<BoundedRows<Box<dyn BufRead + Send + 'a>>>,
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
    /// CSV: the offset the reader may read up to (the current row's start plus the limit).
    csv_allowed: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Largest record, in bytes.
    max_record: usize,
    /// Whether the last line read ended with a line break.
    last_line_ended: bool,
    /// `--records`: the keys leading from the top-level object to the array of records.
    records_path: Option<Vec<String>>,
    /// A table's column names (`{"columns": [...], "data": [[...]]}`): each row of the array
    /// of records is handed out as an object of them.
    columns: Option<Vec<String>>,
    /// Keys of the top-level object that hold arrays, for the error that names `--records`.
    arrays_seen: Vec<String>,
    /// Whether the file's one object could not be parsed whole for its nesting (deeper than
    /// 128 levels): the error that finds no records in it says so.
    too_deep: bool,
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
            csv_allowed: std::sync::Arc::default(),
            max_record: MAX_RECORD_BYTES,
            last_line_ended: true,
            records_path: None,
            columns: None,
            arrays_seen: Vec::new(),
            too_deep: false,
        }
    }

    /// Reads the array of records at `path` (`data`, `results.results`: keys from the
    /// top-level object, split on dots), whatever else the file holds (`--records`).
    pub fn with_records_path(mut self, path: &str) -> Self {
        self.records_path = Some(path.split('.').map(str::to_string).collect());
        self
    }

    /// The largest record, in bytes (at least 1); a longer one stops the scan with
    /// [`ScanError::TooLong`].
    pub fn with_max_record(mut self, bytes: usize) -> Self {
        self.max_record = bytes.max(1);
        self
    }

    fn too_long(&self, line: usize) -> ScanError {
        ScanError::TooLong {
            line,
            limit: self.max_record,
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

    /// Reads one complete JSON value, copying its bytes into `into` when given (up to the
    /// record limit, past which the scan stops: [`ScanError::TooLong`]; a value only skipped
    /// streams through in bounded memory). Only the structure is followed (strings, escapes,
    /// brackets); the value itself is parsed later.
    fn value(&mut self, mut into: Option<&mut Vec<u8>>) -> Result<(), ScanError> {
        let start = self.line;
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        loop {
            let Some(b) = self.peek()? else {
                return if depth == 0 && !in_string {
                    Ok(())
                } else {
                    Err(self.structure("the file ends inside a record"))
                };
            };
            let ends_scalar = matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\r' | b'\n');
            if !in_string && depth == 0 && ends_scalar {
                return Ok(());
            }
            self.bump()?;
            if let Some(buffer) = into.as_deref_mut() {
                if buffer.len() >= self.max_record {
                    return Err(self.too_long(start));
                }
                buffer.push(b);
            }
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => {
                        in_string = false;
                        if depth == 0 {
                            return Ok(());
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
                        return Ok(());
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

    /// The next member of an object whose `{` is read: its key (read up to its `:`), or the
    /// object's end (its `}` read), or the end of the input.
    fn next_member(&mut self) -> Result<Member, ScanError> {
        loop {
            match self.skip_space()? {
                Some(b'}') => {
                    self.bump()?;
                    return Ok(Member::Closed);
                }
                Some(b',') => {
                    self.bump()?;
                }
                Some(b'"') => {
                    let mut key = Vec::new();
                    self.value(Some(&mut key))?;
                    let key: String = serde_json::from_slice(&key).unwrap_or_default();
                    self.expect(b':', "`:`")?;
                    return Ok(Member::Key(key));
                }
                None => return Ok(Member::End),
                Some(_) => return Err(self.structure("expected an object key")),
            }
        }
    }

    /// Walks through an object (its `{` already read) to the array of records, and opens it.
    /// Returns false when the object holds no records.
    fn enter_container(&mut self, may_nest: bool) -> Result<bool, ScanError> {
        loop {
            let key = match self.next_member()? {
                Member::Key(key) => key,
                Member::Closed => return Ok(false),
                Member::End => return Err(self.structure("expected an object key")),
            };
            let next = self.skip_space()?;
            if key == "columns" && next == Some(b'[') {
                self.capture_columns()?;
                continue;
            }
            if RECORD_KEYS.contains(&key.as_str()) && next == Some(b'[') {
                self.bump()?;
                if !LATE_RECORD_KEYS.contains(&key.as_str()) || self.opens_records()? {
                    return Ok(true);
                }
                self.skip_rest_of_array()?;
                continue;
            }
            if next == Some(b'[') && may_nest && self.arrays_seen.len() < 8 {
                self.arrays_seen.push(key.clone());
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

    /// Whether the array just opened holds records: it is empty, or its first element is an
    /// object (a row, when the table's columns came before it).
    fn opens_records(&mut self) -> Result<bool, ScanError> {
        Ok(match self.skip_space()? {
            Some(b'{' | b']') => true,
            Some(b'[') => self.columns.is_some(),
            _ => false,
        })
    }

    /// Skips the rest of an array already opened: a list of something other than records.
    fn skip_rest_of_array(&mut self) -> Result<(), ScanError> {
        loop {
            match self.skip_space()? {
                Some(b']') => {
                    self.bump()?;
                    return Ok(());
                }
                Some(b',') => {
                    self.bump()?;
                }
                None => return Err(self.structure("the file ends inside a list")),
                Some(_) => self.value(None)?,
            }
        }
    }

    /// Reads a table's `columns` (a list of names); a list of anything else is skipped.
    fn capture_columns(&mut self) -> Result<(), ScanError> {
        let mut bytes = Vec::new();
        self.value(Some(&mut bytes))?;
        if let Ok(names) = serde_json::from_slice::<Vec<String>>(&bytes) {
            self.columns = Some(names);
        }
        Ok(())
    }

    /// `--records`: walks from the top-level object along `path` to the array of records, and
    /// opens it.
    fn enter_path(&mut self, path: &[String]) -> Result<(), ScanError> {
        let named = path.join(".");
        let option = |message: String| format!("--records {named}: {message}");
        if self.skip_space()? != Some(b'{') {
            return Err(self.structure(option("the file is not a JSON object".to_string())));
        }
        self.bump()?;
        for (depth, part) in path.iter().enumerate() {
            loop {
                let key = match self.next_member()? {
                    Member::Key(key) => key,
                    Member::Closed | Member::End => {
                        return Err(self.structure(option(format!("no `{part}` key"))));
                    }
                };
                let next = self.skip_space()?;
                if key == "columns" && next == Some(b'[') && depth + 1 == path.len() {
                    self.capture_columns()?;
                    continue;
                }
                if key != *part {
                    self.value(None)?;
                    continue;
                }
                let last = depth + 1 == path.len();
                match (last, next) {
                    (true, Some(b'[')) | (false, Some(b'{')) => {
                        self.bump()?;
                        break;
                    }
                    (true, _) => {
                        return Err(self.structure(option(format!("`{part}` is not an array"))));
                    }
                    (false, _) => {
                        return Err(self.structure(option(format!("`{part}` is not an object"))));
                    }
                }
            }
        }
        self.mode = Mode::Array;
        Ok(())
    }

    /// A file that is one JSON object over several lines (already put back, from `line`): the
    /// object queued as one record when it holds no records, is one ([`is_one_record`]) and
    /// nothing follows it, or its rows when it is a pandas table ([`pandas_rows`]); returns
    /// whether it was (else everything is put back as it was). Holds up to the record limit of
    /// it in memory.
    fn whole_object(&mut self, line: usize) -> Result<bool, ScanError> {
        let mut bytes = Vec::new();
        match self.value(Some(&mut bytes)) {
            Ok(()) => {}
            Err(ScanError::Io(e)) => return Err(ScanError::Io(e)),
            Err(_) => {
                self.put_back(bytes);
                self.line = line;
                return Ok(false);
            }
        }
        let after_value = self.line;
        let parsed = serde_json::from_slice::<serde_json::Value>(&bytes);
        self.too_deep = matches!(&parsed, Err(e) if too_deep(e));
        if let Ok(value) = parsed
            && value.is_object()
            && !holds_records(&value)
        {
            if let Some(rows) = pandas_rows(&value) {
                if self.skip_space()?.is_none() {
                    self.queue_rows(line, rows)?;
                    return Ok(true);
                }
            } else if is_one_record(&value) && self.skip_space()?.is_none() {
                self.queue
                    .push_back(Scanned::Record(RawRecord { line, bytes }));
                self.mode = Mode::Queued;
                return Ok(true);
            }
        }
        // Put back the line breaks skipped after the value too, so that lines keep their numbers.
        bytes.extend(std::iter::repeat_n(b'\n', self.line - after_value));
        self.put_back(bytes);
        self.line = line;
        Ok(false)
    }

    /// Hands out the rows of a whole table, each on the table's first line.
    fn queue_rows(&mut self, line: usize, rows: Vec<serde_json::Value>) -> Result<(), ScanError> {
        for row in rows {
            let bytes = serde_json::to_vec(&row).map_err(io::Error::other)?;
            self.queue
                .push_back(Scanned::Record(RawRecord { line, bytes }));
        }
        self.mode = Mode::Queued;
        Ok(())
    }

    /// Reads one line without its line break, or `None` at the end of the file; a line longer
    /// than the record limit stops the scan, after reading no more than the limit of it.
    fn read_line(&mut self) -> Result<Option<(usize, Vec<u8>)>, ScanError> {
        let line = self.line;
        let mut bytes = Vec::new();
        if !self.read_line_within(&mut bytes)? {
            return Ok(None);
        }
        self.last_line_ended = bytes.last() == Some(&b'\n');
        if self.last_line_ended {
            bytes.pop();
            self.line += 1;
        }
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        if bytes.len() > self.max_record {
            return Err(self.too_long(line));
        }
        Ok(Some((line, bytes)))
    }

    /// Reads a line, its line break included, into `bytes`, up to two bytes more than the record
    /// limit (so that a line of the limit ending in `\r\n` is whole); false at the end of the
    /// file.
    fn read_line_within(&mut self, bytes: &mut Vec<u8>) -> Result<bool, ScanError> {
        let limit = self.max_record as u64 + 2;
        Ok((&mut self.reader).take(limit).read_until(b'\n', bytes)? > 0)
    }

    /// Puts `bytes` back in front of what is left to read.
    fn put_back(&mut self, bytes: Vec<u8>) {
        let rest = std::mem::replace(&mut self.reader, Box::new(io::empty()));
        self.reader = Box::new(io::Cursor::new(bytes).chain(rest));
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
        if let Some(path) = self.records_path.take() {
            return self.enter_path(&path);
        }
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
                // A first line longer than the record limit is an object written on one line
                // (a minified promptfoo or DeepEval file): walk into it as it streams.
                let line = self.line;
                let mut head = Vec::new();
                self.read_line_within(&mut head)?;
                let one_long_line = head.last() != Some(&b'\n') && head.len() > self.max_record;
                self.put_back(head);
                if one_long_line {
                    self.skip_space()?;
                    self.bump()?;
                    if !self.enter_container(true)? {
                        return Err(self.too_long(line));
                    }
                    self.mode = Mode::Array;
                    return Ok(());
                }
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
                    Ok(value) => {
                        // A pandas table written whole on the only line of the file.
                        if let Some(rows) = pandas_rows(&value)
                            && self.skip_space()?.is_none()
                        {
                            self.queue_rows(line, rows)?;
                            return Ok(());
                        }
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
                        self.put_back(again);
                        self.line = line;
                        self.skip_space()?;
                        if self.whole_object(line)? {
                            return Ok(());
                        }
                        self.skip_space()?;
                        self.bump()?;
                        if !self.enter_container(true)? {
                            if self.too_deep {
                                self.line = line;
                                return Err(self.structure(format!(
                                    "no records: the object is {NESTED_TOO_DEEP}, so it cannot be read as a record, and it holds no array of records"
                                )));
                            }
                            let hint = match self.arrays_seen.first() {
                                Some(key) => format!(
                                    "; its lists are under {}: --records {key} reads the records there",
                                    self.arrays_seen
                                        .iter()
                                        .map(|k| format!("`{k}`"))
                                        .collect::<Vec<_>>()
                                        .join(", ")
                                ),
                                None => "; --records PATH names the array of records".to_string(),
                            };
                            return Err(self.structure(format!(
                                "no records: expected a JSON array, JSON Lines, or an object holding them under `results.results`, `samples` or `goldens`{hint}",
                            )));
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
        self.csv_allowed.store(
            self.max_record as u64 + CSV_READ_AHEAD,
            std::sync::atomic::Ordering::Relaxed,
        );
        let reader = BoundedRows {
            inner: reader,
            read: 0,
            allowed: std::sync::Arc::clone(&self.csv_allowed),
        };
        let mut csv = csv::ReaderBuilder::new()
            .delimiter(if tabs { b'\t' } else { b',' })
            .flexible(false)
            .from_reader(reader);
        let header = match csv.headers() {
            Ok(header) => header.clone(),
            Err(e) if is_row_too_long(&e) => return Err(self.too_long(start_line)),
            Err(e) => return Err(csv_error(&e, start_line)),
        };
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
        let read = match reader.read_record(&mut row) {
            Ok(read) => read,
            Err(e) if is_row_too_long(&e) => {
                let line = *start_line + reader.position().line() as usize - 1;
                return Err(ScanError::TooLong {
                    line,
                    limit: self.max_record,
                });
            }
            Err(e) => return Err(csv_error(&e, *start_line)),
        };
        // The next row may read up to the limit past its start.
        self.csv_allowed.store(
            reader
                .position()
                .byte()
                .saturating_add(self.max_record as u64 + CSV_READ_AHEAD),
            std::sync::atomic::Ordering::Relaxed,
        );
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
                // The last line of a file cut off part way has no line break: when it is not
                // JSON either, the file was truncated, not merely holding a bad record.
                if self.pending.is_empty()
                    && !self.last_line_ended
                    && self.peek()?.is_none()
                    && serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_err()
                {
                    self.mode = Mode::Done;
                    return Err(ScanError::Structure {
                        line,
                        message: "the file ends inside a record: its last line has no line break and is not valid JSON (a cut-off file)".to_string(),
                    });
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
        self.value(Some(&mut bytes)).map_err(|e| match e {
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
        if let Some(columns) = &self.columns {
            return Ok(Some(table_row(columns, line, &bytes)));
        }
        Ok(Some(Scanned::Record(RawRecord { line, bytes })))
    }
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
