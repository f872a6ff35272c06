//! Where the answer's text stands in the response file it was read from.
//!
//! A provider response (one JSON object, an SSE stream, NDJSON) is read with serde_json, which
//! keeps no positions: the answer's text is the content of some of the file's JSON strings,
//! unescaped and joined. A [`SourceMap`] finds that text in the file again, so that the CI
//! reports can point at the line and column of a sentence inside the response file rather than
//! at an offset of the extracted text.
//!
//! It is built by alignment. The file's JSON string literals are scanned in file order (in an
//! SSE stream, those of the `data:` payloads; object keys are skipped), and each is matched,
//! decoded escape by escape (`\n`, `\"`, `\u00e9`, a surrogate pair: several file bytes for one
//! character), against the text where the previous match ended. A literal matches when all of
//! it matches, give or take white space at its ends (which some readers trim), or when the
//! text ends inside it. Characters of the text that no literal holds (a separator a reader put
//! between two parts, a marker it wrote in) are skipped: a literal may start up to [`WINDOW`]
//! bytes further on, and, once [`RESYNC`] bytes of it have matched, go on up to [`WINDOW`]
//! bytes further on. A literal that matched only by chance (a retrieved passage that equals a
//! sentence of the answer, before the answer in the file) is replaced when a later literal
//! matches from where one of the last [`RECENT`] matches started and reaches further, or as far
//! while skipping fewer characters of the text.
//!
//! The cost is linear in the file and the text: each literal is tried at the current place,
//! at the few places of the window that start with its first character, and at the starts of
//! the last few matches; a try stops at the first character that differs; and the whole
//! alignment stops when its work (bytes compared) reaches [`BUDGET`] times the size of the
//! file and the text.
//!
//! What cannot be placed is placed at the nearest character that could: a character no
//! literal holds, at the end of the placed character before it (else at the start of the one
//! after it); and when nothing at all could be placed (an answer the response holds encoded,
//! such as Bedrock Agents' base64 chunks), at the file's first character, line 1, column 1.

use std::ops::ControlFlow;
use std::ops::Range;

/// How far past the end of the previous match (in bytes of the text) a literal may start: the
/// room for what a reader inserts between two parts (`\n\n`, a marker).
pub const WINDOW: usize = 16;

/// Bytes a literal must have matched before text it does not hold (a marker a reader wrote into
/// it) may be skipped inside it.
pub const RESYNC: usize = 8;

/// How many of the last matches a literal that matches nowhere else is tried in place of.
pub const RECENT: usize = 4;

/// The alignment stops when it has compared this many times the bytes of the file and the
/// text (what is placed by then stays placed).
pub const BUDGET: usize = 32;

/// Bytes of the text per entry of its character index.
const BLOCK: usize = 1024;

/// A place in the response file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FilePosition {
    /// Byte offset in the file as given (a byte-order mark counted).
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters (Unicode scalar values; a byte-order mark not counted).
    pub column: usize,
}

/// A run of the text placed in the file: bytes copied as they are, or one character written
/// as an escape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    /// Where it starts in the text.
    text: usize,
    text_len: usize,
    /// Where it starts in the file (after a byte-order mark).
    file: usize,
    /// Its length in the file: `text_len` when copied, the escape's length otherwise.
    file_len: usize,
    /// The line and column of its start (a run never holds a line break).
    line: usize,
    column: usize,
    escaped: bool,
}

impl Segment {
    fn text_end(&self) -> usize {
        self.text + self.text_len
    }
}

/// The answer's text placed in the response file it was read from (see the module's
/// documentation). Built once per answer, when an output needs file positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceMap {
    text: String,
    /// Characters of the text before each [`BLOCK`] of it.
    chars_before: Vec<usize>,
    segments: Vec<Segment>,
    /// Bytes of the byte-order mark the file starts with (0 or 3).
    bom: usize,
    /// Bytes compared while aligning.
    work: usize,
}

