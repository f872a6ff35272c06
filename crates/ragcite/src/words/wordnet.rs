//! Open English WordNet's synonyms, antonyms and derivations (`words/wordnet/*.txt`, made by
//! `scripts/data/build-wordnet.py` from the 2025 edition, CC BY 4.0 and the WordNet 3.0
//! licence): whether two predicates are the same (`buy` ~ `purchase`, `construct` ~
//! `construction`) and whether two words are opposites (`increase` ↔ `decrease`).
//!
//! The tables hold only a lemma's dominant senses (see the script's filters): synonyms share
//! their first sense, antonyms are senses among their lemmas' first three, derivations among
//! the first two. Each table is parsed on its first lookup, never before; the lookups by stem
//! build their index on their own first use. Lemmas are lower-case, multi-word lemmas keep
//! their spaces (`rule out`); every list is sorted.

// Nothing in the pipeline reads these tables yet.
#![cfg_attr(not(test), allow(dead_code))]

use std::borrow::Cow;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;

use super::porter2;

/// A part of speech of WordNet (adjective satellites are adjectives).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Pos {
    Noun,
    Verb,
    Adjective,
    Adverb,
}

impl Pos {
    fn parse(code: &str) -> Option<Pos> {
        match code {
            "n" => Some(Pos::Noun),
            "v" => Some(Pos::Verb),
            "a" => Some(Pos::Adjective),
            "r" => Some(Pos::Adverb),
            _ => None,
        }
    }
}

/// How a derived word relates to the lemma looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Link {
    /// A derivationally related form (`construct` ~ `construction`), either way.
    Derivation,
    /// The lemma pertains to the word (`financial` → `finance`).
    PertainsTo,
    /// The word pertains to the lemma (`finance` ← `financial`).
    PertainedBy,
}

/// A word derived from a lemma, or the lemma from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Derived {
    /// The related word.
    pub word: &'static str,
    /// Its part of speech.
    pub pos: Pos,
    /// The part of speech of the lemma looked up, in this relation.
    pub from: Pos,
    pub link: Link,
}

type Table<T> = FxHashMap<&'static str, Vec<T>>;

/// The tab-separated fields of a table's lines, comments and blank lines left out.
fn rows(text: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    text.lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.split('\t').collect())
}

fn sorted<T: Ord>(mut table: Table<T>) -> Table<T> {
    for related in table.values_mut() {
        related.sort_unstable();
        related.dedup();
    }
    table
}

fn synonym_table() -> &'static Table<(&'static str, Pos)> {
    static TABLE: OnceLock<Table<(&'static str, Pos)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Table<(&'static str, Pos)> = FxHashMap::default();
        for row in rows(include_str!("wordnet/synonyms.txt")) {
            let Some((pos, lemmas)) = row.split_first() else {
                continue;
            };
            let Some(pos) = Pos::parse(pos) else {
                continue;
            };
            for &lemma in lemmas {
                let entry = table.entry(lemma).or_default();
                entry.extend(lemmas.iter().filter(|&&o| o != lemma).map(|&o| (o, pos)));
            }
        }
        sorted(table)
    })
}

fn antonym_table() -> &'static Table<(&'static str, Pos)> {
    static TABLE: OnceLock<Table<(&'static str, Pos)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Table<(&'static str, Pos)> = FxHashMap::default();
        for row in rows(include_str!("wordnet/antonyms.txt")) {
            let [pos, a, b] = row[..] else { continue };
            let Some(pos) = Pos::parse(pos) else {
                continue;
            };
            table.entry(a).or_default().push((b, pos));
            table.entry(b).or_default().push((a, pos));
        }
        sorted(table)
    })
}

fn derivation_table() -> &'static Table<Derived> {
    static TABLE: OnceLock<Table<Derived>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Table<Derived> = FxHashMap::default();
        for row in rows(include_str!("wordnet/derivations.txt")) {
            let [kind, a, p, b, q] = row[..] else {
                continue;
            };
            let (Some(p), Some(q)) = (Pos::parse(p), Pos::parse(q)) else {
                continue;
            };
            let (forward, backward) = match kind {
                "d" => (Link::Derivation, Link::Derivation),
                "p" => (Link::PertainsTo, Link::PertainedBy),
                _ => continue,
            };
            let derived = |word, pos, from, link| Derived {
                word,
                pos,
                from,
                link,
            };
            table.entry(a).or_default().push(derived(b, q, p, forward));
            table.entry(b).or_default().push(derived(a, p, q, backward));
        }
        sorted(table)
    })
}

