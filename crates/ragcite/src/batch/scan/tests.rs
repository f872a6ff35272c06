use super::*;

fn scan(text: &str, lines: bool) -> Vec<Result<(usize, String), String>> {
    RecordScanner::new(text.as_bytes(), lines)
        .map(|item| match item {
            Ok(Scanned::Record(r)) => Ok((r.line, String::from_utf8_lossy(&r.bytes).into_owned())),
            Ok(Scanned::Bad { line, message }) => Err(format!("bad {line}: {message}")),
            Err(e) => Err(format!("fatal: {e}")),
        })
        .collect()
}

fn ok(line: usize, text: &str) -> Result<(usize, String), String> {
    Ok((line, text.to_string()))
}

#[test]
fn json_lines_with_blank_lines() {
    let found = scan("{\"a\": 1}\n\n{\"a\": 2}\r\n", false);
    assert_eq!(found, [ok(1, "{\"a\": 1}"), ok(3, "{\"a\": 2}")]);
}

#[test]
fn a_bad_json_line_is_still_handed_out_to_be_reported() {
    let found = scan("{\"a\": 1}\n{\"a\": \n{\"a\": 3}\n", false);
    assert_eq!(
        found,
        [ok(1, "{\"a\": 1}"), ok(2, "{\"a\": "), ok(3, "{\"a\": 3}")]
    );
}

#[test]
fn arrays_over_several_lines() {
    let found = scan("[\n  {\"a\": \"x]\"},\n  {\"a\": [1,\n 2]}\n]\n", false);
    assert_eq!(
        found,
        [ok(2, "{\"a\": \"x]\"}"), ok(3, "{\"a\": [1,\n 2]}")]
    );
}

#[test]
fn promptfoo_results_and_samples_and_goldens() {
    let promptfoo = "{\n \"evalId\": \"x\",\n \"results\": {\"version\": 3, \"results\": [\n  {\"a\": 1},\n  {\"a\": 2}\n ]},\n \"config\": {}\n}";
    assert_eq!(
        scan(promptfoo, false),
        [ok(4, "{\"a\": 1}"), ok(5, "{\"a\": 2}")]
    );
    let samples = "{\"name\": \"n\",\n\"samples\": [{\"a\": 1}]}";
    assert_eq!(scan(samples, false), [ok(2, "{\"a\": 1}")]);
    let one_line = "{\"goldens\": [{\"a\": 1}, {\"a\": 2}]}";
    assert_eq!(
        scan(one_line, false),
        [ok(1, "{\"a\": 1}"), ok(1, "{\"a\": 2}")]
    );
}

#[test]
fn deepeval_test_runs_hold_their_cases_under_test_run_data() {
    let wrapped =
        "{\"testRunData\": {\"testFile\": \"t.py\",\n \"testCases\": [\n {\"a\": 1}\n ]}}";
    assert_eq!(scan(wrapped, false), [ok(3, "{\"a\": 1}")]);
    let one_line = "{\"testRunData\": {\"testCases\": [{\"a\": 1}]}}";
    assert_eq!(scan(one_line, false), [ok(1, "{\"a\": 1}")]);
    let bare = "{\"testCases\": [{\"a\": 1}], \"testPassed\": 1}";
    assert_eq!(scan(bare, false), [ok(1, "{\"a\": 1}")]);
}

#[test]
fn csv_rows_are_objects_and_list_cells_are_lists() {
    let text = ",user_input,retrieved_contexts,response,faithfulness\n\
                0,How tall?,\"['It is 330 m tall.', \"\"It's old.\"\"]\",\"Tall [1],\nvery.\",1.0\n\
                1,Where?,\"[\"\"Paris.\"\"]\",Paris [1].,0.5\n";
    let rows = scan(text, false);
    assert_eq!(rows.len(), 2, "{rows:?}");
    let (line, first) = rows[0].clone().expect("row");
    let first: serde_json::Value = serde_json::from_str(&first).expect("JSON");
    assert_eq!(line, 2);
    assert_eq!(first[""], "0");
    assert_eq!(
        first["retrieved_contexts"],
        serde_json::json!(["It is 330 m tall.", "It's old."])
    );
    assert_eq!(first["response"], "Tall [1],\nvery.");
    let (line, second) = rows[1].clone().expect("row");
    assert_eq!(line, 4);
    assert!(second.contains("[\"Paris.\"]"), "{second}");
    // By name, whatever it starts with; a ragged row stops the scan with its line.
    let ragged: Vec<_> = RecordScanner::named("a,b\n1,2\n3\n".as_bytes(), "t.csv")
        .map(|item| item.map_err(|e| e.to_string()))
        .collect();
    assert_eq!(
        ragged.last().cloned().map(|r| r.err()),
        Some(Some(
            "line 3: a row has 1 fields where the header has 2".to_string()
        ))
    );
}