impl SourceMap {
    /// Aligns `text`, the answer read from the response `file` (its bytes as given), with it.
    /// A file that is not UTF-8 gives a map that places nothing.
    pub fn new(file: &[u8], text: &str) -> SourceMap {
        let (bom, body) = match file.strip_prefix(b"\xEF\xBB\xBF") {
            Some(body) => (3, body),
            None => (0, file),
        };
        let mut aligner = Aligner::new(std::str::from_utf8(body).unwrap_or(""), text);
        aligner.run();
        let Aligner { segments, work, .. } = aligner;
        let mut chars_before = Vec::with_capacity(text.len() / BLOCK + 1);
        let mut chars = 0;
        for block in text.as_bytes().chunks(BLOCK) {
            chars_before.push(chars);
            chars += count_chars(block);
        }
        SourceMap {
            text: text.to_string(),
            chars_before,
            segments,
            bom,
            work,
        }
    }

    /// Where the character that starts at byte `at` of the text stands in the file.
    pub fn start(&self, at: usize) -> FilePosition {
        let k = self.segments.partition_point(|s| s.text_end() <= at);
        match (k.checked_sub(1), self.segments.get(k)) {
            (_, Some(s)) if s.text <= at => self.inside(s, at),
            (Some(before), _) => self.after(&self.segments[before]),
            (None, Some(s)) => self.inside(s, s.text),
            (None, None) => self.first(),
        }
    }

    /// Where the file is just past the character that ends at byte `at` of the text (an end
    /// exclusive, as SARIF's `endColumn`).
    pub fn end(&self, at: usize) -> FilePosition {
        if at == 0 {
            return self.start(0);
        }
        let k = self.segments.partition_point(|s| s.text_end() < at);
        match (k.checked_sub(1), self.segments.get(k)) {
            (_, Some(s)) if s.text < at => self.inside_end(s, at),
            (Some(before), _) => self.after(&self.segments[before]),
            (None, Some(s)) => self.inside(s, s.text),
            (None, None) => self.first(),
        }
    }

    /// Bytes of the text placed in the file.
    pub fn placed(&self) -> usize {
        self.segments.iter().map(|s| s.text_len).sum()
    }

    /// Bytes compared while aligning: linear in the file and the text, whatever they hold.
    pub fn work(&self) -> usize {
        self.work
    }

    fn first(&self) -> FilePosition {
        FilePosition {
            offset: self.bom,
            line: 1,
            column: 1,
        }
    }

    /// Where byte `at` of the text, inside `s`, is.
    fn inside(&self, s: &Segment, at: usize) -> FilePosition {
        if s.escaped {
            return self.at(s.file, s.line, s.column);
        }
        let column = s.column + self.chars_between(s.text, at);
        self.at(s.file + (at - s.text), s.line, column)
    }

    /// Where the file is just past the text of `s` that ends at `at`.
    fn inside_end(&self, s: &Segment, at: usize) -> FilePosition {
        if s.escaped {
            // An escape is ASCII: as many columns as bytes.
            return self.at(s.file + s.file_len, s.line, s.column + s.file_len);
        }
        self.inside(s, at)
    }

    fn after(&self, s: &Segment) -> FilePosition {
        self.inside_end(s, s.text_end())
    }

    fn at(&self, file: usize, line: usize, column: usize) -> FilePosition {
        FilePosition {
            offset: self.bom + file,
            line,
            column,
        }
    }

    /// Characters of the text between bytes `from` and `to`.
    fn chars_between(&self, from: usize, to: usize) -> usize {
        self.chars_before_byte(to) - self.chars_before_byte(from)
    }

    fn chars_before_byte(&self, at: usize) -> usize {
        let at = at.min(self.text.len());
        let block = at / BLOCK;
        let counted = self.chars_before.get(block).copied().unwrap_or(0);
        counted + count_chars(&self.text.as_bytes()[block * BLOCK..at])
    }
}

/// Unicode scalar values in UTF-8 bytes (those that do not continue a character).
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
}

