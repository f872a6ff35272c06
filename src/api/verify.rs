//! `verify_citation` and `/api/v1/quote`: is a quotation, word for word, in a document? The
//! document is text given with the request, or a file of the folder the server was started
//! with (`--documents DIR`), or one chunk of such a file. The answer carries the SHA-256 of the
//! text the offsets count in, so that a caller can show that it checked the same text.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::input;
use crate::quote::{Closest, QuoteSearch, strip_quote_marks};

/// Files of a documents folder larger than this are not served (they are listed, and a request
/// for one gets an error that says why).
pub const MAX_DOCUMENT_BYTES: u64 = 64 * 1024 * 1024;
/// The most files a documents folder may hold.
pub const MAX_DOCUMENTS: usize = 100_000;

/// What a verification found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    /// True only for an exact match after normalisation.
    pub found: bool,
    /// `[start, end)` in characters of the text, when found.
    pub offsets: Option<[usize; 2]>,
    /// SHA-256 of the text (UTF-8, hex) the offsets count in.
    pub sha256: String,
    /// When not found: the most similar passage; `None` when found or when no passage is close.
    pub closest: Option<Closest>,
}

/// Looks for `quote` in `text` (one pair of quotation marks around the quote is ignored).
pub fn verify(text: &str, quote: &str) -> Verification {
    let found = QuoteSearch::new(text).find(strip_quote_marks(quote));
    Verification {
        found: found.found,
        offsets: found.offsets,
        sha256: sha256_hex(text.as_bytes()),
        closest: if found.found { None } else { found.closest },
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Why a document cannot be verified against.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    #[error("the server has no documents folder (start it with --documents DIR)")]
    NoFolder,
    #[error("no document `{0}` in the documents folder")]
    Unknown(String),
    #[error("document `{id}`: {message}")]
    Unreadable { id: String, message: String },
    #[error("document `{id}` has no chunk `{chunk}`")]
    NoChunk { id: String, chunk: String },
}

/// The documents of a folder, by id: the file's path inside the folder, with `/` between
/// names (`report.txt`, `2024/q3.md`). Ids are listed once, when the folder is opened, and a
/// request names one of them: a request never builds a path, so it cannot leave the folder.
#[derive(Debug, Clone, Default)]
pub struct Documents {
    files: BTreeMap<String, PathBuf>,
}

impl Documents {
    /// Lists the files under `dir` (following no symbolic link out of it, skipping hidden
    /// files and folders).
    pub fn open(dir: &Path) -> Result<Self, String> {
        let metadata = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if !metadata.is_dir() {
            return Err(format!("{}: is not a directory", dir.display()));
        }
        let mut documents = Documents::default();
        let mut pending = vec![(dir.to_path_buf(), String::new())];
        while let Some((folder, prefix)) = pending.pop() {
            let entries =
                std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') {
                    continue;
                }
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let id = format!("{prefix}{name}");
                if kind.is_dir() {
                    pending.push((entry.path(), format!("{id}/")));
                } else if kind.is_file() {
                    if documents.files.len() == MAX_DOCUMENTS {
                        return Err(format!(
                            "{}: more than {MAX_DOCUMENTS} files",
                            dir.display()
                        ));
                    }
                    documents.files.insert(id, entry.path());
                }
            }
        }
        Ok(documents)
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The text of document `id`, or of its chunk `chunk_id` when the document is a chunks file
    /// (JSON, JSON Lines, `[id]` blocks, CSV, Markdown headings, a stack's sources).
    pub fn text(&self, id: &str, chunk_id: Option<&str>) -> Result<String, DocumentError> {
        let path = self
            .files
            .get(id)
            .ok_or_else(|| DocumentError::Unknown(id.to_string()))?;
        let unreadable = |message: String| DocumentError::Unreadable {
            id: id.to_string(),
            message,
        };
        let size = std::fs::metadata(path)
            .map_err(|e| unreadable(e.to_string()))?
            .len();
        if size > MAX_DOCUMENT_BYTES {
            return Err(unreadable(format!(
                "{size} bytes; at most {MAX_DOCUMENT_BYTES} are served"
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        match chunk_id {
            None => input::decode(&bytes)
                .map(str::to_string)
                .map_err(|e| unreadable(e.to_string())),
            Some(chunk_id) => {
                let chunks =
                    input::read_chunks_named(&bytes, id).map_err(|e| unreadable(e.to_string()))?;
                chunks
                    .chunks
                    .into_iter()
                    .find(|c| c.id == chunk_id)
                    .map(|c| c.text)
                    .ok_or_else(|| DocumentError::NoChunk {
                        id: id.to_string(),
                        chunk: chunk_id.to_string(),
                    })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_found_quote_has_offsets_and_no_closest_passage() {
        let v = verify("The tower is 330 metres tall.", "“330 metres tall”");
        assert!(v.found);
        assert_eq!(v.offsets, Some([13, 28]));
        assert!(v.closest.is_none());
        assert_eq!(v.sha256, sha256_hex(b"The tower is 330 metres tall."));
    }

    #[test]
    fn one_changed_word_is_not_found_and_shows_where() {
        let v = verify(
            "Construction began in 1887 and it was completed in 1889 as the centrepiece.",
            "it was completed in 1888 as the centrepiece",
        );
        assert!(!v.found);
        let closest = v.closest.expect("a closest passage");
        assert_eq!(closest.differing_words, 1);
        assert_eq!(closest.text, "it was completed in 1889 as the centrepiece");
    }

    #[test]
    fn sha256_is_the_standard_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn documents_are_named_by_their_path_in_the_folder_and_never_leave_it() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        std::fs::create_dir(dir.path().join("sub")).expect("sub");
        std::fs::write(dir.path().join("a.txt"), "Alpha text.").expect("a");
        std::fs::write(
            dir.path().join("sub/chunks.json"),
            r#"[{"id":"c1","text":"First."},{"id":"c2","text":"Second one."}]"#,
        )
        .expect("chunks");
        std::fs::write(dir.path().join(".hidden"), "x").expect("hidden");
        let docs = Documents::open(dir.path()).expect("opens");
        assert_eq!(docs.ids().collect::<Vec<_>>(), ["a.txt", "sub/chunks.json"]);
        assert_eq!(docs.text("a.txt", None).expect("text"), "Alpha text.");
        assert_eq!(
            docs.text("sub/chunks.json", Some("c2")).expect("chunk"),
            "Second one."
        );
        assert!(matches!(
            docs.text("../etc/passwd", None),
            Err(DocumentError::Unknown(_))
        ));
        assert!(matches!(
            docs.text("sub/chunks.json", Some("c9")),
            Err(DocumentError::NoChunk { .. })
        ));
    }
}
