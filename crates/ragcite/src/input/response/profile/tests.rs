//! The profile engine on small documents: the built-in profiles compile, sources seen twice,
//! offsets in each unit, prefixes that name one chunk or none, and refusals naming their field.

use serde_json::json;

use super::*;

fn profile(spec: serde_json::Value) -> Profile {
    let spec: ProfileSpec = serde_json::from_value(spec).expect("a spec");
    Profile::new(spec, true).expect("it compiles")
}

#[test]
fn the_built_in_profiles_read_as_json_are_those_of_the_toml_file() {
    #[derive(Deserialize)]
    struct File {
        format: Vec<ProfileSpec>,
    }
    let toml: File = toml::from_str(include_str!("../profiles.toml")).unwrap();
    let json: File = serde_json::from_str(BUILT_IN_JSON).unwrap();
    assert!(!toml.format.is_empty());
    assert_eq!(format!("{:?}", toml.format), format!("{:?}", json.format));
}

#[test]
fn the_built_in_profiles_compile_and_have_distinct_names() {
    let profiles = built_in();
    assert!(profiles.len() >= 20);
    let mut names: Vec<&str> = profiles.iter().map(Profile::name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), profiles.len());
    for p in profiles {
        if let Some(pattern) = &p.spec.marker {
            assert!(MarkerPattern::new(pattern).is_ok(), "{}", p.name());
            assert!(p.marker().is_some(), "{}", p.name());
        }
        assert!(
            !p.spec.title.is_empty() && !p.spec.source.is_empty(),
            "{}",
            p.name()
        );
        assert!(
            AnswerFormat::ALL.iter().all(|f| f.name() != p.name()),
            "{} is a reader's name",
            p.name()
        );
    }
}

#[test]
fn a_source_seen_again_is_one_chunk_and_another_text_gets_a_suffix() {
    let mut list = SourceList::default();
    let chunk = |id: &str, text: &str| Chunk {
        id: id.to_string(),
        text: text.to_string(),
        aliases: Vec::new(),
    };
    assert_eq!(list.add(chunk("a", "One  two."), None), "a");
    assert_eq!(list.add(chunk("a", "One two."), Some("x".into())), "a");
    assert_eq!(list.add(chunk("a", "Three."), None), "a#2");
    assert_eq!(list.add(chunk("a#3", "Taken."), None), "a#3");
    assert_eq!(list.add(chunk("a", "Four."), None), "a#4");
    assert_eq!(list.chunks[0].aliases, ["x"]);
    assert_eq!(list.chunks[1].aliases, ["a"]);
    // Many sources of one id stay linear: each takes the next suffix.
    for k in 0..20_000 {
        list.add(chunk("b", &k.to_string()), None);
    }
    assert_eq!(list.chunks.last().map(|c| c.id.as_str()), Some("b#20000"));
}

#[test]
fn offsets_in_characters_bytes_and_utf16_units() {
    let text = "é😀 tall. Old.";
    // Characters: é(0) 😀(1) ' '(2); bytes: é 0..2, 😀 2..6, ' ' 6; UTF-16: 😀 is 2 units.
    let chars = Offsets::new(text, Unit::Chars);
    assert_eq!(chars.span(1, 2), Some(2..6));
    let bytes = Offsets::new(text, Unit::Bytes);
    assert_eq!(bytes.span(3, 4), Some(2..6));
    assert_eq!(bytes.span(0, 999), Some(0..text.len()));
    let utf16 = Offsets::new(text, Unit::Utf16);
    assert_eq!(utf16.span(1, 3), Some(2..6));
    assert_eq!(utf16.span(3, 4), Some(6..7));
    assert_eq!(chars.span(5, 5), None);
    assert_eq!(chars.span(u64::MAX, u64::MAX), None);
}

