//! The `ragcite` binary: the command line of the `ragcite-cli` crate, with its exit code.

use std::process::ExitCode;

/// mimalloc instead of the system allocator: the stemmer and the report allocate many small
/// strings, and glibc's malloc took a sixth of the time of a large check.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(ragcite_cli::main(std::env::args_os().collect()))
}
