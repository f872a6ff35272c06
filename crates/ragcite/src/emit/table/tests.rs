use super::*;

/// What a column of `fit` needs for these cells, each a list of items.
fn need(header: &'static str, fit: Fit, cells: &[&[&str]]) -> Need {
    let entries: Vec<Entry> = cells.iter().map(|items| Entry::list(items)).collect();
    let refs: Vec<&Entry> = entries.iter().collect();
    Need::of(&column(header, fit), &refs)
}

/// Every column fills the width it is given (true of the sentence table's columns: its only
/// list, `cited`, holds one short id a row).
fn fills(_: usize, width: usize) -> usize {
    width
}

/// The width of a table with these content widths.
fn table_width(widths: &[Option<usize>]) -> usize {
    let shown: Vec<usize> = widths.iter().flatten().copied().collect();
    frame(shown.len()) + shown.iter().sum::<usize>()
}

/// The eiffel sentence table's needs: five words, ids, a sentence and free text.
fn sentence_needs() -> Vec<Need> {
    vec![
        need("#", Fit::Word, &[&["1"], &["4"]]),
        need("at", Fit::Word, &[&["1:1"], &["1:159"]]),
        need("verdict", Fit::Word, &[&["unsupported-citation"]]),
        need("cov", Fit::Word, &[&["1.00"]]),
        need("sup", Fit::Word, &[&["0.42"]]),
        need("cited", Fit::Ids, &[&["1"], &["3"]]),
        need(
            "sentence",
            Fit::Cut {
                least: 20,
                most: 120,
            },
            &[&["It was designed by the engineering company of Gustave Eiffel [3]."]],
        ),
        need(
            "what is wrong",
            Fit::Wrap { least: 16 },
            &[&["missing words: designed, engineering, company, gustave, eiffel"]],
        ),
    ]
}

#[test]
fn words_keep_their_width_at_every_width() {
    let needs = sentence_needs();
    for width in 60..=220 {
        let widths = layout(width, &needs, &SENTENCE_DROPS, &fills);
        assert_eq!(widths[0], Some(1), "# at {width}");
        assert_eq!(widths[2], Some(20), "verdict at {width}");
        assert!(
            table_width(&widths) <= width,
            "{widths:?} wider than {width}"
        );
    }
}

#[test]
fn the_sentence_goes_first_then_what_is_wrong() {
    let needs = sentence_needs();
    // Words 34 and ids 5 wide, a frame of 25: 64, plus 20 and 16 for the text.
    assert_eq!(
        layout(100, &needs, &SENTENCE_DROPS, &fills),
        [
            Some(1),
            Some(5),
            Some(20),
            Some(4),
            Some(4),
            Some(5),
            Some(20),
            Some(16)
        ]
    );
    let widths = layout(99, &needs, &SENTENCE_DROPS, &fills);
    assert_eq!(widths[6], None, "the sentence is left out first");
    assert_eq!(widths[7], Some(99 - 39 - frame(7)));
    let widths = layout(60, &needs, &SENTENCE_DROPS, &fills);
    assert_eq!(&widths[6..], [None, None]);
    assert_eq!(table_width(&widths), 58);
}

#[test]
fn a_wide_table_shrinks_to_its_content() {
    let widths = layout(220, &sentence_needs(), &SENTENCE_DROPS, &fills);
    assert_eq!(widths[6], Some(65), "the whole sentence");
    assert_eq!(widths[7], Some(62), "what is wrong on one line");
    assert_eq!(table_width(&widths), 64 + 65 + 62);
}

#[test]
fn spare_room_is_shared_evenly_by_the_text_columns() {
    let widths = layout(120, &sentence_needs(), &SENTENCE_DROPS, &fills);
    assert_eq!((widths[6], widths[7]), (Some(30), Some(26)));
}