/// Calls `each` with the content (between the quotes) of every JSON string of `file` that is
/// not an object key, in file order, until it breaks: those of the `data:` lines of an SSE
/// stream, those of the whole file otherwise. A string without its closing quote ends at the
/// end of its line.
fn literals(file: &str, mut each: impl FnMut(Range<usize>) -> ControlFlow<()>) {
    if crate::input::response::is_sse(file.trim_start()) {
        let mut start = 0;
        for line in file.split_inclusive('\n') {
            let end = start + line.len();
            if line.starts_with("data:") {
                let content = line.trim_end_matches(['\n', '\r']);
                if strings_in(file.as_bytes(), start + 5..start + content.len(), &mut each)
                    .is_break()
                {
                    return;
                }
            }
            start = end;
        }
    } else {
        let _ = strings_in(file.as_bytes(), 0..file.len(), &mut each);
    }
}

fn strings_in(
    bytes: &[u8],
    range: Range<usize>,
    each: &mut impl FnMut(Range<usize>) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let end = range.end;
    let mut i = range.start;
    while i < end {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let content = i + 1;
        let mut j = content;
        while j < end && bytes[j] != b'"' && bytes[j] != b'\n' {
            j += if bytes[j] == b'\\' { 2 } else { 1 };
        }
        let j = j.min(end);
        let mut after = if j < end && bytes[j] == b'"' {
            j + 1
        } else {
            j
        };
        while after < end && matches!(bytes[after], b' ' | b'\t' | b'\r' | b'\n') {
            after += 1;
        }
        let key = after < end && bytes[after] == b':';
        if !key && j > content {
            each(content..j)?;
        }
        i = after;
    }
    ControlFlow::Continue(())
}

/// The character the escape at the start of `raw` stands for, and its length in bytes; `None`
/// for an escape JSON does not have. A lone surrogate stands for U+FFFD, which the text cannot
/// hold there (serde_json refuses it).
fn unescape(raw: &[u8]) -> Option<(char, usize)> {
    let simple = match raw.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let high = hex4(raw.get(2..6)?)?;
            if (0xD800..0xDC00).contains(&high) {
                let low = raw
                    .get(6..12)
                    .filter(|pair| pair.starts_with(b"\\u"))
                    .and_then(|pair| hex4(&pair[2..]))
                    .filter(|low| (0xDC00..0xE000).contains(low));
                if let Some(low) = low {
                    let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return Some((char::from_u32(code)?, 12));
                }
            }
            return Some((char::from_u32(high).unwrap_or('\u{FFFD}'), 6));
        }
        _ => return None,
    };
    Some((simple, 2))
}

fn hex4(digits: &[u8]) -> Option<u32> {
    let digits = std::str::from_utf8(digits).ok()?;
    if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}

/// A match kept, in case a later literal explains its text better.
#[derive(Debug, Clone, Copy)]
struct Accepted {
    /// Where the text was when its literal was tried.
    origin: usize,
    /// How many segments there were before it.
    segments: usize,
    /// Bytes of the text from `origin` to its end that its literal does not hold.
    skipped: usize,
}

/// Walks forward through the file turning byte offsets into line:column, in one pass.
#[derive(Debug, Default)]
struct Cursor {
    offset: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn advance_to(&mut self, file: &[u8], offset: usize) -> (usize, usize) {
        if offset < self.offset {
            // Never happens (segments come in file order); were it to, start again.
            *self = Cursor::default();
        }
        for &b in &file[self.offset..offset] {
            if b == b'\n' {
                self.line += 1;
                self.column = 0;
            } else if (b & 0xC0) != 0x80 {
                self.column += 1;
            }
        }
        self.offset = offset;
        (self.line + 1, self.column + 1)
    }
}

struct Aligner<'a> {
    file: &'a str,
    text: &'a str,
    /// Where the next literal is looked for in the text.
    t: usize,
    segments: Vec<Segment>,
    /// What the literal being tried gives.
    tried: Vec<Segment>,
    recent: Vec<Accepted>,
    cursor: Cursor,
    work: usize,
    budget: usize,
}

