//! The citation-marker scanner: marker spans are non-empty, in order, do not overlap, and lie
//! inside the text on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::marker::{Resolver, markers};
use ragcite_fuzz::assert_ordered_spans;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let resolver = Resolver::new(["1", "doc2"]);
    let found = markers(text, &resolver);
    assert_ordered_spans(text, found.iter().map(|m| &m.span), "marker");
    for (k, marker) in found.iter().enumerate() {
        assert!(!marker.span.is_empty(), "marker {k}: empty span {:?}", marker.span);
        for label in &marker.labels {
            let _ = resolver.resolve(label);
        }
    }
});
