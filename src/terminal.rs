//! What the terminal decides: colour, the width tables are laid out for, and progress bars.

use std::io::{self, IsTerminal};

/// Output width when neither the terminal nor `COLUMNS` gives one: what a pipe, a file or a CI
/// log gets, so that it does not depend on the terminal the command was started from.
const DEFAULT_WIDTH: u16 = 100;

/// Narrower than this, the tables are laid out for this width anyway: below it even the
/// columns that never wrap no longer fit beside each other.
const MIN_WIDTH: u16 = 60;

/// Files smaller than this finish before a progress bar would help.
const PROGRESS_MIN_BYTES: u64 = 16 * 1024 * 1024;

/// `--color`: when the output is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE or FORCE_COLOR force it
    Auto,
    Always,
    Never,
}

/// `--color always|never` win; in `auto`, NO_COLOR with any non-empty value turns colour off,
/// CLICOLOR_FORCE or FORCE_COLOR (non-empty, not `0`) turn it on, else colour on a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    let value = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let forced = |name: &str| value(name).is_some_and(|v| v != "0");
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if value("NO_COLOR").is_some() => false,
        ColorChoice::Auto if forced("CLICOLOR_FORCE") || forced("FORCE_COLOR") => true,
        ColorChoice::Auto => io::stdout().is_terminal(),
    }
}

/// The width the tables are laid out for (see [`choose_width`]).
pub fn output_width() -> u16 {
    let terminal = if io::stdout().is_terminal() {
        comfy_table::Table::new().width()
    } else {
        None
    };
    let columns = std::env::var("COLUMNS").ok();
    choose_width(terminal, columns.as_deref())
}

/// The terminal's width when it is known and not 0, else `COLUMNS` when it is a positive whole
/// number, else [`DEFAULT_WIDTH`]; never below [`MIN_WIDTH`]. A pseudo-terminal that was never
/// given a size (`script`, some CI runners, pre-commit) reports 0 columns, and laying out for
/// that would squeeze every column to one character.
fn choose_width(terminal: Option<u16>, columns: Option<&str>) -> u16 {
    let from_columns = || {
        let value: u64 = columns?.trim().parse().ok()?;
        (value > 0).then(|| u16::try_from(value).unwrap_or(u16::MAX))
    };
    terminal
        .filter(|&width| width > 0)
        .or_else(from_columns)
        .unwrap_or(DEFAULT_WIDTH)
        .max(MIN_WIDTH)
}

/// Whether progress may be shown: standard error is a terminal, and not a CI log's.
pub fn shows_progress() -> bool {
    let in_ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
    !in_ci && io::stderr().is_terminal()
}

/// A progress bar on stderr for a large file, only on a terminal and never in CI logs.
pub fn progress_bar(len: u64) -> Option<indicatif::ProgressBar> {
    if len < PROGRESS_MIN_BYTES || !shows_progress() {
        return None;
    }
    // Cleared when the file is done, so that it never mixes with the report.
    let bar = indicatif::ProgressBar::new(len).with_finish(indicatif::ProgressFinish::AndClear);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {eta}",
    )
    .ok()?;
    bar.set_style(style);
    Some(bar)
}

/// Runs `check` (a check looking at `deadline`) and, with `show`, a progress bar on stderr of
/// the sentences it has judged, from a second after it started (a quick check shows none);
/// cleared when the check ends.
pub fn with_check_progress<T: Send>(
    show: bool,
    deadline: &ragcite::Deadline,
    check: impl FnOnce() -> T + Send,
) -> T {
    if !show {
        return check();
    }
    let (done, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            use std::sync::mpsc::RecvTimeoutError::Timeout;
            let tick = std::time::Duration::from_millis(100);
            // From a second on, and once the sentences to judge are known; a check that ended
            // before shows nothing.
            let mut waited = 0;
            loop {
                if wait.recv_timeout(tick) != Err(Timeout) {
                    return;
                }
                waited += 1;
                if waited >= 10 && deadline.progress().1 > 0 {
                    break;
                }
            }
            let Ok(style) = indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} sentences judged {elapsed}",
            ) else {
                return;
            };
            let bar = indicatif::ProgressBar::new(deadline.progress().1 as u64)
                .with_style(style)
                .with_finish(indicatif::ProgressFinish::AndClear);
            loop {
                let (judged, total) = deadline.progress();
                bar.set_length(total as u64);
                bar.set_position(judged as u64);
                if wait.recv_timeout(tick) != Err(Timeout) {
                    break;
                }
            }
            bar.finish_and_clear();
        });
        let result = check();
        // Sent, then dropped: the bar's thread wakes either way.
        let _ = done.send(());
        drop(done);
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_terminal_width_wins_over_columns() {
        assert_eq!(choose_width(Some(90), Some("150")), 90);
        assert_eq!(choose_width(Some(200), None), 200);
    }

    #[test]
    fn a_terminal_of_width_zero_falls_back_to_columns() {
        assert_eq!(choose_width(Some(0), Some("80")), 80);
        assert_eq!(choose_width(Some(0), None), 100);
    }

    #[test]
    fn columns_is_used_when_there_is_no_terminal() {
        assert_eq!(choose_width(None, Some("150")), 150);
        assert_eq!(choose_width(None, Some(" 72 ")), 72);
    }

    #[test]
    fn columns_that_is_no_positive_number_gives_the_default() {
        for columns in [
            None,
            Some("0"),
            Some("abc"),
            Some(""),
            Some("-80"),
            Some("80.5"),
        ] {
            assert_eq!(choose_width(None, columns), 100, "COLUMNS={columns:?}");
            assert_eq!(choose_width(Some(0), columns), 100, "COLUMNS={columns:?}");
        }
    }

    #[test]
    fn narrow_widths_are_raised_to_sixty() {
        assert_eq!(choose_width(Some(40), None), 60);
        assert_eq!(choose_width(None, Some("1")), 60);
        assert_eq!(choose_width(Some(0), Some("59")), 60);
        assert_eq!(choose_width(None, Some("60")), 60);
    }

    #[test]
    fn a_huge_columns_is_kept_within_range() {
        assert_eq!(choose_width(None, Some("70000")), u16::MAX);
    }
}