/// A lemma as the tables hold it: lower-cased (as the words stage lower-cases), borrowed when
/// it already is.
fn key(lemma: &str) -> Cow<'_, str> {
    if lemma
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        Cow::Borrowed(lemma)
    } else {
        Cow::Owned(super::lower(lemma))
    }
}

/// The synonyms of `lemma` with their part of speech: the lemmas whose first sense, in that
/// part of speech, is the lemma's first sense (`buy` → `purchase` v). Sorted; empty when it
/// has none.
pub(crate) fn synonyms(lemma: &str) -> &'static [(&'static str, Pos)] {
    synonym_table().get(&*key(lemma)).map_or(&[], Vec::as_slice)
}

/// Whether two different lemmas are synonyms in some part of speech.
pub(crate) fn are_synonyms(a: &str, b: &str) -> bool {
    let b = key(b);
    synonyms(a).iter().any(|&(word, _)| word == b)
}

/// The antonyms of `lemma` with their part of speech (`increase` → `decrease` n and v), from
/// senses among the first three of both lemmas. Sorted; empty when it has none.
pub(crate) fn antonyms(lemma: &str) -> &'static [(&'static str, Pos)] {
    antonym_table().get(&*key(lemma)).map_or(&[], Vec::as_slice)
}

/// The part of speech in which `a` and `b` are antonyms (the first, in the order of [`Pos`],
/// when they are in several), if they are.
pub(crate) fn are_antonyms(a: &str, b: &str) -> Option<Pos> {
    let b = key(b);
    antonyms(a)
        .iter()
        .find(|&&(word, _)| word == b)
        .map(|&(_, pos)| pos)
}

/// The words derived from `lemma` or that it derives from (`construct` v → `construction` n),
/// and the pertainyms either way (`financial` a → `finance` n), across parts of speech, from
/// senses among the first two of both lemmas. Sorted; empty when it has none.
pub(crate) fn derivations(lemma: &str) -> &'static [Derived] {
    derivation_table()
        .get(&*key(lemma))
        .map_or(&[], Vec::as_slice)
}

/// Whether `a` and `b` are derivationally related or one is a pertainym of the other.
pub(crate) fn are_derived(a: &str, b: &str) -> bool {
    let b = key(b);
    derivations(a).iter().any(|derived| derived.word == b)
}

/// The irregular forms of each lemma, with the part of speech they inflect it in (`buy` →
/// `bought` v), which the stemmer does not bring back to the lemma's stem.
fn form_table() -> &'static Table<(Pos, &'static str)> {
    static TABLE: OnceLock<Table<(Pos, &'static str)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Table<(Pos, &'static str)> = FxHashMap::default();
        for row in rows(include_str!("wordnet/forms.txt")) {
            let [pos, lemma, form] = row[..] else {
                continue;
            };
            if let Some(pos) = Pos::parse(pos) {
                table.entry(lemma).or_default().push((pos, form));
            }
        }
        sorted(table)
    })
}

/// The irregular forms of `lemma` in `pos` (`buy` v → `bought`), sorted.
pub(crate) fn irregular_forms(lemma: &str, pos: Pos) -> impl Iterator<Item = &'static str> {
    form_table()
        .get(&*key(lemma))
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter(move |&&(p, _)| p == pos)
        .map(|&(_, form)| form)
}

/// The stem of a word or lemma as the words stage stems an English word (Porter2 for ASCII,
/// Snowball through rust-stemmers otherwise); a multi-word lemma's words are stemmed one by
/// one and joined with a space (`rules out` → `rule out`, `wet-nurse` → `wet nurs`), so that
/// no single token's stem finds it.
fn stem_lemma(stemmer: &Stemmer, lemma: &str) -> String {
    let stem = |word: &str| {
        let stem = porter2::stem_ascii(word).unwrap_or_else(|| stemmer.stem(word).into_owned());
        if stem.is_empty() {
            word.to_owned()
        } else {
            stem
        }
    };
    let words: Vec<String> = lemma
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .filter(|word| !word.is_empty())
        .map(stem)
        .collect();
    if words.is_empty() {
        lemma.to_owned()
    } else {
        words.join(" ")
    }
}

/// A table re-keyed by stem: for the stems of a lemma and of its irregular forms, the stems of
/// the related lemmas and of their irregular forms. Built on first use: the stems first
/// (owned by `stems`), then the index, whose keys and values borrow them.
struct StemIndex {
    stems: OnceLock<FxHashMap<&'static str, Box<str>>>,
    index: OnceLock<Table<&'static str>>,
}

