use super::*;

/// The numbers in words of `text`, its words cut as chunks' words are.
fn spelled(text: &str) -> Vec<String> {
    let mut reader = SpelledNumbers::default();
    let analyzer = crate::words::Analyzer::new(crate::Language::English);
    analyzer.for_each_token(text, &numbers(text), |word| reader.word(word));
    reader.finish().iter().map(ToString::to_string).collect()
}

#[test]
fn numbers_written_in_words() {
    assert_eq!(spelled("They released six studio albums"), [whole("6")]);
    assert_eq!(
        spelled("twenty-five or twenty five"),
        [whole("25"), whole("25")]
    );
    assert_eq!(spelled("With one hundred members"), [whole("100")]);
    assert_eq!(
        spelled("almost four billion years ago"),
        [whole("4000000000")]
    );
    assert_eq!(spelled("a hundred and five days"), [whole("105")]);
    assert_eq!(
        spelled("number one hit, the third album"),
        [whole("1"), whole("3")]
    );
    assert_eq!(
        spelled("millions of people, a second time, someone"),
        Vec::<String>::new()
    );
    assert_eq!(spelled("two three"), [whole("2"), whole("3")]);
    // A duration of one: `a year`, `an hour`.
    assert_eq!(
        spelled("within a year, an hour later"),
        [whole("1"), whole("1")]
    );
    assert_eq!(
        spelled("the seventeenth and twentieth centuries, the twenty-first"),
        [whole("17"), whole("20"), whole("21")]
    );
}

#[test]
fn every_number_word_passes_the_screen() {
    let words = NUMBER_WORDS.iter().chain(MULTIPLIER_WORDS).map(|(w, _)| *w);
    for word in words.chain(["and", "a", "A", "Twenty", "HUNDRED"]) {
        assert!(may_be_number_word(word.as_bytes()), "{word}");
    }
    for word in ["of", "in", "I", "x", "cat", "people", "was", "fivefoldly"] {
        assert!(!may_be_number_word(word.as_bytes()), "{word}");
    }
}

#[test]
fn the_next_digit_is_found_at_every_position() {
    // Every byte value before and after a digit, at each offset of the eight-byte steps.
    for len in 0..20 {
        for at in 0..=len {
            for filler in 0..=255u8 {
                let mut bytes = vec![filler; len];
                if at < len {
                    bytes[at] = b'7';
                }
                let naive = |from: usize| (from..len).find(|&k| bytes[k].is_ascii_digit());
                for from in [0, 1, 3, 8] {
                    assert_eq!(next_digit(&bytes, from), naive(from), "{bytes:?} {from}");
                }
            }
        }
    }
}

#[test]
fn a_scale_word_after_a_no_break_space() {
    let found = numbers("sales exceeded 1.73\u{a0}million copies");
    assert_eq!(found[0].value, NumberValue::from_parts("173", "", 4));
    assert_eq!(found[0].text, "1.73\u{a0}million");
}

/// The value of a whole number written in digits, as `NumberValue` shows it.
fn whole(digits: &str) -> String {
    NumberValue::from_parts(digits, "", 0).to_string()
}

fn values(text: &str) -> Vec<(String, String)> {
    numbers(text)
        .into_iter()
        .map(|n| (n.text, n.value.to_string()))
        .collect()
}

fn value(text: &str) -> NumberValue {
    let found = numbers(text);
    assert_eq!(found.len(), 1, "{text:?} gave {found:?}");
    found[0].value.clone()
}

#[test]
fn thousands_separators_compare_by_value() {
    assert_eq!(value("1,083 ft"), value("1083"));
    assert_eq!(value("1 083 ft"), value("1083"));
    assert_eq!(value("1\u{00A0}083"), value("1083"));
    assert_eq!(value("12,345,678"), value("12345678"));
    assert_eq!(
        values("in 1887 and 1889"),
        [
            ("1887".to_string(), "1887e0".to_string()),
            ("1889".to_string(), "1889e0".to_string())
        ]
    );
}

#[test]
fn a_comma_not_before_three_digits_separates_numbers() {
    assert_eq!(
        values("1,2"),
        [
            ("1".to_string(), "1e0".to_string()),
            ("2".to_string(), "2e0".to_string())
        ]
    );
    assert_eq!(numbers("1,0834").len(), 2);
    assert_eq!(numbers("pages 10,20,30").len(), 3);
}

#[test]
fn decimals_and_trailing_zeros() {
    assert_eq!(value("3.5"), value("3.50"));
    assert_eq!(value("2.0"), value("2"));
    assert_ne!(value("3.5"), value("35"));
    assert_eq!(value("0.0"), value("0"));
    assert_eq!(value("007"), value("7"));
}

