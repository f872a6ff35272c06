//! The benchmark suite (divan): `check` at 1/4, 1/2 and all of the benchmark's full size (a
//! 100,000-character answer and 500,000 characters of chunks, larger than RAG answers get), the
//! chunks read into words alone, quote search in a 5 MB document, and `batch` throughput, all on generated text that looks like real prose.
//!
//! Run: `cargo bench --bench ragcite`. With `RAGCITE_BENCH_WRITE=DIR` it writes the inputs to
//! DIR instead (answer-N.md and chunks-N.json for N = 4, 2, 1, document.txt with quote-found.txt
//! and quote-missing.txt, batch.jsonl) and runs nothing, for `scripts/bench/bench-process.sh`, which
//! times whole processes on them.
//!
//! What "looks like real prose" means here: word frequencies follow Zipf's law over a
//! vocabulary of 30,000 words whose most frequent hundred are English stop words (about 45% of
//! the tokens, as in English), 3% of the tokens are numbers, and answer sentences copy a chunk
//! sentence with a sixth of the words changed. On this text an answer sentence shares a
//! content word with about a fifth of the chunks, as on real retrieved web text (the 500 kB
//! samples of WiCE and AttributionBench pages: 18% and 20%).

// A program: it says where it wrote the inputs.
#![allow(clippy::print_stdout)]

use std::hint::black_box;
use std::io::Cursor;
use std::sync::Arc;

use divan::Bencher;
use divan::counter::BytesCount;
use ragcite::batch::{self, Aggregate, Fields, scan::RecordScanner, traces::Records};
use ragcite::gate::Limits;
use ragcite::quote::QuoteSearch;
use ragcite::{Checker, Options, input};

/// The benchmark's full size, in characters.
const ANSWER_CHARS: usize = 100_000;
const CHUNK_CHARS: usize = 500_000;
/// Characters per chunk, as retrievers cut them.
const CHUNK_LEN: usize = 500;
/// Size of the document quotes are searched in.
const DOCUMENT_CHARS: usize = 5_000_000;
/// Records in the generated batch file (each a 600-character answer and five chunks).
const BATCH_RECORDS: usize = 2_000;
/// Words in the vocabulary, stop words included.
const VOCABULARY: usize = 30_000;

/// The allocator the `ragcite` binary uses, so that the figures are the command's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    if let Ok(dir) = std::env::var("RAGCITE_BENCH_WRITE") {
        write_inputs(std::path::Path::new(&dir));
        return;
    }
    divan::main();
}

/// `Checker::check` at 1/`fraction` of the limits, reading both inputs included. Each run is
/// on a new thread, so that it starts, like a `ragcite check` process, with no word stemmed
/// yet (each thread keeps the stems it has seen).
#[divan::bench(args = [4, 2, 1], sample_count = 30)]
fn check(bencher: Bencher, fraction: usize) {
    let inputs = CheckInputs::new(fraction);
    let checker = Checker::new(Options::default());
    bencher
        .counter(BytesCount::new(inputs.answer.len() + inputs.chunks.len()))
        .bench(|| {
            std::thread::scope(|scope| {
                scope
                    .spawn(|| {
                        let answer =
                            input::read_answer(inputs.answer.as_bytes(), None).expect("answer");
                        let chunks =
                            input::read_chunks(inputs.chunks.as_bytes(), true).expect("chunks");
                        black_box(checker.check(&answer, &chunks))
                    })
                    .join()
                    .expect("check")
            })
        });
}

