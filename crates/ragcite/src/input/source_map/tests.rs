use super::*;

/// The line and column of byte `offset` of `file`, counted from scratch (a BOM not counted).
fn line_column(file: &str, offset: usize) -> (usize, usize) {
    let body = file.strip_prefix('\u{feff}').unwrap_or(file);
    let offset = offset - (file.len() - body.len());
    let before = &body[..offset];
    let line = 1 + before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    (line, 1 + body[line_start..offset].chars().count())
}

/// The JSON string content that starts at byte `offset` of `file`, decoded up to its closing
/// quote.
fn decoded_from(file: &str, offset: usize) -> String {
    let rest = &file[offset..];
    let close = {
        let bytes = rest.as_bytes();
        let mut i = 0;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        i.min(bytes.len())
    };
    serde_json::from_str(&format!("\"{}\"", &rest[..close])).expect("a JSON string's content")
}

/// Checks that every character of `text` from `at` on (up to `upto`) is found in `file` where
/// the map says: the file's string from there decodes to text that begins with it, and the
/// line and column are those of the offset.
fn assert_placed(file: &str, text: &str, map: &SourceMap, at: usize, upto: usize) {
    let position = map.start(at);
    let found = decoded_from(file, position.offset);
    let expected = &text[at..upto];
    assert!(
        found.starts_with(expected) || expected.starts_with(&found) && !found.is_empty(),
        "text[{at}..{upto}] = {expected:?}, but the file at {position:?} holds {found:?}"
    );
    assert_eq!(
        (position.line, position.column),
        line_column(file, position.offset),
        "line and column of {position:?}"
    );
}

fn map(file: &str, text: &str) -> SourceMap {
    SourceMap::new(file.as_bytes(), text)
}

#[test]
fn escapes_and_surrogate_pairs_take_their_bytes_in_the_file() {
    let file = r#"{"model": "m", "message": {"role": "assistant", "content": "Line one.\nSay \"hi\" \u2014 caf\u00e9, na\u00efve \ud83d\ude00 \/ done\t\\ end."}}"#;
    let value: serde_json::Value = serde_json::from_str(file).unwrap();
    let text = value["message"]["content"].as_str().unwrap();
    let map = map(file, text);
    assert_eq!(map.placed(), text.len());
    for (at, _) in text.char_indices() {
        let upto = text[at..]
            .char_indices()
            .nth(12)
            .map_or(text.len(), |(k, _)| at + k);
        assert_placed(file, text, &map, at, upto);
    }
    // The end of "caf\u00e9" is just past its escape.
    let after_cafe = text.find("café").unwrap() + "café".len();
    let end = map.end(after_cafe);
    assert!(file[..end.offset].ends_with("caf\\u00e9"), "{end:?}");
    assert_eq!((end.line, end.column), line_column(file, end.offset));
    // The emoji, a surrogate pair: twelve bytes, one character.
    let emoji = text.find('😀').unwrap();
    let (start, end) = (map.start(emoji), map.end(emoji + '😀'.len_utf8()));
    assert_eq!(&file[start.offset..end.offset], "\\ud83d\\ude00");
    assert_eq!(end.column - start.column, 12);
}

#[test]
fn a_stream_of_deltas_is_placed_delta_by_delta_across_crlf_lines_and_a_bom() {
    let deltas = [
        "The Eiffel",
        " Tower is 330",
        " metres tall.",
        " It was ",
        "built in 1889.",
    ];
    let mut file = String::from("\u{feff}event: message_start\r\n");
    file.push_str("data: {\"type\":\"message_start\",\"message\":{\"content\":[]}}\r\n\r\n");
    for delta in deltas {
        file.push_str("event: content_block_delta\r\n");
        file.push_str(&format!(
            "data: {{\"type\":\"content_block_delta\",\"delta\":{{\"type\":\"text_delta\",\"text\":{}}}}}\r\n\r\n",
            serde_json::to_string(delta).unwrap()
        ));
    }
    file.push_str("data: [DONE]\r\n");
    let text: String = deltas.concat();
    let map = map(&file, &text);
    assert_eq!(map.placed(), text.len());
    let mut at = 0;
    for delta in deltas {
        for (k, _) in delta.char_indices() {
            assert_placed(&file, &text, &map, at + k, at + delta.len());
        }
        at += delta.len();
    }
    // The BOM counts in the offset, not in the column.
    let first = map.start(0);
    assert_eq!(first.line, 5);
    assert_eq!(&file[first.offset..first.offset + 10], "The Eiffel");
    // A sentence that spans deltas ends on a later line.
    let end = map.end(text.find("tall.").unwrap() + 5);
    assert!(file[..end.offset].ends_with("tall."));
    assert_eq!(end.line, 11);
}

