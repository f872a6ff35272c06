use super::filter::{key3, prefix_key};
use super::*;

fn surfaces(lang: Language, text: &str) -> Vec<String> {
    let analyzer = Analyzer::new(lang);
    analyzer
        .content_words(text, &numbers(text))
        .into_iter()
        .map(|w| w.surface)
        .collect()
}

fn stems(lang: Language, text: &str) -> Vec<String> {
    let analyzer = Analyzer::new(lang);
    analyzer
        .content_words(text, &numbers(text))
        .into_iter()
        .map(|w| w.stem)
        .collect()
}

#[test]
fn stop_words_one_letter_words_and_numbers_are_dropped() {
    assert_eq!(
        surfaces(
            Language::English,
            "The Eiffel Tower is 330 metres tall, a landmark."
        ),
        ["eiffel", "tower", "metres", "tall", "landmark"]
    );
}

#[test]
fn words_are_stemmed_and_kept_once() {
    assert_eq!(
        stems(Language::English, "Completed completing completion"),
        ["complet"]
    );
}

#[test]
fn a_negation_before_punctuation_negates_nothing() {
    let analyzer = Analyzer::new(Language::English);
    let negated = |text: &str| -> Vec<String> {
        analyzer
            .content_words(text, &numbers(text))
            .into_iter()
            .filter(|w| w.negated)
            .map(|w| w.surface)
            .collect()
    };
    assert!(negated("No, the tower was built in Paris").is_empty());
    assert!(negated("Whether or not. Towers rise").is_empty());
    assert_eq!(negated("No tower was built"), ["tower", "built"]);
    assert_eq!(negated("It was not built"), ["built"]);
    assert!(negates("No tower", "No tower".get(..2).unwrap()));
    let text = "No, tower";
    assert!(!negates(text, &text[..2]));
}

#[test]
fn the_first_word_of_each_sentence_or_line_is_no_name() {
    let analyzer = Analyzer::new(Language::English);
    let text = "Sales rose in Paris. However, Profits fell!  Revenue grew\nMargins held; \
                Dr. Smith and the U.S. Navy agreed";
    let names: Vec<String> = analyzer
        .content_words(text, &numbers(text))
        .into_iter()
        .filter(|w| w.name)
        .map(|w| w.surface)
        .collect();
    // `Sales`, `However`, `Revenue` and `Margins` start a sentence or a line; `Smith` and
    // `Navy` follow abbreviations, not ends of sentences.
    assert_eq!(names, ["paris", "profits", "dr", "smith", "navy"]);
}

#[test]
fn english_contractions_are_stop_words_and_possessives_stem_away() {
    assert_eq!(surfaces(Language::English, "Don't stop"), ["stop"]);
    assert_eq!(surfaces(Language::English, "Don’t stop"), ["stop"]);
    assert_eq!(surfaces(Language::English, "He won it"), ["won"]);
    assert_eq!(
        stems(Language::English, "the World's Fair"),
        stems(Language::English, "world fair")
    );
}

#[test]
fn scale_words_belong_to_their_number() {
    assert_eq!(
        surfaces(Language::English, "About 7 million visitors"),
        ["visitors"]
    );
}

#[test]
fn split_on_anything_not_a_letter_or_digit() {
    assert_eq!(
        surfaces(Language::English, "wrought-iron lattice_tower e-mail"),
        ["wrought", "iron", "lattice", "tower", "mail"]
    );
    assert_eq!(
        surfaces(Language::English, "Größe ÉCOLE"),
        ["größe", "école"]
    );
}

#[test]
fn english_stems_keep_the_first_two_letters() {
    // The chunk filter relies on it: a token is looked up only if a wanted word starts
    // with the same two letters.
    let analyzer = Analyzer::new(Language::English);
    let text = "Skies dying lying tying news innings gently ugly early only singly cries \
                ties generously happiness relational conditional rational valenci hopeful \
                agreed feed Yelling yesterday's Zoos 9th 3D b2b o'clock ABBA Ohio ox \
                identically Sky's cannot Running runner's dries studies";
    for word in analyzer.content_words(text, &numbers(text)) {
        assert_eq!(
            prefix_key(word.stem.as_bytes()),
            prefix_key(word.surface.as_bytes()),
            "{} → {}",
            word.surface,
            word.stem
        );
    }
}