#[test]
fn a_full_stop_after_a_number_is_not_a_decimal_point() {
    assert_eq!(
        values("in 1888."),
        [("1888".to_string(), "1888e0".to_string())]
    );
}

#[test]
fn a_leading_decimal_point_makes_a_fraction() {
    assert_eq!(value("about .5 of it"), value("0.5"));
    assert_eq!(numbers("about .5 of it")[0].text, ".5");
    assert_eq!(value("3.5"), value("3.50"));
}

#[test]
fn percentages_keep_their_value() {
    assert_eq!(value("3.5%"), value("3.5"));
    assert_eq!(value("3.5 %"), value("3.5"));
    assert_eq!(value("3.5 percent"), value("3.5"));
    assert_eq!(value("3.5 per cent"), value("3.5"));
    assert_eq!(numbers("3.5 per cent")[0].text, "3.5 per cent");
}

#[test]
fn scale_words_multiply() {
    assert_eq!(value("7 million"), value("7,000,000"));
    assert_eq!(value("2.1 bn"), value("2,100,000,000"));
    assert_eq!(value("2.1bn"), value("2100000000"));
    assert_eq!(value("2.1 Billion"), value("2100000000"));
    assert_eq!(value("10k"), value("10000"));
    assert_eq!(value("$5M"), value("5000000"));
    assert_eq!(value("1.5 thousand"), value("1500"));
}

#[test]
fn unit_letters_are_not_scales() {
    assert_eq!(value("330m tall"), value("330"));
    assert_eq!(value("5 m"), value("5"));
    assert_eq!(value("10 k"), value("10"));
    assert_eq!(value("7 millionaires"), value("7"));
}

#[test]
fn digits_inside_words_and_versions_are_not_numbers() {
    assert!(numbers("doc2 covid19 b2b").is_empty());
    // A version of three parts is one number, compared as a version.
    assert_eq!(
        values("version 3.5.1"),
        [("3.5.1".to_string(), "3.5.1".to_string())]
    );
    assert_eq!(value("COVID-19"), value("19"));
}

#[test]
fn ordinal_and_plural_endings_belong_to_the_number() {
    assert_eq!(numbers("the 5th floor")[0].text, "5th");
    assert_eq!(value("the 1990s"), value("1990"));
    assert_eq!(numbers("an 81-storey building")[0].text, "81");
}

#[test]
fn an_amount_after_a_currency_sign_takes_m_and_b_as_scales() {
    assert_eq!(value("a profit of $8.2m or"), value("8.2 million"));
    assert_eq!(value("£3b"), value("3 billion"));
    assert_eq!(value("€12m."), value("12000000"));
    // Without the sign, or not attached, they stay units.
    assert_eq!(value("8.2m tall"), value("8.2"));
    assert_eq!(value("$8.2 m"), value("8.2"));
    assert_eq!(value("$8.2mn"), value("8200000"));
    assert_eq!(value("$5 mph"), value("5"));
}

#[test]
fn two_digits_after_a_year_and_a_dash_are_the_later_year() {
    let years =
        |text: &str| -> Vec<String> { numbers(text).iter().map(|n| n.value.to_string()).collect() };
    assert_eq!(
        years("the 2018\u{2013}19 season"),
        [whole("2018"), whole("2019")]
    );
    assert_eq!(years("in 2018-19"), years("in 2018-2019"));
    assert_eq!(years("1990/91"), [whole("1990"), whole("1991")]);
    assert_eq!(years("1999-00"), [whole("1999"), whole("2000")]);
    // Not a range: the digits come before the year's own, dates, other numbers, spaces.
    assert_eq!(years("2020-05-12"), ["2020-05-12"]);
    assert_eq!(years("2010-11-05"), ["2010-11-05"]);
    assert_eq!(years("2018-12"), [whole("2018"), whole("12")]);
    assert_eq!(years("scored 4500-19"), [whole("4500"), whole("19")]);
    assert_eq!(years("1918 - 19"), [whole("1918"), whole("19")]);
    assert_eq!(years("1918-195"), [whole("1918"), whole("195")]);
}

