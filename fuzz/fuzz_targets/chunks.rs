//! The chunks reader, every format auto-detected and forced to JSON by a `.json` name: never
//! panics; what it reads has chunks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::input::read_chunks;

fuzz_target!(|data: &[u8]| {
    for json_name in [false, true] {
        if let Ok(chunks) = read_chunks(data, json_name) {
            // Chunk ids resolve through a marker resolver: building one must not panic either.
            let resolver = ragcite::marker::Resolver::new(chunks.chunks.iter().map(|c| c.id.as_str()));
            for chunk in &chunks.chunks {
                let _ = resolver.resolve(&chunk.id);
            }
        }
    }
});
