//! Input stage: decodes the answer and the chunks from bytes and recognises their formats.
//! Provider responses and framework outputs (Ollama, OpenAI, Anthropic, Bedrock, LangChain, ...)
//! are read in [`response`] into the same [`Answer`]: the answer's text, the citations the
//! provider attached to spans of it, the sources it carries, and what the response says about
//! itself (cut off, token counts).

pub mod response;

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;
use serde_json::Value;

use crate::error::InputError;

/// How the answer is written. `--answer-format` takes the kebab-case names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum AnswerFormat {
    /// Plain text or Markdown.
    #[default]
    Text,
    /// Ollama `/api/chat` (`message.content`) or `/api/generate` (`response`), one JSON object
    /// or the NDJSON stream.
    Ollama,
    /// OpenAI Chat Completions (`choices[0].message.content`), one JSON object or the SSE stream.
    Openai,
    /// OpenAI Responses API (`output[].content[]` parts of type `output_text`), one JSON object
    /// or the SSE stream.
    OpenaiResponses,
    /// Anthropic Messages (`content[]` text blocks with their `citations`).
    Anthropic,
    /// Cohere Chat v2 (`message.content[].text`, `message.citations`).
    Cohere,
    /// Gemini `generateContent` (`candidates[0].content.parts[].text`, `groundingMetadata`).
    Gemini,
    /// A JSON answer with an explicit citation list:
    /// `{"answer": "...", "citations": [{"source": 2, "quote": "..."}]}`.
    CitationList,
    /// Azure OpenAI "On Your Data": a chat completion whose `message.context.citations` are the
    /// sources, `[docN]` naming the N-th.
    Azure,
    /// Perplexity Sonar: a chat completion with `search_results`, `[N]` naming the N-th.
    Perplexity,
    /// Mistral chat with `reference` content chunks.
    Mistral,
    /// AWS Bedrock Knowledge Bases `RetrieveAndGenerate` (`output.text`, `citations`).
    Bedrock,
    /// AWS Bedrock Converse with document citations (`citationsContent`).
    BedrockConverse,
    /// LangChain `create_retrieval_chain` output (`answer`, `context`).
    Langchain,
    /// LlamaIndex `Response` (`response`, `source_nodes`).
    Llamaindex,
    /// Haystack pipeline output with `AnswerBuilder` answers.
    Haystack,
}

impl AnswerFormat {
    pub const ALL: [AnswerFormat; 16] = [
        AnswerFormat::Text,
        AnswerFormat::Ollama,
        AnswerFormat::Openai,
        AnswerFormat::OpenaiResponses,
        AnswerFormat::Anthropic,
        AnswerFormat::Cohere,
        AnswerFormat::Gemini,
        AnswerFormat::CitationList,
        AnswerFormat::Azure,
        AnswerFormat::Perplexity,
        AnswerFormat::Mistral,
        AnswerFormat::Bedrock,
        AnswerFormat::BedrockConverse,
        AnswerFormat::Langchain,
        AnswerFormat::Llamaindex,
        AnswerFormat::Haystack,
    ];

