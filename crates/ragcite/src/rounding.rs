//! Scores as every output writes them: rounded to four decimals, so that reports stay readable
//! and byte-identical across platforms.

use serde::Serializer;

/// Writes a score rounded to four decimals, so that outputs stay readable and stable.
pub(crate) fn rounded<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(round4(*value))
}

/// [`rounded`] for an optional score (written only when present).
pub(crate) fn rounded_option<S: Serializer>(
    value: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => serializer.serialize_f64(round4(*value)),
        None => serializer.serialize_none(),
    }
}

/// A score rounded to four decimals.
pub fn round4(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}
