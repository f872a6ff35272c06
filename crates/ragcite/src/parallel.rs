//! Work split over threads where the pipeline needs it: a check's two halves, and batches read
//! a window of records at a time.

/// How many records `batch` and `eval` read ahead and check in parallel at a time: enough to
/// keep every core busy, few enough to keep memory flat.
pub(crate) const WINDOW: usize = 512;

/// Runs `here` on this thread while `there` runs on a second one, and returns both results.
/// When no thread can be started, `there` runs on this one too, after `here`, with the same
/// results. A panic on the second thread goes on on this one.
pub(crate) fn on_two_threads<A, B: Send>(
    here: impl FnOnce() -> A,
    there: impl Fn() -> B + Sync,
) -> (A, B) {
    std::thread::scope(|scope| {
        let other = std::thread::Builder::new().spawn_scoped(scope, &there);
        let mine = here();
        let theirs = match other {
            Ok(other) => other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => there(),
        };
        (mine, theirs)
    })
}
