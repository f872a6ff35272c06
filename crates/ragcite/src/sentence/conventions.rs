//! What a full stop does not end, language by language: each language's common abbreviations
//! (`bzw.`, `Mme.`, `Sra.`, `bijv.`), two-part abbreviations (`z. B.`, `d. h.`, `p. ex.`,
//! `p. ej.`), and ordinal numbers written with a full stop (`am 15. Februar`, `der 3. Oktober`,
//! `15. helmikuuta`) in the languages that write them so. English keeps its own list
//! (`ABBREVIATIONS` in sentence.rs) and none of these: its sentences split as before.

/// How a language's full stops are read, beside the English abbreviations every text keeps.
#[derive(Debug, Clone, Copy)]
pub struct Conventions {
    /// Abbreviations, lower-cased, without their final full stop.
    pub abbreviations: &'static [&'static str],
    /// Two-part abbreviations of single letters (`z. B.`, `p. ex.`) are no sentence ends.
    pub two_part: bool,
    /// The language writes ordinal numbers with a full stop (`15.` = 15th).
    pub ordinal_dots: bool,
    /// Capitalised words an ordinal stands before (German months): `am 15. Februar`.
    pub after_ordinal: &'static [&'static str],
    /// Words an ordinal stands after, lower-cased (articles, prepositions): `im 19. Jahrhundert`.
    pub before_ordinal: &'static [&'static str],
}

impl Conventions {
    /// English: nothing beside the English list.
    pub const ENGLISH: Conventions = Conventions {
        abbreviations: &[],
        two_part: false,
        ordinal_dots: false,
        after_ordinal: &[],
        before_ordinal: &[],
    };

    /// The conventions of the language of ISO 639-1 `code` (English's for a code without any).
    pub fn for_code(code: &str) -> Conventions {
        let plain = |abbreviations| Conventions {
            abbreviations,
            two_part: true,
            ..Conventions::ENGLISH
        };
        let ordinal = |abbreviations, before_ordinal| Conventions {
            abbreviations,
            two_part: true,
            ordinal_dots: true,
            after_ordinal: &[],
            before_ordinal,
        };
        match code {
            "de" => Conventions {
                after_ordinal: GERMAN_MONTHS,
                ..ordinal(GERMAN, GERMAN_BEFORE_ORDINAL)
            },
            "da" | "no" => ordinal(DANISH_NORWEGIAN, DANISH_NORWEGIAN_BEFORE_ORDINAL),
            "fi" => ordinal(FINNISH, &[]),
            "hu" => ordinal(&["pl", "stb", "kb", "ill", "ún", "sz", "dr"], &["a", "az"]),
            "tr" => ordinal(&["vb", "vs", "dr", "doç", "yy", "sf"], &[]),
            "fr" => plain(FRENCH),
            "es" => plain(SPANISH),
            "it" => plain(ITALIAN),
            "pt" => plain(PORTUGUESE),
            "nl" => plain(DUTCH),
            "sv" => plain(SWEDISH),
            "ru" => plain(RUSSIAN),
            "ro" => plain(&["dl", "dna", "nr", "str", "etc", "ş.a", "pag", "prof", "dr"]),
            "el" => plain(&["κ.λπ", "π.χ", "δηλ", "σελ", "αρ", "κ.ά"]),
            _ => Conventions::ENGLISH,
        }
    }
}

