//! Input stage: decodes the answer and the chunks from bytes and recognises their formats.
//! Provider responses and framework outputs (Ollama, OpenAI, Anthropic, Bedrock, LangChain, ...)
//! are read in [`response`] into the same [`Answer`]: the answer's text, the citations the
//! provider attached to spans of it, the sources it carries, and what the response says about
//! itself (cut off, token counts).

pub mod chunks;
mod error;
pub mod path;
pub mod response;
pub mod source_map;
pub use path::lookup;
pub use source_map::{FilePosition, SourceMap};

#[cfg(test)]
pub(crate) mod testing;

use serde::Serialize;
use serde_json::Value;

pub use chunks::{
    ARRAY_FIELDS, ID_FIELDS, SOURCE_FIELDS, TEXT_FIELDS, chunks_from_value, read_chunks,
    read_chunks_named,
};
pub(crate) use chunks::{finish_chunks, source_names};

pub use error::InputError;

/// How the answer is written. `--answer-format` takes the kebab-case names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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
    /// OpenAI Assistants API v2 messages list (the latest assistant message, its
    /// `file_citation` annotations).
    OpenaiAssistants,
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
    /// AWS Bedrock Agents `InvokeAgent` events (`chunk.bytes`, `chunk.attribution.citations`,
    /// the knowledge base lookups of the traces).
    BedrockAgents,
    /// LangChain `create_retrieval_chain` output (`answer`, `context`).
    Langchain,
    /// LlamaIndex `Response` (`response`, `source_nodes`).
    Llamaindex,
    /// Haystack pipeline output with `AnswerBuilder` answers.
    Haystack,
    /// Open WebUI chat export (the current message of one chat, its `sources`, `[N]` naming the
    /// N-th source file).
    OpenWebui,
    /// A format described as data: a built-in profile or one of the user's `[[format]]` tables.
    Profile(ProfileRef),
}

/// A profile, compared and hashed by its name.
#[derive(Clone, Copy)]
pub struct ProfileRef(pub &'static response::profile::Profile);

impl PartialEq for ProfileRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.name() == other.0.name()
    }
}

impl Eq for ProfileRef {}

impl std::hash::Hash for ProfileRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name().hash(state);
    }
}

impl std::fmt::Debug for ProfileRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Profile({})", self.0.name())
    }
}

/// A format is written as its name.
impl Serialize for AnswerFormat {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl AnswerFormat {
    pub const ALL: [AnswerFormat; 19] = [
        AnswerFormat::Text,
        AnswerFormat::Ollama,
        AnswerFormat::Openai,
        AnswerFormat::OpenaiResponses,
        AnswerFormat::OpenaiAssistants,
        AnswerFormat::Anthropic,
        AnswerFormat::Cohere,
        AnswerFormat::Gemini,
        AnswerFormat::CitationList,
        AnswerFormat::Azure,
        AnswerFormat::Perplexity,
        AnswerFormat::Mistral,
        AnswerFormat::Bedrock,
        AnswerFormat::BedrockConverse,
        AnswerFormat::BedrockAgents,
        AnswerFormat::Langchain,
        AnswerFormat::Llamaindex,
        AnswerFormat::Haystack,
        AnswerFormat::OpenWebui,
    ];

    /// The kebab-case name, as `--answer-format` takes it and `inputs` reports it.
    pub fn name(self) -> &'static str {
        match self {
            AnswerFormat::Text => "text",
            AnswerFormat::Ollama => "ollama",
            AnswerFormat::Openai => "openai",
            AnswerFormat::OpenaiResponses => "openai-responses",
            AnswerFormat::OpenaiAssistants => "openai-assistants",
            AnswerFormat::Anthropic => "anthropic",
            AnswerFormat::Cohere => "cohere",
            AnswerFormat::Gemini => "gemini",
            AnswerFormat::CitationList => "citation-list",
            AnswerFormat::Azure => "azure",
            AnswerFormat::Perplexity => "perplexity",
            AnswerFormat::Mistral => "mistral",
            AnswerFormat::Bedrock => "bedrock",
            AnswerFormat::BedrockConverse => "bedrock-converse",
            AnswerFormat::BedrockAgents => "bedrock-agents",
            AnswerFormat::Langchain => "langchain",
            AnswerFormat::Llamaindex => "llamaindex",
            AnswerFormat::Haystack => "haystack",
            AnswerFormat::OpenWebui => "open-webui",
            AnswerFormat::Profile(profile) => profile.0.spec.name.as_str(),
        }
    }