impl<'a> Aligner<'a> {
    fn new(file: &'a str, text: &'a str) -> Self {
        Aligner {
            file,
            text,
            t: 0,
            segments: Vec::new(),
            tried: Vec::new(),
            recent: Vec::with_capacity(RECENT + 1),
            cursor: Cursor::default(),
            work: 0,
            budget: BUDGET
                .saturating_mul(file.len().saturating_add(text.len()))
                .saturating_add(4096),
        }
    }

    fn spent(&self) -> bool {
        self.work >= self.budget
    }

    fn run(&mut self) {
        let file = self.file;
        literals(file, |range| {
            // Once the text is placed, a literal can only replace matches that skipped text.
            let placed = self.t >= self.text.len() && self.recent.iter().all(|a| a.skipped == 0);
            if placed || self.spent() {
                return ControlFlow::Break(());
            }
            self.literal(range.start, &file[range]);
            ControlFlow::Continue(())
        });
    }

    /// One literal of the file, at byte `base`: matched where the text is, or in place of the
    /// last matches, or not at all.
    fn literal(&mut self, base: usize, raw: &str) {
        self.work += 1;
        let origin = self.t;
        if let Some(end) = self.try_near(base, raw, origin) {
            self.accept(origin, end);
            return;
        }
        // In place of the last matches, if it reaches further, or as far while skipping less
        // of the text (the answer's string rather than passages equal to its sentences).
        for k in 0..self.recent.len() {
            let earlier = self.recent[k];
            let Some(end) = self.try_near(base, raw, earlier.origin) else {
                continue;
            };
            let replaced: usize = self.recent[k..].iter().map(|a| a.skipped).sum();
            if end > self.t || (end == self.t && self.skipped(earlier.origin, end) < replaced) {
                self.segments.truncate(earlier.segments);
                self.recent.truncate(k);
                self.accept(earlier.origin, end);
                return;
            }
        }
    }

    /// Bytes of the text between `origin` and `end` that the literal just tried does not hold.
    fn skipped(&self, origin: usize, end: usize) -> usize {
        let held: usize = self.tried.iter().map(|s| s.text_len).sum();
        (end - origin).saturating_sub(held)
    }

    fn accept(&mut self, origin: usize, end: usize) {
        self.recent.push(Accepted {
            origin,
            segments: self.segments.len(),
            skipped: self.skipped(origin, end),
        });
        if self.recent.len() > RECENT {
            self.recent.remove(0);
        }
        for mut segment in self.tried.drain(..) {
            (segment.line, segment.column) =
                self.cursor.advance_to(self.file.as_bytes(), segment.file);
            self.segments.push(segment);
        }
        self.t = end;
    }

    /// The literal tried at `from`, then at the places of the window after it that start with
    /// its first character (or its first that is not white space): the end of the first match.
    fn try_near(&mut self, base: usize, raw: &str, from: usize) -> Option<usize> {
        if let Some(end) = self.try_at(base, raw, from) {
            return Some(end);
        }
        let (first, solid) = leading(raw);
        let limit = (from + WINDOW).min(self.text.len());
        for (k, c) in self.text[from..].char_indices().skip(1) {
            let at = from + k;
            if at > limit || self.spent() {
                break;
            }
            self.work += 1;
            if (Some(c) == first || Some(c) == solid)
                && let Some(end) = self.try_at(base, raw, at)
            {
                return Some(end);
            }
        }
        None
    }

