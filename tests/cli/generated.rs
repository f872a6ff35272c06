//! The committed completions, man pages and JSON Schemas must match what the clap definition and
//! the serde types generate now.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::util::{ROOT, ragcite};

fn files_under(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for sub in ["completions", "man", "docs/schema"] {
        let Ok(entries) = fs::read_dir(dir.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = format!("{sub}/{}", entry.file_name().to_string_lossy());
            files.insert(name, fs::read(entry.path()).unwrap_or_default());
        }
    }
    files
}

#[test]
fn completions_man_pages_and_schemas_are_current() {
    let fresh = tempfile::tempdir().expect("a temporary directory");
    ragcite(["generate", "--out-dir"])
        .args([fresh.path()])
        .exits(0);
    let generated = files_under(fresh.path());
    let committed = files_under(Path::new(ROOT));
    assert!(
        generated.len() >= 11,
        "expected 5 completions, 3 man pages and 3 schemas, got {:?}",
        generated.keys()
    );
    let stale: BTreeSet<&String> = generated
        .keys()
        .chain(committed.keys())
        .filter(|name| generated.get(*name) != committed.get(*name))
        .collect();
    assert!(
        stale.is_empty(),
        "completions/, man/ or docs/schema/ are stale ({stale:?}): run `cargo run -- generate` and commit the result"
    );
}

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
fn generate_refuses_unknown_arguments() {
    let out = ragcite(["generate", "--out"]).exits(2);
    assert_eq!(
        out.stderr,
        "ragcite: error: generate: unexpected argument `--out` (usage: ragcite generate [--out-dir DIR])\n"
    );
}