    /// The kebab-case name, as `--answer-format` takes it and `inputs` reports it.
    pub fn name(self) -> &'static str {
        match self {
            AnswerFormat::Text => "text",
            AnswerFormat::Ollama => "ollama",
            AnswerFormat::Openai => "openai",
            AnswerFormat::OpenaiResponses => "openai-responses",
            AnswerFormat::Anthropic => "anthropic",
            AnswerFormat::Cohere => "cohere",
            AnswerFormat::Gemini => "gemini",
            AnswerFormat::CitationList => "citation-list",
            AnswerFormat::Azure => "azure",
            AnswerFormat::Perplexity => "perplexity",
            AnswerFormat::Mistral => "mistral",
            AnswerFormat::Bedrock => "bedrock",
            AnswerFormat::BedrockConverse => "bedrock-converse",
            AnswerFormat::Langchain => "langchain",
            AnswerFormat::Llamaindex => "llamaindex",
            AnswerFormat::Haystack => "haystack",
        }
    }

    /// What it is, in one line (`--answer-format` help).
    pub fn summary(self) -> &'static str {
        match self {
            AnswerFormat::Text => "Plain text or Markdown",
            AnswerFormat::Ollama => "Ollama /api/chat or /api/generate, JSON or NDJSON stream",
            AnswerFormat::Openai => "OpenAI Chat Completions, JSON or SSE stream",
            AnswerFormat::OpenaiResponses => "OpenAI Responses API, with file search results",
            AnswerFormat::Anthropic => "Anthropic Messages, with citations",
            AnswerFormat::Cohere => "Cohere Chat v2, with citations",
            AnswerFormat::Gemini => "Gemini or Vertex AI generateContent, with grounding metadata",
            AnswerFormat::CitationList => {
                "{\"answer\": ..., \"citations\": [{\"source\", \"quote\"}]}"
            }
            AnswerFormat::Azure => "Azure OpenAI On Your Data, [docN] = N-th citation",
            AnswerFormat::Perplexity => "Perplexity Sonar, with search_results",
            AnswerFormat::Mistral => "Mistral chat with reference chunks",
            AnswerFormat::Bedrock => "AWS Bedrock Knowledge Bases RetrieveAndGenerate",
            AnswerFormat::BedrockConverse => "AWS Bedrock Converse, with document citations",
            AnswerFormat::Langchain => "LangChain retrieval chain output {answer, context}",
            AnswerFormat::Llamaindex => "LlamaIndex Response {response, source_nodes}",
            AnswerFormat::Haystack => "Haystack pipeline output with AnswerBuilder answers",
        }
    }
}

/// Which chunk a provider's citation names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CitationTarget {
    /// A 0-based position among the chunks in input order (Gemini `groundingChunkIndices`,
    /// Bedrock Converse `documentIndex`).
    Position(usize),
    /// A label resolved exactly like a marker's (`2`, `doc2`, a file id, a URL): the citation
    /// list's `source`, a Mistral reference id, an OpenAI file or URL citation.
    Label(String),
    /// The chunk with this id (or source name); failing that, the chunk at `position` (Cohere
    /// source ids such as `doc:0`; Anthropic's `document_index`, whose request names its
    /// documents `document-<n>`).
    IdOrPosition { id: String, position: Option<usize> },
}

/// A citation the provider attached to the answer instead of writing a marker into the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NativeCitation {
    /// Byte span of `Answer::text` the citation covers; `None` when it covers no particular
    /// span (the citation list's entries).
    pub span: Option<std::ops::Range<usize>>,
    pub target: CitationTarget,
    /// The text the provider says the chunk holds (Anthropic `cited_text`, the citation list's
    /// `quote`), verified as a quotation in that chunk.
    pub quote: Option<String>,
}

/// Token counts a response reports about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Tokens of the prompt (Ollama `prompt_eval_count`, OpenAI `prompt_tokens` /
    /// `input_tokens`, Anthropic `input_tokens`, Cohere `tokens.input_tokens`, Gemini
    /// `promptTokenCount`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<u64>,
    /// Tokens of the answer (Ollama `eval_count`, OpenAI `completion_tokens` /
    /// `output_tokens`, Anthropic `output_tokens`, Cohere `tokens.output_tokens`, Gemini
    /// `candidatesTokenCount`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_tokens: Option<u64>,
}