    /// The literal `raw` (at byte `base` of the file) matched against the text at `at`: the
    /// end of the match in the text, its segments in `tried`.
    fn try_at(&mut self, base: usize, raw: &str, at: usize) -> Option<usize> {
        self.tried.clear();
        let text = self.text.as_bytes();
        let bytes = raw.as_bytes();
        let (mut i, mut t, mut matched) = (0, at, false);
        // Bytes matched since the start, or since text the literal does not hold was skipped.
        let mut run = 0;
        while i < bytes.len() {
            if t == text.len() {
                // The text ends inside the literal.
                return matched.then_some(t);
            }
            let mismatch = if bytes[i] == b'\\' {
                self.work += 1;
                let (c, len) = unescape(&bytes[i..])?;
                let mut buffer = [0; 4];
                let encoded = c.encode_utf8(&mut buffer).as_bytes();
                if text[t..].starts_with(encoded) {
                    self.tried.push(Segment {
                        text: t,
                        text_len: encoded.len(),
                        file: base + i,
                        file_len: len,
                        line: 0,
                        column: 0,
                        escaped: true,
                    });
                    t += encoded.len();
                    i += len;
                    run += encoded.len();
                    matched = true;
                    continue;
                }
                (c, len)
            } else {
                let stretch = bytes[i..]
                    .iter()
                    .position(|&b| b == b'\\')
                    .map_or(bytes.len(), |k| i + k);
                let common = bytes[i..stretch]
                    .iter()
                    .zip(&text[t..])
                    .take_while(|(a, b)| a == b)
                    .count();
                self.work += common + 1;
                let mut n = common;
                while !raw.is_char_boundary(i + n) {
                    n -= 1;
                }
                if n > 0 {
                    self.tried.push(Segment {
                        text: t,
                        text_len: n,
                        file: base + i,
                        file_len: n,
                        line: 0,
                        column: 0,
                        escaped: false,
                    });
                    t += n;
                    i += n;
                    run += n;
                    matched = true;
                }
                if i == stretch {
                    continue;
                }
                if t == text.len() {
                    continue;
                }
                let c = raw[i..].chars().next()?;
                (c, c.len_utf8())
            };
            let (c, len) = mismatch;
            if c.is_whitespace() && !matched {
                // White space the reader trimmed off the start.
                i += len;
                continue;
            }
            if c.is_whitespace() && self.blank(&raw[i..]) {
                // White space trimmed off the end: nothing but white space is left.
                return Some(t);
            }
            // Text a reader wrote into the literal's (a marker) is skipped, after a run long
            // enough that the literal is not matching by chance.
            if run < RESYNC {
                return None;
            }
            t = self.resync(t, c)?;
            run = 0;
        }
        matched.then_some(t)
    }

    /// Where, within the window after `t`, the text goes on with `c`.
    fn resync(&mut self, t: usize, c: char) -> Option<usize> {
        let limit = (t + WINDOW).min(self.text.len());
        for (k, found) in self.text[t..].char_indices().skip(1) {
            self.work += 1;
            if t + k > limit {
                break;
            }
            if found == c {
                return Some(t + k);
            }
        }
        None
    }

    /// Whether the rest of a literal is white space only, escapes decoded.
    fn blank(&mut self, mut rest: &str) -> bool {
        while let Some(c) = rest.chars().next() {
            self.work += 1;
            let (c, len) = if c == '\\' {
                match unescape(rest.as_bytes()) {
                    Some(decoded) => decoded,
                    None => return false,
                }
            } else {
                (c, c.len_utf8())
            };
            if !c.is_whitespace() {
                return false;
            }
            // An escape is ASCII, so `len` ends on a character boundary.
            rest = &rest[len..];
        }
        true
    }
}

/// The first character of a literal, and its first that is not white space (looked for in its
/// first 64 bytes).
fn leading(raw: &str) -> (Option<char>, Option<char>) {
    let mut first = None;
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() && i < 64 {
        let (c, len) = if bytes[i] == b'\\' {
            match unescape(&bytes[i..]) {
                Some(decoded) => decoded,
                None => break,
            }
        } else {
            match raw[i..].chars().next() {
                Some(c) => (c, c.len_utf8()),
                None => break,
            }
        };
        first.get_or_insert(c);
        if !c.is_whitespace() {
            return (first, Some(c));
        }
        i += len;
    }
    (first, None)
}

#[cfg(test)]
mod tests;
