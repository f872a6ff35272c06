//! `ragcite-cli`, the `ragcite` command: parses the command line (after the configuration file's
//! options), hands each subcommand to its file in `commands/`, and turns what it returns into one
//! error line on stderr and the exit code. The binary (`main.rs`) and the Python package's
//! console script both run [`main`], so that the two are one program. The checking itself is the
//! `ragcite` library's; this crate reads files, parses options, prints and serves.

// A program: printing is its job (the library denies it, `[workspace.lints]`).
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

pub mod cli;
pub mod commands;
mod config;
pub mod exit;
pub mod files;
#[cfg(feature = "service")]
pub mod service;
mod terminal;

use std::ffi::OsString;
use std::io::{self, Write};

use anyhow::Result;
use clap::Parser;

use cli::{Cli, Command};
use exit::ExitStatus;

/// Runs the command line `args` (the program name first) and returns the exit code.
pub fn main(args: Vec<OsString>) -> u8 {
    let (args, used) = match config::apply(args) {
        Ok(applied) => applied,
        Err(err) => return finish(Err(err)),
    };
    match Cli::try_parse_from(args) {
        Ok(mut cli) => {
            match &mut cli.command {
                Command::Check(args) => args.output.config_used = used,
                Command::Batch(args) => args.output.config_used = used,
                Command::Compare(args) => args.output.config_used = used,
                #[cfg(feature = "service")]
                Command::Serve(args) => args.config_used = used,
                _ => {}
            }
            finish(run(cli))
        }
        Err(e) => usage_error(&e),
    }
}

fn run(cli: Cli) -> Result<ExitStatus> {
    match cli.command {
        Command::Check(args) => commands::check::run(&args),
        Command::Batch(args) => commands::batch::run(&args),
        Command::Compare(args) => commands::compare::run(&args),
        Command::Quote(args) => commands::quote::run(&args),
        Command::Eval(args) => commands::eval::run(&args),
        Command::Train(args) => commands::train::run(&args),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Formats(args) => commands::formats::run(&args),
        #[cfg(feature = "service")]
        Command::Serve(args) => commands::serve::run(&args),
        #[cfg(feature = "service")]
        Command::Mcp(args) => commands::mcp::run(&args),
    }
}

/// The exit code, after one line on stderr for an error, whatever the input put into the
/// message. A closed pipe (`ragcite check ... | head`) is not an error.
fn finish(outcome: Result<ExitStatus>) -> u8 {
    let err = match outcome {
        Ok(status) => return status.code(),
        Err(err) if is_broken_pipe(&err) => return ExitStatus::Success.code(),
        Err(err) => err,
    };
    let _ = writeln!(io::stderr(), "ragcite: error: {}", error_message(&err));
    ExitStatus::Error.code()
}

/// An error and its causes on one line, whatever the input put into them: control,
/// bidirectional and invisible characters escaped (see [`ragcite::escape::printable_line`]).
pub fn error_message(err: &anyhow::Error) -> String {
    ragcite::escape::printable_line(&format!("{err:#}"))
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Help and version print as clap lays them out; a usage error becomes one line on stderr, like
/// every other error, so that CI logs stay readable.
fn usage_error(e: &clap::Error) -> u8 {
    use clap::error::ErrorKind;
    let shows_help = matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if shows_help {
        let _ = e.print();
    } else {
        let _ = writeln!(
            io::stderr(),
            "ragcite: error: {} (see `ragcite --help`)",
            usage_message(e)
        );
    }
    u8::try_from(e.exit_code()).unwrap_or(2)
}

/// What a usage error says, on one line, without clap's usage block and tips, the arguments
/// it quotes escaped as in an error line.
pub fn usage_message(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let message: Vec<&str> = rendered
        .lines()
        .map(str::trim)
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .filter(|l| !l.is_empty() && !l.starts_with("tip:"))
        .collect();
    let message = ragcite::escape::printable_line(&message.join(" "));
    message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string()
}