#[test]
fn citations_with_spans_positions_and_inclusive_ends() {
    let p = profile(json!({
        "name": "t", "title": "t", "detect": ["a"], "answer": "a",
        "sources": "s[]", "source-id": "id", "source-text": "t",
        "citations": "c[]", "citation-start": "from", "citation-end": "to",
        "citation-end-inclusive": true, "citation-targets": "n[]", "citation-names": "position1"
    }));
    let doc = json!({
        "a": "It is tall. It is old.",
        "s": [{"id": "x", "t": "tall"}, {"id": "y", "t": "old"}],
        "c": [{"to": "10", "n": [1]}, {"from": 12, "to": 21, "n": ["2", "nine"]}, {"to": 3}]
    });
    let reading = p.read_value(&doc).expect("it reads");
    let spans: Vec<_> = reading.citations.iter().map(|c| c.span.clone()).collect();
    assert_eq!(spans, [Some(0..11), Some(12..22), Some(12..22)]);
    assert_eq!(reading.citations[0].target, CitationTarget::Position(0));
    assert_eq!(reading.citations[1].target, CitationTarget::Position(1));
    assert_eq!(
        reading.citations[2].target,
        CitationTarget::Label("nine".into())
    );
    let wrong = json!({"a": "x", "c": [{"to": "ten", "n": [1]}]});
    let Err(err) = p.read_value(&wrong) else {
        panic!("a wrong type is read");
    };
    let err = err.to_string();
    assert!(
        err.contains("`to` is a string; the t format's `citation-end` expects a whole number"),
        "{err}"
    );
}

#[test]
fn a_prefix_names_the_one_chunk_it_starts() {
    let p = profile(json!({
        "name": "t", "title": "t", "detect": ["a"], "answer": "a",
        "sources": "s[]", "source-id": "id", "source-text": "t",
        "marker": "\\[([0-9a-f]{4,8})\\]", "marker-names": "id-prefix"
    }));
    let doc = json!({
        "a": "One [abcd1]. Two [abcd]. Three [ffff].",
        "s": [{"id": "abcd1234", "t": "1"}, {"id": "abcd9999", "t": "2"}, {"id": "ffff0000", "t": "3"}]
    });
    let sources = p
        .read_value(&doc)
        .expect("it reads")
        .sources
        .expect("sources");
    let aliases: Vec<Vec<String>> = sources.chunks.iter().map(|c| c.aliases.clone()).collect();
    // `abcd` starts two ids: it names neither.
    assert_eq!(
        aliases,
        [
            vec!["abcd1".to_string()],
            Vec::new(),
            vec!["ffff".to_string()]
        ]
    );
}

#[test]
fn a_profile_that_cannot_work_is_refused_with_its_field() {
    for (spec, expected) in [
        (
            json!({"name": "Bad Name", "title": "t", "detect": ["a"], "answer": "a"}),
            "its name must be",
        ),
        (
            json!({"name": "t", "title": "t", "detect": ["!a"], "answer": "a"}),
            "`detect`: it needs",
        ),
        (
            json!({"name": "t", "title": "t", "detect": ["a"]}),
            "neither `answer` nor `sources`",
        ),
        (
            json!({"name": "t", "title": "t", "detect": ["a"], "answer": "a", "numbering": 2}),
            "`numbering`",
        ),
        (
            json!({"name": "t", "title": "t", "detect": ["a"], "answer": "a", "marker": "\\d+"}),
            "`marker`",
        ),
        (
            json!({"name": "t", "title": "t", "detect": ["a"], "answer": "a", "citations": "c[]"}),
            "`citations`",
        ),
        (
            json!({"name": "t", "title": "t", "detect": ["a"], "answer": "a", "citation-unit": "words"}),
            "`citation-unit`",
        ),
    ] {
        let spec: ProfileSpec = serde_json::from_value(spec).expect("a spec");
        let err = Profile::new(spec, true).expect_err(expected);
        assert!(err.contains(expected), "{err}");
    }
    let unknown =
        serde_json::from_value::<ProfileSpec>(json!({"name": "t", "title": "t", "anser": "a"}));
    assert!(unknown.is_err());
}
