//! Writes, into `OUT_DIR`:
//! - the index of the word-rarity table (`src/words/rarity.txt`) that `words::rarity`
//!   searches: where the table's lines start after its header, and the start of every
//!   `STRIDE`th line, so that a look-up reads a few lines instead of searching the whole table;
//! - the shipped support and claim models (`src/support/model/model.json`, `claims.json`) as
//!   static data (`support::model::StaticModel`), so that a check reads them in place instead
//!   of parsing 60 kB of JSON numbers at every start (2.5 M instructions, a third of a
//!   one-sentence check). A unit test compares them with the JSON read at run time;
//! - the antonym table (`src/words/antonyms.txt`) keyed by Snowball stem, so that the
//!   first content word of a check does not stem the 155 words of the list and build a hash
//!   map (about 1 M instructions, a quarter of a one-sentence check);
//! - the built-in answer formats defined as data (`src/input/response/profiles.toml`) as JSON,
//!   which serde reads in a fifth of the time the TOML parser takes (the profiles are read
//!   whenever a chunks file or an answer is JSON). A unit test compares the two readings.
// A build script talks to cargo on standard output.
#![allow(clippy::print_stdout)]

use std::fmt::Write as _;
use std::path::PathBuf;

use serde_json::Value;

/// Lines per block of the index: the look-up reads at most this many lines.
const STRIDE: usize = 8;

fn main() {
    rarity_index();
    antonyms();
    profiles_as_json();
    let mut out = String::new();
    for (name, source) in [
        ("SUPPORT_MODEL", "src/support/model/model.json"),
        ("CLAIM_MODEL", "src/support/model/claims.json"),
    ] {
        println!("cargo::rerun-if-changed={source}");
        let text = std::fs::read_to_string(source).expect("the shipped model");
        let file: Value = serde_json::from_str(&text).expect("the shipped model is JSON");
        static_model(&mut out, name, source, &file);
    }
    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("models.rs");
    std::fs::write(path, out).expect("the models written");
}

/// `file` (a model file: see `support::model::ModelFile`) as a `StaticModel` named `name`.
/// A field the reader does not know fails the build, as it fails reading the file.
fn static_model(out: &mut String, name: &str, source: &str, file: &Value) {
    let object = file.as_object().expect("a model file is an object");
    for key in object.keys() {
        assert!(
            [
                "format",
                "version",
                "description",
                "kind",
                "features",
                "intercept",
                "base",
                "trees"
            ]
            .contains(&key.as_str()),
            "{source}: unknown field {key}"
        );
    }
    let text = |v: Option<&Value>| format!("{:?}", v.and_then(Value::as_str).unwrap_or_default());
    let number = |v: Option<&Value>| match v {
        Some(v) => format!("Some({:?})", v.as_f64().expect("a number")),
        None => "None".to_string(),
    };
    let numbers = |v: &Value, what: &str| {
        let list = v.get(what).and_then(Value::as_array).expect("a list");
        let items: Vec<String> = list
            .iter()
            .map(|x| {
                if let Some(i) = x.as_i64()
                    && what != "threshold"
                    && what != "value"
                {
                    format!("{i}")
                } else {
                    format!("{:?}", x.as_f64().expect("a number"))
                }
            })
            .collect();
        format!("&[{}]", items.join(","))
    };
    writeln!(out, "/// `{source}`, as written by the build script.").unwrap();
    writeln!(
        out,
        "pub(crate) static {name}: StaticModel = StaticModel {{"
    )
    .unwrap();
    writeln!(out, "format: {},", text(object.get("format"))).unwrap();
    let version = object
        .get("version")
        .and_then(Value::as_u64)
        .expect("a version");
    writeln!(out, "version: {version},").unwrap();
    writeln!(out, "description: {},", text(object.get("description"))).unwrap();
    writeln!(out, "kind: {},", text(object.get("kind"))).unwrap();
    writeln!(out, "intercept: {},", number(object.get("intercept"))).unwrap();
    writeln!(out, "base: {},", number(object.get("base"))).unwrap();
    writeln!(out, "features: &[").unwrap();
    for feature in object
        .get("features")
        .and_then(Value::as_array)
        .expect("features")
    {
        let transform = match feature.get("transform").and_then(Value::as_str) {
            Some(t) => format!("Some({t:?})"),
            None => "None".to_string(),
        };
        writeln!(
            out,
            "StaticFeature {{ name: {}, transform: {transform}, mean: {}, scale: {}, weight: {} }},",
            text(feature.get("name")),
            number(feature.get("mean")),
            number(feature.get("scale")),
            number(feature.get("weight")),
        )
        .unwrap();
    }
    writeln!(out, "],").unwrap();
    match object.get("trees").and_then(Value::as_array) {
        None => writeln!(out, "trees: None,").unwrap(),
        Some(trees) => {
            writeln!(out, "trees: Some(&[").unwrap();
            for tree in trees {
                writeln!(
                    out,
                    "StaticTree {{ feature: {}, threshold: {}, left: {}, right: {}, value: {} }},",
                    numbers(tree, "feature"),
                    numbers(tree, "threshold"),
                    numbers(tree, "left"),
                    numbers(tree, "right"),
                    numbers(tree, "value"),
                )
                .unwrap();
            }
            writeln!(out, "]),").unwrap();
        }
    }
    writeln!(out, "}};").unwrap();
}

/// `antonyms.txt` as `ANTONYMS`: for the stem of each word of a line's side, the words of the
/// other side, in the order the lines give them, each once; sorted by stem.
fn antonyms() {
    let source = "src/words/antonyms.txt";
    println!("cargo::rerun-if-changed={source}");
    let text = std::fs::read_to_string(source).expect("the antonym list");
    let stemmer = rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    let mut table: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut sides = line.split('|').map(str::split_whitespace);
        let (Some(left), Some(right)) = (sides.next(), sides.next()) else {
            continue;
        };
        let (left, right): (Vec<&str>, Vec<&str>) = (left.collect(), right.collect());
        for (from, to) in [(&left, &right), (&right, &left)] {
            for word in from {
                let entry = table.entry(stemmer.stem(word).into_owned()).or_default();
                for other in to {
                    if !entry.contains(other) {
                        entry.push(other);
                    }
                }
            }
        }
    }
    let mut out = String::new();
    writeln!(
        out,
        "/// `antonyms.txt` by stem, sorted (written by the build script)."
    )
    .unwrap();
    writeln!(
        out,
        "static ANTONYMS: [(&str, &[&str]); {}] = [",
        table.len()
    )
    .unwrap();
    for (stem, words) in &table {
        writeln!(out, "({stem:?}, &{words:?}),").unwrap();
    }
    writeln!(out, "];").unwrap();
    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("antonyms.rs");
    std::fs::write(path, out).expect("the antonyms written");
}

/// `profiles.toml` as JSON (`profiles.json`): the same tables, arrays, strings and numbers.
fn profiles_as_json() {
    let source = "src/input/response/profiles.toml";
    println!("cargo::rerun-if-changed={source}");
    let text = std::fs::read_to_string(source).expect("the built-in profiles");
    let value: toml::Value = toml::from_str(&text).expect("the built-in profiles are TOML");
    let json = serde_json::to_string(&value).expect("TOML values are JSON values");
    let path = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR")).join("profiles.json");
    std::fs::write(path, json).expect("the profiles written");
}

/// The rarity table's index (`rarity_index.rs`).
fn rarity_index() {
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