#[test]
fn separators_a_reader_inserts_map_to_the_end_of_the_part_before() {
    let file = r#"{"content": [{"type": "text", "text": "First part."}, {"type": "tool_use", "id": "x"}, {"type": "text", "text": "Second [1] part."}]}"#;
    let text = "First part.\n\nSecond [1] part.";
    let map = map(file, text);
    assert_eq!(map.placed(), text.len() - 2);
    let second = text.find("Second").unwrap();
    assert_placed(file, text, &map, second, text.len());
    // The inserted line breaks: where the first part ends.
    let first_end = map.end("First part.".len());
    assert_eq!(map.start("First part.".len()), first_end);
    assert_eq!(map.start("First part.\n".len()), first_end);
    assert_eq!(&file[first_end.offset..first_end.offset + 1], "\"");
}

#[test]
fn a_marker_inserted_between_parts_is_skipped() {
    // A reader that writes a citation's marker after the part it covers.
    let file = r#"{"parts": [{"text": "Paris is the capital"}, {"text": ". It is large."}]}"#;
    let text = "Paris is the capital [1]. It is large.";
    let map = map(file, text);
    let second = text.find(". It").unwrap();
    assert_placed(file, text, &map, second, text.len());
    assert_eq!(map.placed(), text.len() - " [1]".len());
}

#[test]
fn white_space_a_reader_trims_is_allowed_at_the_ends_of_a_literal() {
    let file = "{\"response\": \"\\n  The answer is 42.  \\n\", \"done\": true}";
    let text = "The answer is 42.";
    let map = map(file, text);
    assert_eq!(map.placed(), text.len());
    assert_placed(file, text, &map, 0, text.len());
    assert_eq!(map.start(0).column, 19);
    let end = map.end(text.len());
    assert!(file[..end.offset].ends_with("42."));
}

#[test]
fn keys_are_skipped_and_the_text_may_end_inside_a_literal() {
    let file = r#"{"The answer.": "x", "answer": "The answer. And more that was cut."}"#;
    let text = "The answer.";
    let map = map(file, text);
    assert_eq!(map.start(0).offset, file.find("The answer. And").unwrap());
}

#[test]
fn a_passage_matched_by_chance_gives_way_to_the_answer() {
    // The retrieved passage equals the answer's first sentence, and comes first in the file.
    let file = r#"{"context": [{"page_content": "The tower is 330 metres tall."}, {"page_content": "It opened in 1889."}], "answer": "The tower is 330 metres tall. It opened in 1889 [2]."}"#;
    let text = "The tower is 330 metres tall. It opened in 1889 [2].";
    let map = map(file, text);
    let answer = file.find("The tower is 330 metres tall. It").unwrap();
    assert_eq!(map.start(0).offset, answer);
    assert_eq!(map.placed(), text.len());
    for (at, _) in text.char_indices() {
        assert_placed(file, text, &map, at, text.len());
    }
}

#[test]
fn text_found_nowhere_is_placed_at_the_start_of_the_file() {
    // Bedrock Agents: the answer is base64 in the file.
    let file = "\u{feff}{\"chunk\": {\"bytes\": \"VGhlIGFuc3dlci4=\"}}";
    let map = map(file, "The answer.");
    assert_eq!(map.placed(), 0);
    let first = FilePosition {
        offset: 3,
        line: 1,
        column: 1,
    };
    assert_eq!(map.start(4), first);
    assert_eq!(map.end(11), first);
    // Not UTF-8: nothing placed either.
    assert_eq!(SourceMap::new(b"\xff\"a\"", "a").placed(), 0);
}

#[test]
fn ndjson_lines_and_unicode_columns() {
    let lines = [
        r#"{"model":"llama3","message":{"role":"assistant","content":"Größe: "},"done":false}"#,
        r#"{"model":"llama3","message":{"role":"assistant","content":"日本語の文。"},"done":false}"#,
        r#"{"model":"llama3","message":{"role":"assistant","content":"\u00c9nd."},"done":true}"#,
    ];
    let file = lines.join("\n") + "\n";
    let text = "Größe: 日本語の文。Énd.";
    let map = map(&file, text);
    assert_eq!(map.placed(), text.len());
    for (at, _) in text.char_indices() {
        let part_end = if at < "Größe: ".len() {
            "Größe: ".len()
        } else if at < "Größe: 日本語の文。".len() {
            "Größe: 日本語の文。".len()
        } else {
            text.len()
        };
        assert_placed(&file, text, &map, at, part_end);
    }
    let japanese = map.start(text.find('本').unwrap());
    assert_eq!(japanese.line, 2);
}

/// Work for a file of `n` copies of `literal` in a JSON array and `text`.
fn work_for(n: usize, literal: &str, text: &str) -> (usize, usize) {
    let mut file = String::with_capacity(n * (literal.len() + 3) + 2);
    file.push('[');
    for k in 0..n {
        if k > 0 {
            file.push(',');
        }
        file.push('"');
        file.push_str(literal);
        file.push('"');
    }
    file.push(']');
    let map = SourceMap::new(file.as_bytes(), text);
    (map.work(), file.len() + text.len())
}

