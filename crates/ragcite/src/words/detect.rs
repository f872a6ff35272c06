//! The language an answer is written in, detected from its text (and its chunks' when the
//! answer alone is short) with the `whatlang` crate: trigram profiles built into the crate,
//! deterministic, nothing downloaded. Detection only decides when the detector is confident;
//! `--lang auto` switches to the language it names, and otherwise a check warns when the answer
//! looks written in another language than the one it is read in. An answer read in English that
//! is plainly English (its letters ASCII, many of its words function words only English writes
//! so) is taken for English without the detector, which costs about 300,000 instructions an
//! answer and could only agree or be unsure.

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
    /// The detector's confidence, 0 to 1; 1 when the answer is plainly English and the
    /// detector was not asked (see [`detect`]).
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
///
/// When `fallback` is English and the answer is plainly English (`plainly_english`: nearly
/// all ASCII letters, and many of the function words only English writes so), it is English
/// without asking the detector, which would read it so or be unsure (either way the answer is
/// read in English, and nothing is warned); its `confidence` is then 1.
pub fn detect<'c>(
    answer: &str,
    chunks: impl IntoIterator<Item = &'c str>,
    fallback: Language,
) -> Option<Detected> {
    if fallback == Language::English && plainly_english(prefix(answer, ANSWER_SAMPLE)) {
        return Some(Detected {
            language: Language::English,
            confidence: 1.0,
        });
    }
    detect_with_whatlang(answer, chunks, fallback)
}

/// [`detect`] without the English gate: the detector reads every answer.
fn detect_with_whatlang<'c>(
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

/// At most one letter in this many of a plainly English text is outside ASCII (`é` in `café`,
/// a name's `ñ`): more, and the text may be another language's, or quote one.
const FOREIGN_LETTERS_PER: usize = 100;
/// English function words ([`ENGLISH_WORDS`]) a plainly English text has, at least. The gate
/// reads the answer alone: a short one (fewer than `SHORT_ANSWER_LETTERS` letters), which the
/// detector would read with its chunks, must have them itself; a long one has more through
/// `ENGLISH_SHARE` ...
const ENGLISH_AT_LEAST: usize = 3;
/// ... of this many different ones (a word repeated, `from` in a program's imports, is not
/// prose) ...
const ENGLISH_DISTINCT: u32 = 2;
/// ... making at least this share (in percent) of its words ...
const ENGLISH_SHARE: usize = 10;
/// ... and at least this many times its other languages' function words ([`OTHER_WORDS`]):
/// a name (`Le Mans`, `van der Waals`) is allowed, a passage in another language is not.
const ENGLISH_PER_OTHER: usize = 4;

/// Function words only English writes so: none is a word of another language ragcite detects
/// (not `in`, `is`, `was`, `a`, `an`, `to`, `on`, `at`, `by`, `as`, `so`, `be`, `no`, `not`, `we`;
/// nor `of` (Dutch), `for` (Danish, Norwegian), `are` (Romanian), `have` (Danish), `has` and
/// `he` (Spanish), `her` (Danish, Norwegian), `will` and `also` (German), `over`, `under`).
const ENGLISH_WORDS: [&str; 64] = [
    "about", "against", "although", "among", "and", "because", "been", "being", "between", "but",
    "can't", "could", "did", "didn't", "does", "doesn't", "don't", "during", "from", "him", "his",
    "how", "however", "into", "isn't", "it's", "its", "many", "might", "only", "other", "our",
    "she", "should", "some", "such", "than", "that", "that's", "the", "their", "them", "there",
    "there's", "these", "they", "this", "those", "through", "were", "what", "when", "where",
    "whether", "which", "who", "whose", "why", "with", "within", "without", "would", "you", "your",
];