#[test]
fn english_stems_of_three_letters_keep_the_first_three() {
    // The chunk filter relies on it, for every ending the stemmer rewrites: random
    // starts with each ending, compared with their stems.
    let analyzer = Analyzer::new(Language::English);
    let endings = [
        "", "s", "es", "ies", "ied", "ss", "sses", "us", "ed", "edly", "ing", "ingly", "eed",
        "eedly", "y", "ly", "li", "ely", "ily", "e", "l", "ll", "at", "ating", "bl", "bling", "iz",
        "izing", "tional", "ational", "enci", "anci", "abli", "entli", "izer", "ization", "ation",
        "ator", "alism", "aliti", "alli", "fulness", "ousli", "ousness", "iveness", "iviti",
        "biliti", "bli", "logi", "fulli", "lessli", "alize", "icate", "iciti", "ical", "ful",
        "ness", "ative", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
        "ent", "ism", "ate", "iti", "ous", "ive", "ize", "ion", "sion", "tion",
    ];
    let letters = b"abcdefghiklmnoprstuvwy";
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut checked = 0;
    for _ in 0..400 {
        let mut start = String::new();
        for _ in 0..1 + seed % 4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            start.push(char::from(letters[(seed % letters.len() as u64) as usize]));
        }
        for ending in endings {
            let word = format!("{start}{ending}");
            let stem = analyzer.stemmer.stem(&word).into_owned();
            if stem.len() >= 3 {
                assert_eq!(
                    key3(word.as_bytes()),
                    key3(stem.as_bytes()),
                    "{word} → {stem}"
                );
                checked += 1;
            } else if stem.len() == 2 {
                assert_eq!(prefix_key(word.as_bytes()), prefix_key(stem.as_bytes()));
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
    for (word, stem) in [
        ("skies", "sky"),
        ("dying", "die"),
        ("cry", "cri"),
        ("using", "use"),
    ] {
        assert_eq!(analyzer.stemmer.stem(word), stem);
        assert_eq!(key3(word.as_bytes()), key3(stem.as_bytes()));
    }
}

#[test]
fn the_word_filter_lets_through_what_may_match_and_nothing_panics() {
    let analyzer = Analyzer::new(Language::English);
    let words = analyzer.content_words("Towers and 99problems zz9 école cries", &[]);
    let filter = analyzer.word_filter(words.iter());
    assert!(filter.may_keep("tower"));
    assert!(filter.may_keep("TOWERING"));
    assert!(filter.may_keep("99pr"));
    assert!(!filter.may_keep("99x"));
    assert!(filter.may_keep("zz"));
    assert!(filter.may_keep("éléphant"), "non-ASCII starts always pass");
    assert!(filter.may_keep("\u{212a}ilo"), "the Kelvin sign is a k");
    assert!(!filter.may_keep("bridge"));
    assert!(
        !filter.may_keep("toe"),
        "three letters that no wanted word starts with"
    );
    assert!(filter.may_keep("cry"), "e, i and y are one letter");
    assert!(filter.may_keep("cre"), "e, i and y are one letter");
    assert!(
        filter.may_keep("to"),
        "a two-letter token passes on two letters"
    );
    let german = Analyzer::new(Language::German);
    assert!(german.word_filter(words.iter()).may_keep("bridge"));
}

#[test]
fn combining_marks_stay_in_their_word() {
    assert_eq!(surfaces(Language::Tamil, "தமிழ் மொழி"), ["தமிழ்", "மொழி"]);
    assert_eq!(
        stems(Language::French, "e\u{301}cole"),
        stems(Language::French, "\u{e9}cole")
    );
}

#[test]
fn other_languages_use_their_own_stop_list_and_stemmer() {
    assert_eq!(
        surfaces(Language::French, "La tour est construite dans l'année"),
        ["tour", "construite", "année"]
    );
    assert_eq!(
        surfaces(Language::German, "Der Turm ist gebaut"),
        ["turm", "gebaut"]
    );
    for lang in Language::ALL {
        assert!(
            !lang.stop_words().is_empty(),
            "{} has no stop list",
            lang.name()
        );
    }
}

#[test]
fn languages_parse_from_codes_and_names() {
    assert_eq!("fr".parse::<Language>(), Ok(Language::French));
    assert_eq!("German".parse::<Language>(), Ok(Language::German));
    assert!("xx".parse::<Language>().unwrap_err().contains("en, "));
    for lang in Language::ALL {
        assert_eq!(lang.code().parse::<Language>(), Ok(lang));
    }
}

#[test]
fn chinese_is_cut_into_pairs_of_characters() {
    // Overlapping pairs of a Han run (outside Chinese, pairs straddle `是` and `的`); numbers
    // are not words.
    assert_eq!(
        surfaces(Language::English, "埃菲尔铁塔是巴黎的地标"),
        [
            "埃菲", "菲尔", "尔铁", "铁塔", "塔是", "是巴", "巴黎", "黎的", "的地", "地标"
        ]
    );
    assert_eq!(surfaces(Language::Chinese, "塔高330米。"), ["塔高", "米"]);
    // The same in any language: the cut is by script.
    assert_eq!(
        surfaces(Language::English, "The 铁塔 is tall"),
        ["铁塔", "tall"]
    );
}

#[test]
fn japanese_kana_and_han_are_cut_by_script() {
    // Hiragana (particles, endings) is no word; pairs of katakana and of Han are.
    assert_eq!(
        surfaces(Language::Japanese, "東京タワーは高い電波塔です"),
        ["東京", "タワ", "ワー", "高", "電波", "波塔"]
    );
    // A single Han character between kana is a word; `年` after a year is not.
    assert_eq!(surfaces(Language::Japanese, "山は2013年に"), ["山"]);
}

#[test]
fn korean_particles_are_stripped() {
    assert_eq!(
        surfaces(Language::Korean, "서울에서 타워를 설립했다"),
        ["서울", "타워", "설립", "립했"]
    );
}

#[test]
fn chinese_japanese_and_korean_are_languages() {
    for (code, lang) in [
        ("zh", Language::Chinese),
        ("ja", Language::Japanese),
        ("ko", Language::Korean),
    ] {
        assert_eq!(code.parse::<Language>(), Ok(lang));
        assert_eq!(lang.code(), code);
    }
    let codes: Vec<&str> = Language::ALL.iter().map(|l| l.code()).collect();
    let mut sorted = codes.clone();
    sorted.sort_unstable();
    assert_eq!(codes, sorted);
}

#[test]
fn chinese_pairs_do_not_straddle_function_characters() {
    // In Chinese text `是` and `的` cut the run; in Japanese `和` (`平和`) does not.
    assert_eq!(
        surfaces(Language::Chinese, "埃菲尔铁塔是巴黎的地标"),
        ["埃菲", "菲尔", "尔铁", "铁塔", "巴黎", "地标"]
    );
    assert_eq!(surfaces(Language::Japanese, "平和"), ["平和"]);
}

#[test]
fn missing_pairs_are_shown_as_the_stretch_they_cover() {
    let analyzer = Analyzer::new(Language::Chinese);
    let words = analyzer.content_words("日本最古老的寺庙 and towers", &[]);
    assert_eq!(
        joined_surfaces(words.iter()),
        ["日本最古老", "寺庙", "towers"]
    );
    // Pairs that are not next to each other stay apart.
    let some: Vec<&Word> = words.iter().filter(|w| w.surface != "本最").collect();
    assert_eq!(joined_surfaces(some.into_iter())[..2], ["日本", "最古老"]);
}

/// The tokeniser as it was before its ASCII fast path: every byte classified one at a time.
/// The fast path must cut every text into the same tokens.
fn tokens_byte_by_byte(analyzer: &Analyzer, text: &str) -> Vec<String> {
    let joins = analyzer.language.joins_apostrophes();
    let bytes = text.as_bytes();
    let next_is_letter = |at: usize| text[at..].chars().next().is_some_and(char::is_alphabetic);
    let mut out = Vec::new();
    let mut f = |token: &str| out.push(token.to_owned());
    let mut start: Option<usize> = None;
    let mut prev_letter = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (word_char, letter, len) = if b.is_ascii() {
            let apostrophe = joins && b == b'\'' && prev_letter && next_is_letter(i + 1);
            (
                b.is_ascii_alphanumeric() || apostrophe,
                b.is_ascii_alphabetic(),
                1,
            )
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            let len = c.len_utf8();
            if let Some(script) = cjk::script(c) {
                if let Some(s) = start.take() {
                    f(&text[s..i]);
                }
                let end = cjk::run_end(text, i, script);
                cjk::words(
                    &text[i..end],
                    script,
                    analyzer.language == Language::Chinese,
                    &mut f,
                );
                prev_letter = false;
                i = end;
                continue;
            }
            let apostrophe = joins && c == '\u{2019}' && prev_letter && next_is_letter(i + len);
            let mark = start.is_some() && is_combining_mark(c);
            (
                c.is_alphanumeric() || apostrophe || mark,
                c.is_alphabetic(),
                len,
            )
        };
        match (word_char, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                f(&text[s..i]);
                start = None;
            }
            _ => {}
        }
        prev_letter = word_char && letter;
        i += len;
    }
    if let Some(s) = start {
        f(&text[s..]);
    }
    out
}

