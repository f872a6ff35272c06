use super::*;

#[test]
fn long_answers_are_detected_alone() {
    let french = "La tour Eiffel est une tour de fer puddlé de 330 mètres de hauteur située \
                  à Paris, à l'extrémité nord-ouest du parc du Champ-de-Mars en bordure de \
                  la Seine. Construite en deux ans par Gustave Eiffel et ses collaborateurs \
                  pour l'Exposition universelle de Paris de 1889, elle est devenue le symbole \
                  de la capitale française.";
    let found = detect(french, [], Language::English).unwrap();
    assert_eq!(found.language, Language::French);
}

#[test]
fn short_answers_need_their_chunks_to_agree() {
    let claim = "Die Brücke wurde 1932 eröffnet [1].";
    let chunk = "Die Brücke über den Fluss wurde nach vier Jahren Bauzeit im Jahr 1932 \
                 eröffnet und verbindet seitdem die beiden Stadtteile miteinander. Sie ist \
                 eine der ältesten Stahlbrücken der Region.";
    assert_eq!(
        detect(claim, [chunk], Language::English).map(|d| d.language),
        Some(Language::German)
    );
    // English chunks do not make a German claim English.
    let english = "The bridge over the river was opened in 1932 after four years of work \
                   and has linked the two districts ever since.";
    assert_ne!(
        detect(claim, [english], Language::English).map(|d| d.language),
        Some(Language::English)
    );
}

#[test]
fn empty_and_odd_texts_give_nothing_or_something_without_panicking() {
    assert_eq!(detect("", [], Language::English), None);
    let _ = detect("1234 [1] !!!", ["", "5"], Language::French);
    let long = "é".repeat(10_000);
    let _ = detect(&long, [long.as_str()], Language::English);
    for odd in [
        "'",
        "’’’ it’’",
        "don't'",
        "a'b'c'd'e'f'g'h'i'j",
        "thé\u{301}",
        "e\u{301}",
    ] {
        let _ = detect(odd, [], Language::English);
        let _ = english_counts(odd);
    }
}

/// English prose, from a claim of a few words to a paragraph, with names, figures, code and
/// contractions: plainly English, and the detector reads it so too.
#[test]
fn plainly_english_prose_skips_the_detector() {
    for text in [
        "The tower was built between 1887 and 1889 as the entrance to the World's Fair, and it \
         has since become the symbol of France.",
        "According to the sources, the company reported revenue of $4.2 billion in 2023, which \
         was higher than the year before [1]. However, they did not say how much of it came \
         from their cloud business [2].",
        "You can install it with `pip install requests` and then import it from your code: \
         it's the same library that the tutorial uses.",
        "I don't know which of these options would work best for your team, but the first one \
         is the one most people choose.",
        "Les Misérables is a novel by Victor Hugo that was published in 1862, and it is \
         considered one of the greatest novels of the 19th century.",
        "The mayor of Los Angeles said that the city would open three new shelters, which \
         should house about 400 people by the end of the year.",
    ] {
        assert!(plainly_english(text), "{text}");
        assert_eq!(
            detect(text, [], Language::English).map(|d| d.language),
            Some(Language::English)
        );
        let read = detect_with_whatlang(text, [], Language::English).map(|d| d.language);
        assert!(
            matches!(read, Some(Language::English) | None),
            "{text}: {read:?}"
        );
    }
    // Only when English is the language it would be read in.
    let english = "The tower was built between 1887 and 1889, and it is the symbol of the city \
                   that hosted the fair.";
    assert!(plainly_english(english));
    assert_eq!(
        detect(english, [], Language::French),
        detect_with_whatlang(english, [], Language::French)
    );
}

