//! Reading the files named on the command line, and standard input for `-`, naming the file
//! in every error.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tempfile::NamedTempFile;

use crate::terminal::progress_bar;

/// How standard input is named in messages and reports.
pub const STDIN_NAME: &str = "<stdin>";

/// The largest file read whole (`--max-input-size`) unless the command line says otherwise: an
/// answer, a chunks file, a document, a quote file, a model file.
pub const DEFAULT_MAX_INPUT: u64 = 256 << 20;

/// Reads a path, or standard input for `-`, with the name to give it: at most `limit` bytes,
/// past which it is an error (an endless or huge input ends there, in bounded memory).
pub fn read_input(path: &str, limit: u64) -> Result<(Vec<u8>, String)> {
    if path == "-" {
        let bytes = read_bounded(io::stdin().lock(), STDIN_NAME, limit)?;
        return Ok((bytes, STDIN_NAME.to_string()));
    }
    let metadata = std::fs::metadata(path).with_context(|| format!("{path}: cannot read"))?;
    if metadata.is_dir() {
        bail!("{path}: is a directory, not a file");
    }
    // A regular file says its size: too large fails before a byte is read. A device or a FIFO
    // says 0, and is bounded by the bytes read.
    if metadata.is_file() && metadata.len() > limit {
        return Err(too_large(path, limit));
    }
    let file = std::fs::File::open(path).with_context(|| format!("{path}: cannot read"))?;
    let bytes = read_bounded(file, path, limit)?;
    Ok((bytes, path.to_string()))
}

/// All of `reader` (named `name`), or an error once more than `limit` bytes came.
pub fn read_bounded(reader: impl Read, name: &str, limit: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .with_context(|| format!("{name}: cannot read"))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(name, limit));
    }
    Ok(bytes)
}

fn too_large(name: &str, limit: u64) -> anyhow::Error {
    anyhow::anyhow!(
        "{name}: larger than the input size limit of {} (--max-input-size raises it)",
        ragcite::batch::scan::size_name(limit)
    )
}

/// Fails when a path does not name a readable file, before anything is written.
pub fn check_is_file(path: &str) -> Result<()> {
    let metadata = std::fs::metadata(path).with_context(|| format!("{path}: cannot read"))?;
    if metadata.is_dir() {
        bail!("{path}: is a directory, not a file");
    }
    Ok(())
}

/// Fails when more than one of `files` is `-`: standard input can be read only once.
pub fn stdin_at_most_once(files: &[String]) -> Result<()> {
    if files.iter().filter(|f| *f == "-").count() > 1 {
        bail!("standard input (`-`) can be read only once");
    }
    Ok(())
}

/// A transcript file, or standard input for `-`, buffered, with a progress bar when large.
pub fn open_transcript(file: &str) -> io::Result<Box<dyn io::BufRead + Send>> {
    if file == "-" {
        return Ok(Box::new(io::BufReader::new(io::stdin())));
    }
    let handle = std::fs::File::open(file)?;
    let len = handle.metadata()?.len();
    Ok(match progress_bar(len) {
        Some(bar) => Box::new(io::BufReader::with_capacity(1 << 16, bar.wrap_read(handle))),
        None => Box::new(io::BufReader::with_capacity(1 << 16, handle)),
    })
}

/// A file written whole or not at all, and only ever a regular file: written to a temporary
/// file created exclusively (`O_EXCL`, under a random name) in the target's folder, synced, then
/// renamed over the target by [`OutputFile::finish`]; dropped unfinished (an error on the way),
/// the temporary file is removed. A symlink planted at any name in the folder is never
/// followed; a target that exists and is not a regular file (a symlink, FIFO, device or socket)
/// is refused before anything is created; a replaced file keeps its permissions.
pub struct OutputFile {
    path: PathBuf,
    writer: Option<io::BufWriter<NamedTempFile>>,
}

impl OutputFile {
    pub fn create(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref().to_path_buf();
        let shown = path.display();
        let existing = match std::fs::symlink_metadata(&path) {
            Ok(metadata) => Some(metadata),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("{shown}: cannot write")),
        };
        if let Some(metadata) = &existing {
            let kind = metadata.file_type();
            if kind.is_dir() {
                bail!("{shown}: is a directory, not a file");
            }
            if !kind.is_file() {
                bail!(
                    "{shown}: exists and is not a regular file ({}); ragcite writes only regular files",
                    file_kind(&kind)
                );
            }
        }
        let name = path
            .file_name()
            .with_context(|| format!("{shown}: names no file"))?;
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        match std::fs::metadata(folder) {
            Ok(metadata) if metadata.is_dir() => {}
            Ok(_) => bail!(
                "{shown}: cannot write: {} is not a folder",
                folder.display()
            ),
            Err(e) if e.kind() == io::ErrorKind::NotFound => bail!(
                "{shown}: cannot write: the folder {} does not exist",
                folder.display()
            ),
            Err(e) => return Err(e).with_context(|| format!("{shown}: cannot write")),
        }
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        // A new file gets the mode any file gets (0666 less the umask), not 0600.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let temporary = builder
            .tempfile_in(folder)
            .with_context(|| format!("{shown}: cannot write"))?;
        if let Some(metadata) = existing {
            temporary
                .as_file()
                .set_permissions(metadata.permissions())
                .with_context(|| format!("{shown}: cannot write"))?;
        }
        Ok(OutputFile {
            path,
            writer: Some(io::BufWriter::new(temporary)),
        })
    }

    pub fn writer(&mut self) -> &mut io::BufWriter<NamedTempFile> {
        self.writer.as_mut().expect("an unfinished output file")
    }

    /// Flushes, syncs and renames the file into place (then syncs its folder, so that the
    /// rename survives a crash). A write error (a full disk) is an error, and leaves the target
    /// as it was.
    pub fn finish(mut self) -> Result<()> {
        let writer = self.writer.take().expect("an unfinished output file");
        let shown = self.path.display().to_string();
        let temporary = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("{shown}: cannot write"))?;
        temporary
            .as_file()
            .sync_all()
            .with_context(|| format!("{shown}: cannot write"))?;
        temporary
            .persist(&self.path)
            .map_err(|e| e.error)
            .with_context(|| format!("{shown}: cannot write"))?;
        #[cfg(unix)]
        if let Some(folder) = self.path.parent() {
            let folder = if folder.as_os_str().is_empty() {
                Path::new(".")
            } else {
                folder
            };
            if let Ok(folder) = std::fs::File::open(folder) {
                let _ = folder.sync_all();
            }
        }
        Ok(())
    }
}

/// Writes `bytes` to `path` through an [`OutputFile`]: whole or not at all.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut out = OutputFile::create(path)?;
    out.writer()
        .write_all(bytes)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    out.finish()
}

/// What a file that is not a regular one is, for messages.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    if kind.is_symlink() {
        return "a symlink";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "of another kind"
}
