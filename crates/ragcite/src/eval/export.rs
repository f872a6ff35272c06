//! `ragcite eval --features`: one JSON line per labelled unit with the features of its deciding
//! sentence and chunk, its label and what identifies its record and sources, so that a support
//! model can be fitted (and cross-validated by source) outside ragcite.

use std::io::{self, Write};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::JudgedRecord;
use crate::input::Chunk;
use crate::report::Verdict;
use crate::support::model::features::Feature;

/// A short digest of the chunks' texts: records checked against the same sources share it.
pub(super) fn digest(chunks: &[Chunk]) -> String {
    let mut hasher = Sha256::new();
    for chunk in chunks {
        hasher.update((chunk.text.len() as u64).to_le_bytes());
        hasher.update(chunk.text.as_bytes());
    }
    hasher.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[derive(Serialize)]
struct Line<'a> {
    record: &'a str,
    unit: usize,
    group: &'a str,
    subset: &'a str,
    question: &'a str,
    document: &'a str,
    label: bool,
    verdict: Verdict,
    score: f64,
    blocked: bool,
    features: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Writes one line per labelled unit of `record`.
pub fn write_features(out: &mut impl Write, record: &JudgedRecord) -> io::Result<()> {
    for (k, unit) in record.units.iter().enumerate() {
        let features = unit.features.map(|f| {
            Feature::ALL
                .iter()
                .zip(f.0)
                .map(|(feature, value)| {
                    (feature.name().to_string(), serde_json::Value::from(value))
                })
                .collect()
        });
        let line = Line {
            record: &record.id,
            unit: k,
            group: &record.group,
            subset: &record.subset,
            question: &record.question,
            document: &record.document,
            label: unit.label,
            verdict: unit.verdict,
            score: unit.score,
            blocked: unit.blocked,
            features,
        };
        crate::escape::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}