/// Other languages, with English loan words and code in them; English quoting them; and text
/// of names and figures alone: the detector reads them.
#[test]
fn other_languages_mixed_texts_and_names_ask_the_detector() {
    for text in [
        // French, German, Dutch, Spanish, Italian, Portuguese.
        "La tour Eiffel a été construite entre 1887 et 1889 pour l'Exposition universelle, et \
         elle est devenue le symbole de Paris.",
        "Der Eiffelturm wurde zwischen 1887 und 1889 für die Weltausstellung gebaut und ist \
         heute das Wahrzeichen von Paris.",
        "De Eiffeltoren werd gebouwd voor de wereldtentoonstelling van 1889 en is nu het \
         bekendste symbool van Parijs; hij is 330 meter hoog.",
        "La Torre Eiffel fue construida entre 1887 y 1889 para la Exposición Universal, y hoy \
         es el símbolo más conocido de París.",
        "La Torre Eiffel è stata costruita tra il 1887 e il 1889 per l'Esposizione universale, \
         ed è oggi il simbolo di Parigi.",
        "A Torre Eiffel foi construída entre 1887 e 1889 para a Exposição Universal e hoje é o \
         símbolo mais conhecido de Paris.",
        // The same languages with English words and code.
        "Pour installer le package, lancez `pip install requests` puis importez-le avec \
         `import requests` dans votre script Python : c'est le plus simple.",
        "Mit dem Befehl `git push --force` wird der Remote-Branch überschrieben, deshalb sollte \
         man ihn nur mit Vorsicht und nach einem Backup verwenden.",
        "Met deze tool kun je de output van het script naar een bestand schrijven, zodat je de \
         logs later kunt bekijken in het dashboard.",
        "Para instalar la librería, ejecuta `npm install express` y luego importa el módulo en \
         tu archivo principal con `require('express')`.",
        "Il nostro team ha lanciato una nuova feature per il marketing online: il software \
         gestisce il budget e i report della campagna.",
        "Para rodar o servidor, use o comando `npm start` no terminal e abra o navegador na \
         porta 3000 para ver a página.",
        "Die Option --force overwrites the remote branch. Sie sollte nur mit einem Backup \
         verwendet werden, weil die alten Commits sonst verloren sind.",
        // English quoting French.
        "The report quotes the minister: « Nous avons décidé de fermer les centrales avant \
         2035, et cette décision est définitive », which the opposition called premature.",
        "As the saying goes, « il ne faut pas vendre la peau de l'ours avant de l'avoir tué », \
         and the board agreed with that.",
        "She wrote that \"les jeux sont faits\" and that \"rien ne va plus\" when the vote came.",
        // Names and figures.
        "Detroit Pistons: 61 points",
        "Paris, Lyon, Marseille: 2,148,271; 513,275; 861,635",
        "Barack Obama (2009-2017), Joe Biden (2021-2025) [1][2]",
        "",
    ] {
        assert!(!plainly_english(text), "{text}");
        assert_eq!(
            detect(text, [], Language::English),
            detect_with_whatlang(text, [], Language::English)
        );
    }
}

/// Words are counted as written: an apostrophe inside a word (straight or curly) is part of
/// it, one at its end is not; a word with a letter outside ASCII or an accent written apart
/// (`the\u{301}`) is no English function word.
#[test]
fn the_gate_counts_words_as_written() {
    let counts = english_counts("It’s the students' book, and it's theirs.");
    assert_eq!(counts.english, 4, "{counts:?}"); // it’s, the, and, it's
    assert_eq!(counts.seen.count_ones(), 3);
    assert_eq!(counts.words, 7);
    let text = format!("{} thé the\u{301}", "word ".repeat(100));
    let counts = english_counts(&text);
    assert_eq!((counts.english, counts.foreign, counts.words), (0, 2, 102));
    // Counting stops at the first foreign letter a plainly English text could not have.
    assert_eq!(english_counts("thé the the the").words, 0);
    let counts = english_counts("Les enfants und die Kinder, het huis and the house.");
    assert_eq!((counts.english, counts.other), (2, 3));
}

/// A text, with the chunks it is read with.
struct Case {
    answer: String,
    chunks: Vec<String>,
}

/// Every string in `value`, however deep.
fn strings_of(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_of(v, out)),
        serde_json::Value::Object(fields) => fields.values().for_each(|v| strings_of(v, out)),
        _ => {}
    }
}

/// The texts of an eval record (`answer`, or its sentences' when it has none; `chunks[].text`),
/// each read as an answer: the answer with the chunks, each sentence with them, each chunk with
/// the others.
fn record_cases(record: &serde_json::Value, out: &mut Vec<Case>) {
    let text =
        |v: &serde_json::Value, key: &str| v.get(key).and_then(|t| t.as_str()).map(String::from);
    let chunks: Vec<String> = record
        .get("chunks")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
        .filter_map(|c| text(c, "text"))
        .collect();
    let sentences = record.get("sentences").and_then(|s| s.as_array());
    let sentence_texts: Vec<String> = sentences
        .into_iter()
        .flatten()
        .flat_map(|s| [text(s, "text"), text(s, "raw")])
        .flatten()
        .collect();
    let answer = text(record, "answer").unwrap_or_else(|| {
        sentences
            .into_iter()
            .flatten()
            .filter_map(|s| text(s, "text"))
            .collect::<Vec<_>>()
            .join(" ")
    });
    out.push(Case {
        answer,
        chunks: chunks.clone(),
    });
    for sentence in sentence_texts {
        out.push(Case {
            answer: sentence,
            chunks: chunks.clone(),
        });
    }
    for (i, chunk) in chunks.iter().enumerate() {
        let others = chunks
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, c)| c.clone());
        out.push(Case {
            answer: chunk.clone(),
            chunks: others.collect(),
        });
    }
}

/// The chunk texts of a chunks file (`[{"text": ...}]`), none when it is not one.
fn chunk_texts(path: &std::path::Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(serde_json::Value::Array(items)) = serde_json::from_str(&text) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|c| c.get("text").and_then(|t| t.as_str()).map(String::from))
        .collect()
}

