//! The configuration file: `.ragcite.toml`, `ragcite.toml`, or `[tool.ragcite]` in
//! `pyproject.toml`, found by walking up from the working directory (or `--config PATH`; none
//! with `--isolated`). Its keys are the long options' names; it is applied by placing the
//! options it sets before those of the command line, where the command line's win.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::CommandFactory;
use ragcite::emit::{ConfigSource, ConfigUsed};

use crate::cli::Cli;

/// File names looked for in each directory, in order.
const NAMES: [&str; 3] = [".ragcite.toml", "ragcite.toml", "pyproject.toml"];

/// Subcommands that read the configuration's top-level keys.
const CONFIGURED: [&str; 3] = ["check", "batch", "compare"];

/// The subcommand that reads the `[serve]` table.
const SERVE: &str = "serve";

/// The subcommand that lists the formats: it reads only the `[[format]]` tables.
const FORMATS: &str = "formats";

/// Options that make no sense in a file: they name inputs or this very mechanism.
const NOT_IN_FILE: [&str; 6] = [
    "config",
    "isolated",
    "stdin-filename",
    "baseline",
    "help",
    "version",
];

/// A configuration found and read.
#[derive(Debug)]
struct Config {
    path: PathBuf,
    table: toml::Table,
}

/// The command line with the configuration's options placed before the user's, so that the
/// user's win, and which file that was (or why none was), for the reports' `inputs`. Returns the
/// arguments unchanged for subcommands without configuration.
pub fn apply(args: Vec<OsString>) -> Result<(Vec<OsString>, ConfigUsed)> {
    let Some(position) = args
        .iter()
        .skip(1)
        .position(|a| a.to_str().is_some_and(|a| !a.starts_with('-')))
        .map(|p| p + 1)
    else {
        return Ok((args, ConfigUsed::isolated()));
    };
    let subcommand = args[position].to_string_lossy().into_owned();
    if !CONFIGURED.contains(&subcommand.as_str()) && subcommand != SERVE && subcommand != FORMATS {
        return Ok((args, ConfigUsed::isolated()));
    }
    let user: Vec<String> = args[position + 1..]
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if user.iter().any(|a| a == "--isolated") {
        return Ok((args, ConfigUsed::isolated()));
    }
    let explicit = user.iter().enumerate().find_map(|(k, a)| {
        if a == "--config" {
            user.get(k + 1).cloned()
        } else {
            a.strip_prefix("--config=").map(str::to_string)
        }
    });
    let (config, used) = match explicit {
        Some(path) => {
            let config = read(Path::new(&path), true)?
                .with_context(|| format!("{path}: has no [tool.ragcite] table"))?;
            let used = ConfigUsed {
                source: ConfigSource::Given,
                path: Some(path),
            };
            (config, used)
        }
        None => match discover()? {
            Some((config, shown)) => {
                let used = ConfigUsed {
                    source: ConfigSource::Found,
                    path: Some(shown),
                };
                (config, used)
            }
            None => {
                let none = ConfigUsed {
                    source: ConfigSource::None,
                    path: None,
                };
                return Ok((args, none));
            }
        },
    };
    add_formats(&config)?;
    if subcommand == FORMATS {
        return Ok((args, used));
    }
    let inserted = options_for(&config, &subcommand, &user)?;
    let mut result: Vec<OsString> = args[..=position].to_vec();
    result.extend(inserted.into_iter().map(OsString::from));
    result.extend(args[position + 1..].iter().cloned());
    Ok((result, used))
}

/// `[[format]]` tables: the user's format profiles, in the built-in profiles' schema, added to
/// the formats that detection and `--answer-format` know.
fn add_formats(config: &Config) -> Result<()> {
    let shown = config.path.display();
    let Some(toml::Value::Array(tables)) = config.table.get("format") else {
        return Ok(());
    };
    let mut specs = Vec::with_capacity(tables.len());
    for (k, table) in tables.iter().enumerate() {
        let spec: ragcite::input::response::profile::ProfileSpec =
            table.clone().try_into().map_err(|e: toml::de::Error| {
                anyhow::anyhow!("{shown}: [[format]] number {}: {}", k + 1, e.message())
            })?;
        specs.push(spec);
    }
    ragcite::input::response::profile::add_user_profiles(specs)
        .map_err(|e| anyhow::anyhow!("{shown}: [[format]]: {e}"))
}

