//! Links the `ragcite` binary as a position-dependent executable on Linux with the GNU
//! toolchain. A position-independent one is relocated by the loader at every start: about
//! 40,000 pointers in the word lists and tables (`.data.rel.ro`), each page of them copied and
//! written before `main`, which cost a short check about 200 page faults and 0.8 M
//! instructions (docs/performance.md, "Fast again"). Linked at a fixed address, the linker
//! resolves them once and the pages are read from the file as they are needed. The price is
//! that the executable's own code is not placed at a random address (its libraries, heap and
//! stacks still are); the Python package, a shared library, is not affected.
// A build script talks to cargo on standard output.
#![allow(clippy::print_stdout)]

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os == "linux" && env == "gnu" {
        println!("cargo::rustc-link-arg-bins=-no-pie");
    }
}
