//! The chunks reader, every format auto-detected, forced to JSON by a `.json` name and to CSV by
//! a `.csv` name: never panics; the chunks it reads resolve through a marker resolver.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::input::read_chunks_named;

fuzz_target!(|data: &[u8]| {
    for name in ["chunks.txt", "chunks.json", "chunks.csv"] {
        if let Ok(chunks) = read_chunks_named(data, name) {
            // Chunk ids and other names resolve through a marker resolver: building one must
            // not panic either.
            let resolver = ragcite::marker::Resolver::for_chunks(&chunks);
            for chunk in &chunks.chunks {
                assert!(!resolver.resolve(&chunk.id).is_empty(), "a chunk's own id names it");
                for alias in &chunk.aliases {
                    let _ = resolver.resolve(alias);
                }
            }
        }
    }
});
