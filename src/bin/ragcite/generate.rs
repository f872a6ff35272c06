//! `ragcite generate`: writes the shell completions and man pages from the clap definition.
//! They are committed; a test regenerates them and fails when they are stale.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;

/// The shells completions are written for, with their file names.
pub const SHELLS: [(Shell, &str); 5] = [
    (Shell::Bash, "ragcite.bash"),
    (Shell::Zsh, "_ragcite"),
    (Shell::Fish, "ragcite.fish"),
    (Shell::PowerShell, "_ragcite.ps1"),
    (Shell::Elvish, "ragcite.elv"),
];

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
        fs::write(&path, bytes).with_context(|| format!("{}: cannot write", path.display()))?;
    }
    clap_mangen::generate_to(Cli::command(), &man)
        .with_context(|| format!("{}: cannot write the man pages", man.display()))?;
    Ok(())
}