fn tokens_fast(analyzer: &Analyzer, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    analyzer.for_each_token(text, &[], |token| out.push(token.to_owned()));
    out
}

#[test]
fn the_ascii_fast_path_cuts_the_same_tokens() {
    let texts = [
        "The tower's 330 m (1,083 ft) tall; it isn't O'Brien's 'quoted' word.",
        "don't  'twas rock'n'roll 1990's x' 'y a'1 1'a ' '' end'",
        "Café déjà-vu naïve e\u{301}te\u{301} — l’homme aujourd’hui l'été",
        "Größe Straße über 東京タワーは高い 서울 타워 ஆகும் привет мир",
        "tab\there\nnew line\r\n, mixed123abc ABC_def-ghi",
        "",
        "'",
        "a",
    ];
    for language in Language::ALL {
        let analyzer = Analyzer::new(language);
        for text in texts {
            assert_eq!(
                tokens_fast(&analyzer, text),
                tokens_byte_by_byte(&analyzer, text),
                "{language:?}: {text:?}"
            );
        }
    }
}

proptest::proptest! {
    #[test]
    fn the_ascii_fast_path_cuts_the_same_tokens_on_any_text(
        text in "[a-zA-Z0-9 '’.,\\-éü\u{301}東タ한\n]{0,60}",
        language in 0..Language::ALL.len(),
    ) {
        let analyzer = Analyzer::new(Language::ALL[language]);
        proptest::prop_assert_eq!(
            tokens_fast(&analyzer, &text),
            tokens_byte_by_byte(&analyzer, &text)
        );
    }
}