impl Conventions {
    /// Whether the full stop after `token` (lower-cased; `written` as written, `before` the
    /// line's text before it, `after` the text after the full stop) is no sentence end in this language: an
    /// abbreviation of the language, a part of a two-part one (`z. B.`, `d. h.`), or an
    /// ordinal (`am 15. Februar`, `der 3. und 4. Platz`, `im 19. Jahrhundert`).
    pub(super) fn ends_no_sentence(
        &self,
        before: &str,
        written: &str,
        token: &str,
        after: &str,
    ) -> bool {
        // An acronym in capitals (`der FR.`, `die NR.`) is a name, which may end a sentence.
        let acronym = written.chars().nth(1).is_some() && !written.chars().any(char::is_lowercase);
        if !acronym && self.abbreviations.contains(&token) {
            return true;
        }
        let next: String = after
            .trim_start_matches([' ', '\u{a0}'])
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '.')
            .take(8)
            .collect();
        let short_letters = |word: &str| {
            (1..=3).contains(&word.chars().count()) && word.chars().all(char::is_alphabetic)
        };
        if self.two_part && short_letters(token) {
            // `z. B.`, `p. ex.`: one lower-case letter, then letters and a full stop.
            let one_letter = token.chars().count() == 1;
            if one_letter
                && next
                    .split_once('.')
                    .is_some_and(|(second, _)| short_letters(second))
            {
                return true;
            }
            // The second part: `h` of `d. h.`, after a single letter and its full stop.
            let mut back = before.trim_end_matches([' ', '\u{a0}']).chars().rev();
            if back.next() == Some('.')
                && back.next().is_some_and(char::is_alphabetic)
                && back.next().is_none_or(|c| !c.is_alphanumeric())
            {
                return true;
            }
        }
        if self.ordinal_dots
            && (1..=3).contains(&token.len())
            && token.bytes().all(|b| b.is_ascii_digit())
        {
            let first = next.chars().next();
            // `15. helmikuuta`, `3. und 4.`: a lower-case word goes on with the sentence.
            if first.is_some_and(char::is_lowercase) {
                return true;
            }
            let word = next.trim_end_matches('.').to_lowercase();
            if first.is_some_and(char::is_uppercase) && self.after_ordinal.contains(&word.as_str())
            {
                return true;
            }
            let previous = before
                .trim_end()
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("")
                .to_lowercase();
            if first.is_some_and(char::is_alphanumeric)
                && self.before_ordinal.contains(&previous.as_str())
            {
                return true;
            }
        }
        false
    }
}

const GERMAN: &[&str] = &[
    "bzw", "usw", "ca", "nr", "dr", "evtl", "ggf", "vgl", "bspw", "inkl", "exkl", "zzgl", "abs",
    "mio", "mrd", "tsd", "str", "hr", "fr", "frl", "jh", "jhd", "jhdt", "bzgl", "sog", "ugs",
    "insb", "gegr", "geb", "gest", "verh", "urspr", "allg", "zz", "zzt", "etc", "dt", "engl",
    "franz", "lat", "st", "tel", "pkt", "kap", "bd", "aufl", "hrsg", "ff", "ehem", "svw", "eigtl",
    "kath", "okt", "sept", "dez", "jan", "feb", "apr", "aug", "nov",
];

const GERMAN_MONTHS: &[&str] = &[
    "januar",
    "jänner",
    "februar",
    "märz",
    "april",
    "mai",
    "juni",
    "juli",
    "august",
    "september",
    "oktober",
    "november",
    "dezember",
    "jan",
    "feb",
    "mär",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "okt",
    "nov",
    "dez",
];

const GERMAN_BEFORE_ORDINAL: &[&str] = &[
    "am", "im", "vom", "zum", "zur", "beim", "der", "die", "das", "den", "dem", "des", "ein",
    "eine", "einer", "einem", "einen", "eines", "bis", "ab", "seit", "vor", "nach", "zum", "ihr",
    "ihre", "ihrem", "ihren", "sein", "seine", "seinem", "seinen", "jeden", "jeder", "jedem",
    "für", "fürs", "ins", "ans", "aufs", "und", "oder", "bzw", "sowie", "dieser", "diesem",
    "dieses", "diesen",
];

const DANISH_NORWEGIAN: &[&str] = &[
    "bl.a", "f.eks", "fx", "osv", "ca", "nr", "dvs", "mht", "pga", "evt", "jf", "mv", "kl", "hhv",
    "iht", "inkl", "ekskl", "mio", "mia", "mrd", "tlf", "adr", "st", "ang", "vedr",
];

const DANISH_NORWEGIAN_BEFORE_ORDINAL: &[&str] = &[
    "den", "det", "de", "på", "i", "til", "fra", "siden", "innen", "inden", "efter", "etter",
    "før", "og", "eller",
];

const FINNISH: &[&str] = &[
    "esim", "ns", "mm", "jne", "yms", "ym", "ks", "vrt", "ts", "noin", "klo", "kpl", "milj", "mrd",
    "tms", "vs", "huom", "os", "puh",
];

