//! The language an answer is written in, detected from its text (and its chunks' when the
//! answer alone is short) with the `whatlang` crate: trigram profiles built into the crate,
//! deterministic, nothing downloaded. Detection only decides when the detector is confident;
//! `--lang auto` switches to the language it names, and otherwise a check warns when the answer
//! looks written in another language than the one it is read in.

use super::Language;

/// Bytes of the answer the detector reads: a language shows in its first few kilobytes, and
/// the detector's time stays bounded however long the answer is.
const ANSWER_SAMPLE: usize = 4 * 1024;
/// Bytes of the chunks added when the answer is short: enough for a reliable reading (the
/// detector's time grows with the text, and a batch of short records pays it for each).
const CHUNK_SAMPLE: usize = 2 * 1024;
/// An answer with fewer letters than this is read together with its chunks: the detector guesses
/// on a short claim (`Paris est grande.`, `Detroit Pistons: 61 points`) where the passages it
/// cites are clear.
const SHORT_ANSWER_LETTERS: usize = 200;

/// What detection found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Detected {
    /// The language the text is written in.
    pub language: Language,
    /// The detector's confidence, 0 to 1.
    pub confidence: f64,
}

/// The detector's language for ragcite's, when ragcite reads it.
fn from_whatlang(lang: whatlang::Lang) -> Option<Language> {
    use whatlang::Lang as W;
    Some(match lang {
        W::Ara => Language::Arabic,
        W::Dan => Language::Danish,
        W::Nld => Language::Dutch,
        W::Eng => Language::English,
        W::Fin => Language::Finnish,
        W::Fra => Language::French,
        W::Deu => Language::German,
        W::Ell => Language::Greek,
        W::Hun => Language::Hungarian,
        W::Ita => Language::Italian,
        W::Nob => Language::Norwegian,
        W::Por => Language::Portuguese,
        W::Ron => Language::Romanian,
        W::Rus => Language::Russian,
        W::Spa => Language::Spanish,
        W::Swe => Language::Swedish,
        W::Tam => Language::Tamil,
        W::Tur => Language::Turkish,
        W::Cmn => Language::Chinese,
        W::Jpn => Language::Japanese,
        W::Kor => Language::Korean,
        _ => return None,
    })
}

/// The detector, allowed only the languages ragcite reads (a text is never taken for a
/// language it could not then be read in).
fn detector() -> &'static whatlang::Detector {
    static DETECTOR: std::sync::OnceLock<whatlang::Detector> = std::sync::OnceLock::new();
    DETECTOR.get_or_init(|| {
        let allowed = whatlang::Lang::all()
            .iter()
            .copied()
            .filter(|&lang| from_whatlang(lang).is_some())
            .collect();
        whatlang::Detector::with_allowlist(allowed)
    })
}

/// At most `limit` bytes of `text`, cut at a character boundary.
fn prefix(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The detector's reading of `text`, when it is reliable and names a language ragcite reads.
fn reliable(text: &str) -> Option<(Language, f64, bool)> {
    let info = detector().detect(text)?;
    let language = from_whatlang(info.lang())?;
    Some((language, info.confidence(), info.is_reliable()))
}

/// The language `answer` is written in, when the detector is confident. An answer of at least
/// `SHORT_ANSWER_LETTERS` letters is read alone. A shorter one is read together with its
/// `chunks` too, and counts only when both readings name the same language; except that a short
/// answer reliably read as `fallback` (the language it is read in when nothing is detected) is
/// taken so without reading its chunks, as that changes nothing but the time. `None` when the
/// detector is unsure.
pub fn detect<'c>(
    answer: &str,
    chunks: impl IntoIterator<Item = &'c str>,
    fallback: Language,
) -> Option<Detected> {
    let answer = prefix(answer, ANSWER_SAMPLE);
    let (alone, confidence, sure) = reliable(answer)?;
    let letters = answer
        .chars()
        .filter(|c| c.is_alphabetic())
        .take(SHORT_ANSWER_LETTERS)
        .count();
    if letters >= SHORT_ANSWER_LETTERS || (sure && alone == fallback) {
        return sure.then_some(Detected {
            language: alone,
            confidence,
        });
    }
    // A short answer: read with its chunks, and only the language both readings name.
    let mut text = String::with_capacity(answer.len() + CHUNK_SAMPLE + 1);
    text.push_str(answer);
    for chunk in chunks {
        if text.len() >= answer.len() + CHUNK_SAMPLE {
            break;
        }
        text.push('\n');
        let room = answer.len() + CHUNK_SAMPLE - text.len();
        text.push_str(prefix(chunk, room));
    }
    let (together, confidence, sure) = reliable(&text)?;
    (sure && together == alone).then_some(Detected {
        language: together,
        confidence,
    })
}

#[cfg(test)]
mod tests {
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
    }
}