/// The answer, ready for the sentence stage.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    /// The answer's text: the file as given for `text`, the joined content of a response.
    pub text: String,
    /// Bytes of the input before `text` (a byte-order mark), so that reported spans are
    /// offsets into the input as given. Zero for responses: their spans are offsets into
    /// `text`.
    pub offset: usize,
    pub format: AnswerFormat,
    /// Whether the response was a stream (NDJSON or SSE) joined into one text.
    pub streamed: bool,
    /// Citations the provider attached to spans of the text.
    pub citations: Vec<NativeCitation>,
    /// Token counts the response reports, if any.
    pub usage: Option<Usage>,
    /// What the response says that a reader should know: cut off by the token limit, an error
    /// inside the stream, no citation at all, a citation to a source that does not exist.
    pub warnings: Vec<String>,
    /// The retrieved chunks the response carries beside the answer (Bedrock's references, Azure's
    /// citations, a LangChain chain's context, ...); `None` when it carries none.
    pub sources: Option<Chunks>,
}

/// How the chunks were written. Reports name it by [`ChunkFormat::name`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ChunkFormat {
    /// A JSON array of objects or strings, or an object holding one.
    Json,
    /// JSON Lines: one object or string per line.
    JsonLines,
    /// Blocks starting with `[id]` at the beginning of a line.
    BracketBlocks,
    /// Blocks starting with `id:` at the beginning of a line.
    ColonBlocks,
    /// Text separated by lines that hold only `---`.
    DashSeparated,
    /// Text separated by blank lines.
    BlankLineSeparated,
    /// CSV with a header naming an id column and a text column.
    Csv,
    /// Markdown with one heading per source (`## Source 1`, `### [2] Title`).
    MarkdownHeadings,
    /// A provider's or framework's own list of sources (Bedrock `Retrieve` results, Azure
    /// citations, an Anthropic request's documents, ...), or the sources a response carries.
    Sources(AnswerFormat),
}

impl ChunkFormat {
    /// The kebab-case name reports give it: `json`, `csv`, `bracket-blocks`; a provider's sources
    /// are named by the provider (`bedrock`, `anthropic`).
    pub fn name(self) -> &'static str {
        match self {
            ChunkFormat::Json => "json",
            ChunkFormat::JsonLines => "json-lines",
            ChunkFormat::BracketBlocks => "bracket-blocks",
            ChunkFormat::ColonBlocks => "colon-blocks",
            ChunkFormat::DashSeparated => "dash-separated",
            ChunkFormat::BlankLineSeparated => "blank-line-separated",
            ChunkFormat::Csv => "csv",
            ChunkFormat::MarkdownHeadings => "markdown-headings",
            ChunkFormat::Sources(format) => format.name(),
        }
    }
}

impl Serialize for ChunkFormat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One retrieved chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chunk {
    /// What reports call it, and what a marker names it by.
    pub id: String,
    pub text: String,
    /// Other names a citation may give it: its document's file name, file id or URL (shared by
    /// every chunk of that document), or its id in the stack when reports call it by the number
    /// markers cite.
    pub aliases: Vec<String>,
}

/// The chunks, in input order.
#[derive(Debug, Clone)]
pub struct Chunks {
    pub chunks: Vec<Chunk>,
    pub format: ChunkFormat,
    pub warnings: Vec<String>,
    /// The stack numbers its sources itself and the ids are those numbers (Haystack's
    /// `source_index`, whose list may skip numbers): a bare number in a marker names the chunk
    /// with that id, never the n-th chunk.
    pub ids_are_numbers: bool,
}

/// Field names accepted for a chunk's id, first present wins.
pub const ID_FIELDS: &[&str] = &[
    "id",
    "doc_id",
    "docId",
    "chunk_id",
    "chunkId",
    "document_id",
    "documentId",
    "source_id",
    "sourceId",
];

/// Field names accepted for a chunk's text, first present wins.
pub const TEXT_FIELDS: &[&str] = &[
    "text",
    "content",
    "page_content",
    "pageContent",
    "chunk",
    "passage",
    "body",
    "snippet",
];