const FRENCH: &[&str] = &[
    "mm", "mme", "mmes", "mlle", "mlles", "dr", "pr", "me", "st", "ste", "etc", "cf", "env", "av",
    "apr", "ex", "éd", "vol", "chap", "pp", "ibid", "op", "cit", "art", "al", "bd", "fig", "tél",
    "hab", "janv", "févr", "avr", "juil", "sept", "oct", "nov", "déc", "mds", "md", "mio", "n°",
    "nos", "vs",
];

const SPANISH: &[&str] = &[
    "sr", "sra", "sres", "srta", "dr", "dra", "ud", "uds", "vd", "vds", "dña", "etc", "pág",
    "págs", "núm", "aprox", "ej", "p.ej", "art", "av", "avda", "cap", "cía", "admón", "depto",
    "dpto", "ed", "gral", "lic", "ing", "prof", "pto", "tel", "vol", "fig", "máx", "mín", "ca",
    "ene", "feb", "abr", "jun", "jul", "ago", "sept", "oct", "nov", "dic", "a.c", "d.c", "n.º",
    "nº", "ee.uu",
];

const ITALIAN: &[&str] = &[
    "sig", "sigg", "sig.ra", "sig.na", "dott", "dott.ssa", "prof", "prof.ssa", "ing", "avv",
    "arch", "geom", "rag", "ecc", "pag", "pagg", "cap", "art", "vol", "fig", "es", "cfr", "ca",
    "nr", "tel", "sec", "a.c", "d.c", "gen", "feb", "apr", "giu", "lug", "ago", "sett", "ott",
    "nov", "dic", "s.p.a", "spa", "srl",
];

const PORTUGUESE: &[&str] = &[
    "sr", "sra", "srs", "sras", "srta", "dr", "dra", "drs", "prof", "profa", "eng", "av", "pág",
    "págs", "núm", "nº", "n.º", "ex", "etc", "cap", "art", "vol", "fig", "aprox", "máx", "mín",
    "tel", "cia", "ltda", "a.c", "d.c", "jan", "fev", "abr", "mai", "jun", "jul", "ago", "set",
    "out", "nov", "dez", "séc", "v.exa", "ed",
];

const DUTCH: &[&str] = &[
    "bijv", "bv", "b.v", "dhr", "mevr", "mw", "blz", "enz", "evt", "nr", "ca", "mr", "dr", "ir",
    "ing", "drs", "prof", "jl", "vlg", "zgn", "resp", "incl", "excl", "afb", "hfst", "tel", "o.a",
    "m.b.t", "d.w.z", "i.p.v", "t.o.v", "z.g.a", "mln", "mld", "jan", "feb", "mrt", "apr", "jun",
    "jul", "aug", "sep", "okt", "nov", "dec", "st", "vs", "etc",
];

const SWEDISH: &[&str] = &[
    "bl.a", "t.ex", "osv", "ca", "nr", "dvs", "m.m", "mfl", "m.fl", "s.k", "sk", "resp", "inkl",
    "exkl", "kl", "tel", "mkr", "mdkr", "milj", "mdr", "st", "jfr", "fr.o.m", "t.o.m", "f.d",
    "p.g.a", "kap",
];

const RUSSIAN: &[&str] = &[
    "гг",
    "т.е",
    "т.д",
    "т.п",
    "т.к",
    "др",
    "см",
    "стр",
    "руб",
    "млн",
    "млрд",
    "тыс",
    "ул",
    "им",
    "проф",
    "акад",
    "вв",
    "н.э",
    "до н.э",
    "ок",
    "прим",
    "рис",
    "чел",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_lower_case_without_final_full_stops() {
        for code in [
            "de", "da", "no", "fi", "hu", "tr", "fr", "es", "it", "pt", "nl", "sv", "ru", "ro",
            "el",
        ] {
            let c = Conventions::for_code(code);
            for word in c
                .abbreviations
                .iter()
                .chain(c.before_ordinal)
                .chain(c.after_ordinal)
            {
                assert_eq!(*word, word.to_lowercase(), "{code}: {word}");
                assert!(!word.ends_with('.'), "{code}: {word}");
            }
        }
    }
}