/// A lemma or form with its stems' key, and the related lemma with its part of speech.
type Relation<T> = fn(&T) -> (Pos, &'static str, Pos);

impl StemIndex {
    const fn new() -> Self {
        StemIndex {
            stems: OnceLock::new(),
            index: OnceLock::new(),
        }
    }

    /// The stems related to `stem` in `table`, whose items `relation` reads as (the lemma's
    /// part of speech, the related lemma, its part of speech).
    fn get<T>(
        &'static self,
        table: fn() -> &'static Table<T>,
        relation: Relation<T>,
        stem: &str,
    ) -> &'static [&'static str] {
        self.index(table, relation)
            .get(stem)
            .map_or(&[], Vec::as_slice)
    }

    /// The whole index (see [`StemIndex::get`]).
    fn index<T>(
        &'static self,
        table: fn() -> &'static Table<T>,
        relation: Relation<T>,
    ) -> &'static Table<&'static str> {
        self.index.get_or_init(|| {
            let table = table();
            let forms = form_table();
            let spellings = |lemma: &'static str, pos: Pos| {
                let irregular = forms.get(lemma).map_or(&[][..], Vec::as_slice);
                let irregular = irregular.iter().filter(move |&&(p, _)| p == pos);
                std::iter::once(lemma).chain(irregular.map(|&(_, form)| form))
            };
            let stems = self.stems.get_or_init(|| {
                let stemmer = Stemmer::create(Algorithm::English);
                let mut stems = FxHashMap::default();
                for (&lemma, related) in table {
                    for item in related {
                        let (pos, other, other_pos) = relation(item);
                        for word in spellings(lemma, pos).chain(spellings(other, other_pos)) {
                            stems
                                .entry(word)
                                .or_insert_with(|| stem_lemma(&stemmer, word).into_boxed_str());
                        }
                    }
                }
                stems
            });
            let mut index: Table<&'static str> = FxHashMap::default();
            for (&lemma, related) in table {
                for item in related {
                    let (pos, other, other_pos) = relation(item);
                    for word in spellings(lemma, pos) {
                        let from: &'static str = &stems[word];
                        let entry = index.entry(from).or_default();
                        for to in spellings(other, other_pos) {
                            let to: &'static str = &stems[to];
                            if to != from {
                                entry.push(to);
                            }
                        }
                    }
                }
            }
            index.retain(|_, related| !related.is_empty());
            sorted(index)
        })
    }
}

/// For the stem of any lemma or irregular form (as [`super::Analyzer`] stems words:
/// `buying` → `buy`, `bought` → `bought`), the stems of its synonyms and their irregular
/// forms in any part of speech (`purchas`). Sorted; empty when none.
pub(crate) fn stem_synonyms(stem: &str) -> &'static [&'static str] {
    SYNONYM_INDEX.get(synonym_table, |&(word, pos)| (pos, word, pos), stem)
}

static SYNONYM_INDEX: StemIndex = StemIndex::new();
static DERIVATION_INDEX: StemIndex = StemIndex::new();

/// The file [`related`] searches, as `cargo xtask generate` writes it from the lemma tables
/// (`wordnet/related-stems.txt`): a line a stem, sorted by its bytes, with the stems of its
/// synonyms, derivations, pertainyms and irregular forms (both ways), tab-separated. Building
/// it stems every lemma of the tables (some 500 M instructions): done once by the maintainers,
/// never by a check.
pub fn related_stems_table() -> String {
    use std::collections::{BTreeMap, BTreeSet};
    let synonyms = SYNONYM_INDEX.index(synonym_table, |&(word, pos)| (pos, word, pos));
    let derivations = DERIVATION_INDEX.index(derivation_table, |derived| {
        (derived.from, derived.word, derived.pos)
    });
    let mut related: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (&from, to) in synonyms.iter().chain(derivations) {
        for &to in to {
            if from != to && !from.contains('\t') && !to.contains('\t') {
                related.entry(from).or_default().insert(to);
                related.entry(to).or_default().insert(from);
            }
        }
    }
    let mut out = String::from(RELATED_HEADER);
    for (from, to) in related {
        out.push_str(from);
        for to in to {
            out.push('\t');
            out.push_str(to);
        }
        out.push('\n');
    }
    out
}

