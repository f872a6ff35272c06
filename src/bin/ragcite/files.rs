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
