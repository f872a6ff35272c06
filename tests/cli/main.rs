//! The tests that run the `ragcite` binary, as one test binary (`cargo test --test cli`): one
//! build and one link for all of them, and one runner, [`util`], which every module uses and which
//! keeps each run isolated from the machine (configuration files above the checkout, colour and
//! CI variables, the terminal's width).
//!
//! Run one module with `cargo test --test cli -- batch::`. Snapshots live in
//! `tests/cli/snapshots/`, named `cli__<module>__<name>.snap`; regenerate a module's with
//! `INSTA_UPDATE=always cargo test --test cli -- <module>::` and read every changed file before
//! keeping it. The property tests (`tests/properties.rs`) and the hostile inputs
//! (`tests/hostile.rs`) are binaries of their own: the one is mostly library tests, the other
//! times its runs and must not share the machine with these.

// Test programs: they may say what they skipped.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod abstentions;
mod batch;
mod batch_exports;
mod check;
mod claim_scorer;
#[cfg(feature = "service")]
mod check_timeout;
mod ci_consumers;
mod compare;
mod ci_formats;
mod cjk;
mod diagnostics;
mod config;
mod consumers;
mod contradictions;
mod escapes;
mod eval;
mod figures;
mod files;
mod generated;
mod html;
mod locale;
mod msrv;
#[cfg(feature = "service")]
mod page;
mod positions;
mod pre_commit;
mod profiles;
mod quote;
mod readme;
mod responses;
#[cfg(feature = "service")]
mod service;
#[cfg(feature = "service")]
mod service_hostile;
mod snapshots;
mod stacks;
mod stacks_next;
mod styles;
mod table;
mod train;
#[cfg(feature = "service")]
mod transport;
mod util;