/// The header of `related-stems.txt`.
const RELATED_HEADER: &str = "\
# Related stems: a line a stem (as ragcite's words stage stems English), then the stems of its
# synonyms (first senses), derivations, pertainyms and irregular forms in synonyms.txt,
# derivations.txt and forms.txt, both ways; tab-separated, lines sorted by their bytes.
# Derived from Open English WordNet (CC BY 4.0; see synonyms.txt). Written by `cargo xtask
# generate`; do not edit.
";

/// Whether two stems are of related words (synonyms of first senses, derivations, pertainyms,
/// irregular forms): a binary search in `related-stems.txt`, read in place (nothing is built
/// or stemmed at run time).
pub(crate) fn related(a: &str, b: &str) -> bool {
    static TEXT: &str = include_str!("wordnet/related-stems.txt");
    let body = TEXT.get(RELATED_HEADER.len()..).unwrap_or("");
    let bytes = body.as_bytes();
    // The line starting at or before `at`.
    let line_at = |at: usize| {
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |k| k + 1);
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |k| start + k);
        (start, end)
    };
    let (mut lo, mut hi) = (0usize, bytes.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (start, end) = line_at(mid);
        let line = &body[start..end];
        let key = line.split('\t').next().unwrap_or("");
        match key.cmp(a) {
            std::cmp::Ordering::Equal => return line.split('\t').skip(1).any(|x| x == b),
            std::cmp::Ordering::Less => lo = end + 1,
            std::cmp::Ordering::Greater => hi = start,
        }
    }
    false
}

/// For the stem of any lemma or irregular form, the stems of its antonyms and their irregular
/// forms in any part of speech (`increas` → `decreas`, `rose` → `fell`). Sorted; empty when
/// none.
pub(crate) fn stem_antonyms(stem: &str) -> &'static [&'static str] {
    static INDEX: StemIndex = StemIndex::new();
    INDEX.get(antonym_table, |&(word, pos)| (pos, word, pos), stem)
}