/// The texts under `dir`, and how many records they come from: each record of its JSON Lines
/// files ([`record_cases`]); and, with `every_string`, every string of its JSON files and lines,
/// and every text file (Markdown, text, CSV, event streams) with the chunks beside it
/// (`chunks.json`, or `NAME-chunks.json` for `NAME-answer.md`).
fn cases_under(dir: &std::path::Path, every_string: bool, out: &mut Vec<Case>) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut records = 0;
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            records += cases_under(&path, every_string, out);
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let loose = |value: &serde_json::Value, out: &mut Vec<Case>| {
            let mut strings = Vec::new();
            strings_of(value, &mut strings);
            out.extend(strings.into_iter().map(|answer| Case {
                answer,
                chunks: Vec::new(),
            }));
        };
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl" | "ndjson") => {
                for line in text.lines() {
                    let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
                        continue;
                    };
                    if value.is_object() {
                        records += 1;
                        record_cases(&value, out);
                    }
                    if every_string {
                        loose(&value, out);
                    }
                }
            }
            Some("json") if every_string => {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
                    loose(&value, out);
                }
            }
            Some("md" | "txt" | "csv" | "sse") if every_string => {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                let beside = match name.strip_suffix("-answer.md") {
                    Some(stem) => path.with_file_name(format!("{stem}-chunks.json")),
                    None => path.with_file_name("chunks.json"),
                };
                out.push(Case {
                    answer: text,
                    chunks: chunk_texts(&beside),
                });
            }
            _ => {}
        }
    }
    records
}

/// What the gate did over a set of texts, against the detector.
#[derive(Debug, Default)]
struct Agreement {
    /// Texts read (each once).
    texts: usize,
    /// Texts the gate took for English (the detector not asked).
    gated: usize,
    /// Of them, those the detector reads as English too ...
    english: usize,
    /// ... or as nothing (read in English all the same) ...
    unsure: usize,
    /// ... or as another language: what the gate must never take.
    other: Vec<String>,
    /// Of the texts gated, those the detector reads alone, without their chunks, as another
    /// language (a short one it might read so with its chunks too).
    other_alone: Vec<String>,
}

fn agreement(cases: &[Case]) -> Agreement {
    let mut seen = std::collections::HashSet::new();
    let mut agreement = Agreement::default();
    for case in cases {
        if !seen.insert(case.answer.as_str()) {
            continue;
        }
        agreement.texts += 1;
        let sample = prefix(&case.answer, ANSWER_SAMPLE);
        if !plainly_english(sample) {
            // `detect` is `detect_with_whatlang`.
            continue;
        }
        let chunks = case.chunks.iter().map(String::as_str);
        let gated = detect(&case.answer, chunks.clone(), Language::English);
        assert_eq!(gated.map(|d| d.language), Some(Language::English));
        let ungated = detect_with_whatlang(&case.answer, chunks, Language::English);
        agreement.gated += 1;
        match ungated.map(|d| d.language) {
            Some(Language::English) => agreement.english += 1,
            None => agreement.unsure += 1,
            Some(_) => agreement.other.push(case.answer.clone()),
        }
        let alone = reliable(sample);
        if let Some((language, _, true)) = alone
            && language != Language::English
        {
            agreement.other_alone.push(case.answer.clone());
        }
    }
    agreement
}

/// Texts the gate takes for English are read as English (or as nothing) by the detector too:
/// every string of every file of the test data, each read as an answer.
#[test]
fn the_gate_agrees_with_the_detector_on_the_test_data() {
    let mut cases = Vec::new();
    cases_under(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"),
        true,
        &mut cases,
    );
    let found = agreement(&cases);
    assert!(
        found.other.is_empty() && found.other_alone.is_empty(),
        "{found:#?}"
    );
    assert!(found.texts > 3000 && found.gated > 500, "{found:#?}");
}

/// The same on the development data and any other folder of eval-shaped records
/// (`RAGCITE_DEV=/path/to/eval/dev:/tmp/lang-samples cargo test -p ragcite --lib words::detect
/// -- --ignored --nocapture`; scripts/dev/language-samples.py writes texts in many languages
/// as such records): every answer, sentence and chunk of their JSON Lines files, each read as
/// an answer.
#[test]
#[ignore = "reads the development data named by RAGCITE_DEV"]
#[allow(
    clippy::print_stderr,
    reason = "reports the counts of a run on local data"
)]
fn the_gate_agrees_with_the_detector_on_the_dev_data() {
    let dirs = std::env::var_os("RAGCITE_DEV").expect("RAGCITE_DEV names the dev data's folders");
    let mut cases = Vec::new();
    let mut records = 0;
    for dir in std::env::split_paths(&dirs) {
        records += cases_under(&dir, false, &mut cases);
    }
    assert!(!cases.is_empty(), "no JSON Lines records in {dirs:?}");
    let found = agreement(&cases);
    eprintln!(
        "{records} records, {} texts, {} gated: the detector reads {} as English, {} as nothing, \
         {} as another language ({} short ones alone)",
        found.texts,
        found.gated,
        found.english,
        found.unsure,
        found.other.len(),
        found.other_alone.len()
    );
    assert!(
        found.other.is_empty() && found.other_alone.is_empty(),
        "{found:#?}"
    );
}
