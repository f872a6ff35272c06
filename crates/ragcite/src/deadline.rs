//! A check's deadline: the moment after which it gives up. The stages look at it between units
//! of work (a sentence, a few hundred chunks), so that a check past its deadline stops within
//! a unit of work and its thread is free again; nothing is interrupted from outside.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// When a check gives up; [`Deadline::none`] never passes. Shared by the threads of one check.
#[derive(Debug, Default)]
pub struct Deadline {
    at: Option<Instant>,
    /// Set once the moment is seen to have passed, so that every thread stops.
    passed: AtomicBool,
    /// In tests: how many more looks see it not passed (a deadline that passes after a count
    /// of units of work, not of time).
    #[cfg(test)]
    looks: Option<std::sync::atomic::AtomicUsize>,
    /// In tests: the looks that saw it passed (each loop that stops looks once more, a loop
    /// that went on would look again and again).
    #[cfg(test)]
    pub(crate) late: std::sync::atomic::AtomicUsize,
    /// Sentences judged so far and how many there are to judge (0 until judging starts): what
    /// a progress display on another thread reads.
    judged: AtomicUsize,
    to_judge: AtomicUsize,
}

impl Deadline {
    /// No deadline: the check runs to its end.
    pub fn none() -> Self {
        Deadline::default()
    }

    /// A deadline at `at`.
    pub fn at(at: Instant) -> Self {
        Deadline {
            at: Some(at),
            ..Deadline::default()
        }
    }

    /// A deadline `duration` from now.
    pub fn after(duration: Duration) -> Self {
        // A duration too long to add is no deadline.
        Instant::now()
            .checked_add(duration)
            .map_or_else(Deadline::none, Deadline::at)
    }

    /// A deadline that passes at the `looks + 1`-th look: for tests that count units of work.
    #[cfg(test)]
    pub(crate) fn after_looks(looks: usize) -> Self {
        Deadline {
            looks: Some(std::sync::atomic::AtomicUsize::new(looks)),
            ..Deadline::default()
        }
    }

    /// How many looks a deadline of [`Deadline::after_looks`] has left.
    #[cfg(test)]
    pub(crate) fn looks_left(&self) -> usize {
        self.looks
            .as_ref()
            .map_or(0, |looks| looks.load(Ordering::Relaxed))
    }

    /// Whether the deadline has passed; once it has, it stays passed. Reads the clock (a few
    /// tens of nanoseconds), so callers look once per unit of work, not per step.
    pub fn passed(&self) -> bool {
        if self.passed.load(Ordering::Relaxed) {
            #[cfg(test)]
            self.late.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        #[cfg(test)]
        if let Some(looks) = &self.looks {
            let left =
                looks.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
            if left.is_err() {
                self.passed.store(true, Ordering::Relaxed);
            }
            return left.is_err();
        }
        match self.at {
            Some(at) if Instant::now() >= at => {
                self.passed.store(true, Ordering::Relaxed);
                true
            }
            _ => false,
        }
    }

    /// The sentences judged so far and how many there are to judge (none known before the
    /// answer is read): for a progress display, read from another thread while a check runs.
    pub fn progress(&self) -> (usize, usize) {
        (
            self.judged.load(Ordering::Relaxed),
            self.to_judge.load(Ordering::Relaxed),
        )
    }

    /// `n` more sentences are to be judged.
    pub(crate) fn to_judge(&self, n: usize) {
        self.to_judge.fetch_add(n, Ordering::Relaxed);
    }

    /// One more sentence was judged.
    pub(crate) fn judged_one(&self) {
        self.judged.fetch_add(1, Ordering::Relaxed);
    }

    /// `Err(Expired)` once the deadline has passed.
    pub fn check(&self) -> Result<(), Expired> {
        if self.passed() { Err(Expired) } else { Ok(()) }
    }
}

/// A check that stopped at its deadline, without a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expired;

impl fmt::Display for Expired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the check passed its deadline")
    }
}

impl std::error::Error for Expired {}

/// Looks at a deadline every `EVERY` steps of a loop (a chunk visited, a list walked): a look
/// reads the clock, a step costs a few nanoseconds.
#[derive(Debug)]
pub(crate) struct Every<'a, const EVERY: u32> {
    deadline: &'a Deadline,
    steps: u32,
}

impl<'a, const EVERY: u32> Every<'a, EVERY> {
    pub(crate) fn new(deadline: &'a Deadline) -> Self {
        Every { deadline, steps: 0 }
    }

    /// Whether the deadline has passed, as of the last look.
    #[inline]
    pub(crate) fn passed(&mut self) -> bool {
        self.steps += 1;
        if self.steps < EVERY {
            return false;
        }
        self.steps = 0;
        self.deadline.passed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_deadline_never_passes_and_a_past_one_has_passed() {
        assert!(!Deadline::none().passed());
        assert!(Deadline::none().check().is_ok());
        assert!(Deadline::at(Instant::now()).passed());
        assert_eq!(Deadline::at(Instant::now()).check(), Err(Expired));
        assert!(!Deadline::after(Duration::from_secs(3600)).passed());
        assert!(!Deadline::after(Duration::MAX).passed());
    }

    #[test]
    fn a_counted_deadline_passes_at_its_look_and_stays_passed() {
        let deadline = Deadline::after_looks(2);
        assert!(!deadline.passed());
        assert!(!deadline.passed());
        assert!(deadline.passed());
        assert!(deadline.passed());
    }

    #[test]
    fn every_looks_once_per_count_of_steps() {
        let deadline = Deadline::after_looks(1);
        let mut every = Every::<4>::new(&deadline);
        let seen: Vec<bool> = (0..12).map(|_| every.passed()).collect();
        // Looks at steps 4 (not passed), 8 (passed) and 12.
        assert_eq!(seen.iter().position(|&p| p), Some(7));
        assert!(seen[11]);
    }
}