/// Fields that name the document a chunk comes from (its file, file id or URL), looked for in the
/// chunk object and in its `metadata` or `meta`: each present one is another name of the chunk,
/// shared with the other chunks of that document (`(source: report.pdf)` cites them all).
pub const SOURCE_FIELDS: &[&str] = &[
    "source",
    "url",
    "uri",
    "file_id",
    "filename",
    "file_name",
    "filepath",
    "file_path",
];

/// The other names of a chunk object: its [`SOURCE_FIELDS`] that are strings, its own first,
/// then its `metadata`'s and `meta`'s, each once.
pub(crate) fn source_names(object: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let nested = ["metadata", "meta"]
        .into_iter()
        .filter_map(|k| object.get(k)?.as_object());
    for fields in std::iter::once(object).chain(nested) {
        for key in SOURCE_FIELDS {
            if let Some(Value::String(name)) = fields.get(*key)
                && !name.is_empty()
                && !names.contains(name)
            {
                names.push(name.clone());
            }
        }
    }
    names
}

/// Keys under which an object may hold the array of chunks.
pub const ARRAY_FIELDS: &[&str] = &["chunks", "documents", "contexts", "sources"];

/// Decodes bytes as UTF-8: a leading byte-order mark is dropped; invalid UTF-8 is an error at
/// its byte offset.
pub fn decode(bytes: &[u8]) -> Result<&str, InputError> {
    let (bom, body) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(body) => (3, body),
        None => (0, bytes),
    };
    std::str::from_utf8(body).map_err(|e| InputError::InvalidUtf8 {
        offset: bom + e.valid_up_to(),
    })
}

/// Reads the answer, in `format` or the format recognised from its content. A BOM is dropped;
/// an answer with no visible text is an error.
pub fn read_answer(bytes: &[u8], format: Option<AnswerFormat>) -> Result<Answer, InputError> {
    let text = decode(bytes)?;
    if text.trim().is_empty() {
        return Err(InputError::Empty { what: "answer" });
    }
    let format = match format {
        Some(format) => format,
        None => response::detect(text)?,
    };
    if format != AnswerFormat::Text {
        return response::read(text, format);
    }
    Ok(Answer {
        offset: bytes.len() - text.len(),
        text: text.to_string(),
        format,
        ..Answer::default()
    })
}

/// Reads the chunks, recognising their format. `json_name` says the file is named `.json` or
/// `.jsonl`, which makes it JSON whatever it starts with.
pub fn read_chunks(bytes: &[u8], json_name: bool) -> Result<Chunks, InputError> {
    let text = decode(bytes)?;
    if text.trim().is_empty() {
        return Err(InputError::Empty {
            what: "chunks file",
        });
    }
    if json_name || looks_like_json(text) {
        return read_json_chunks(text);
    }
    let (chunks, format) = read_text_chunks(text);
    finish_chunks(chunks, format)
}

/// Chunks given as a JSON value inside another document (an eval record's contexts): one
/// string, an array of strings or objects, or an object holding such an array.
pub fn chunks_from_value(value: Value) -> Result<Chunks, InputError> {
    let items = match value {
        Value::Array(items) => items,
        Value::String(_) => vec![value],
        Value::Object(mut object) => match ARRAY_FIELDS
            .iter()
            .find_map(|k| object.get_mut(*k).filter(|v| v.is_array()).map(Value::take))
        {
            Some(Value::Array(items)) => items,
            _ => vec![Value::Object(object)],
        },
        Value::Null => Vec::new(),
        other => {
            return Err(InputError::ChunkShape {
                position: None,
                message: format!("expected a list of contexts, found {}", json_kind(&other)),
            });
        }
    };
    let chunks = items
        .into_iter()
        .enumerate()
        .map(|(k, item)| json_chunk(item, k, None))
        .collect::<Result<_, _>>()?;
    finish_chunks(chunks, ChunkFormat::Json)
}