#[test]
fn a_byte_order_mark_is_dropped() {
    let bom = "\u{feff}{\"a\": 1}\n{\"a\": 2}\n";
    assert_eq!(scan(bom, false), [ok(1, "{\"a\": 1}"), ok(2, "{\"a\": 2}")]);
    assert_eq!(scan("\u{feff}[{\"a\": 1}]", false), [ok(1, "{\"a\": 1}")]);
    let csv: Vec<_> = RecordScanner::named("\u{feff}a,b\n1,2\n".as_bytes(), "t.csv")
        .map(|item| match item {
            Ok(Scanned::Record(r)) => String::from_utf8_lossy(&r.bytes).into_owned(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(csv, ["{\"a\":\"1\",\"b\":\"2\"}"]);
    // A reader that gives one byte at a time.
    struct OneByte<'a>(&'a [u8]);
    impl Read for OneByte<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let Some((first, rest)) = self.0.split_first() else {
                return Ok(0);
            };
            buf[0] = *first;
            self.0 = rest;
            Ok(1)
        }
    }
    let slow = io::BufReader::with_capacity(1, OneByte(bom.as_bytes()));
    assert_eq!(RecordScanner::new(slow, false).count(), 2);
    // Three bytes that are no mark are kept.
    assert_eq!(scan("{\"é\": 1}", false), [ok(1, "{\"é\": 1}")]);
}