/// For the stem of any lemma or irregular form, the stems of the words derived from it or it
/// from, and of its pertainyms, and of their irregular forms, when they differ from its own
/// (`financi` → `financ`; `construction` is `construct` already). Sorted; empty when none.
pub(crate) fn stem_derivations(stem: &str) -> &'static [&'static str] {
    DERIVATION_INDEX.get(
        derivation_table,
        |derived| (derived.from, derived.word, derived.pos),
        stem,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stem(word: &str) -> String {
        stem_lemma(&Stemmer::create(Algorithm::English), word)
    }

    #[test]
    fn phrasal_opposites_in_an_obscure_shared_sense_are_no_synonyms() {
        // WordNet puts both in "include or exclude by determining judicially", the only sense
        // of `rule in` but the second of `rule out`.
        assert!(!are_synonyms("rule out", "rule in"));
        assert!(!are_synonyms("rule in", "rule out"));
        assert!(!synonyms("rule out").iter().any(|&(w, _)| w == "rule in"));
        // Its first sense ("make impossible, especially beforehand") is kept.
        assert!(are_synonyms("rule out", "close out"));
    }

    #[test]
    fn synonyms_share_a_first_sense_in_one_part_of_speech() {
        assert!(are_synonyms("buy", "purchase"));
        assert!(are_synonyms("Purchase", "BUY"));
        assert!(synonyms("buy").contains(&("purchase", Pos::Verb)));
        assert!(!synonyms("buy").contains(&("purchase", Pos::Noun)));
        assert!(are_synonyms("car", "automobile"));
        assert!(are_synonyms("begin", "start"));
        // Second senses stay out: `kill` a bill ("defeat", "vote down"), `car` of a train
        // ("railcar"), `decline` an offer ("refuse").
        assert!(!are_synonyms("kill", "defeat"));
        assert!(!are_synonyms("car", "railcar"));
        assert!(!are_synonyms("decline", "refuse"));
        assert!(!are_synonyms("buy", "buy"));
        assert!(synonyms("no such lemma").is_empty());
    }

    #[test]
    fn antonyms_keep_their_part_of_speech() {
        assert_eq!(are_antonyms("increase", "decrease"), Some(Pos::Noun));
        assert!(antonyms("increase").contains(&("decrease", Pos::Verb)));
        assert_eq!(are_antonyms("buy", "sell"), Some(Pos::Verb));
        assert_eq!(are_antonyms("true", "false"), Some(Pos::Adjective));
        // `improvement` is the opposite of the noun `decline`, not of the verb.
        assert_eq!(are_antonyms("decline", "improvement"), Some(Pos::Noun));
        assert!(
            !antonyms("decline")
                .iter()
                .any(|&(w, pos)| w == "improvement" && pos == Pos::Verb)
        );
        assert_eq!(are_antonyms("increase", "purchase"), None);
    }

    #[test]
    fn derivations_cross_parts_of_speech_and_pertainyms_have_a_direction() {
        assert!(are_derived("construct", "construction"));
        assert!(are_derived("construction", "construct"));
        assert!(derivations("construct").contains(&Derived {
            word: "construction",
            pos: Pos::Noun,
            from: Pos::Verb,
            link: Link::Derivation,
        }));
        assert!(derivations("financial").contains(&Derived {
            word: "finance",
            pos: Pos::Noun,
            from: Pos::Adjective,
            link: Link::PertainsTo,
        }));
        assert!(derivations("finance").contains(&Derived {
            word: "financial",
            pos: Pos::Adjective,
            from: Pos::Noun,
            link: Link::PertainedBy,
        }));
        assert!(!are_derived("construct", "purchase"));
    }

    #[test]
    fn stem_lookups_match_inflected_and_irregular_forms() {
        let has = |list: &[&str], word: &str| list.contains(&stem(word).as_str());
        assert!(has(stem_synonyms(&stem("purchased")), "buys"));
        assert!(has(stem_synonyms(&stem("buying")), "purchasing"));
        // `bought` stems to itself; WordNet lists it as a form of `buy` v.
        assert_eq!(stem("bought"), "bought");
        assert_eq!(
            irregular_forms("buy", Pos::Verb).collect::<Vec<_>>(),
            ["bought"]
        );
        assert_eq!(irregular_forms("buy", Pos::Noun).count(), 0);
        assert!(has(stem_synonyms(&stem("bought")), "purchased"));
        assert!(has(stem_synonyms(&stem("purchased")), "bought"));
        assert!(has(stem_antonyms(&stem("increased")), "decreasing"));
        assert!(has(stem_antonyms(&stem("rose")), "fell"));
        assert!(has(stem_derivations(&stem("financial")), "finance"));
        // `construction` stems to `construct`: a stem is no derivation of itself.
        assert_eq!(stem("construction"), stem("constructed"));
        assert!(!has(stem_derivations(&stem("constructed")), "construction"));
        assert!(!has(stem_synonyms(&stem("rule out")), "rule in"));
        assert!(!has(stem_synonyms(&stem("kill")), "defeat"));
        assert!(stem_synonyms("nosuchstem").is_empty());
    }

    #[test]
    fn lists_are_sorted_and_tables_well_formed() {
        for text in [
            include_str!("wordnet/synonyms.txt"),
            include_str!("wordnet/antonyms.txt"),
            include_str!("wordnet/derivations.txt"),
        ] {
            let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
            assert!(
                lines.windows(2).all(|w| w[0] < w[1]),
                "sorted, no duplicate"
            );
            for line in lines {
                assert_eq!(line, line.to_lowercase(), "lower-case");
                assert!(!line.contains("  ") && !line.contains("\t\t"), "{line:?}");
            }
        }
        for lemma in ["buy", "increase", "construct", "good"] {
            assert!(synonyms(lemma).windows(2).all(|w| w[0] < w[1]));
            assert!(antonyms(lemma).windows(2).all(|w| w[0] < w[1]));
            assert!(derivations(lemma).windows(2).all(|w| w[0] < w[1]));
        }
    }

    /// The table searched at run time is the one the lemma tables make, and the search finds
    /// every line of it, the first and the last too, both ways, and nothing else.
    #[test]
    fn related_stems_are_searched_in_the_generated_table() {
        let made = related_stems_table();
        let committed = include_str!("wordnet/related-stems.txt");
        assert!(
            made == committed,
            "related-stems.txt is stale: run `cargo xtask generate`"
        );
        let lines: Vec<&str> = made.lines().filter(|l| !l.starts_with('#')).collect();
        assert!(lines.len() > 10_000);
        for line in [lines[0], lines[lines.len() / 2], lines[lines.len() - 1]] {
            let mut fields = line.split('\t');
            let key = fields.next().unwrap();
            for other in fields {
                assert!(
                    related(key, other) && related(other, key),
                    "{key} ~ {other}"
                );
            }
        }
        assert!(related("need", "requir") && related("bought", "buy") && related("won", "win"));
        assert!(!related("rule out", "rule in") && !related("need", "buy"));
        assert!(!related("", "") && !related("zzzz", "need"));
    }
}
