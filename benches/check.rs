//! Times `Checker::check` at the seed API's size limits (a 100,000-character answer and
//! 500,000 characters of chunks) and at 1/4 and 1/2 of them, on generated text that looks like
//! real prose: a 1,200-word vocabulary drawn with Zipf frequencies, numbers, and answer
//! sentences that copy most of a chunk sentence (some altered) and cite it.
//!
//! Run: `cargo bench --bench check`. Set `RAGCITE_BENCH_WRITE=DIR` to also write the full-size
//! inputs to DIR/answer.md and DIR/chunks.json, for timing the whole process
//! (`scripts/bench-check.sh`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use ragcite::{Checker, Options, input};

/// The seed API's limits, in characters.
const ANSWER_CHARS: usize = 100_000;
const CHUNK_CHARS: usize = 500_000;
const CHUNK_LEN: usize = 500;

/// A small deterministic generator (xorshift), so that every run times the same input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// An index in 0..n drawn with Zipf-like frequencies (1/rank).
    fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((n as f64).powf(u) as usize).saturating_sub(1).min(n - 1)
    }
}

const STEMS: &[&str] = &[
    "tower",
    "river",
    "city",
    "museum",
    "engineer",
    "company",
    "bridge",
    "station",
    "market",
    "council",
    "harbour",
    "railway",
    "cathedral",
    "university",
    "library",
    "garden",
    "palace",
    "festival",
    "treaty",
    "province",
    "empire",
    "kingdom",
    "republic",
    "parliament",
    "election",
    "mountain",
    "valley",
    "forest",
    "island",
    "coast",
    "desert",
    "glacier",
    "volcano",
    "lake",
    "population",
    "economy",
    "industry",
    "export",
    "import",
    "harvest",
    "factory",
    "mine",
    "theatre",
    "opera",
    "painting",
    "sculpture",
    "novel",
    "poem",
    "composer",
    "architect",
    "scientist",
    "physician",
    "general",
    "admiral",
    "bishop",
    "merchant",
    "farmer",
    "soldier",
    "build",
    "design",
    "complete",
    "open",
    "close",
    "found",
    "destroy",
    "restore",
    "visit",
    "measure",
    "record",
    "publish",
    "discover",
    "invent",
    "elect",
    "appoint",
    "govern",
    "trade",
    "ancient",
    "modern",
    "northern",
    "southern",
    "eastern",
    "western",
    "large",
    "small",
    "famous",
    "historic",
    "central",
    "coastal",
    "royal",
    "public",
    "private",
    "national",
    "regional",
];

const SUFFIXES: &[&str] = &["", "s", "ed", "ing", "al", "ly", "er", "ment", "ion", "ity"];

const FILLERS: &[&str] = &[
    "the", "of", "and", "in", "was", "by", "for", "its", "which", "with", "from", "to", "as", "at",
    "on", "is", "that", "it", "an", "a", "after", "during", "between",
];

fn vocabulary() -> Vec<String> {
    let mut words = Vec::new();
    for suffix in SUFFIXES {
        for stem in STEMS {
            words.push(format!("{stem}{suffix}"));
        }
    }
    // Rare names, as real text has many.
    for k in 0..300 {
        words.push(format!("Name{}", char::from(b'a' + (k % 26) as u8)).repeat(1 + k / 26));
    }
    words
}

fn sentence(rng: &mut Rng, vocabulary: &[String]) -> String {
    let length = 10 + rng.below(14);
    let mut words: Vec<String> = Vec::with_capacity(length);
    for _ in 0..length {
        let word = match rng.below(10) {
            0..=3 => FILLERS[rng.below(FILLERS.len())].to_string(),
            4 => format!("{}", 1800 + rng.below(225)),
            5 if rng.below(4) == 0 => format!("{}.{}", rng.below(100), rng.below(10)),
            _ => vocabulary[rng.zipf(vocabulary.len())].clone(),
        };
        words.push(word);
    }
    let mut text = words.join(" ");
    text[..1].make_ascii_uppercase();
    text
}