/// Reading the chunks into words alone, at the full size: `tokens` cuts every chunk into
/// tokens (the tokeniser's ASCII fast path), `chunk_texts` is the chunk pass of a long
/// answer (`ChunkTexts::read`: numbers, tokens, each distinct word form's notes once).
#[divan::bench(args = ["tokens", "chunk_texts"], sample_count = 20)]
fn read_words(bencher: Bencher, pass: &str) {
    let inputs = CheckInputs::new(1);
    let chunks = input::read_chunks(inputs.chunks.as_bytes(), true).expect("chunks");
    let analyzer = ragcite::words::Analyzer::new(ragcite::Language::English);
    let bytes: usize = chunks.chunks.iter().map(|c| c.text.len()).sum();
    bencher
        .counter(BytesCount::new(bytes))
        .bench(|| match pass {
            "tokens" => {
                let mut count = 0usize;
                for chunk in &chunks.chunks {
                    analyzer.for_each_token(&chunk.text, &[], |_| count += 1);
                }
                black_box(count);
            }
            _ => {
                black_box(ragcite::support::ChunkTexts::read(
                    &chunks.chunks,
                    &analyzer,
                ));
            }
        });
}

/// `check` at the full size with each support model: what the fitted model costs over the
/// hand-weighted formula (the features and trees of the cited chunks, and of the chunks the
/// bound cannot rule out for the chunk statuses).
#[divan::bench(args = ["shipped", "formula"], sample_count = 30)]
fn check_model(bencher: Bencher, model: &str) {
    let inputs = CheckInputs::new(1);
    let model = match model {
        "formula" => ragcite::Model::formula(),
        _ => ragcite::Model::shipped(),
    };
    let checker = Checker::new(Options {
        model,
        ..Options::default()
    });
    let answer = input::read_answer(inputs.answer.as_bytes(), None).expect("answer");
    let chunks = input::read_chunks(inputs.chunks.as_bytes(), true).expect("chunks");
    bencher
        .counter(BytesCount::new(inputs.answer.len() + inputs.chunks.len()))
        .bench(|| {
            std::thread::scope(|scope| {
                scope
                    .spawn(|| black_box(checker.check(&answer, &chunks)))
                    .join()
                    .expect("check")
            })
        });
}