/// The nearest configuration above the working directory, and its path relative to the working
/// directory (`.ragcite.toml`, `../../pyproject.toml`), which is how the reports name it.
fn discover() -> Result<Option<(Config, String)>> {
    let Ok(start) = std::env::current_dir() else {
        return Ok(None);
    };
    for (up, dir) in start.ancestors().enumerate() {
        for name in NAMES {
            let path = dir.join(name);
            // An entry of a configuration's name that is no regular file (a folder, a FIFO, a
            // device, a dangling or looping link) is an error, not skipped: a configuration
            // above may otherwise decide in silence.
            if std::fs::symlink_metadata(&path).is_err() {
                continue;
            }
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_file() => {}
                Ok(_) => bail!(
                    "{}: not a regular file: a configuration must be one (remove it, or pass --config or --isolated)",
                    path.display()
                ),
                Err(e) => bail!(
                    "{}: cannot read ({e}): a configuration must be a regular file (remove it, or pass --config or --isolated)",
                    path.display()
                ),
            }
            if let Some(config) = read(&path, false)? {
                let mut shown = PathBuf::new();
                for _ in 0..up {
                    shown.push("..");
                }
                shown.push(name);
                return Ok(Some((config, shown.to_string_lossy().into_owned())));
            }
        }
    }
    Ok(None)
}

/// Reads a configuration file; a `pyproject.toml` without `[tool.ragcite]` is no
/// configuration (`None`) unless it was named explicitly.
fn read(path: &Path, explicit: bool) -> Result<Option<Config>> {
    let shown = path.display();
    // A configuration is a few lines: more than 1 MiB (an endless `--config /dev/zero`) is no
    // configuration.
    let file = std::fs::File::open(path).with_context(|| format!("{shown}: cannot read"))?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, (1 << 20) + 1), &mut bytes)
        .with_context(|| format!("{shown}: cannot read"))?;
    if bytes.len() > 1 << 20 {
        bail!("{shown}: larger than 1 MiB: not a configuration file");
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{shown}: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        )
    })?;
    let mut table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let message = e.message().to_string();
        let at = e
            .span()
            .map(|span| {
                let line = 1 + text[..span.start.min(text.len())].matches('\n').count();
                format!(" at line {line}")
            })
            .unwrap_or_default();
        anyhow::anyhow!("{shown}: invalid TOML{at}: {message}")
    })?;
    let is_pyproject = path.file_name().is_some_and(|n| n == "pyproject.toml");
    if is_pyproject {
        let section = table.remove("tool").and_then(|tool| match tool {
            toml::Value::Table(mut tool) => tool.remove("ragcite"),
            _ => None,
        });
        return match section {
            Some(toml::Value::Table(section)) => Ok(Some(Config {
                path: path.to_path_buf(),
                table: section,
            })),
            Some(_) => bail!("{shown}: [tool.ragcite] must be a table"),
            None if explicit => Ok(None),
            None => Ok(None),
        };
    }
    Ok(Some(Config {
        path: path.to_path_buf(),
        table,
    }))
}

/// The long option names each configured subcommand has, for validation.
fn long_names(subcommand: &str) -> Vec<String> {
    let command = Cli::command();
    command
        .find_subcommand(subcommand)
        .map(|sub| {
            sub.get_arguments()
                .filter_map(|a| a.get_long().map(str::to_string))
                .filter(|name| !NOT_IN_FILE.contains(&name.as_str()) && name != "field")
                .collect()
        })
        .unwrap_or_default()
}

