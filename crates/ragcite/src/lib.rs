//! ragcite: a deterministic, lexical linter for answers written by retrieval-augmented
//! generation. It finds uncited claims, citations to chunks that do not say what the sentence
//! says, numbers that changed on the way, markers that point nowhere and chunks never used.
//!
//! The library is a pipeline of stages, one module each, in the order the data flows; each
//! stage uses only the stages before it (`scripts/ci/module-graph.py` checks it):
//! [`input`] → [`marker`] → [`sentence`] → [`words`] → [`quote`] → [`claim`] → [`report`] (the
//! result's types) → [`support`] (scores, contradictions, the verdict rules in
//! `support/decide.rs`) → [`gate`]. The [`check`] module runs them for one answer
//! ([`Checker`]); [`batch`] and [`eval`] run the check over transcripts, [`compare`] puts two
//! transcripts side by side, [`emit`] writes the reports and [`api`] is the service's contract. It never prints and never exits
//! (`[workspace.lints]`): the `ragcite-cli` crate is the program.
//!
//! ```
//! use ragcite::{Checker, Options, input};
//!
//! let answer = input::read_answer(b"The tower is 330 metres tall [1].", None).unwrap();
//! let chunks = input::read_chunks(br#"["The tower is 330 metres tall."]"#, false).unwrap();
//! let report = Checker::new(Options::default()).check(&answer, &chunks);
//! assert_eq!(report.result.sentences[0].verdict, ragcite::Verdict::Supported);
//! ```

/// Defines, in the module that invokes it, `looked_at(n)`, which counts `n` units of work
/// (bytes or characters read) in tests and does nothing otherwise, and for its tests
/// `looked_at_during(f)`, the units counted while `f` runs: tests bound work with it, not time.
/// Each module has its own count.
macro_rules! work_counter {
    () => {
        #[cfg(test)]
        thread_local! {
            static LOOKED_AT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
        }

        /// Counts `n` units of work (in tests; nothing otherwise).
        #[inline(always)]
        fn looked_at(n: usize) {
            #[cfg(test)]
            LOOKED_AT.with(|c| c.set(c.get() + n));
            #[cfg(not(test))]
            let _ = n;
        }

        /// The units of work counted while `f` runs.
        #[cfg(test)]
        fn looked_at_during(f: impl FnOnce()) -> usize {
            LOOKED_AT.with(|c| c.set(0));
            f();
            LOOKED_AT.with(|c| c.get())
        }
    };
}

// The pipeline, in order (rustfmt.toml keeps this order).
pub mod input;
pub mod marker;
pub mod sentence;
pub mod words;
pub mod quote;
pub mod claim;
pub mod report;
pub mod support;
pub mod gate;

// What runs it.
pub mod api;
pub mod batch;
pub mod check;
pub mod compare;
pub mod emit;
pub mod eval;

// Shared by the stages.
pub mod deadline;
pub mod escape;
mod parallel;
pub mod pattern;
mod rounding;

pub use check::{
    Checker, CitationScope, DEFAULT_CLAIM_THRESHOLD, DEFAULT_THRESHOLD, Options, THRESHOLD_RANGE,
};
pub use deadline::{Deadline, Expired};
pub use gate::{GateOutcome, LimitFailure, Limits};
pub use input::{Answer, AnswerFormat, Chunk, ChunkFormat, Chunks, InputError};
pub use report::{CheckResult, ChunkStatus, Counts, LanguageUse, Report, Verdict};
pub use support::model::Model;
pub use words::Language;