/// Function words of other languages written in Latin letters, which English text has only in
/// names and quotations (`Los Angeles`, `Le Mans`, `van der Waals`, `Tristan und Isolde`): those
/// of the languages ragcite detects (French, German, Spanish, Italian, Portuguese, Dutch,
/// Swedish, Danish and Norwegian, Romanian, Turkish, Finnish, Hungarian), and of a few it does
/// not but the detector may take for one (Catalan, Indonesian, Tagalog). Not the words English
/// writes too (`die`, `in`, `on`, `is`, `do`, `per`, `non`, `um`, `de`, `al` and `et` of
/// `et al.`).
const OTHER_WORDS: [&str; 221] = [
    "aan", "acest", "adalah", "akan", "alla", "amb", "anche", "ang", "atau", "att", "auch", "auf",
    "aus", "aux", "av", "avec", "az", "bei", "bij", "bir", "ble", "blir", "bu", "c'est", "cette",
    "che", "como", "con", "csak", "cu", "cuando", "d'un", "d'une", "da", "daha", "dalam", "dans",
    "dari", "das", "dass", "dat", "degli", "dei", "del", "della", "delle", "dels", "dem", "den",
    "dengan", "denna", "der", "des", "det", "detta", "deze", "di", "dos", "du", "een", "egy", "ei",
    "ein", "eine", "einen", "einer", "el", "elle", "eller", "els", "em", "en", "entre", "er", "es",
    "essa", "esse", "essere", "esta", "este", "ett", "fost", "fra", "fue", "geen", "gibi", "gli",
    "ha", "har", "hebben", "heeft", "het", "hij", "hogy", "hvis", "hvor", "ikke", "il", "ile",
    "ini", "inte", "isso", "ist", "itu", "ja", "jeg", "kadar", "kan", "kann", "kunnen", "la",
    "las", "le", "les", "los", "maar", "mais", "med", "mga", "mit", "muito", "mutta", "muy",
    "n'est", "na", "naar", "nach", "ne", "nel", "nella", "nem", "nicht", "niet", "nincs", "nous",
    "nu", "nur", "o", "och", "oder", "og", "olarak", "om", "omdat", "ook", "os", "ou", "ovat",
    "pada", "para", "pas", "pe", "pela", "pelo", "pentru", "pero", "poate", "pode", "por", "pour",
    "puede", "qu'il", "que", "questa", "questo", "qui", "sa", "sau", "se", "sebuah", "seu", "si",
    "sich", "sie", "sig", "sind", "skal", "skall", "sobre", "som", "sono", "sont", "stato", "sua",
    "sunt", "sur", "sus", "tidak", "tiene", "til", "till", "todos", "uma", "un", "una", "und",
    "une", "untuk", "vagy", "van", "ve", "ved", "veya", "viene", "voi", "von", "voor", "vous",
    "wanneer", "wat", "wenn", "werden", "wir", "wird", "worden", "wordt", "y", "yang", "zij",
    "zijn", "zu",
];

/// The longest of these words (`although`): each fits in a `u64`.
const LONGEST: usize = 8;

/// A word of at most [`LONGEST`] bytes as one number: its bytes, little-endian, zeros after.
const fn pack(word: &[u8]) -> u64 {
    assert!(word.len() <= LONGEST);
    let mut packed = 0;
    let mut i = 0;
    while i < word.len() {
        packed |= (word[i] as u64) << (8 * i);
        i += 1;
    }
    packed
}

/// `words` packed and sorted, for a binary search; a word given twice does not compile.
const fn packed<const N: usize>(words: [&str; N]) -> [u64; N] {
    let mut out = [0; N];
    let mut i = 0;
    while i < N {
        out[i] = pack(words[i].as_bytes());
        i += 1;
    }
    // Insertion sort: a few hundred words, at compile time.
    let mut i = 1;
    while i < N {
        let mut j = i;
        while j > 0 && out[j - 1] > out[j] {
            let swap = out[j - 1];
            out[j - 1] = out[j];
            out[j] = swap;
            j -= 1;
        }
        i += 1;
    }
    let mut i = 1;
    while i < N {
        assert!(out[i - 1] < out[i], "a word is given twice");
        i += 1;
    }
    out
}