/// Turns the configuration into options for `subcommand`, checking every key and value.
/// Options the user gave on the command line are left out (theirs win); keys that only
/// another subcommand has are skipped.
fn options_for(config: &Config, subcommand: &str, user: &[String]) -> Result<Vec<String>> {
    let shown = config.path.display();
    if subcommand == SERVE {
        return serve_options(config, user);
    }
    let mine = long_names(subcommand);
    let all: Vec<String> = {
        let mut names: Vec<String> = CONFIGURED.iter().flat_map(|s| long_names(s)).collect();
        names.sort();
        names.dedup();
        names
    };
    let mut options = Vec::new();
    for (key, value) in &config.table {
        if key == "fields" {
            options.extend(field_options(config, value, subcommand, user)?);
            continue;
        }
        if key == "format" && value.is_array() {
            // `[[format]]` tables: read by `add_formats`.
            continue;
        }
        if key == SERVE {
            // Read by `serve`; here only its shape is checked.
            if !value.is_table() {
                bail!("{shown}: key `serve`: expected a table such as [serve] port = 8080");
            }
            continue;
        }
        if !all.contains(key) {
            bail!(
                "{shown}: unknown key `{key}` (allowed: {}, and a [fields] table)",
                all.join(", ")
            );
        }
        let text = scalar(value).with_context(|| {
            format!("{shown}: key `{key}`: expected a number, a string or true/false")
        })?;
        // Checked by the subcommand that has the option, even when this one does not use it.
        let owner = if mine.contains(key) {
            subcommand
        } else {
            CONFIGURED
                .into_iter()
                .find(|s| long_names(s).contains(key))
                .unwrap_or(subcommand)
        };
        if let Err(e) = validate(owner, key, &text) {
            // A value that only another subcommand takes (`format = "jsonl"` is for batch)
            // does not apply to this one.
            let elsewhere = CONFIGURED.into_iter().any(|s| {
                s != owner && long_names(s).contains(key) && validate(s, key, &text).is_ok()
            });
            if !elsewhere {
                bail!("{shown}: key `{key}`: {e}");
            }
            continue;
        }
        if !mine.contains(key) {
            continue;
        }
        let given = user
            .iter()
            .any(|a| a == &format!("--{key}") || a.starts_with(&format!("--{key}=")));
        if given {
            continue;
        }
        if text == "true" && is_flag(subcommand, key) {
            options.push(format!("--{key}"));
        } else if text == "false" && is_flag(subcommand, key) {
            // A false flag is the default.
        } else {
            options.push(format!("--{key}={}", relative_to(config, key, text)));
        }
    }
    Ok(options)
}

/// `[serve]`: the options of `ragcite serve` (`host`, `port`, `rate-limit`, ...), unless the
/// command line gives them. Keys outside the table are for `check` and `batch`.
fn serve_options(config: &Config, user: &[String]) -> Result<Vec<String>> {
    let shown = config.path.display();
    let table = match config.table.get(SERVE) {
        None => return Ok(Vec::new()),
        Some(toml::Value::Table(table)) => table,
        Some(_) => bail!("{shown}: key `serve`: expected a table such as [serve] port = 8080"),
    };
    let names = long_names(SERVE);
    let mut options = Vec::new();
    for (key, value) in table {
        if !names.contains(key) {
            bail!(
                "{shown}: unknown key `serve.{key}` (allowed: {})",
                names.join(", ")
            );
        }
        let text = scalar(value).with_context(|| {
            format!("{shown}: key `serve.{key}`: expected a number, a string or true/false")
        })?;
        validate(SERVE, key, &text)
            .map_err(|e| anyhow::anyhow!("{shown}: key `serve.{key}`: {e}"))?;
        let given = user
            .iter()
            .any(|a| a == &format!("--{key}") || a.starts_with(&format!("--{key}=")));
        if given {
            continue;
        }
        if text == "true" && is_flag(SERVE, key) {
            options.push(format!("--{key}"));
        } else if text != "false" || !is_flag(SERVE, key) {
            options.push(format!("--{key}={}", relative_to(config, key, text)));
        }
    }
    Ok(options)
}