/// Refuses duplicate ids and warns about empty chunks.
pub(crate) fn finish_chunks(chunks: Vec<Chunk>, format: ChunkFormat) -> Result<Chunks, InputError> {
    let mut warnings = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (position, chunk) in chunks.iter().enumerate() {
        if let Some(first) = seen.insert(&chunk.id, position) {
            return Err(InputError::DuplicateId {
                id: chunk.id.clone(),
                first: first + 1,
                second: position + 1,
            });
        }
        if chunk.text.trim().is_empty() {
            warnings.push(format!("chunk {} is empty", chunk.id));
        }
    }
    if chunks.is_empty() {
        warnings.push("there are no chunks: every citation is unknown".to_string());
    }
    Ok(Chunks {
        chunks,
        format,
        warnings,
        ids_are_numbers: false,
    })
}

/// JSON when the first visible text is `{`, `[{`, `["`, `[[`, `[]`, or `[` followed by a JSON
/// value and the whole text parses (so `[1] text` stays a text block).
fn looks_like_json(text: &str) -> bool {
    let start = text.trim_start();
    if start.starts_with('{') {
        return true;
    }
    let Some(after) = start.strip_prefix('[') else {
        return false;
    };
    let after = after.trim_start();
    after.starts_with(['{', '"', '[', ']']) || serde_json::from_str::<Value>(text).is_ok()
}

fn json_error(e: &serde_json::Error) -> InputError {
    InputError::Json {
        line: e.line(),
        column: e.column(),
        message: strip_position(&e.to_string()),
    }
}

/// serde_json ends its messages with " at line L column C"; we report those separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(k) => message[..k].to_string(),
        None => message.to_string(),
    }
}

fn read_json_chunks(text: &str) -> Result<Chunks, InputError> {
    let mut values = Vec::new();
    let mut lines = Vec::new();
    let stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut stream = stream;
    loop {
        let offset = stream.byte_offset();
        match stream.next() {
            None => break,
            Some(Ok(value)) => {
                let skipped = text[offset..].len() - text[offset..].trim_start().len();
                lines.push(1 + text[..offset + skipped].matches('\n').count());
                values.push(value);
            }
            Some(Err(e)) => return Err(json_error(&e)),
        }
    }
    if values.len() == 1 {
        let value = values.pop().unwrap_or(Value::Null);
        if let Some(chunks) = response::chunks_of(&value, text) {
            return chunks;
        }
        let items = match value {
            Value::Array(items) => items,
            Value::Object(mut object) => {
                match ARRAY_FIELDS
                    .iter()
                    .find_map(|k| object.get_mut(*k).filter(|v| v.is_array()).map(Value::take))
                {
                    Some(Value::Array(items)) => items,
                    _ if TEXT_FIELDS.iter().any(|k| object.contains_key(*k)) => {
                        vec![Value::Object(object)]
                    }
                    _ => {
                        return Err(InputError::ChunkShape {
                            position: None,
                            message: format!(
                                "expected an array of chunks, or an object holding one under {}",
                                quoted_list(ARRAY_FIELDS)
                            ),
                        });
                    }
                }
            }
            Value::String(_) => vec![value],
            other => {
                return Err(InputError::ChunkShape {
                    position: None,
                    message: format!("expected an array of chunks, found {}", json_kind(&other)),
                });
            }
        };
        let chunks = items
            .into_iter()
            .enumerate()
            .map(|(k, item)| json_chunk(item, k, None))
            .collect::<Result<_, _>>()?;
        return finish_chunks(chunks, ChunkFormat::Json);
    }
    let chunks = values
        .into_iter()
        .zip(lines)
        .enumerate()
        .map(|(k, (item, line))| json_chunk(item, k, Some(line)))
        .collect::<Result<_, _>>()?;
    finish_chunks(chunks, ChunkFormat::JsonLines)
}

fn quoted_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    quoted.join(", ")
}

