//! The closest passage to a quotation that is not found: candidate alignments by word voting,
//! then a word-level edit distance around each, without comparing the quotation with the whole
//! document.

use super::words::WordIndex;

/// How many alignments (document position of the quotation's first word) are scored.
const CANDIDATES: usize = 8;
/// How far, in words, a passage may start before or after its alignment, and drift from it.
pub(super) const MIN_SLACK: usize = 3;
pub(super) const MAX_SLACK: usize = 64;
/// Bound on votes for one search. A quotation word that occurs more often than its share
/// (between `MIN_VOTES_PER_WORD` and `MAX_VOTES_PER_WORD`) does not vote: in a long document
/// `the` says nothing about where a quotation is.
const MAX_VOTES: usize = 1 << 21;
const MIN_VOTES_PER_WORD: usize = 8;
const MAX_VOTES_PER_WORD: usize = 1024;

/// The best few alignments (document word position minus quotation word position), each
/// voted for by the quotation words found at that offset; best voted first, ties to the
/// earliest. Alignments within `slack` of a better one are left out: its window covers them.
pub(super) fn candidate_alignments(
    quote: &[Option<usize>],
    index: &WordIndex,
    slack: usize,
) -> Vec<i64> {
    let cap = (MAX_VOTES / quote.len()).clamp(MIN_VOTES_PER_WORD, MAX_VOTES_PER_WORD);
    let mut votes: Vec<i64> = Vec::new();
    let diagonal = |pos: usize, i: usize| pos as i64 - i as i64;
    for (i, id) in quote.iter().enumerate() {
        if let Some(&id) = id.as_ref() {
            let occurrences = index.occurrences(id);
            if occurrences.len() <= cap {
                votes.extend(occurrences.iter().map(|&pos| diagonal(pos, i)));
            }
        }
    }
    if votes.is_empty() {
        // Every shared word is frequent: let the rarest vote, at its first occurrences.
        let rarest = quote
            .iter()
            .enumerate()
            .filter_map(|(i, id)| id.map(|id| (index.occurrences(id).len(), i, id)))
            .min();
        if let Some((_, i, id)) = rarest {
            let occurrences = index.occurrences(id).iter().take(cap);
            votes.extend(occurrences.map(|&pos| diagonal(pos, i)));
        }
    }
    if votes.is_empty() {
        // No word in common: every passage is as unlike as any other; take the first.
        return vec![0];
    }
    votes.sort_unstable();
    let mut tallies: Vec<(i64, usize)> = Vec::new();
    for d in votes {
        match tallies.last_mut() {
            Some((last, count)) if *last == d => *count += 1,
            _ => tallies.push((d, 1)),
        }
    }
    tallies.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut picked: Vec<i64> = Vec::with_capacity(CANDIDATES);
    for (d, _) in tallies {
        if picked.len() == CANDIDATES {
            break;
        }
        if picked.iter().all(|p| p.abs_diff(d) > slack as u64) {
            picked.push(d);
        }
    }
    picked
}

/// A passage of the document (words `start..end`) and its distance from the quotation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Alignment {
    pub(super) distance: usize,
    pub(super) start: usize,
    pub(super) end: usize,
}

impl Alignment {
    /// Better first: fewer differing words, then higher similarity (which, for equal distance,
    /// is the longer passage), then a length nearer the quotation's (a word replaced at the end
    /// rather than dropped), then earlier.
    pub(super) fn rank(&self, other: &Alignment, quote_len: usize) -> std::cmp::Ordering {
        let longest = |a: &Alignment| quote_len.max(a.end - a.start);
        // distance / longest, compared without division.
        let self_share = self.distance * longest(other);
        let other_share = other.distance * longest(self);
        let misfit = |a: &Alignment| quote_len.abs_diff(a.end - a.start);
        self.distance
            .cmp(&other.distance)
            .then(self_share.cmp(&other_share))
            .then(misfit(self).cmp(&misfit(other)))
            .then(self.start.cmp(&other.start))
            .then(self.end.cmp(&other.end))
    }
}

const UNREACHABLE: usize = usize::MAX / 2;

/// The passage nearest the alignment `diagonal` with the fewest differing words: a word-level
/// edit distance in which the passage may start and end anywhere in a window of the quotation's
/// length plus `slack` words on each side, computed only in a band of `slack` around the
/// diagonal. Cost O(quotation words × slack).
pub(super) fn align(
    quote: &[Option<usize>],
    ids: &[usize],
    diagonal: i64,
    slack: usize,
) -> Option<Alignment> {
    let n = quote.len() as i64;
    let s = slack as i64;
    let m = ids.len() as i64;
    let window_start = (diagonal - s).clamp(0, m);
    let window_end = (diagonal + n + s).clamp(0, m);
    if window_end <= window_start {
        return None;
    }
    let window = ids.get(window_start as usize..window_end as usize)?;
    let width = window.len() as i64;
    let offset = diagonal - window_start;
    let band = |i: i64| {
        (
            (i + offset - s).clamp(0, width) as usize,
            (i + offset + s).clamp(0, width) as usize,
        )
    };

    // Each cell: (differing words, window position where the passage starts). Ties prefer the
    // earlier start, the longer passage.
    let mut previous = vec![(UNREACHABLE, 0usize); window.len() + 1];
    let mut current = previous.clone();
    let (mut prev_lo, mut prev_hi) = band(0);
    for (j, cell) in previous
        .iter_mut()
        .enumerate()
        .take(prev_hi + 1)
        .skip(prev_lo)
    {
        *cell = (0, j);
    }
    for (row, word) in quote.iter().enumerate() {
        let (lo, hi) = band(row as i64 + 1);
        let above = |j: usize| {
            if (prev_lo..=prev_hi).contains(&j) {
                previous.get(j).copied().unwrap_or((UNREACHABLE, 0))
            } else {
                (UNREACHABLE, 0)
            }
        };
        for j in lo..=hi {
            // The quotation's word missing from the passage.
            let (cost, start) = above(j);
            let mut best = (cost + 1, start);
            if let Some(prev_j) = j.checked_sub(1) {
                let (cost, start) = above(prev_j);
                let same = word.is_some() && *word == window.get(prev_j).copied();
                best = best.min((cost + usize::from(!same), start));
                if prev_j >= lo {
                    // A passage word missing from the quotation.
                    let (cost, start) = current.get(prev_j).copied().unwrap_or((UNREACHABLE, 0));
                    best = best.min((cost + 1, start));
                }
            }
            if let Some(cell) = current.get_mut(j) {
                *cell = best;
            }
        }
        std::mem::swap(&mut previous, &mut current);
        (prev_lo, prev_hi) = (lo, hi);
    }

    let base = window_start as usize;
    let quote_len = quote.len();
    (prev_lo..=prev_hi)
        .filter_map(|end| {
            let (distance, start) = previous.get(end).copied()?;
            (distance < UNREACHABLE && start < end).then_some(Alignment {
                distance,
                start: base + start,
                end: base + end,
            })
        })
        .min_by(|a, b| a.rank(b, quote_len))
}