/// `[fields]`: `answer = "outputs.text"` → `--field answer=outputs.text` (batch and compare), unless
/// the command line points that field itself.
fn field_options(
    config: &Config,
    value: &toml::Value,
    subcommand: &str,
    user: &[String],
) -> Result<Vec<String>> {
    let shown = config.path.display();
    let toml::Value::Table(fields) = value else {
        bail!("{shown}: key `fields`: expected a table such as [fields] answer = \"outputs.text\"");
    };
    let mut options = Vec::new();
    for (key, path) in fields {
        if !["answer", "contexts", "id"].contains(&key.as_str()) {
            bail!("{shown}: key `fields.{key}`: unknown field (allowed: answer, contexts, id)");
        }
        let paths: Vec<String> = match path {
            toml::Value::String(p) => vec![p.clone()],
            toml::Value::Array(items) => items
                .iter()
                .map(|i| i.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .with_context(|| {
                    format!("{shown}: key `fields.{key}`: expected a string or a list of strings")
                })?,
            _ => bail!("{shown}: key `fields.{key}`: expected a string or a list of strings"),
        };
        let overridden = user.iter().enumerate().any(|(k, a)| {
            let value = if a == "--field" {
                user.get(k + 1).map(String::as_str)
            } else {
                a.strip_prefix("--field=")
            };
            value.is_some_and(|v| v.trim_start().starts_with(&format!("{key}=")))
        });
        for p in paths {
            let option = format!("{key}={p}");
            validate("batch", "field", &option)
                .map_err(|e| anyhow::anyhow!("{shown}: key `fields.{key}`: {e}"))?;
            if (subcommand == "batch" || subcommand == "compare") && !overridden {
                options.push(format!("--field={option}"));
            }
        }
    }
    Ok(options)
}

/// Keys whose value may be a file's path, which a file gives relative to its own folder.
const PATHS: [&str; 2] = ["model", "claim-model"];

/// A relative model path (`model`, `claim-model`) as the configuration file means it: from the
/// file's folder, not from the working directory. `shipped`, `formula`, `rules`, absolute paths
/// and other keys are unchanged.
fn relative_to(config: &Config, key: &str, value: String) -> String {
    if !PATHS.contains(&key) || ["shipped", "formula", "rules", "-"].contains(&value.as_str()) {
        return value;
    }
    let path = Path::new(&value);
    match config.path.parent() {
        Some(folder) if path.is_relative() && !folder.as_os_str().is_empty() => folder
            .join(path)
            .to_str()
            .map_or(value.clone(), str::to_string),
        _ => value,
    }
}

fn scalar(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn is_flag(subcommand: &str, key: &str) -> bool {
    let command = Cli::command();
    command
        .find_subcommand(subcommand)
        .and_then(|sub| sub.get_arguments().find(|a| a.get_long() == Some(key)))
        .is_some_and(|a| !a.get_action().takes_values())
}

/// Checks a value with the option's own parser, so that a file and the command line accept
/// exactly the same values; the message says what is allowed.
fn validate(subcommand: &str, key: &str, value: &str) -> std::result::Result<(), String> {
    let command = Cli::command();
    let Some(sub) = command.find_subcommand(subcommand) else {
        return Ok(());
    };
    let Some(arg) = sub.get_arguments().find(|a| a.get_long() == Some(key)) else {
        return Ok(());
    };
    if !arg.get_action().takes_values() {
        return match value {
            "true" | "false" => Ok(()),
            _ => Err("expected true or false".to_string()),
        };
    }
    let possible: Vec<String> = arg
        .get_possible_values()
        .iter()
        .map(|p| p.get_name().to_string())
        .collect();
    // Parse the one option alone, with the inputs made optional.
    let mut alone = sub.clone();
    let positionals: Vec<String> = alone
        .get_positionals()
        .map(|a| a.get_id().to_string())
        .collect();
    for id in positionals {
        alone = alone.mut_arg(id, |a| a.required(false));
    }
    alone
        .try_get_matches_from([subcommand.to_string(), format!("--{key}={value}")])
        .map(|_| ())
        .map_err(|e| {
            if !possible.is_empty() {
                return format!("invalid value `{value}` (allowed: {})", possible.join(", "));
            }
            let rendered = e.render().to_string();
            rendered
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ")
                .to_string()
        })
}
