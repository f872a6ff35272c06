//! GitHub code scanning's fingerprints, ported from the upload-sarif action
//! (`src/fingerprints.ts` of github/codeql-action): a rolling hash of the first 100
//! characters (spaces and tabs skipped, line breaks normalised) from the start of each line,
//! numbered by occurrence (`hash:n`), given to each result whose `primaryLocationLineHash` is
//! not set already. Code scanning tracks alerts by this value: results with the same one in a
//! file are one alert.

use serde_json::Value;

const BLOCK_SIZE: usize = 100;
const MOD: u64 = 37;

/// The hash of every line of `text`, 1-based line number to `hash:occurrence`, as the action
/// computes it (64-bit wrapping arithmetic, as its `Long`).
pub fn line_hashes(text: &str) -> Vec<(usize, String)> {
    let first_mod = (0..BLOCK_SIZE).fold(1u64, |m, _| m.wrapping_mul(MOD));
    let mut window = [0u64; BLOCK_SIZE];
    let mut line_numbers = [usize::MAX; BLOCK_SIZE];
    let mut hash_raw: u64 = 0;
    let mut index = 0;
    let mut line_number = 0;
    let mut line_start = true;
    let mut prev_cr = false;
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();

    let mut output = |hash_raw: u64,
                      line_numbers: &mut [usize; BLOCK_SIZE],
                      index: usize,
                      out: &mut Vec<(usize, String)>| {
        let value = format!("{hash_raw:x}");
        let count = counts.entry(value.clone()).or_insert(0);
        *count += 1;
        out.push((line_numbers[index], format!("{value}:{count}")));
        line_numbers[index] = usize::MAX;
    };
    let update =
        |current: u64, window: &mut [u64; BLOCK_SIZE], hash_raw: &mut u64, index: &mut usize| {
            let begin = window[*index];
            window[*index] = current;
            *hash_raw = MOD
                .wrapping_mul(*hash_raw)
                .wrapping_add(current)
                .wrapping_sub(first_mod.wrapping_mul(begin));
            *index = (*index + 1) % BLOCK_SIZE;
        };
    // The action reads UTF-16 code units (`charCodeAt`), and ends with 65535.
    let units: Vec<u64> = text
        .encode_utf16()
        .map(u64::from)
        .chain(std::iter::once(65535))
        .collect();
    for mut current in units {
        if current == u64::from(b' ')
            || current == u64::from(b'\t')
            || (prev_cr && current == u64::from(b'\n'))
        {
            prev_cr = false;
            continue;
        }
        if current == u64::from(b'\r') {
            current = u64::from(b'\n');
            prev_cr = true;
        } else {
            prev_cr = false;
        }
        if line_numbers[index] != usize::MAX {
            output(hash_raw, &mut line_numbers, index, &mut out);
        }
        if line_start {
            line_start = false;
            line_number += 1;
            line_numbers[index] = line_number;
        }
        if current == u64::from(b'\n') {
            line_start = true;
        }
        update(current, &mut window, &mut hash_raw, &mut index);
    }
    for _ in 0..BLOCK_SIZE {
        if line_numbers[index] != usize::MAX {
            output(hash_raw, &mut line_numbers, index, &mut out);
        }
        update(0, &mut window, &mut hash_raw, &mut index);
    }
    out
}

/// What the action does to a SARIF log whose results all point into `file` (its text): each
/// result without a `primaryLocationLineHash` gets the hash of its start line; a result with
/// one keeps it. Returns each result's `primaryLocationLineHash` afterwards.
pub fn add_fingerprints(sarif: &Value, file: &str) -> Vec<String> {
    let hashes = line_hashes(file);
    sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|result| {
            if let Some(given) = result["partialFingerprints"]["primaryLocationLineHash"].as_str() {
                return given.to_string();
            }
            let line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap_or(1) as usize;
            hashes
                .iter()
                .find(|(l, _)| *l == line)
                .map(|(_, hash)| hash.clone())
                .unwrap_or_default()
        })
        .collect()
}

/// The alerts code scanning makes of the results: one per (rule, file, fingerprint).
pub fn alerts(
    sarif: &Value,
    fingerprints: &[String],
) -> std::collections::BTreeSet<(String, String, String)> {
    sarif["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .zip(fingerprints)
        .map(|(result, fingerprint)| {
            (
                result["ruleId"].as_str().unwrap_or("").to_string(),
                result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
                fingerprint.clone(),
            )
        })
        .collect()
}

/// A workflow command as the Actions runner reads a log line (`ActionCommand.TryParseV2`):
/// `::name key=value,key=value::message`, properties and message unescaped. `None` for a line
/// that is no command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub name: String,
    pub properties: Vec<(String, String)>,
    pub message: String,
}

fn unescape_data(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%25", "%")
}

fn unescape_property(text: &str) -> String {
    text.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

pub fn parse_command(line: &str) -> Option<Command> {
    let rest = line.trim_end_matches(['\r', '\n']).strip_prefix("::")?;
    let end = rest.find("::")?;
    let (head, message) = (&rest[..end], &rest[end + 2..]);
    let (name, properties) = head.split_once(' ').unwrap_or((head, ""));
    if name.is_empty() {
        return None;
    }
    let properties = properties
        .split(',')
        .filter(|p| !p.is_empty())
        .filter_map(|p| {
            let (key, value) = p.split_once('=')?;
            Some((key.to_string(), unescape_property(value)))
        })
        .collect();
    Some(Command {
        name: name.to_string(),
        properties,
        message: unescape_data(message),
    })
}
