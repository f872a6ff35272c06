//! The `ragcite` binary: the command line of the `ragcite-cli` crate, with its exit code.

use std::process::ExitCode;

/// mimalloc instead of the system allocator: the stemmer and the report allocate many small
/// strings, and glibc's malloc took a sixth of the time of a large check.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // Transparent huge pages off for the process: mimalloc asks for them, and the kernel then
    // backs its arena with 2 MiB pages zeroed whole as they are first touched: 4 MiB more
    // resident for a check of one sentence, about 25 MiB more at the seed's limits, for no
    // measurable gain in time (docs/performance.md, "Fast again"). Set before the first
    // large allocation; mimalloc's own option is read before `main` and cannot be. Linux only;
    // an old kernel without the flag runs as before.
    #[cfg(target_os = "linux")]
    let _ = rustix::thread::disable_transparent_huge_pages(true);
    ExitCode::from(ragcite_cli::main(std::env::args_os().collect()))
}