/// Chunks of about `CHUNK_LEN` characters up to `total`, as a JSON array; also their sentences.
fn make_chunks(rng: &mut Rng, vocabulary: &[String], total: usize) -> (String, Vec<Vec<String>>) {
    let mut chunks: Vec<Vec<String>> = Vec::new();
    let mut size = 0;
    while size < total {
        let mut sentences = Vec::new();
        let mut len = 0;
        while len < CHUNK_LEN {
            let s = sentence(rng, vocabulary);
            len += s.len() + 2;
            sentences.push(s);
        }
        size += len;
        chunks.push(sentences);
    }
    let items: Vec<serde_json::Value> = chunks
        .iter()
        .enumerate()
        .map(|(k, sentences)| {
            serde_json::json!({"id": format!("doc{}", k + 1), "text": sentences.join(". ") + "."})
        })
        .collect();
    (serde_json::Value::Array(items).to_string(), chunks)
}

/// An answer of about `total` characters whose sentences mostly copy a chunk sentence, drop or
/// change some words, and cite that chunk (sometimes the wrong one, sometimes none).
fn make_answer(
    rng: &mut Rng,
    vocabulary: &[String],
    chunks: &[Vec<String>],
    total: usize,
) -> String {
    let mut answer = String::with_capacity(total + 200);
    while answer.len() < total {
        let chunk = rng.below(chunks.len());
        let source = &chunks[chunk][rng.below(chunks[chunk].len())];
        let mut words: Vec<String> = source.split(' ').map(str::to_string).collect();
        for word in words.iter_mut() {
            if rng.below(6) == 0 {
                *word = vocabulary[rng.zipf(vocabulary.len())].clone();
            }
        }
        let cited = match rng.below(10) {
            0 => String::new(),
            1 => format!(" [{}]", 1 + rng.below(chunks.len())),
            2 => " [9999]".to_string(),
            _ => format!(" [doc{}]", chunk + 1),
        };
        answer.push_str(&words.join(" "));
        answer.push_str(&cited);
        answer.push_str(if rng.below(8) == 0 { ".\n\n" } else { ". " });
    }
    answer
}

fn time(f: impl Fn()) -> (Duration, Duration) {
    let mut times: Vec<Duration> = (0..15)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[0], times[times.len() / 2])
}

fn main() {
    let vocabulary = vocabulary();
    let checker = Checker::new(Options::default());
    println!(
        "check at fractions of the seed API's limits (100,000-char answer, 500,000 chars of chunks)"
    );
    println!(
        "{:>8} {:>12} {:>12} {:>10} {:>10} {:>11}",
        "size", "answer B", "chunks B", "sentences", "min ms", "median ms"
    );
    let mut medians = Vec::new();
    for (label, fraction) in [("1/4", 4), ("1/2", 2), ("1", 1)] {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        let (chunk_json, chunk_sentences) =
            make_chunks(&mut rng, &vocabulary, CHUNK_CHARS / fraction);
        let answer_text = make_answer(
            &mut rng,
            &vocabulary,
            &chunk_sentences,
            ANSWER_CHARS / fraction,
        );
        let (min, median) = time(|| {
            let answer = input::read_answer(answer_text.as_bytes(), None).expect("answer");
            let chunks = input::read_chunks(chunk_json.as_bytes(), true).expect("chunks");
            black_box(checker.check(&answer, &chunks));
        });
        let answer = input::read_answer(answer_text.as_bytes(), None).expect("answer");
        let chunks = input::read_chunks(chunk_json.as_bytes(), true).expect("chunks");
        let report = checker.check(&answer, &chunks);
        println!(
            "{label:>8} {:>12} {:>12} {:>10} {:>10.2} {:>11.2}",
            answer_text.len(),
            chunk_json.len(),
            report.result.counts.sentences,
            min.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3
        );
        medians.push(median);
        if fraction == 1
            && let Ok(dir) = std::env::var("RAGCITE_BENCH_WRITE")
        {
            let dir = std::path::Path::new(&dir);
            std::fs::create_dir_all(dir).expect("output directory");
            std::fs::write(dir.join("answer.md"), &answer_text).expect("answer.md");
            std::fs::write(dir.join("chunks.json"), &chunk_json).expect("chunks.json");
            println!("wrote {}/answer.md and chunks.json", dir.display());
        }
    }
    println!(
        "growth: 4x the input took {:.2}x the time (linear is 4x)",
        medians[2].as_secs_f64() / medians[0].as_secs_f64()
    );
}