/// How a JSON value is called in messages: `a number`, `an object`.
pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// One chunk from a JSON item at `position` (0-based); `line` is its line in JSON Lines.
fn json_chunk(item: Value, position: usize, line: Option<usize>) -> Result<Chunk, InputError> {
    let at = ChunkPosition {
        index: position + 1,
        line,
    };
    let fallback_id = (position + 1).to_string();
    match item {
        Value::String(text) => Ok(Chunk {
            id: fallback_id,
            text,
            ..Chunk::default()
        }),
        Value::Object(object) => {
            let id = match ID_FIELDS.iter().find_map(|k| object.get(*k)) {
                None | Some(Value::Null) => fallback_id,
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => n.to_string(),
                Some(other) => {
                    return Err(InputError::ChunkShape {
                        position: Some(at),
                        message: format!(
                            "its id is {}; expected a string or a number",
                            json_kind(other)
                        ),
                    });
                }
            };
            let text = match TEXT_FIELDS.iter().find_map(|k| object.get(*k)) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) => String::new(),
                Some(other) => {
                    return Err(InputError::ChunkShape {
                        position: Some(at),
                        message: format!("its text is {}; expected a string", json_kind(other)),
                    });
                }
                None => {
                    return Err(InputError::ChunkShape {
                        position: Some(at),
                        message: format!("it has no text field ({})", quoted_list(TEXT_FIELDS)),
                    });
                }
            };
            Ok(Chunk {
                id,
                text,
                ..Chunk::default()
            })
        }
        other => Err(InputError::ChunkShape {
            position: Some(at),
            message: format!(
                "it is {}; expected an object with a text field, or a string",
                json_kind(&other)
            ),
        }),
    }
}

/// Where a chunk stands in its file, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkPosition {
    /// 1-based position among the chunks.
    pub index: usize,
    /// 1-based line, in JSON Lines.
    pub line: Option<usize>,
}

static BRACKET_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[([\p{L}\p{N}_.\-]+)\][ \t]*(.*)$").unwrap());
static COLON_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([\p{L}\p{N}_.\-]+):(?:[ \t]+(.*))?$").unwrap());

fn read_text_chunks(text: &str) -> (Vec<Chunk>, ChunkFormat) {
    let lines: Vec<&str> = text.lines().collect();
    let first = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .copied()
        .unwrap_or("");
    if BRACKET_HEADER.is_match(first) {
        return (
            headed_blocks(&lines, &BRACKET_HEADER),
            ChunkFormat::BracketBlocks,
        );
    }
    if COLON_HEADER.is_match(first) && every_paragraph_starts_with(&lines, &COLON_HEADER) {
        return (
            headed_blocks(&lines, &COLON_HEADER),
            ChunkFormat::ColonBlocks,
        );
    }
    if lines.iter().any(|l| l.trim() == "---") {
        return (dash_separated(&lines), ChunkFormat::DashSeparated);
    }
    let chunks = paragraphs(&lines)
        .into_iter()
        .enumerate()
        .map(|(k, p)| Chunk {
            id: (k + 1).to_string(),
            text: p.join("\n"),
            ..Chunk::default()
        })
        .collect();
    (chunks, ChunkFormat::BlankLineSeparated)
}

