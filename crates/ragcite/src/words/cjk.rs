//! Chinese, Japanese and Korean text, which does not separate its words with spaces: runs of
//! Han characters, kana and Hangul cut into words a sentence and a chunk can share.
//!
//! A run of Han characters gives its overlapping pairs of characters (`富士山` → `富士`, `士山`):
//! most Chinese words, and the Han stems of Japanese words, are two characters, and a pair that
//! is not a word is as likely on both sides. A run of one Han character is a word of its own
//! (`山`, `高`). Katakana runs (loanwords and names, written as long compounds:
//! `パブリックマーケットセンター`) give their pairs too, so that `マーケット` is found in the
//! compound. Hiragana runs are Japanese particles and endings (`は`, `が`, `ています`): they are
//! not words. A Hangul run
//! (a Korean eojeol) loses its particle (`서울에서` → `서울`) and gives its pairs of syllables,
//! so that `설립했다` and `설립되었다` share `설립`. The choice was measured on OCNLI and JNLI
//! (see docs/evaluation.md).
//!
//! The cut is by script, whatever `--lang` says: Chinese in an English answer is cut the same.

/// The script of a character that is written without spaces between words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Script {
    Han,
    Hiragana,
    Katakana,
    Hangul,
}

/// The script of `c` if it is a Chinese, Japanese or Korean letter.
pub(crate) fn script(c: char) -> Option<Script> {
    match u32::from(c) {
        // The Japanese iteration mark `々` and the ideographic zero `〇` belong to Han words.
        0x3005 | 0x3007 | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => Some(Script::Han),
        0x20000..=0x2FA1F => Some(Script::Han),
        0x3041..=0x3096 | 0x309D..=0x309F => Some(Script::Hiragana),
        // `ー` (the prolonged sound mark) is written in katakana words; `・` separates them.
        0x30A1..=0x30FA | 0x30FC..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => {
            Some(Script::Katakana)
        }
        0x1100..=0x11FF | 0x3131..=0x318E | 0xAC00..=0xD7A3 => Some(Script::Hangul),
        _ => None,
    }
}

/// Whether `c` is a Chinese, Japanese or Korean letter.
pub(crate) fn is_cjk(c: char) -> bool {
    script(c).is_some()
}

/// Korean particles written onto the end of an eojeol, longest first within each start.
const PARTICLES: &[&str] = &[
    "에서는",
    "에게서",
    "으로는",
    "에서도",
    "에서",
    "에게",
    "한테",
    "으로",
    "까지",
    "부터",
    "보다",
    "처럼",
    "마다",
    "이나",
    "이랑",
    "과는",
    "와는",
    "에는",
    "에도",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "에",
    "의",
    "로",
    "와",
    "과",
    "도",
    "만",
    "랑",
    "나",
];

/// The overlapping pairs of characters of `run`, or the run itself when it is one character.
fn pairs<'t>(run: &'t str, f: &mut impl FnMut(&'t str)) {
    let mut ends = run.char_indices().map(|(k, _)| k).skip(1);
    let mut from = 0;
    let Some(mut middle) = ends.next() else {
        if !run.is_empty() {
            f(run);
        }
        return;
    };
    for end in ends.chain(std::iter::once(run.len())) {
        f(&run[from..end]);
        from = middle;
        middle = end;
    }
}

/// Chinese function characters (the particles `的`, `了`, `着`, the copula `是`, the
/// prepositions and conjunctions `在`, `和`, `与`, `被`, `把`, and `也`, `都`): in a Chinese
/// text a Han run is cut at them before it is paired, so that no pair straddles one (`塔是`,
/// `老的`) and what is shown missing is the words between them.
const CHINESE_FUNCTION: &[char] = &[
    '的', '了', '着', '是', '在', '和', '与', '被', '把', '也', '都',
];

