//! The memory that request bodies may hold at once: each body is counted from its first byte
//! (or, when `Content-Length` announces it, from its start) until its request is answered,
//! within a budget in all and a smaller one per client address. A body that would go over
//! either is refused with 503 at once, rather than read: without it, 64 connections of one
//! client, each sending 16 MiB slowly, could hold a gigabyte.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Bytes of bodies held at once, by every client together (sixteen bodies at the size limit).
pub const TOTAL_BYTES: usize = 256 << 20;
/// Bytes of bodies held at once by one client address (four bodies at the size limit).
pub const PER_CLIENT_BYTES: usize = 64 << 20;

#[derive(Debug)]
pub struct Budget {
    total: usize,
    per_client: usize,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    held: usize,
    by_client: HashMap<Option<IpAddr>, usize>,
}

/// Bytes held for one request, given back when it is dropped.
#[derive(Debug)]
pub struct Held {
    budget: Arc<Budget>,
    client: Option<IpAddr>,
    bytes: usize,
}

impl Budget {
    pub fn new(total: usize, per_client: usize) -> Arc<Self> {
        Arc::new(Budget {
            total,
            per_client: per_client.min(total),
            state: Mutex::new(State::default()),
        })
    }

    /// Nothing held yet for a request of `client`.
    pub fn start(self: &Arc<Self>, client: Option<IpAddr>) -> Held {
        Held {
            budget: Arc::clone(self),
            client,
            bytes: 0,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Held {
    /// Holds `bytes` more, or `false` (and nothing more held) when that would go over the
    /// budget in all or the client's.
    pub fn grow(&mut self, bytes: usize) -> bool {
        let budget = &self.budget;
        let mut state = budget.lock();
        let client = state.by_client.get(&self.client).copied().unwrap_or(0);
        let fits = state.held.saturating_add(bytes) <= budget.total
            && client.saturating_add(bytes) <= budget.per_client;
        if fits {
            state.held += bytes;
            *state.by_client.entry(self.client).or_insert(0) += bytes;
            self.bytes += bytes;
        }
        fits
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if self.bytes == 0 {
            return;
        }
        let mut state = self.budget.lock();
        state.held = state.held.saturating_sub(self.bytes);
        if let Some(client) = state.by_client.get_mut(&self.client) {
            *client = client.saturating_sub(self.bytes);
            if *client == 0 {
                state.by_client.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    fn client(last: u8) -> Option<IpAddr> {
        Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
    }

    #[test]
    fn a_client_holds_at_most_its_share_and_all_at_most_the_total() {
        let budget = Budget::new(100, 40);
        let mut a = budget.start(client(1));
        assert!(a.grow(30));
        let mut a2 = budget.start(client(1));
        assert!(!a2.grow(20), "client 1 would hold 50 > 40");
        assert!(a2.grow(10));
        let mut b = budget.start(client(2));
        assert!(b.grow(40));
        let mut c = budget.start(client(3));
        assert!(!c.grow(30), "all would hold 110 > 100");
        assert!(c.grow(20));
        // Given back when the requests end.
        drop((a, a2, b));
        let mut a3 = budget.start(client(1));
        assert!(a3.grow(40));
        assert!(c.grow(20));
        assert_eq!(budget.lock().held, 80);
        drop((a3, c));
        let state = budget.lock();
        assert_eq!(state.held, 0);
        assert!(state.by_client.is_empty());
    }
}