#[test]
fn hostile_inputs_cost_work_linear_in_their_size() {
    // Text and literals both doubled: a naive alignment (each character of the text searched
    // for through the literals after the last one placed) does four times the work; this one,
    // at most a little over twice.
    // Millions of tiny literals the text does not hold.
    let (small, size) = work_for(200_000, "a", &"b".repeat(100_000));
    let (large, _) = work_for(400_000, "a", &"b".repeat(200_000));
    assert!(small <= 4 * size, "{small} for {size} bytes");
    assert!(large <= small * 5 / 2, "{large} against {small}");

    // Literals that each match the text for a long way and fail at their last character, in
    // every place of the window: the worst a try can cost.
    let literal = "a".repeat(200) + "b";
    let (small, size) = work_for(500, &literal, &"a".repeat(50_000));
    let (large, _) = work_for(1_000, &literal, &"a".repeat(100_000));
    assert!(small <= BUDGET * size, "{small} for {size} bytes");
    assert!(large <= small * 5 / 2, "{large} against {small}");

    // Deep nesting holds no recursion.
    let depth = 200_000;
    let file = "[".repeat(depth) + "\"deep text\"" + &"]".repeat(depth);
    let map = SourceMap::new(file.as_bytes(), "deep text");
    assert_eq!(map.start(0).column, depth + 2);
    assert!(map.work() <= 64);
}

#[test]
fn unterminated_strings_and_bad_escapes_place_what_they_can() {
    let file = "{\"a\": \"bad \\q escape\", \"b\": \"Good text.\", \"c\": \"unterminated\n";
    let map = map(file, "Good text. unterminated");
    assert_eq!(map.start(0).offset, file.find("Good").unwrap());
    assert_eq!(map.start(11).offset, file.find("unterminated").unwrap());
    // A lone surrogate matches nothing, and panics nowhere.
    let map = SourceMap::new(br#"["\ud83d x", "\udc00", "\u12"]"#, "x");
    assert!(map.placed() <= 1);
}

#[test]
fn markers_written_into_a_literal_are_skipped_after_a_long_enough_match() {
    let file = r#"{"answer": "Paris is the capital of France. It is large.", "other": "Lyon"}"#;
    let text = "Paris is the capital of France [1]. It is large [2].";
    let map = map(file, text);
    assert_eq!(map.placed(), text.len() - " [1]".len() - " [2]".len());
    let it = text.find("It is").unwrap();
    assert_eq!(map.start(it).offset, file.find("It is").unwrap());
    // The marker is placed where the text before it ends.
    let marker = text.find(" [1]").unwrap();
    assert_eq!(map.start(marker + 1), map.end(marker));
    let end = map.end(text.len());
    assert!(file[..end.offset].ends_with("large."), "{end:?}");
    // A short literal is not matched with gaps: "Lyon" is not "L...y...o...n".
    let map = SourceMap::new(br#"["Lyon"]"#, "L1y2o3n");
    assert_eq!(map.placed(), 0);
}

proptest::proptest! {
    /// Whatever the file and the text, no panic; positions never go backwards; and a span
    /// ends at or after where it starts.
    #[test]
    fn any_input_places_monotonically(
        file in "[\\[\\]{}:,\" \\\\nu0-9a-zé\\n\\r]{0,80}",
        text in "[ a-zé\\n\"\\\\]{0,40}",
    ) {
        let map = SourceMap::new(file.as_bytes(), &text);
        let bounds: Vec<usize> = text.char_indices().map(|(k, _)| k).chain([text.len()]).collect();
        let key = |p: FilePosition| (p.offset, p.line, p.column);
        for pair in bounds.windows(2) {
            proptest::prop_assert!(key(map.start(pair[0])) <= key(map.start(pair[1])));
        }
        for (k, &from) in bounds.iter().enumerate() {
            for &to in &bounds[k + 1..] {
                proptest::prop_assert!(key(map.start(from)) <= key(map.end(to)));
            }
        }
    }

    /// Parts of a JSON array joined with a separator (as streams and readers join them), so
    /// that much of the text is placed: the same.
    #[test]
    fn joined_parts_are_placed(
        parts in proptest::collection::vec("[a-zé \"\\\\\n😀]{1,12}", 1..8),
        separator in "[\n \\[1\\]]{0,3}",
    ) {
        let file = serde_json::to_string(&parts).expect("JSON");
        let text = parts.join(&separator);
        let map = SourceMap::new(file.as_bytes(), &text);
        let bounds: Vec<usize> = text.char_indices().map(|(k, _)| k).chain([text.len()]).collect();
        let key = |p: FilePosition| (p.offset, p.line, p.column);
        for pair in bounds.windows(2) {
            proptest::prop_assert!(key(map.start(pair[0])) <= key(map.start(pair[1])));
        }
        for (k, &from) in bounds.iter().enumerate().filter(|(k, _)| k % 3 == 0) {
            for &to in &bounds[k + 1..] {
                proptest::prop_assert!(key(map.start(from)) <= key(map.end(to)));
            }
        }
    }
}
