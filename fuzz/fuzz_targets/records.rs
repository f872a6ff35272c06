//! The batch record scanner (JSON array, JSON Lines, an object holding the records, CSV) and
//! the trace joiner over it, read as found, forced to JSON Lines and forced to CSV: iterating to
//! the end never panics and never loops (each item stands for input consumed, so there are never
//! more items than bytes, and every item is on a line of the input); every record read is then
//! parsed with the default field aliases.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::batch::scan::{RecordScanner, Scanned};
use ragcite::batch::traces::Records;
use ragcite::batch::{Fields, read_record};

/// Items read at most: far more than any input up to -max_len can hold (see the assert below).
const MAX_ITEMS: usize = 10_000;

fuzz_target!(|data: &[u8]| {
    let fields = Fields::default();
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let cap = MAX_ITEMS.min(data.len() + 2);
    for name in ["records.json", "records.jsonl", "records.csv"] {
        let mut items = 0;
        for item in Records::new(RecordScanner::named(data, name)).take(cap) {
            items += 1;
            match item {
                Ok(Scanned::Record(record)) => {
                    assert!(
                        (1..=lines).contains(&record.line),
                        "record on line {} of a {lines}-line input",
                        record.line
                    );
                    let _ = read_record(&record.bytes, items, &fields);
                }
                Ok(Scanned::Bad { line, .. }) => {
                    assert!(
                        (1..=lines).contains(&line),
                        "bad record on line {line} of a {lines}-line input"
                    );
                }
                Err(_) => {}
            }
        }
        assert!(
            items <= data.len() + 1,
            "{items} items from {} bytes (read as {name}): the scanner loops",
            data.len()
        );
    }
});