const ENGLISH: [u64; ENGLISH_WORDS.len()] = packed(ENGLISH_WORDS);
// Each English word is a bit of `EnglishCounts::seen`.
const _: () = assert!(ENGLISH_WORDS.len() <= 64);
const OTHER: [u64; OTHER_WORDS.len()] = packed(OTHER_WORDS);

/// What [`plainly_english`] counts in a text, in one pass over it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct EnglishCounts {
    /// Letters (alphabetic characters), as [`detect`] counts them.
    letters: usize,
    /// Letters outside ASCII, and combining marks (an accent written apart from its letter).
    foreign: usize,
    /// Words: runs of letters, with the apostrophes inside them (`it's`, `don’t`).
    words: usize,
    /// English function words among them ([`ENGLISH_WORDS`]) ...
    english: usize,
    /// ... which ones, a bit each ...
    seen: u64,
    /// ... and other languages' function words ([`OTHER_WORDS`]).
    other: usize,
}

impl EnglishCounts {
    /// Counts the word just read: `len` characters, the first lower-cased and packed in `word`
    /// while they fit; `ascii` when they are all ASCII letters and apostrophes.
    fn word(&mut self, word: u64, len: usize, ascii: bool) {
        self.words += 1;
        if !ascii || len > LONGEST {
            return;
        }
        // An apostrophe at the end (`students'`) is not part of the word.
        let mut word = word;
        let mut len = len;
        while len > 0 && word >> (8 * (len - 1)) == u64::from(b'\'') {
            len -= 1;
            word &= !(0xff << (8 * len));
        }
        if let Ok(i) = ENGLISH.binary_search(&word) {
            self.english += 1;
            self.seen |= 1 << i;
        } else if OTHER.binary_search(&word).is_ok() {
            self.other += 1;
        }
    }
}

/// Counts `text`'s letters and words, and its function words; stops early (with counts that
/// fail the test) once more of its letters are foreign than a plainly English text of its
/// length could have.
fn english_counts(text: &str) -> EnglishCounts {
    use unicode_normalization::char::is_combining_mark;
    let most_foreign = text.len() / FOREIGN_LETTERS_PER;
    let mut counts = EnglishCounts::default();
    let mut word = 0u64;
    let mut len = 0;
    let mut ascii = true;
    for c in text.chars() {
        if c.is_ascii_alphabetic() {
            if len < LONGEST {
                word |= u64::from(c.to_ascii_lowercase() as u8) << (8 * len);
            }
            len += 1;
            counts.letters += 1;
        } else if len > 0 && (c == '\'' || c == '\u{2019}') {
            if len < LONGEST {
                word |= u64::from(b'\'') << (8 * len);
            }
            len += 1;
        } else if !c.is_ascii() && (c.is_alphabetic() || is_combining_mark(c)) {
            counts.letters += usize::from(c.is_alphabetic());
            counts.foreign += 1;
            if counts.foreign > most_foreign {
                return counts;
            }
            ascii = false;
            len += 1;
        } else if len > 0 {
            counts.word(word, len, ascii);
            word = 0;
            len = 0;
            ascii = true;
        }
    }
    if len > 0 {
        counts.word(word, len, ascii);
    }
    counts
}

/// Whether `answer` (the sample the detector would read) is plainly English, so plainly that
/// the detector reads it as English or is unsure (the tests compare the two on the test data,
/// and on the development data and texts in 37 languages): its letters nearly all ASCII; English
/// function words (`the`, `which`, `would`: none another language writes so) many, of several
/// kinds, a good share of its words, and far more than other languages' (`und`, `les`, `het`).
/// A short answer, which the detector would read with its chunks, passes on its own or not at
/// all.
fn plainly_english(answer: &str) -> bool {
    let counts = english_counts(answer);
    counts.foreign * FOREIGN_LETTERS_PER <= counts.letters
        && counts.english >= ENGLISH_AT_LEAST
        && counts.seen.count_ones() >= ENGLISH_DISTINCT
        && counts.english * 100 >= counts.words * ENGLISH_SHARE
        && counts.english >= counts.other * ENGLISH_PER_OTHER
}

#[cfg(test)]
mod tests;
