//! `verify_citation` and `/api/v1/quote`: is a quotation, word for word, in a document? The
//! document is text given with the request, or a file of the folder the server was started
//! with (`--documents DIR`), or one chunk of such a file. The answer carries the SHA-256 of the
//! text the offsets count in, so that a caller can show that it checked the same text.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::path::Path;
#[cfg(not(unix))]
use std::path::PathBuf;

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
///
/// A file is read as it is when asked for, and the folder may change meanwhile: it is opened
/// relative to the folder (held open since the start), one name at a time, never through a
/// symbolic link (a file or a subfolder swapped for one is refused), without waiting (a FIFO
/// swapped in is refused, not waited on), and read only if it is a regular file, at most
/// [`MAX_DOCUMENT_BYTES`] of it whatever size it reports.
#[derive(Debug, Clone, Default)]
pub struct Documents {
    /// The folder, open.
    #[cfg(unix)]
    root: Option<std::sync::Arc<std::fs::File>>,
    #[cfg(not(unix))]
    root: PathBuf,
    /// Each id's names, from the folder down.
    files: BTreeMap<String, Vec<OsString>>,
}

impl Documents {
    /// Lists the files under `dir` (following no symbolic link out of it, skipping hidden
    /// files and folders).
    pub fn open(dir: &Path) -> Result<Self, String> {
        let metadata = std::fs::metadata(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        if !metadata.is_dir() {
            return Err(format!("{}: is not a directory", dir.display()));
        }
        let mut documents = Documents {
            #[cfg(unix)]
            root: Some(std::sync::Arc::new(
                std::fs::File::open(dir).map_err(|e| format!("{}: {e}", dir.display()))?,
            )),
            #[cfg(not(unix))]
            root: dir.to_path_buf(),
            files: BTreeMap::new(),
        };
        let mut pending = vec![(dir.to_path_buf(), String::new(), Vec::new())];
        while let Some((folder, prefix, names)) = pending.pop() {
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
                let mut path: Vec<OsString> = names.clone();
                path.push(entry.file_name());
                if kind.is_dir() {
                    pending.push((entry.path(), format!("{id}/"), path));
                } else if kind.is_file() {
                    if documents.files.len() == MAX_DOCUMENTS {
                        return Err(format!(
                            "{}: more than {MAX_DOCUMENTS} files",
                            dir.display()
                        ));
                    }
                    documents.files.insert(id, path);
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
        let names = self
            .files
            .get(id)
            .ok_or_else(|| DocumentError::Unknown(id.to_string()))?;
        let unreadable = |message: String| DocumentError::Unreadable {
            id: id.to_string(),
            message,
        };
        let bytes = self.read(names).map_err(unreadable)?;
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

    /// The bytes of the regular file at `names` under the folder, at most
    /// [`MAX_DOCUMENT_BYTES`], or why not.
    fn read(&self, names: &[OsString]) -> Result<Vec<u8>, String> {
        let file = self.open_file(names)?;
        let metadata = file.metadata().map_err(|e| e.to_string())?;
        if !metadata.is_file() {
            return Err(
                "is not a regular file any more (documents are read only from regular files)"
                    .to_string(),
            );
        }
        let too_large = |size: u64| {
            format!(
                "{} bytes; at most {} are served",
                crate::api::request::thousands(size as usize),
                crate::api::request::thousands(MAX_DOCUMENT_BYTES as usize)
            )
        };
        if metadata.len() > MAX_DOCUMENT_BYTES {
            return Err(too_large(metadata.len()));
        }
        // The size read, not the size reported, is what counts: a file may grow meanwhile.
        let mut bytes = Vec::new();
        file.take(MAX_DOCUMENT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
        if bytes.len() as u64 > MAX_DOCUMENT_BYTES {
            return Err(format!(
                "over {} bytes; at most {} are served",
                crate::api::request::thousands(MAX_DOCUMENT_BYTES as usize),
                crate::api::request::thousands(MAX_DOCUMENT_BYTES as usize)
            ));
        }
        Ok(bytes)
    }

    /// Opens `names` one at a time from the folder, following no symbolic link and never
    /// waiting on a FIFO.
    #[cfg(unix)]
    fn open_file(&self, names: &[OsString]) -> Result<std::fs::File, String> {
        use rustix::fs::{AtFlags, FileType, Mode, OFlags, openat, statat};
        use std::os::fd::{AsFd, OwnedFd};

        let root = self
            .root
            .as_ref()
            .ok_or_else(|| "the documents folder is not open".to_string())?;
        let mut current: Option<OwnedFd> = None;
        let flags = OFlags::RDONLY | OFlags::CLOEXEC | OFlags::NOFOLLOW | OFlags::NOCTTY;
        for (k, name) in names.iter().enumerate() {
            let base = current
                .as_ref()
                .map_or_else(|| root.as_fd(), |fd| fd.as_fd());
            let is_last = k + 1 == names.len();
            let flags = if is_last {
                flags | OFlags::NONBLOCK
            } else {
                flags | OFlags::DIRECTORY
            };
            match openat(base, name.as_os_str(), flags, Mode::empty()) {
                Ok(fd) => current = Some(fd),
                Err(errno) => {
                    let symlink = statat(base, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW)
                        .is_ok_and(|stat| {
                            FileType::from_raw_mode(stat.st_mode) == FileType::Symlink
                        });
                    return Err(if symlink {
                        let what = if is_last {
                            "it".to_string()
                        } else {
                            let folder = names[..=k]
                                .iter()
                                .map(|n| n.to_string_lossy())
                                .collect::<Vec<_>>()
                                .join("/");
                            format!("its folder `{folder}`")
                        };
                        format!(
                            "{what} is now a symbolic link; documents are read only from \
                             regular files inside the folder"
                        )
                    } else {
                        std::io::Error::from(errno).to_string()
                    });
                }
            }
        }
        current
            .map(std::fs::File::from)
            .ok_or_else(|| "has no name".to_string())
    }

    /// Opens `names` from the folder after checking that none is a symbolic link (without
    /// `openat`, a link swapped in between the check and the opening is not caught here).
    #[cfg(not(unix))]
    fn open_file(&self, names: &[OsString]) -> Result<std::fs::File, String> {
        let mut path = self.root.clone();
        for name in names {
            path.push(name);
            let metadata = std::fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
            if metadata.file_type().is_symlink() {
                return Err(format!(
                    "`{}` is now a symbolic link; documents are read only from regular files \
                     inside the folder",
                    path.display()
                ));
            }
        }
        std::fs::File::open(&path).map_err(|e| e.to_string())
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

    #[cfg(unix)]
    #[test]
    fn files_swapped_after_opening_are_read_only_as_regular_files_of_the_folder() {
        use std::os::unix::fs::symlink;

        let dir = tempfile::tempdir().expect("a temporary directory");
        let folder = dir.path().join("docs");
        std::fs::create_dir_all(folder.join("sub")).expect("folders");
        for name in ["link.txt", "fifo.txt", "zero.txt", "sub/inner.txt"] {
            std::fs::write(folder.join(name), "Text.").expect("document");
        }
        std::fs::write(dir.path().join("secret.txt"), "Secret.").expect("secret");
        std::fs::create_dir(dir.path().join("outside")).expect("outside");
        std::fs::write(dir.path().join("outside/inner.txt"), "Secret.").expect("secret");
        let docs = Documents::open(&folder).expect("opens");
        assert_eq!(docs.text("sub/inner.txt", None).expect("text"), "Text.");

        std::fs::remove_file(folder.join("link.txt")).expect("remove");
        symlink(dir.path().join("secret.txt"), folder.join("link.txt")).expect("symlink");
        std::fs::remove_file(folder.join("fifo.txt")).expect("remove");
        rustix::fs::mknodat(
            rustix::fs::CWD,
            folder.join("fifo.txt"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
            0,
        )
        .expect("a FIFO");
        std::fs::remove_file(folder.join("zero.txt")).expect("remove");
        symlink("/dev/zero", folder.join("zero.txt")).expect("symlink");
        std::fs::remove_dir_all(folder.join("sub")).expect("remove");
        symlink(dir.path().join("outside"), folder.join("sub")).expect("symlink");

        let message = |id: &str| match docs.text(id, None) {
            Err(DocumentError::Unreadable { message, .. }) => message,
            other => panic!("{id}: {other:?}"),
        };
        assert_eq!(
            message("link.txt"),
            "it is now a symbolic link; documents are read only from regular files inside the folder"
        );
        assert!(message("zero.txt").starts_with("it is now a symbolic link"));
        assert!(message("sub/inner.txt").starts_with("its folder `sub` is now a symbolic link"));
        assert!(message("fifo.txt").starts_with("is not a regular file"));
        // Removed: the system's reason.
        std::fs::remove_file(folder.join("fifo.txt")).expect("remove");
        assert!(message("fifo.txt").contains("No such file"));
    }
}
