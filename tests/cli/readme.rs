//! README.md shows what the binary prints: the worked example near the top is the output of the
//! command its introduction names, and the usage block under "## Usage" lists every visible
//! subcommand with the usage line clap prints for it; docs/methodology.md's verdict section is
//! what `ragcite explain` prints. Each test fails with the fix to make.

use crate::util::{Output, ROOT, ragcite};

/// The command the README's worked example is the output of, as the README states it.
const EXAMPLE_COMMAND: &str = "COLUMNS=100 ragcite check testdata/eiffel/answer.md testdata/eiffel/chunks.json --color never --isolated";

fn readme() -> String {
    std::fs::read_to_string(std::path::Path::new(ROOT).join("README.md"))
        .expect("README.md is readable")
}

/// The body of the ```text block that follows `marker` (after blank lines only), without its
/// fences; `None` when there is no such block.
fn text_block_after<'a>(readme: &'a str, marker: &str) -> Option<&'a str> {
    let at = readme.find(marker)?;
    let body = readme[at + marker.len()..]
        .trim_start_matches('\n')
        .strip_prefix("```text\n")?;
    let close = body.find("\n```")?;
    Some(&body[..=close])
}

/// `ragcite <args>` with no `COLUMNS` but what `env` sets: the README's commands say their width.
fn ragcite_with(env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut run = ragcite(args).env_remove("COLUMNS");
    for (key, value) in env {
        run = run.env(key, value);
    }
    run.output()
}

#[test]
fn the_worked_example_is_the_output_of_its_command() {
    let readme = readme();
    let intro = format!("(`{EXAMPLE_COMMAND}`):");
    let Some(shown) = text_block_after(&readme, &intro) else {
        panic!(
            "README.md: the worked example's ```text block must follow a line ending `{intro}`, the command it is the output of"
        );
    };
    let mut words = EXAMPLE_COMMAND.split(' ');
    let (key, value) = words
        .next()
        .and_then(|assignment| assignment.split_once('='))
        .expect("the command starts with COLUMNS=");
    assert_eq!(words.next(), Some("ragcite"));
    // The runner adds `--isolated`: whatever configuration sits above the checkout, the README
    // shows the defaults.
    let args: Vec<&str> = words.collect();
    let output = ragcite_with(&[(key, value)], &args);
    assert_eq!(output.code, Some(1), "the example fails its gate");
    let fresh = output.stdout;
    assert!(
        shown == fresh,
        "README.md's worked example is stale: replace its ```text block with the output of `{EXAMPLE_COMMAND}` (run from the crate root: COLUMNS=100 cargo run -q -- check testdata/eiffel/answer.md testdata/eiffel/chunks.json --color never --isolated)"
    );
}

/// The visible subcommands, in the order `ragcite help` lists them.
fn subcommands() -> Vec<String> {
    let help = ragcite_with(&[("COLUMNS", "200")], &["help"]).stdout;
    let commands = help
        .split_once("Commands:\n")
        .expect("`ragcite help` lists its commands")
        .1;
    commands
        .lines()
        .take_while(|line| !line.is_empty())
        // A command starts two spaces in; its description's continued lines start further in.
        .filter(|line| line.starts_with("  ") && !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_usage_block_lists_every_subcommand_as_clap_prints_it() {
    let names = subcommands();
    assert!(
        names.len() >= 6 && names.iter().any(|n| n == "eval"),
        "{names:?}"
    );
    let mut expected: Vec<String> = names
        .iter()
        .map(|name| {
            let help = ragcite_with(&[("COLUMNS", "200")], &["help", name]).stdout;
            help.lines()
                .find_map(|line| line.strip_prefix("Usage: "))
                .unwrap_or_else(|| panic!("`ragcite help {name}` prints a usage line"))
                .to_string()
        })
        .collect();
    let version = ragcite_with(&[], &["--version"]);
    assert_eq!(version.code, Some(0), "ragcite --version works");
    expected.push("ragcite --version".to_string());
    let expected = expected.join("\n") + "\n";
    assert!(
        text_block_after(&readme(), "## Usage\n") == Some(expected.as_str()),
        "README.md's usage block under ## Usage is stale: make its ```text block these lines: {}",
        expected.trim_end().replace('\n', " | ")
    );
}

/// The ```text block that docs/methodology.md holds between `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->`.
fn methodology_block(name: &str) -> String {
    let methodology =
        std::fs::read_to_string(std::path::Path::new(ROOT).join("docs/methodology.md"))
            .expect("docs/methodology.md");
    methodology
        .split_once(&format!("<!-- {name}:begin -->"))
        .and_then(|(_, rest)| rest.split_once(&format!("<!-- {name}:end -->")))
        .map(|(inside, _)| inside.trim())
        .and_then(|b| b.strip_prefix("```text\n"))
        .and_then(|b| b.strip_suffix("```"))
        .unwrap_or_else(|| panic!("docs/methodology.md marks the {name} as one ```text block"))
        .to_string()
}

/// The methodology's verdict section is what `ragcite explain` prints: one source for both.
#[test]
fn the_methodology_quotes_ragcite_explain() {
    let explain = ragcite(["explain"]).stdout(0);
    assert!(
        methodology_block("verdicts") == explain,
        "docs/methodology.md's verdict section is stale: paste the output of `ragcite explain` between the verdicts comments"
    );
}

/// The methodology's list of the support model's features is what `ragcite explain --features`
/// prints.
#[test]
fn the_methodology_quotes_the_features() {
    let explain = ragcite(["explain", "--features"]).stdout(0);
    assert!(
        methodology_block("features") == explain,
        "docs/methodology.md's feature list is stale: paste the output of `ragcite explain --features` between the features comments"
    );
}
