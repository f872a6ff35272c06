//! Format profiles and the path language: the first line is a path (also read as a template),
//! or a profile written as JSON; the rest is the document. Never panics; a profile that compiles
//! reads the document into citations whose spans lie inside the answer on character boundaries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ragcite::input::path::{Budget, Found, Path, Template};
use ragcite::input::response::profile::{Profile, ProfileSpec};
use ragcite::input::{AnswerFormat, ProfileRef, read_answer};
use ragcite_fuzz::assert_span;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (head, body) = text.split_once('\n').unwrap_or((text, ""));
    if let Ok(value) = serde_json::from_str::<Value>(body) {
        let budget = Budget::new(&value);
        let root = Found::root(&value, &budget);
        if let Ok(path) = Path::parse(head) {
            for found in path.select(&root) {
                let _ = Path::parse("^").map(|up| up.select(&found));
            }
        }
        if let Ok(template) = Template::parse(head) {
            let _ = template.render(&root);
        }
    }
    let Ok(spec) = serde_json::from_str::<ProfileSpec>(head) else {
        return;
    };
    let Ok(profile) = Profile::new(spec, true) else {
        return;
    };
    // One profile per input: leaked, as the configuration's are, and small.
    let profile: &'static Profile = Box::leak(Box::new(profile));
    let format = AnswerFormat::Profile(ProfileRef(profile));
    if let Ok(answer) = read_answer(body.as_bytes(), Some(format)) {
        for (k, citation) in answer.citations.iter().enumerate() {
            if let Some(span) = &citation.span {
                assert_span(&answer.text, span, &format!("citation {k}"));
            }
        }
    }
});