#[test]
fn ids_are_made_whole_first_and_a_list_keeps_only_what_its_lines_fill() {
    let needs = [
        need(
            "record",
            Fit::Ids,
            &[&["3f1c9a52-7d4e-4b8a-9e21-6c0d5f8b2a14"]],
        ),
        need(
            "verdicts",
            Fit::Items,
            &[&["1 number-mismatch", "1 uncited-claim"]],
        ),
        need(
            "first problem",
            Fit::Wrap { least: 16 },
            &[&[&"word ".repeat(30)]],
        ),
    ];
    assert_eq!(needs[0].least, IDS_LEAST);
    assert_eq!(needs[1].least, "1 number-mismatch,".len());
    assert_eq!(needs[1].want, "1 number-mismatch, 1 uncited-claim".len());
    // The verdicts fill 18 columns (two lines) until both fit on one line at 34.
    let used = |i: usize, width: usize| match i {
        1 if width < 34 => 18,
        _ => width,
    };
    // 10 of frame, 12 + 18 + 16 at least: 56; 24 more make the id whole.
    assert_eq!(
        layout(80, &needs, &[2, 1], &used),
        [Some(36), Some(18), Some(16)]
    );
    // 20 more are shared by the list and the text; the list cannot use its 10, the text
    // gets them.
    assert_eq!(
        layout(100, &needs, &[2, 1], &used),
        [Some(36), Some(18), Some(36)]
    );
    // With 50 more, the list's items join on one line and the text gets the rest.
    assert_eq!(
        layout(130, &needs, &[2, 1], &used),
        [Some(36), Some(34), Some(50)]
    );
}

#[test]
fn lists_break_between_items_and_cuts_fit_their_width() {
    let pieces = Entry::list(&["--max-uncited (+1)", "--max-number-mismatch (+1)"]);
    assert_eq!(
        pieces.content(Fit::Items, 30),
        "--max-uncited (+1),\n--max-number-mismatch (+1)"
    );
    assert_eq!(
        pieces.content(Fit::Items, 46),
        "--max-uncited (+1), --max-number-mismatch (+1)"
    );
    let text = "Paris has a population of about 2.1 million inhabitants";
    for width in 5..=60 {
        assert!(preview(text, width).chars().count() <= width, "{width}");
    }
    assert_eq!(preview(text, 35), "Paris has a population of about 2.…");
}

#[test]
fn a_narrow_batch_table_keeps_its_words_and_leaves_out_free_text() {
    let rows = vec![vec![
        Entry::list(&["tower-built"]),
        Entry::list(&["2"]),
        Entry::list(&["1 number-mismatch", "1 uncited-claim"]),
        Entry::list(&["--max-uncited (+1)", "--max-number-mismatch (+1)"]),
        Entry::text("number-mismatch: The tower was completed in 1887 for the World's Fair."),
    ]];
    let style = TableEmitter {
        color: false,
        width: 60,
    };
    let table = style.table(&BATCH_COLUMNS, &BATCH_DROPS, &rows).to_string();
    for line in table.lines() {
        assert!(line.chars().count() <= 60, "{line}");
    }
    assert!(!table.contains("first problem"), "{table}");
    assert!(!table.contains("limits exceeded"), "{table}");
    // The list got the room to join its items.
    assert!(
        table.contains("│ tower-built ┆ 2    ┆ 1 number-mismatch, 1 uncited-claim │"),
        "{table}"
    );
    // With 12 characters more than its least, two items still need two lines: the list
    // keeps only the width of its widest line.
    let style = TableEmitter {
        color: false,
        width: 55,
    };
    let table = style.table(&BATCH_COLUMNS, &BATCH_DROPS, &rows).to_string();
    assert!(
        table.contains("│ tower-built ┆ 2    ┆ 1 number-mismatch, │\n"),
        "{table}"
    );
}

#[test]
fn every_cell_is_printable_and_keeps_its_paint() {
    let entry = Entry::list(&["a\u{1b}]0;x\u{7}"]).painted(Paint::Dim);
    assert_eq!(entry.items, ["a\\u{1b}]0;x\\u{7}"]);
    assert_eq!(entry.paint, Paint::Dim);
    assert_eq!(Entry::list::<&str>(&[]).items, ["-"]);
}

