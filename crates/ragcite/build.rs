//! Writes the index of the word-rarity table (`src/words/rarity.txt`) that `words::rarity`
//! searches: where the table's lines start after its header, and the start of every
//! `STRIDE`th line, so that a look-up reads a few lines instead of searching the whole table.
// A build script talks to cargo on standard output.
#![allow(clippy::print_stdout)]

use std::fmt::Write as _;
use std::path::PathBuf;

/// Lines per block of the index: the look-up reads at most this many lines.
const STRIDE: usize = 8;

fn main() {
    let source = "src/words/rarity.txt";
    println!("cargo::rerun-if-changed={source}");
    println!("cargo::rerun-if-changed=build.rs");
    let table = std::fs::read(source).expect("the rarity table");
    // The header: `#` lines, then a blank line.
    let body = table
        .windows(2)
        .position(|pair| pair == b"\n\n")
        .map_or(0, |at| at + 2);
    let mut starts = Vec::new();
    let mut line = 0;
    let mut at = body;
    while at < table.len() {
        if line % STRIDE == 0 {
            starts.push(u32::try_from(at).expect("the table is under 4 GiB"));
        }
        line += 1;
        at += table[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(table.len() - at, |end| end + 1);
    }
    let mut out = String::new();
    writeln!(out, "/// Lines per block of [`BLOCK_STARTS`].").unwrap();
    writeln!(out, "const STRIDE: usize = {STRIDE};").unwrap();
    writeln!(
        out,
        "/// Where the first line of every block of `STRIDE` lines starts."
    )
    .unwrap();
    write!(out, "static BLOCK_STARTS: [u32; {}] = [", starts.len()).unwrap();
    for start in &starts {
        write!(out, "{start},").unwrap();
    }
    writeln!(out, "];").unwrap();
    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("rarity_index.rs");
    std::fs::write(path, out).expect("the index written");
}