/// Calls `f` with the words of `run`, a run of letters of one `script`; `chinese` when the
/// text is Chinese (`--lang zh`).
pub(super) fn words<'t>(run: &'t str, script: Script, chinese: bool, f: &mut impl FnMut(&'t str)) {
    match script {
        Script::Han if chinese => {
            for part in run.split(CHINESE_FUNCTION) {
                pairs(part, f);
            }
        }
        Script::Han | Script::Katakana => pairs(run, f),
        Script::Hiragana => {}
        Script::Hangul => {
            // The particle goes when two syllables are left (`국가`, a country, keeps its `가`).
            let stem = PARTICLES
                .iter()
                .find_map(|p| {
                    run.strip_suffix(p)
                        .filter(|stem| stem.chars().nth(1).is_some())
                })
                .unwrap_or(run);
            pairs(stem, f);
        }
    }
}

/// The end (in bytes) of the run of letters of `script` that starts at `from`.
pub(super) fn run_end(text: &str, from: usize, script_of_run: Script) -> usize {
    text[from..]
        .char_indices()
        .find(|&(_, c)| script(c) != Some(script_of_run))
        .map_or(text.len(), |(k, _)| from + k)
}

/// Stop words of Chinese and Japanese (as the pairs and single characters above cut them) and
/// Korean (particles stripped): pronouns, conjunctions, auxiliaries and the most frequent
/// function words, which say nothing a chunk must hold.
pub(super) const STOP_WORDS: &[&str] = &[
    // Chinese: single characters that stand alone as function words.
    "的", "了", "是", "在", "和", "与", "及", "或", "也", "都", "就", "而", "之", "其", "这", "那",
    "个", "我", "你", "他", "她", "它", "有", "着", "被", "把", "对", "从", "等", "为", "以", "于",
    "但", "并", "又", "很", "还", "吗", "呢", "吧", "啊", "所", "让", "给", "向", "中", "上", "下",
    "不", "没", "无", "将", "会", "要", "能", "可",
    // Chinese: two-character function words.
    "我们", "你们", "他们", "她们", "它们", "这个", "那个", "一个", "这些", "那些", "这样", "那样",
    "什么", "怎么", "因为", "所以", "但是", "而且", "如果", "虽然", "然而", "可以", "已经", "就是",
    "还是", "或者", "以及", "并且", "自己", "其中", "这里", "那里", "可能", "应该", "非常", "之一",
    "一些", "没有", "不是", "就是", "只是", "也是", "都是", "进行",
    // Dates and years are numbers (`2013年5月3日`): their marks are not words.
    "年", "月", "日", "号",
    // Japanese: single Han characters of grammar (`事`, `物` as nouns of form) and pronouns.
    "私", "彼", "事", "物", "方", "為", "様", "等", "達",
    // Korean: pronouns, demonstratives, auxiliaries (as pairs of syllables).
    "그", "이", "저", "것", "수", "등", "및", "또", "더", "안", "못", "그리", "리고", "그러",
    "러나", "하지", "지만", "있다", "있는", "없는", "했다", "한다", "하는", "하고", "합니", "니다",
    "습니", "입니", "이다", "되었", "었다", "에서", "으로", "우리", "저는", "그것",
];

/// The surfaces of `words` (content words in order of first appearance, each with its
/// position), the overlapping pairs of one run joined back into the stretch they cover
/// (`古老` and `老寺` → `古老寺`), so that what is shown reads as the text does.
pub(crate) fn joined_surfaces<'w>(words: impl Iterator<Item = &'w super::Word>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<u32> = None;
    for word in words {
        let mut chars = word.surface.chars();
        let pair = match (chars.next(), chars.next(), chars.next()) {
            (Some(a), Some(b), None) if is_cjk(a) && is_cjk(b) => Some((a, b)),
            _ => None,
        };
        let follows = last.is_some_and(|p| p + 1 == word.position);
        match (pair, out.last_mut()) {
            (Some((a, b)), Some(previous)) if follows && previous.ends_with(a) => previous.push(b),
            _ => out.push(word.surface.clone()),
        }
        last = pair.map(|_| word.position);
    }
    out
}
