//! The maintainers' commands of ragcite, run as `cargo xtask COMMAND` (the alias in
//! `.cargo/config.toml`), kept out of the product binary:
//!
//! - `generate [--out-dir DIR]`: the shell completions, man pages and JSON Schemas that are
//!   committed (`completions/`, `man/`, `docs/schema/`).

// A program: printing is its job.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

mod generate;

use std::path::PathBuf;
use std::process::ExitCode;

/// The workspace's root (two folders above this crate).
fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let outcome = match args.first().and_then(|a| a.to_str()) {
        Some("generate") => generate::run(&args[1..]),
        other => Err(anyhow::anyhow!(
            "unknown command {:?} (commands: generate)",
            other.unwrap_or("")
        )),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err:#}");
            ExitCode::from(2)
        }
    }
}