    /// Every format: the built-in readers, then the profiles.
    pub fn every() -> Vec<AnswerFormat> {
        AnswerFormat::ALL
            .into_iter()
            .chain(
                response::profile::all()
                    .into_iter()
                    .map(|p| AnswerFormat::Profile(ProfileRef(p))),
            )
            .collect()
    }

    /// What it is, in one line (`--answer-format` help).
    pub fn summary(self) -> &'static str {
        match self {
            AnswerFormat::Text => "Plain text or Markdown",
            AnswerFormat::Ollama => "Ollama /api/chat or /api/generate, JSON or NDJSON stream",
            AnswerFormat::Openai => "OpenAI Chat Completions, JSON or SSE stream",
            AnswerFormat::OpenaiResponses => "OpenAI Responses API, with file search results",
            AnswerFormat::OpenaiAssistants => {
                "OpenAI Assistants messages list, with file citations"
            }
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
            AnswerFormat::BedrockAgents => "AWS Bedrock Agents InvokeAgent events, with traces",
            AnswerFormat::Langchain => "LangChain retrieval chain output {answer, context}",
            AnswerFormat::Llamaindex => "LlamaIndex Response {response, source_nodes}",
            AnswerFormat::Haystack => "Haystack pipeline output with AnswerBuilder answers",
            AnswerFormat::OpenWebui => "Open WebUI chat export, [N] = N-th source file",
            AnswerFormat::Profile(profile) => profile.0.spec.title.as_str(),
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, schemars::JsonSchema)]
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
    /// The question the answer replies to, when the input gives it (a batch record's
    /// `question`, `check --question`): a figure it states is context, not a claim of the
    /// answer.
    pub question: Option<String>,
    /// The retrieved chunks the response carries beside the answer (Bedrock's references, Azure's
    /// citations, a LangChain chain's context, ...); `None` when it carries none.
    pub sources: Option<Chunks>,
    /// The marker syntax the format's answers use besides the built-in ones (a profile's
    /// `marker`); `--marker` comes first.
    pub marker: Option<std::sync::Arc<crate::pattern::MarkerPattern>>,
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

/// Whether `text` has nothing to read: only white space, control characters (NUL included),
/// bidirectional controls and invisible characters (see [`crate::escape::hidden`]). Such an
/// answer is an empty one everywhere: an error for `check`, a bad record for `batch`, a warning
/// for the API.
pub fn is_blank(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_whitespace() || crate::escape::hidden(c))
}

/// Reads the answer, in `format` or the format recognised from its content. A BOM is dropped;
/// an answer with no printable text ([`is_blank`]) is an error.
pub fn read_answer(bytes: &[u8], format: Option<AnswerFormat>) -> Result<Answer, InputError> {
    let text = decode(bytes)?;
    if is_blank(text) {
        return Err(InputError::Empty { what: "answer" });
    }
    let (format, tie) = match format {
        Some(format) => (format, None),
        None => response::detect_with_tie(text)?,
    };
    if format != AnswerFormat::Text {
        let mut answer = response::read(text, format)?;
        if let Some(other) = tie {
            answer.warnings.push(format!(
                "the answer matches the formats `{}` and `{}` equally well: it was read as `{}`; \
                 name the right one with --answer-format",
                format.name(),
                other.name(),
                format.name()
            ));
        }
        return Ok(answer);
    }
    Ok(Answer {
        offset: bytes.len() - text.len(),
        text: text.to_string(),
        format,
        ..Answer::default()
    })
}

/// `text` with every run of white space as one space, and none at either end.
pub fn collapse_white_space(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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

/// Where a chunk stands in its file, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkPosition {
    /// 1-based position among the chunks.
    pub index: usize,
    /// 1-based line, in JSON Lines.
    pub line: Option<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // No printable text: NUL, control, bidirectional and invisible characters.
        let blank = "\0\u{1}\u{1b}\u{7f}\u{85}\u{9b} \u{200b}\u{202e}\u{2066}\u{feff}\u{2028}";
        assert!(is_blank(blank));
        assert_eq!(
            read_answer(blank.as_bytes(), None).unwrap_err(),
            InputError::Empty { what: "answer" }
        );
        assert!(!is_blank("\0a"));
        assert!(read_answer("\u{1b}[1m.".as_bytes(), None).is_ok());
    }
}
