//! Reading the files named on the command line, and standard input for `-`, naming the file
//! in every error.

use std::io::{self, Read};

use anyhow::{Context, Result, bail};

use crate::app::terminal::progress_bar;

/// How standard input is named in messages and reports.
pub const STDIN_NAME: &str = "<stdin>";

/// Reads a path, or standard input for `-`, with the name to give it.
pub fn read_input(path: &str) -> Result<(Vec<u8>, String)> {
    if path == "-" {
        let mut bytes = Vec::new();
        io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .with_context(|| format!("{STDIN_NAME}: cannot read"))?;
        return Ok((bytes, STDIN_NAME.to_string()));
    }
    let metadata = std::fs::metadata(path).with_context(|| format!("{path}: cannot read"))?;
    if metadata.is_dir() {
        bail!("{path}: is a directory, not a file");
    }
    let bytes = std::fs::read(path).with_context(|| format!("{path}: cannot read"))?;
    Ok((bytes, path.to_string()))
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

/// A file written whole or not at all: written beside its final path, then renamed over it by
/// [`OutputFile::finish`]; dropped unfinished (an error on the way), it is removed.
pub struct OutputFile {
    path: std::path::PathBuf,
    temporary: std::path::PathBuf,
    writer: Option<io::BufWriter<std::fs::File>>,
}

impl OutputFile {
    pub fn create(path: &str) -> Result<Self> {
        let path = std::path::PathBuf::from(path);
        if path.is_dir() {
            bail!("{}: is a directory, not a file", path.display());
        }
        let name = path
            .file_name()
            .with_context(|| format!("{}: names no file", path.display()))?;
        let mut temporary_name = std::ffi::OsString::from(".");
        temporary_name.push(name);
        temporary_name.push(format!(".{}.tmp", std::process::id()));
        let temporary = path.with_file_name(temporary_name);
        let file = std::fs::File::create(&temporary)
            .with_context(|| format!("{}: cannot write", path.display()))?;
        Ok(OutputFile {
            path,
            temporary,
            writer: Some(io::BufWriter::new(file)),
        })
    }

    pub fn writer(&mut self) -> &mut io::BufWriter<std::fs::File> {
        self.writer.as_mut().expect("an unfinished output file")
    }

    /// Flushes and renames the file into place.
    pub fn finish(mut self) -> Result<()> {
        let writer = self.writer.take().expect("an unfinished output file");
        let display = self.path.display().to_string();
        let file = writer
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("{display}: cannot write"))?;
        file.sync_all()
            .with_context(|| format!("{display}: cannot write"))?;
        std::fs::rename(&self.temporary, &self.path)
            .with_context(|| format!("{display}: cannot write"))?;
        Ok(())
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.writer.take().is_some() {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}
