//! The committed completions offer no hidden command; the product has no `generate` (the
//! maintainers' `cargo xtask generate` writes them; crates/xtask tests that they are current).

use std::fs;
use std::path::Path;

use crate::util::{ROOT, ragcite};

#[test]
fn completions_offer_no_hidden_subcommand() {
    for entry in fs::read_dir(Path::new(ROOT).join("completions"))
        .expect("completions/")
        .flatten()
    {
        let text = fs::read_to_string(entry.path()).expect("a completion script is text");
        // `generate` is the maintainers' command; the word also stands in two format
        // descriptions (Ollama's `/api/generate`, Gemini's `generateContent`).
        let rest = text
            .replace("/api/generate", "")
            .replace("generateContent", "");
        assert!(
            !rest.contains("generate"),
            "{} offers `generate`",
            entry.path().display()
        );
    }
}

#[test]
fn the_product_has_no_generate_command() {
    // The maintainers' `generate` is `cargo xtask generate`, not a command of the product.
    let out = ragcite(["generate"]).exits(2);
    assert!(
        out.stderr.contains("unrecognized subcommand"),
        "{}",
        out.stderr
    );
}