#[test]
fn cells_are_cut_before_layout() {
    let long = "x".repeat(1 << 20);
    let text = Entry::text(&long);
    assert_eq!(text.items[0].chars().count(), CELL_CHARS);
    assert!(text.items[0].ends_with('…'));

    let ids: Vec<String> = (0..100).map(|k| format!("{k}{long}")).collect();
    let list = Entry::list(&ids);
    assert_eq!(list.items.len(), LIST_SHOWN);
    assert!(
        list.items[..LIST_SHOWN - 1]
            .iter()
            .all(|id| id.chars().count() == ITEM_CHARS)
    );
    assert!(
        list.items[LIST_SHOWN - 1].ends_with("… (+80 more)"),
        "{:?}",
        &list.items[19][190..]
    );
    // Escapes are made after the cut: an id of escapes is at most ten times as long.
    let escapes = Entry::list(&["\u{1b}".repeat(1 << 20)]);
    assert!(escapes.items[0].len() < 10 * ITEM_CHARS);

    let answer = crate::input::read_answer(b"The tower is 330 metres tall [1].", None).unwrap();
    let chunks = crate::input::read_chunks(br#"["The tower is 1 metre tall."]"#, false).unwrap();
    let mut report = crate::Checker::new(crate::Options::default()).check(&answer, &chunks);
    let mut sentence = report.result.sentences.remove(0);
    sentence.verdict = Verdict::NumberMismatch;
    sentence.unknown_markers = (0..50).map(|k| format!("{k}{long}")).collect();
    sentence.missing_numbers = vec![long.replace('x', "9"); 30];
    sentence.missing_words = vec![long.clone(); 30];
    sentence.suggested_citation = Some(long.clone());
    let problems = problems(&sentence);
    assert!(problems.len() < 3 * CELL_CHARS, "{} bytes", problems.len());
    assert!(problems.contains(&format!(
        "missing numbers: {}…, ",
        "9".repeat(WORD_CHARS - 1)
    )));
    assert!(
        problems.contains("(+30 more)"),
        "unknown markers: {problems}"
    );
    assert!(
        problems.contains("(+10 more)"),
        "missing numbers: {problems}"
    );
    assert!(problems.contains("(+22 more)"), "missing words: {problems}");
}

/// The hand-made check of [`crate::emit::testing`] as a table `width` columns wide.
fn contradicted_table(width: u16) -> String {
    crate::emit::testing::emitted(&TableEmitter {
        color: false,
        width,
    })
}

#[test]
fn a_contradiction_shows_the_chunk_and_its_words_marked_in_the_passage() {
    let c = crate::emit::testing::report().result.sentences[0]
        .contradiction
        .clone()
        .unwrap();
    assert_eq!(
        contradiction_line(&c),
        "chunk 2: Empagliflozin *did not significantly reduce* all-cause mortality in the trial."
    );
    // A long passage is cut to a few words around them, at spaces.
    let long = crate::report::Contradiction {
        passage: format!(
            "In a trial of many thousands of patients over several years, {} and so on and on and on and on.",
            c.chunk_words
        ),
        ..c.clone()
    };
    assert_eq!(
        contradiction_line(&long),
        "chunk 2: …patients over several years, *did not significantly reduce* and so on and on and on and on."
    );
    // Words the passage does not hold as written are still shown.
    let elsewhere = crate::report::Contradiction {
        chunk_words: "never".to_string(),
        ..c
    };
    assert_eq!(
        contradiction_line(&elsewhere),
        "chunk 2: says *never* in “Empagliflozin did not significantly reduce all-cause mortality in the trial.”"
    );
}

#[test]
fn the_table_names_the_contradiction_the_deciding_chunk_and_idle_citations() {
    for width in [80, 100, 120] {
        let table = contradicted_table(width);
        let lines: Vec<&str> = table.lines().collect();
        assert!(
            // What decided and the summary are one line each whatever the width.
            lines[..lines.len() - 2]
                .iter()
                .all(|l| l.chars().count() <= usize::from(width)),
            "wider than {width}:\n{table}"
        );
        // What is wrong, wrapped, read back as one text.
        let text = table.split_whitespace().collect::<Vec<_>>().join(" ");
        for part in ["contradicted", "*did", "reduce*", "decided", "nothing:"] {
            assert!(text.contains(part), "{part} at {width}:\n{table}");
        }
    }
    let wide = contradicted_table(240);
    assert!(
        wide.contains("chunk 2: Empagliflozin *did not significantly reduce* all-cause mortality in the trial."),
        "{wide}"
    );
    assert!(wide.contains("adds nothing: 2"), "{wide}");
    assert_eq!(wide.matches("decided by 1").count(), 2, "{wide}");
    assert_eq!(wide.matches("adds nothing").count(), 1, "{wide}");
    assert!(
        wide.lines()
            .last()
            .unwrap()
            .contains("1 contradicted > --max-contradicted 0 (+1)"),
        "{wide}"
    );
}
