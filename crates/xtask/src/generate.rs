//! `cargo xtask generate [--out-dir DIR]`: writes the shell completions and man pages from the
//! clap definition of `ragcite-cli`, the related-stems table of the WordNet data
//! (`crates/ragcite/src/words/wordnet/related-stems.txt`), and the JSON Schemas of the JSON outputs (`docs/schema/`)
//! from the library's serde types. They are committed; a test (below) regenerates them and fails
//! when they are stale.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use ragcite_cli::cli::Cli;
use ragcite_cli::files::write_file;

/// The shells completions are written for, with their file names.
pub const SHELLS: [(Shell, &str); 5] = [
    (Shell::Bash, "ragcite.bash"),
    (Shell::Zsh, "_ragcite"),
    (Shell::Fish, "ragcite.fish"),
    (Shell::PowerShell, "_ragcite.ps1"),
    (Shell::Elvish, "ragcite.elv"),
];

/// Runs `generate` with the arguments after it: `--out-dir DIR` (or `--out-dir=DIR`), else the
/// workspace's root.
pub fn run(args: &[std::ffi::OsString]) -> Result<()> {
    let mut out_dir = crate::root();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let text = arg.to_string_lossy();
        if let Some(dir) = text.strip_prefix("--out-dir=") {
            out_dir = dir.into();
        } else if text == "--out-dir" {
            out_dir = args
                .next()
                .context("generate: --out-dir needs a directory")?
                .into();
        } else {
            anyhow::bail!(
                "generate: unexpected argument `{text}` (usage: cargo xtask generate [--out-dir DIR])"
            );
        }
    }
    write_all(&out_dir)
}

pub fn write_all(out_dir: &Path) -> Result<()> {
    let completions = out_dir.join("completions");
    let man = out_dir.join("man");
    for dir in [&completions, &man] {
        fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    }
    for (shell, file) in SHELLS {
        let mut bytes = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "ragcite", &mut bytes);
        let path = completions.join(file);
        write_file(&path, &bytes)?;
    }
    write_man_pages(Cli::command(), &man)?;
    let schema = out_dir.join("docs").join("schema");
    fs::create_dir_all(&schema).with_context(|| format!("{}: cannot create", schema.display()))?;
    for (file, value) in ragcite::emit::json::schemas() {
        let mut text = serde_json::to_string_pretty(&value)?;
        text.push('\n');
        let path = schema.join(file);
        write_file(&path, text.as_bytes())?;
    }
    // The WordNet tables re-keyed by stem, searched in place at run time (stemming every lemma
    // at run time cost a check some 500 M instructions).
    let wordnet = out_dir.join(RELATED_STEMS).with_file_name("");
    fs::create_dir_all(&wordnet)
        .with_context(|| format!("{}: cannot create", wordnet.display()))?;
    write_file(
        &out_dir.join(RELATED_STEMS),
        ragcite::words::related_stems_table().as_bytes(),
    )?;
    Ok(())
}

/// Where the related-stems table is written, below the output directory.
const RELATED_STEMS: &str = "crates/ragcite/src/words/wordnet/related-stems.txt";

/// The man page of `command` and of each of its visible subcommands, as `clap_mangen::generate_to`
/// writes them, each through the one safe writer.
fn write_man_pages(command: clap::Command, dir: &Path) -> Result<()> {
    fn pages(command: clap::Command, dir: &Path) -> Result<()> {
        for sub in command
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
        {
            pages(sub, dir)?;
        }
        let man = clap_mangen::Man::new(command);
        let mut bytes = Vec::new();
        man.render(&mut bytes)?;
        write_file(&dir.join(man.get_filename()), &bytes)
    }
    let mut command = command.disable_help_subcommand(true);
    command.build();
    pages(command, dir)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::fs;
    use std::path::Path;

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

    /// The committed completions, man pages and JSON Schemas match what the clap definition and
    /// the serde types generate now.
    #[test]
    fn completions_man_pages_and_schemas_are_current() {
        let fresh = tempfile::tempdir().expect("a temporary directory");
        super::write_all(fresh.path()).expect("generate");
        let generated = files_under(fresh.path());
        let committed = files_under(&crate::root());
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
            "completions/, man/ or docs/schema/ are stale ({stale:?}): run `cargo xtask generate` and commit the result"
        );
        let related = |dir: &Path| fs::read(dir.join(super::RELATED_STEMS)).unwrap_or_default();
        assert!(
            related(fresh.path()) == related(&crate::root()),
            "{} is stale: run `cargo xtask generate` and commit the result",
            super::RELATED_STEMS
        );
    }

    #[test]
    fn generate_refuses_unknown_arguments() {
        let err = super::run(&["--out".into()]).expect_err("an unknown argument");
        assert_eq!(
            err.to_string(),
            "generate: unexpected argument `--out` (usage: cargo xtask generate [--out-dir DIR])"
        );
    }
}