fn paragraphs<'a>(lines: &[&'a str]) -> Vec<Vec<&'a str>> {
    let mut out: Vec<Vec<&str>> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in lines {
        if line.trim().is_empty() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
        } else {
            current.push(line.trim_end());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

fn every_paragraph_starts_with(lines: &[&str], header: &Regex) -> bool {
    paragraphs(lines).iter().all(|p| header.is_match(p[0]))
}

/// Blocks that each start at a header line (`[id] text` or `id: text`).
fn headed_blocks(lines: &[&str], header: &Regex) -> Vec<Chunk> {
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut body: Vec<&str> = Vec::new();
    let flush = |chunks: &mut Vec<Chunk>, body: &mut Vec<&str>| {
        if let Some(last) = chunks.last_mut() {
            last.text = body.join("\n").trim().to_string();
        }
        body.clear();
    };
    for line in lines {
        if let Some(caps) = header.captures(line) {
            flush(&mut chunks, &mut body);
            chunks.push(Chunk {
                id: caps[1].to_string(),
                ..Chunk::default()
            });
            body.push(caps.get(2).map_or("", |m| m.as_str()));
        } else if !chunks.is_empty() {
            body.push(line.trim_end());
        }
    }
    flush(&mut chunks, &mut body);
    chunks
}

fn dash_separated(lines: &[&str]) -> Vec<Chunk> {
    let mut pieces: Vec<String> = vec![String::new()];
    for line in lines {
        if line.trim() == "---" {
            pieces.push(String::new());
        } else if let Some(last) = pieces.last_mut() {
            last.push_str(line.trim_end());
            last.push('\n');
        }
    }
    let mut pieces: Vec<String> = pieces.into_iter().map(|p| p.trim().to_string()).collect();
    while pieces.first().is_some_and(String::is_empty) {
        pieces.remove(0);
    }
    while pieces.last().is_some_and(String::is_empty) {
        pieces.pop();
    }
    pieces
        .into_iter()
        .enumerate()
        .map(|(k, text)| Chunk {
            id: (k + 1).to_string(),
            text,
            ..Chunk::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Chunks {
        read_chunks(text.as_bytes(), false).unwrap()
    }

    fn ids_and_texts(chunks: &Chunks) -> Vec<(&str, &str)> {
        chunks
            .chunks
            .iter()
            .map(|c| (c.id.as_str(), c.text.as_str()))
            .collect()
    }

    #[test]
    fn json_objects_with_id_and_text_aliases() {
        let chunks = read(
            r#"[{"id": "a", "text": "one"}, {"doc_id": 7, "content": "two"},
                {"chunk_id": "c", "page_content": "three"}, {"chunk": "four"}]"#,
        );
        assert_eq!(chunks.format, ChunkFormat::Json);
        assert_eq!(
            ids_and_texts(&chunks),
            [("a", "one"), ("7", "two"), ("c", "three"), ("4", "four")]
        );
    }

    #[test]
    fn json_strings_are_numbered_from_one() {
        let chunks = read(r#"["one", "two"]"#);
        assert_eq!(ids_and_texts(&chunks), [("1", "one"), ("2", "two")]);
    }

    #[test]
    fn json_object_holding_an_array() {
        for key in ARRAY_FIELDS {
            let chunks = read(&format!(
                r#"{{"{key}": ["one", {{"id": "x", "text": "two"}}]}}"#
            ));
            assert_eq!(
                ids_and_texts(&chunks),
                [("1", "one"), ("x", "two")],
                "{key}"
            );
        }
    }

    #[test]
    fn json_lines() {
        let chunks =
            read("{\"id\": \"a\", \"text\": \"one\"}\n\n{\"id\": \"b\", \"text\": \"two\"}\n");
        assert_eq!(chunks.format, ChunkFormat::JsonLines);
        assert_eq!(ids_and_texts(&chunks), [("a", "one"), ("b", "two")]);
    }

    #[test]
    fn bracket_blocks() {
        let chunks = read("[doc1] The first\nchunk text.\n[doc2]\nThe second.\n\n[3] Third.");
        assert_eq!(chunks.format, ChunkFormat::BracketBlocks);
        assert_eq!(
            ids_and_texts(&chunks),
            [
                ("doc1", "The first\nchunk text."),
                ("doc2", "The second."),
                ("3", "Third.")
            ]
        );
    }

    #[test]
    fn colon_blocks() {
        let chunks = read("doc1: The first.\ndoc2: The second.\n\nsource_3: The third.\n");
        assert_eq!(chunks.format, ChunkFormat::ColonBlocks);
        assert_eq!(
            ids_and_texts(&chunks),
            [
                ("doc1", "The first."),
                ("doc2", "The second."),
                ("source_3", "The third.")
            ]
        );
    }

    #[test]
    fn colon_form_needs_every_paragraph_to_start_with_an_id() {
        let chunks = read("Note: the first paragraph.\n\nA second paragraph.");
        assert_eq!(chunks.format, ChunkFormat::BlankLineSeparated);
        assert_eq!(chunks.chunks.len(), 2);
    }

    #[test]
    fn dash_separated() {
        let chunks = read("---\nOne.\nStill one.\n---\nTwo.\n---\n");
        assert_eq!(chunks.format, ChunkFormat::DashSeparated);
        assert_eq!(
            ids_and_texts(&chunks),
            [("1", "One.\nStill one."), ("2", "Two.")]
        );
    }

    #[test]
    fn blank_line_separated() {
        let chunks = read("One.\r\nStill one.\r\n\r\n  \r\nTwo.");
        assert_eq!(chunks.format, ChunkFormat::BlankLineSeparated);
        assert_eq!(
            ids_and_texts(&chunks),
            [("1", "One.\nStill one."), ("2", "Two.")]
        );
    }

    #[test]
    fn a_bracketed_number_starting_text_is_not_json() {
        let chunks = read("[1] Paris is big.\n[2] Rome is old.");
        assert_eq!(chunks.format, ChunkFormat::BracketBlocks);
    }

    #[test]
    fn json_by_file_name_whatever_it_starts_with() {
        let err = read_chunks(b"  not json", true).unwrap_err();
        assert!(matches!(err, InputError::Json { line: 1, .. }), "{err:?}");
    }

    #[test]
    fn malformed_json_names_line_and_column() {
        let err = read_chunks(
            b"[\n  {\"id\": 1, \"text\": \"a\"}\n  {\"id\": 2}\n]",
            false,
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid JSON at line 3, column 3: expected `,` or `]`"
        );
    }

    #[test]
    fn duplicate_ids_are_an_error() {
        let err = read_chunks(
            br#"[{"id": "a", "text": "x"}, {"id": "a", "text": "y"}]"#,
            false,
        )
        .unwrap_err();
        assert_eq!(err.to_string(), "duplicate chunk id `a` (chunks 1 and 2)");
    }

    #[test]
    fn empty_chunks_are_kept_with_a_warning() {
        let chunks = read(r#"[{"id": "a", "text": ""}, "b"]"#);
        assert_eq!(chunks.chunks.len(), 2);
        assert_eq!(chunks.warnings, ["chunk a is empty"]);
    }

    #[test]
    fn wrong_shapes_are_errors_with_positions() {
        let err = read_chunks(br#"[{"id": "a", "text": 3}]"#, false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "chunk 1: its text is a number; expected a string"
        );
        let err = read_chunks(b"{\"text\": \"a\"}\n{\"title\": \"b\"}", false).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("chunk 2 (line 2): it has no text field"),
            "{err}"
        );
        let err = read_chunks(b"42", true).unwrap_err();
        assert_eq!(
            err.to_string(),
            "expected an array of chunks, found a number"
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(100_000);
        assert!(matches!(
            read_chunks(deep.as_bytes(), false),
            Err(InputError::Json { .. })
        ));
    }

    #[test]
    fn invalid_utf8_names_the_byte_offset() {
        let err = read_answer(b"\xEF\xBB\xBFabc\xFFdef", None).unwrap_err();
        assert_eq!(err.to_string(), "invalid UTF-8 at byte 6");
        let err = read_chunks(b"ab\xC3", false).unwrap_err();
        assert_eq!(err.to_string(), "invalid UTF-8 at byte 2");
    }

    #[test]
    fn empty_answer_is_an_error() {
        assert_eq!(
            read_answer(b" \n\t", None).unwrap_err().to_string(),
            "the answer is empty"
        );
    }
}