#[test]
fn chunks_read_digits_glued_to_a_word() {
    let glued = |text: &str| -> Vec<String> {
        chunk_numbers(text, crate::words::Decimal::Point)
            .1
            .iter()
            .filter(|v| v.kind() == Kind::Quantity)
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(
        glued("set up at La Manga, Spain1986\u{2014} Introduction"),
        [whole("1986")]
    );
    assert_eq!(
        glued("grunting2 \u{2013} Good, covid19"),
        [whole("2"), whole("19")]
    );
    // Digits inside a word, after a digit or starting a number are not glued numbers.
    assert!(glued("b2b mp3player 1990 x-19 7.5").is_empty());
    assert!(numbers("Spain1986").is_empty());
}

#[test]
fn very_long_digit_runs_do_not_overflow() {
    let long = "9".repeat(500);
    assert_eq!(numbers(&long).len(), 1);
    assert_ne!(value(&long), value(&"9".repeat(499)));
}

#[test]
fn times_of_day_are_one_number_and_chunks_hold_their_parts() {
    let read = |text: &str| -> Vec<String> {
        numbers(text)
            .into_iter()
            .map(|n| n.value.to_string())
            .collect()
    };
    assert_eq!(read("from 9:00 to 17:30"), ["09:00", "17:30"]);
    // Not a time: hours past 23, minutes past 59, longer runs.
    assert_eq!(read("25:00"), ["25e0", "0e0"]);
    assert_eq!(read("9:75").len(), 2);
    assert!(!read("3:16:20").contains(&"03:16".to_string()));
    let (found, glued) = chunk_numbers("open 9:00 to 17:30", crate::words::Decimal::Point);
    assert_eq!(found.len(), 2);
    assert!(glued.contains(&NumberValue::from_parts("17", "", 0)));
    assert!(glued.contains(&NumberValue::from_parts("30", "", 0)));
}

/// The values of the numbers of `text` written with a decimal comma, each with its `also`.
fn comma(text: &str) -> Vec<(String, Vec<String>)> {
    numbers_in(text, Decimal::Comma)
        .into_iter()
        .map(|n| {
            (
                n.value.to_string(),
                n.also.iter().map(ToString::to_string).collect(),
            )
        })
        .collect()
}

/// The values of the numbers of `text`, each with its other values.
fn cjk_values(text: &str) -> Vec<String> {
    numbers(text)
        .iter()
        .filter(|n| n.role == Role::Figure)
        .flat_map(|n| std::iter::once(&n.value).chain(&n.also))
        .map(ToString::to_string)
        .collect()
}

#[test]
fn decimal_commas_and_points_as_thousands() {
    let euros = |text: &str| comma(text)[0].0.clone();
    // 1250.5 written four ways, all one value.
    assert_eq!(euros("1.250,50 €"), "12505e-1");
    assert_eq!(euros("1250,50 Euro"), "12505e-1");
    assert_eq!(euros("1 250,50 €"), "12505e-1");
    assert_eq!(euros("1\u{202f}250,50 €"), "12505e-1");
    assert_eq!(euros("1\u{a0}250,50 EUR"), "12505e-1");
    assert_eq!(euros("1.250.000 Einwohner"), "125e4");
    assert_eq!(euros("3,5 %"), "35e-1");
    assert_eq!(euros("3,5\u{202f}%"), "35e-1");
    // An English-style decimal point, with no group of three after it, stays one.
    assert_eq!(euros("2.5 Liter"), "25e-1");
    // `1,5 Millionen` is 1,500,000.
    assert_eq!(euros("1,5 Millionen Euro"), "15e5");
    // A lone group of three reads the language's way, the other way as well.
    assert_eq!(
        comma("1.250 Liter"),
        [("125e1".into(), vec!["125e-2".into()])]
    );
    assert_eq!(
        comma("1,250 Liter"),
        [("125e-2".into(), vec!["125e1".into()])]
    );
    // Figures written the English way in such a text keep their value.
    assert_eq!(euros("10,000,000 visitors"), "1e7");
    assert_eq!(euros("1,250.50 dollars"), "12505e-1");
    // English keeps its reading: `1.250` is one point two five, `1,250.50` a thousand.
    assert_eq!(numbers("1.250")[0].value.to_string(), "125e-2");
    assert_eq!(numbers("1,250.50")[0].value.to_string(), "12505e-1");
    assert!(numbers("1,250.50")[0].also.is_empty());
}

#[test]
fn currency_words_after_an_amount_are_part_of_it() {
    for (text, written) in [
        ("1250,50 Euro", "1250,50 Euro"),
        ("5 euros", "5 euros"),
        ("30 EUR per day", "30 EUR"),
        ("2 million dollars", "2 million dollars"),
        ("10 Franken.", "10 Franken"),
    ] {
        assert_eq!(numbers_in(text, Decimal::Comma)[0].text, written, "{text}");
    }
    // Not a currency: a word that merely starts like one.
    assert_eq!(numbers("5 Europeans")[0].text, "5");
}

#[test]
fn numbers_written_onto_chinese_and_japanese_words() {
    assert_eq!(
        cjk_values("富士山の高さは3776メートルです"),
        [whole("3776")]
    );
    assert_eq!(cjk_values("塔高3776米"), [whole("3776")]);
    assert_eq!(cjk_values("改革在1994年终止"), [whole("1994")]);
    assert_eq!(cjk_values("我妈的岁数大于50"), [whole("50")]);
    assert_eq!(cjk_values("增长了35%，或35％"), [whole("35"), whole("35")]);
    // Myriads: 1.5万 is 15,000; 3億 is 300,000,000.
    assert_eq!(cjk_values("1.5万人"), [whole("15000")]);
    assert_eq!(cjk_values("3億円"), [whole("300000000")]);
    assert_eq!(cjk_values("2만 명"), [whole("20000")]);
}

#[test]
fn east_asian_dates() {
    assert_eq!(cjk_values("于2013年5月3日开放"), ["2013-05-03"]);
    assert_eq!(cjk_values("2013年5月3日に開業した"), ["2013-05-03"]);
    assert_eq!(cjk_values("2013년 5월 3일에 개장했다"), ["2013-05-03"]);
    assert_eq!(cjk_values("2013年5月"), ["2013-05"]);
    assert_eq!(cjk_values("5月3日"), ["--05-03"]);
    // A year alone is a year; an impossible month is no date.
    assert_eq!(cjk_values("2013年"), [whole("2013")]);
    assert_eq!(cjk_values("2013年13月"), [whole("2013"), whole("13")]);
    // A chunk holds the date's year, month and day too.
    let (_, glued) = chunk_numbers("2013年5月3日", Decimal::Point);
    let glued: Vec<String> = glued.iter().map(ToString::to_string).collect();
    assert!(glued.contains(&whole("2013")), "{glued:?}");
}

#[test]
fn full_width_digits_are_digits() {
    let text = "高さは６３４メートル、２０１２年５月２２日に開業、３．５％";
    let found = numbers(text);
    let read: Vec<(&str, String)> = found
        .iter()
        .map(|n| (&text[n.span.clone()], n.value.to_string()))
        .collect();
    assert_eq!(
        read,
        [
            ("６３４", whole("634")),
            ("２０１２年５月２２日", "2012-05-22".to_string()),
            ("３．５％", NumberValue::from_parts("3", "5", 0).to_string()),
        ]
    );
    assert_eq!(found[0].text, "６３４");
}

/// Words that numbers in words treat each in its own way, and plain ones.
const READ_WORDS: &[&str] = &[
    "one",
    "Two",
    "twenty",
    "five",
    "hundred",
    "thousand",
    "million",
    "and",
    "a",
    "A",
    "an",
    "in",
    "In",
    "half",
    "Half",
    "quarter",
    "second",
    "seconds",
    "hour",
    "years",
    "year",
    "the",
    "of",
    "tower",
    "seventeenth",
    "albums",
    "zero",
    "dozen",
    "ones",
    "fifty",
    "only",
    "minute",
];

/// Reads `words` through [`SpelledNumbers::word`], or through [`SpelledNumbers::plain_word`]
/// for the plain ones, as the chunk pass does with each distinct token's kind.
fn read_words(words: &[&str], plain_fast: bool) -> Vec<String> {
    let mut reader = SpelledNumbers::default();
    for word in words {
        if plain_fast && SpelledNumbers::is_plain(word) {
            reader.plain_word();
        } else {
            reader.word(word);
        }
    }
    reader.finish().iter().map(ToString::to_string).collect()
}

#[test]
fn plain_words_read_as_any_word() {
    for word in ["tower", "the", "Paris", "ones", "hourly", "inn"] {
        assert!(SpelledNumbers::is_plain(word), "{word}");
    }
    for word in [
        "one", "hundred", "a", "An", "in", "half", "Quarter", "hour", "and",
    ] {
        assert!(!SpelledNumbers::is_plain(word), "{word}");
    }
    let text: Vec<&str> = "they sold one hundred and five copies in a year and a half, one in five"
        .split(' ')
        .collect();
    assert_eq!(read_words(&text, true), read_words(&text, false));
    assert!(!read_words(&text, true).is_empty());
}

proptest::proptest! {
    #[test]
    fn plain_words_read_as_any_word_in_any_order(
        picks in proptest::collection::vec(0..READ_WORDS.len(), 0..24)
    ) {
        let words: Vec<&str> = picks.iter().map(|&k| READ_WORDS[k]).collect();
        proptest::prop_assert_eq!(read_words(&words, true), read_words(&words, false));
    }
}