/// Answers built to be slow: each at two sizes eight times apart, so that the growth can be
/// read off the times (it should be about 8x; quadratic work would show as 64x). They once
/// were quadratic: a word of megabytes without white space, a line of thousands of `[1]`
/// markers (each looked back for the start of its line), a paragraph of cited sentences on one
/// line, a long dotted token (`ab.ab.ab.`, each full stop walking back over it), a line of
/// `^1` (each number looked back to the text's start for a source named in words, and to its
/// line's start for a list enumerator), a line of `[1]:` (each looked back to its line's start
/// for a link definition) and a line of the user's own markers (`--marker`: after each, the
/// next built-in one was looked for up to the text's end).
#[divan::bench(
    args = [
        "no-space/1", "no-space/8", "markers/1", "markers/8", "one-line/1", "one-line/8",
        "dotted/1", "dotted/8", "carets/1", "carets/8", "colons/1", "colons/8",
        "custom/1", "custom/8",
    ],
    sample_count = 5
)]
fn adversarial(bencher: Bencher, case: &str) {
    let (pattern, scale) = case.split_once('/').expect("pattern/scale");
    let scale: usize = scale.parse().expect("a scale");
    let answer = match pattern {
        "no-space" => "a".repeat(500_000 * scale),
        "markers" => format!("The tower is tall {}\n", "[1]".repeat(25_000 * scale)),
        "one-line" => format!(
            "{}\n",
            format!("The tower is tall.{}[1] ", " ".repeat(60)).repeat(4_000 * scale)
        ),
        "dotted" => format!("The version is {}\n", "ab.".repeat(1_000 * scale)),
        "carets" => format!("The tower is tall {}\n", "^1".repeat(12_500 * scale)),
        "custom" => format!("The tower is tall {}\n", "{{cite:1}}".repeat(2_500 * scale)),
        _ => format!("The tower is tall {}\n", "[1]:".repeat(6_250 * scale)),
    };
    let chunks = input::read_chunks(br#"[{"id": "1", "text": "The tower is tall."}]"#, true)
        .expect("chunks");
    let marker = (pattern == "custom").then(|| {
        std::sync::Arc::new(
            ragcite::marker::MarkerPattern::new(r"\{\{cite:(\w+)\}\}").expect("a pattern"),
        )
    });
    let checker = Checker::new(Options {
        marker,
        ..Options::default()
    });
    bencher.counter(BytesCount::new(answer.len())).bench(|| {
        let answer = input::read_answer(answer.as_bytes(), None).expect("answer");
        black_box(checker.check(&answer, &chunks))
    });
}

/// The `check` table of an answer whose cited sentence holds one long unbreakable number
/// (listed as missing) and word, at two sizes eight times apart: the table cuts every cell
/// before layout, so its cost should hardly grow (laying out the whole word once took 10 s
/// for 100,000 characters). The check itself is done once, outside the timing.
#[divan::bench(args = [100_000, 800_000], sample_count = 5)]
fn table_long_word(bencher: Bencher, chars: usize) {
    use ragcite::emit::table::TableEmitter;
    use ragcite::emit::{AnswerInput, Emitter, InputFile, Inputs, Run};
    let answer = format!(
        "The tower is {} tall and {} metres high [1].\n",
        "x".repeat(chars),
        "9".repeat(chars)
    );
    let answer = input::read_answer(answer.as_bytes(), None).expect("answer");
    let chunks = input::read_chunks(
        br#"[{"id": "1", "text": "The tower is 330 metres high."}]"#,
        true,
    )
    .expect("chunks");
    let report = Checker::new(Options::default()).check(&answer, &chunks);
    let limits = Limits::default();
    let gate = limits.evaluate(&report.result.counts);
    let inputs = Inputs {
        answer: AnswerInput {
            path: "answer.md".to_string(),
            format: "text".to_string(),
            streamed: false,
            tokens: None,
        },
        chunks: InputFile {
            path: "chunks.json".to_string(),
            format: "json".to_string(),
        },
        threshold: ragcite::DEFAULT_THRESHOLD,
        model: "shipped".to_string(),
        lang: "en".to_string(),
        lang_detected: false,
        limits,
        config: ragcite::emit::ConfigUsed::isolated(),
    };
    let emitter = TableEmitter {
        color: false,
        width: 100,
    };
    let run = Run {
        report: &report,
        gate: &gate,
        inputs: &inputs,
    };
    bencher.bench(|| {
        let mut out = Vec::new();
        emitter.emit(&run, &mut out).expect("table");
        black_box(out)
    });
}

/// Chunks that resemble each other: every chunk shares two words with every sentence (1,400
/// sentences of eight content words against 2,000 chunks of 36, and a quarter of each), so
/// that a search visiting every sentence-chunk pair that shares a word grows with their
/// product (16x for 4x the input) while a linear one grows 4x. `repeated` is the service's
/// size-limit test: 15 words, every sentence a rewording of 15 others, every chunk holding
/// all of them, so that each sentence is supported by every chunk.
#[divan::bench(args = ["all-match/1", "all-match/4", "repeated"], sample_count = 10)]
fn resembling(bencher: Bencher, case: &str) {
    let (answer, chunks) = match case.split_once('/') {
        Some((_, scale)) => all_match(scale.parse().expect("a scale")),
        None => repeated_claims(),
    };
    let checker = Checker::new(Options::default());
    bencher
        .counter(BytesCount::new(answer.len() + chunks.len()))
        .bench(|| {
            let answer = input::read_answer(answer.as_bytes(), None).expect("answer");
            let chunks = input::read_chunks(chunks.as_bytes(), true).expect("chunks");
            black_box(checker.check(&answer, &chunks))
        });
}

/// `350 × scale` sentences and `500 × scale` chunks, each chunk holding six common words and
/// thirty of 3,000 others, each sentence two of the common words and six of the others.
fn all_match(scale: usize) -> (String, String) {
    let mut rng = Rng::new();
    let common = ["tower", "river", "museum", "bridge", "garden", "station"];
    let words: Vec<String> = (0..3000).map(|k| format!("w{k:04}")).collect();
    let (sentences, chunks) = (350 * scale, 500 * scale);
    let mut own = |n: usize| {
        (0..n)
            .map(|_| words[rng.below(words.len())].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let answer: Vec<String> = (0..sentences)
        .map(|k| {
            format!(
                "The {} and the {} near {} [{}].",
                common[k % 6],
                common[(k + 1) % 6],
                own(6),
                k % chunks + 1
            )
        })
        .collect();
    let chunks: Vec<serde_json::Value> = (0..chunks)
        .map(|k| serde_json::json!({"id": (k + 1).to_string(), "text": format!("{} {}.", common.join(" "), own(30))}))
        .collect();
    (
        answer.join(" "),
        serde_json::Value::Array(chunks).to_string(),
    )
}

/// The service's size-limit input: a 100,000-character answer and 200 chunks of 2,400
/// characters, all made of the same 15 words.
fn repeated_claims() -> (String, String) {
    let words = [
        "tower", "river", "bridge", "station", "market", "built", "city", "north", "museum",
        "garden", "railway", "harbour", "1889", "330", "metres",
    ];
    let sentence = |k: usize| {
        let picked: Vec<&str> = (0..12)
            .map(|j| words[(k * 7 + j * 3) % words.len()])
            .collect();
        format!("The {} [{}]. ", picked.join(" "), k % 200 + 1)
    };
    let mut answer = String::new();
    for k in 0.. {
        if answer.len() + 120 >= ANSWER_CHARS {
            break;
        }
        answer.push_str(&sentence(k));
    }
    let chunks: Vec<serde_json::Value> = (0..200)
        .map(|c| {
            let mut text = String::new();
            let mut j = c;
            while text.len() < 2_400 {
                text.push_str(&sentence(j));
                j += 13;
            }
            serde_json::json!({"id": (c + 1).to_string(), "text": text})
        })
        .collect();
    (answer, serde_json::Value::Array(chunks).to_string())
}

/// Preparing a 5 MB document for quote search (normalising it once).
#[divan::bench(sample_count = 10)]
fn quote_prepare(bencher: Bencher) {
    let quotes = QuoteInputs::new();
    bencher
        .counter(BytesCount::new(quotes.document.len()))
        .bench(|| QuoteSearch::new(black_box(&quotes.document)));
}

/// Finding a 40-word quote in a prepared 5 MB document: present near its end, or present with
/// one word changed (the search then looks for the closest passage).
#[divan::bench(args = ["found", "missing"], sample_count = 10)]
fn quote_find(bencher: Bencher, which: &str) {
    let quotes = QuoteInputs::new();
    let search = QuoteSearch::new(&quotes.document);
    let quote = if which == "found" {
        &quotes.found
    } else {
        &quotes.missing
    };
    bencher.bench(|| black_box(search.find(black_box(quote))));
}

/// `batch` on a JSON Lines transcript in memory, as the command runs it (parallel windows).
#[divan::bench(sample_count = 10)]
fn batch_throughput(bencher: Bencher) {
    let file = batch_file();
    let checker = Checker::new(Options::default());
    let fields = Fields::default();
    let limits = Limits::default();
    let name: Arc<str> = Arc::from("batch.jsonl");
    bencher.counter(BytesCount::new(file.len())).bench(|| {
        let scanner = RecordScanner::new(Cursor::new(file.as_bytes()), true);
        let (mut index, mut partial) = (0, Aggregate::default());
        let mut records = 0;
        batch::run(
            Records::new(scanner),
            &name,
            &fields,
            &checker,
            &limits,
            &mut index,
            &mut partial,
            &mut batch::identity::Identities::default(),
            |_| {
                records += 1;
                Ok(())
            },
        )
        .expect("batch");
        assert_eq!(records, BATCH_RECORDS);
    });
}

fn write_inputs(dir: &std::path::Path) {
    std::fs::create_dir_all(dir).expect("output directory");
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
    };
    for fraction in [4, 2, 1] {
        let inputs = CheckInputs::new(fraction);
        write(&format!("answer-{fraction}.md"), &inputs.answer);
        write(&format!("chunks-{fraction}.json"), &inputs.chunks);
    }
    let quotes = QuoteInputs::new();
    write("document.txt", &quotes.document);
    write("quote-found.txt", &quotes.found);
    write("quote-missing.txt", &quotes.missing);
    write("batch.jsonl", &batch_file());
    println!("wrote the benchmark inputs to {}", dir.display());
}

/// A small deterministic generator (xorshift), so that every run times the same input.
struct Rng(u64);

impl Rng {
    fn new() -> Self {
        Rng(0x5eed_1234_abcd_0001)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A rank in 0..n drawn with Zipf frequencies (probability about 1/rank).
    fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((n as f64).powf(u) as usize).saturating_sub(1).min(n - 1)
    }
}

/// The hundred most frequent English words, all of them stop words.
const STOP: &str = "the of and to a in is that for it as was with be by on not he this are or \
his from at which but have an they you were her she there been one all we their has would when \
if so no will more can its who than other into some them these then two only could may about \
our any my first also after over new most where up out such what even through those me made \
before many because must between both each under while should being same us during very";

/// Readable content words for the most frequent ranks; rarer ranks are made of syllables.
const TOPIC: &str = "tower river city museum engineer company bridge station market council \
harbour railway cathedral university library garden palace festival treaty province empire \
kingdom republic parliament election mountain valley forest island coast desert glacier \
volcano lake population economy industry export import harvest factory mine theatre opera \
painting sculpture novel poem composer architect scientist physician general admiral bishop \
merchant farmer soldier build design complete open close found destroy restore visit measure \
record publish discover invent elect appoint govern trade ancient modern northern southern \
eastern western large small famous historic central coastal royal public private national \
regional year time people world state government system water history part number group";

const ONSETS: &[&str] = &[
    "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "br", "cr",
    "st", "tr", "pl", "gr", "sh", "ch",
];
const VOWELS: &[&str] = &["a", "e", "i", "o", "u", "ai", "ea", "ou"];
const CODAS: &[&str] = &["", "", "n", "r", "l", "s", "t", "nd", "st", "m"];
const SUFFIXES: &[&str] = &[
    "", "", "", "s", "ed", "ing", "al", "ly", "er", "ment", "ion",
];

/// `VOCABULARY` words by rank: stop words first, then topic words, then made-up words (with
/// English suffixes, a seventh of them capitalised as names).
fn vocabulary() -> Vec<String> {
    let mut words: Vec<String> = STOP.split_whitespace().map(str::to_string).collect();
    words.extend(TOPIC.split_whitespace().map(str::to_string));
    let mut rng = Rng(0x0cab_0ab1_e5ee_d5ed);
    let mut seen: std::collections::HashSet<String> = words.iter().cloned().collect();
    while words.len() < VOCABULARY {
        let syllables = 1 + rng.below(3);
        let mut word = String::new();
        for _ in 0..syllables {
            word.push_str(ONSETS[rng.below(ONSETS.len())]);
            word.push_str(VOWELS[rng.below(VOWELS.len())]);
            word.push_str(CODAS[rng.below(CODAS.len())]);
        }
        word.push_str(SUFFIXES[rng.below(SUFFIXES.len())]);
        if rng.below(7) == 0 {
            word[..1].make_ascii_uppercase();
        }
        if seen.insert(word.clone()) {
            words.push(word);
        }
    }
    words
}

fn sentence(rng: &mut Rng, vocabulary: &[String]) -> String {
    let length = 12 + rng.below(16);
    let mut words: Vec<String> = Vec::with_capacity(length);
    for _ in 0..length {
        let word = match rng.below(100) {
            0 | 1 => format!("{}", 1800 + rng.below(225)),
            2 => format!("{}.{}", rng.below(100), rng.below(10)),
            _ => vocabulary[rng.zipf(vocabulary.len())].clone(),
        };
        words.push(word);
    }
    let mut text = words.join(" ");
    text[..1].make_ascii_uppercase();
    text
}

/// Sentences grouped into chunks of about `CHUNK_LEN` characters, up to `total` characters.
fn chunk_sentences(rng: &mut Rng, vocabulary: &[String], total: usize) -> Vec<Vec<String>> {
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
    chunks
}

/// An answer sentence: a chunk sentence with a sixth of its words changed.
fn altered(rng: &mut Rng, vocabulary: &[String], source: &str) -> String {
    let mut words: Vec<String> = source.split(' ').map(str::to_string).collect();
    for word in words.iter_mut() {
        if rng.below(6) == 0 {
            *word = vocabulary[rng.zipf(vocabulary.len())].clone();
        }
    }
    words.join(" ")
}

struct CheckInputs {
    answer: String,
    chunks: String,
}

impl CheckInputs {
    /// Inputs of 1/`fraction` of the limits: chunks as a JSON array, and an answer whose
    /// sentences mostly copy a chunk sentence and cite it (sometimes the wrong chunk, an id
    /// that does not exist, or nothing).
    fn new(fraction: usize) -> Self {
        let vocabulary = vocabulary();
        let mut rng = Rng::new();
        let chunks = chunk_sentences(&mut rng, &vocabulary, CHUNK_CHARS / fraction);
        let items: Vec<serde_json::Value> = chunks
            .iter()
            .enumerate()
            .map(|(k, sentences)| {
                serde_json::json!({"id": format!("doc{}", k + 1), "text": sentences.join(". ") + "."})
            })
            .collect();
        let total = ANSWER_CHARS / fraction;
        let mut answer = String::with_capacity(total + 200);
        while answer.len() < total {
            let chunk = rng.below(chunks.len());
            let source = &chunks[chunk][rng.below(chunks[chunk].len())];
            answer.push_str(&altered(&mut rng, &vocabulary, source));
            answer.push_str(&match rng.below(10) {
                0 => String::new(),
                1 => format!(" [{}]", 1 + rng.below(chunks.len())),
                2 => " [9999]".to_string(),
                _ => format!(" [doc{}]", chunk + 1),
            });
            answer.push_str(if rng.below(8) == 0 { ".\n\n" } else { ". " });
        }
        CheckInputs {
            answer,
            chunks: serde_json::Value::Array(items).to_string(),
        }
    }
}

struct QuoteInputs {
    document: String,
    found: String,
    missing: String,
}

impl QuoteInputs {
    /// A 5 MB document of paragraphs, a 40-word passage from near its end, and the same
    /// passage with one word changed.
    fn new() -> Self {
        let vocabulary = vocabulary();
        let mut rng = Rng::new();
        let mut document = String::with_capacity(DOCUMENT_CHARS + 1_000);
        while document.len() < DOCUMENT_CHARS {
            for _ in 0..5 {
                document.push_str(&sentence(&mut rng, &vocabulary));
                document.push_str(". ");
            }
            document.push_str("\n\n");
        }
        let words: Vec<&str> = document.split_whitespace().collect();
        let passage = &words[words.len() - 1_000..words.len() - 960];
        let found = passage.join(" ");
        let mut changed: Vec<&str> = passage.to_vec();
        changed[20] = "zzyzx";
        QuoteInputs {
            found,
            missing: changed.join(" "),
            document,
        }
    }
}

/// A RAGAS-style JSON Lines transcript: each record a 600-character answer citing five
/// 500-character contexts, in the plain `[n]` style.
fn batch_file() -> String {
    let vocabulary = vocabulary();
    let mut rng = Rng::new();
    let mut file = String::new();
    for k in 0..BATCH_RECORDS {
        let chunks = chunk_sentences(&mut rng, &vocabulary, 5 * CHUNK_LEN);
        let contexts: Vec<String> = chunks.iter().map(|s| s.join(". ") + ".").collect();
        let mut answer = String::new();
        while answer.len() < 600 {
            let chunk = rng.below(chunks.len());
            let source = &chunks[chunk][rng.below(chunks[chunk].len())];
            answer.push_str(&altered(&mut rng, &vocabulary, source));
            answer.push_str(&format!(" [{}]. ", chunk + 1));
        }
        let record = serde_json::json!({
            "id": format!("r{}", k + 1),
            "response": answer.trim_end(),
            "retrieved_contexts": contexts,
        });
        file.push_str(&record.to_string());
        file.push('\n');
    }
    file
}
