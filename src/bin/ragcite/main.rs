//! The `ragcite` binary: the command line of `app.rs`, with its exit code.

// `app.rs` is loaded by path so that its modules (`cli`, `commands`, ...) sit beside it in this
// folder, where the Python package's extension finds them too.
#[path = "app.rs"]
mod app;

use std::process::ExitCode;

/// mimalloc instead of the system allocator: the stemmer and the report allocate many small
/// strings, and glibc's malloc took a sixth of the time of a large check.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(app::main(std::env::args_os().collect()))
}