#[test]
fn python_list_literals() {
    assert_eq!(
        python_list(r#"['a', "b's", 'c\'d', 'e\\nf', '\x41\u00e9']"#),
        Some(vec![
            "a".to_string(),
            "b's".to_string(),
            "c'd".to_string(),
            "e\\nf".to_string(),
            "Aé".to_string()
        ])
    );
    assert_eq!(python_list("[]"), Some(vec![]));
    assert_eq!(python_list("[1, 2]"), None);
    assert_eq!(python_list("['a' 'b']"), None);
    assert_eq!(python_list("['unclosed]"), None);
    assert_eq!(cell_value("[not a list"), serde_json::json!("[not a list"));
}

#[test]
fn broken_structure_stops_with_the_line() {
    let found = scan("[\n{\"a\": 1},\n{\"a\": \"unterminated}\n", false);
    assert_eq!(found[0], ok(2, "{\"a\": 1}"));
    assert!(
        matches!(&found[1], Err(e) if e.starts_with("fatal: line 3")),
        "{found:?}"
    );
    assert_eq!(found.len(), 2);
    let found = scan("{\n\"nothing\": 1\n}", false);
    assert!(
        matches!(&found[0], Err(e) if e.contains("no records")),
        "{found:?}"
    );
    let found = scan("hello", false);
    assert!(
        matches!(&found[0], Err(e) if e.contains("expected a JSON array")),
        "{found:?}"
    );
}

#[test]
fn an_empty_file_is_an_error_and_an_empty_array_has_no_records() {
    assert!(matches!(&scan("", false)[..], [Err(e)] if e.contains("empty")));
    assert!(matches!(&scan("  \n", false)[..], [Err(e)] if e.contains("empty")));
    assert!(scan("[]", false).is_empty());
}

#[test]
fn a_stray_bracket_or_a_second_array_stops_the_scan() {
    let found = scan("[\n{\"a\": 1}},\n{\"a\": 2}\n]", false);
    assert_eq!(found[0], ok(2, "{\"a\": 1}"));
    assert!(
        matches!(&found[1], Err(e) if e.contains("line 2")),
        "{found:?}"
    );
    assert_eq!(found.len(), 2);
    let found = scan("[{\"a\": 1}]\n[{\"a\": 2}]", false);
    assert!(
        matches!(&found[1], Err(e) if e.contains("line 2") && e.contains("after the array")),
        "{found:?}"
    );
}

#[test]
fn json_lines_whose_first_line_is_broken() {
    let found = scan("{\"a\": \n{\"a\": 2}\n", false);
    assert_eq!(found, [ok(1, "{\"a\": "), ok(2, "{\"a\": 2}")]);
}

#[test]
fn forced_lines() {
    let found = scan("[1]\n[2]\n", true);
    assert_eq!(found, [ok(1, "[1]"), ok(2, "[2]")]);
    assert!(matches!(&scan("\n \n", true)[..], [Err(e)] if e.contains("empty")));
}

fn scan_within(text: &str, lines: bool, limit: usize) -> Vec<Result<(usize, String), String>> {
    RecordScanner::new(text.as_bytes(), lines)
        .with_max_record(limit)
        .map(|item| match item {
            Ok(Scanned::Record(r)) => Ok((r.line, String::from_utf8_lossy(&r.bytes).into_owned())),
            Ok(Scanned::Bad { line, message }) => Err(format!("bad {line}: {message}")),
            Err(e) => Err(format!("fatal: {e}")),
        })
        .collect()
}

#[test]
fn a_line_longer_than_the_record_limit_stops_the_scan() {
    let found = scan_within("{\"a\": 1}\r\n{\"a\": 22}\n{\"a\": 3}\n", true, 8);
    assert_eq!(
        found,
        [
            ok(1, "{\"a\": 1}"),
            Err("fatal: line 2: a record longer than 8 bytes (--max-record-size raises it)".into())
        ]
    );
    // Not JSON Lines by name: the first line decides, and is bounded too.
    let found = scan_within(&"\0".repeat(100), false, 10);
    assert_eq!(
        found,
        [Err(
            "fatal: line 1: a record longer than 10 bytes (--max-record-size raises it)".into()
        )]
    );
}

#[test]
fn an_array_element_longer_than_the_record_limit_stops_the_scan() {
    let found = scan_within("[{\"a\": 1},\n {\"a\": 123456}]", false, 8);
    assert_eq!(
        found,
        [
            ok(1, "{\"a\": 1}"),
            Err("fatal: line 2: a record longer than 8 bytes (--max-record-size raises it)".into())
        ]
    );
}

#[test]
fn a_container_on_one_line_longer_than_the_record_limit_is_streamed() {
    let text = "{\"samples\": [{\"a\": 1}, {\"a\": 2}, {\"a\": 3}]}\n";
    let found = scan_within(text, false, 10);
    assert_eq!(
        found,
        [
            ok(1, "{\"a\": 1}"),
            ok(1, "{\"a\": 2}"),
            ok(1, "{\"a\": 3}")
        ]
    );
}

#[test]
fn a_csv_row_longer_than_the_record_limit_stops_the_scan() {
    let long = "x".repeat(200_000);
    let text = format!("answer,contexts\nshort,c\n\"{long}\",c\nnext,c\n");
    let found: Vec<_> = RecordScanner::named(text.as_bytes(), "rows.csv")
        .with_max_record(1024)
        .map(|item| item.map(|_| ()).map_err(|e| e.to_string()))
        .collect();
    assert_eq!(
        found,
        [
            Ok(()),
            Err("line 3: a record longer than 1 KiB (--max-record-size raises it)".into())
        ]
    );
}

#[test]
fn a_json_lines_file_cut_inside_its_last_line_is_truncated() {
    let found = scan("{\"a\": 1}\n{\"a\": 2}\n{\"a\": \"cut", true);
    assert_eq!(
        found,
        [
            ok(1, "{\"a\": 1}"),
            ok(2, "{\"a\": 2}"),
            Err("fatal: line 3: the file ends inside a record: its last line has no line break and is not valid JSON (a cut-off file)".into())
        ]
    );
    // A last line without a line break that is JSON is a record; a broken line with its line
    // break is a bad record, handed out to be reported.
    let found = scan("{\"a\": 1}\n{\"a\": 2}", true);
    assert_eq!(found, [ok(1, "{\"a\": 1}"), ok(2, "{\"a\": 2}")]);
    let found = scan("{\"a\": 1}\n{\"a\": \n", true);
    assert_eq!(found, [ok(1, "{\"a\": 1}"), ok(2, "{\"a\": ")]);
    // Recognised from the content too.
    let found = scan("{\"a\": 1}\n{\"a\": 2}\n{\"a", false);
    assert_eq!(found.len(), 3);
    assert!(
        found[2]
            .as_ref()
            .is_err_and(|e| e.contains("a cut-off file")),
        "{found:?}"
    );
}

#[test]
fn tables_in_the_layouts_of_pandas() {
    let rows = [
        ok(1, r#"{"answer":"A.","question":"q"}"#),
        ok(1, r#"{"answer":"B.","question":"r"}"#),
    ];
    // orient="split", on one line and over several.
    let split = r#"{"columns": ["question", "answer"], "data": [["q", "A."], ["r", "B."]]}"#;
    assert_eq!(scan(split, false), rows);
    let found = scan(
        &split
            .replace(", \"data\"", ",\n\"data\"")
            .replace("], [", "],\n["),
        false,
    );
    assert_eq!(found[1], ok(3, r#"{"answer":"B.","question":"r"}"#));
    // orient="index" and orient="columns", labels in numeric order (10 after 2).
    let index =
        r#"{"0": {"question": "q", "answer": "A."}, "1": {"question": "r", "answer": "B."}}"#;
    assert_eq!(scan(index, false), rows);
    let columns = r#"{"question": {"0": "q", "1": "r"}, "answer": {"0": "A.", "1": "B."}}"#;
    assert_eq!(scan(columns, false), rows);
    assert_eq!(scan(&columns.replace(", ", ",\n"), false), rows);
    let ten: String = format!(
        "{{{}}}",
        (0..11)
            .map(|n| format!(r#""{n}": {{"answer": "{n}"}}"#))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let found = scan(&ten, false);
    assert_eq!(found[2], ok(1, r#"{"answer":"2"}"#));
    assert_eq!(found[10], ok(1, r#"{"answer":"10"}"#));
    // A record whose values are objects is no table (LangChain's `outputs`).
    let record = r#"{"outputs": {"answer": "A.", "context": []}}"#;
    assert_eq!(scan(record, false), [ok(1, record)]);
    // Columns of different row labels are no table either.
    let ragged = r#"{"question": {"0": "q"}, "answer": {"1": "A."}}"#;
    assert_eq!(scan(ragged, false), [ok(1, ragged)]);
}

#[test]
fn records_under_a_path_and_objects_that_are_one_record() {
    let nested =
        "{\n\"meta\": {\"a\": [1]},\n\"payload\": {\"items\": [\n{\"answer\": \"A.\"}\n]}\n}";
    let found: Vec<_> = RecordScanner::new(nested.as_bytes(), true)
        .with_records_path("payload.items")
        .map(|item| match item {
            Ok(Scanned::Record(r)) => Ok((r.line, String::from_utf8_lossy(&r.bytes).into_owned())),
            other => Err(format!("{other:?}")),
        })
        .collect();
    assert_eq!(found, [ok(4, "{\"answer\": \"A.\"}")]);
    // An object over several lines with an answer is one record; followed by more, it is not.
    let one = "{\n  \"answer\": \"A.\",\n  \"splited_context\": \"x\"\n}\n";
    assert_eq!(scan(one, false), [ok(1, one.trim_end())]);
    let found = scan(&format!("{one}{one}"), false);
    assert!(
        matches!(&found[0], Err(e) if e.contains("no records")),
        "{found:?}"
    );
    // `data` of scalars holds no records; the hint names the lists that might.
    let found = scan("{\n\"data\": [1],\n\"items\": [{\"a\": 1}]\n}", false);
    assert!(
        matches!(&found[0], Err(e) if e.ends_with("its lists are under `items`: --records items reads the records there")),
        "{found:?}"
    );
}

#[test]
fn an_object_nested_past_the_parsers_limit_is_said_to_be() {
    let deep = |levels: usize| {
        let mut value = "\"leaf\"".to_string();
        for _ in 0..levels {
            value = format!("{{\"n\": {value}}}");
        }
        value
    };
    for layout in ["", "\n"] {
        let record = format!(
            "{{\"answer\": \"A [1].\",{layout} \"contexts\": [\"A.\"],{layout} \"meta\": {}}}",
            deep(131)
        );
        let found = scan(&record, false);
        let [Err(error)] = found.as_slice() else {
            panic!("{found:?}");
        };
        assert!(
            error.contains("nested deeper than 128 levels") && !error.contains("--records"),
            "{error}"
        );
    }
    // Within the limit, the object is one record.
    let record = format!(
        "{{\"answer\": \"A [1].\", \"contexts\": [\"A.\"], \"meta\": {}}}",
        deep(120)
    );
    assert_eq!(scan(&record, false), [ok(1, &record)]);
}
