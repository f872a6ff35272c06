//! The check slots, shared fairly between clients: at most `total` checks run at once, at most
//! `per_client` of them for one client address, and a freed slot goes to the waiting request
//! of the client that runs the fewest checks, then has the fewest waiting, then waited longest.
//! So a client that sends many slow checks holds at most `per_client` slots, and a request of
//! another client runs as soon as one slot is free, not after all of that client's checks.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::oneshot;

/// Who a check is for: a client address, or `None` for the one client of `ragcite mcp`.
pub type Client = Option<IpAddr>;

#[derive(Debug)]
pub struct Slots {
    per_client: usize,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    free: usize,
    /// Checks running, per client that runs any.
    running: HashMap<Client, usize>,
    /// Requests waiting for a slot, oldest first.
    waiting: VecDeque<(Client, oneshot::Sender<Slot>)>,
}

/// A slot held: freed (and handed on) when dropped.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    client: Client,
}

impl Slots {
    /// `total` and `per_client` are at least 1; `per_client` at most `total`.
    pub fn new(total: usize, per_client: usize) -> Arc<Self> {
        let total = total.max(1);
        Arc::new(Slots {
            per_client: per_client.clamp(1, total),
            state: Mutex::new(State {
                free: total,
                running: HashMap::new(),
                waiting: VecDeque::new(),
            }),
        })
    }

    /// Waits for a slot for `client`. A request given up while it waits (its future dropped)
    /// leaves the queue when its turn comes, and the slot goes to the next one.
    pub async fn acquire(self: &Arc<Self>, client: Client) -> Slot {
        let receiver = {
            let mut state = self.lock();
            let running = state.running.get(&client).copied().unwrap_or(0);
            if state.free > 0 && running < self.per_client {
                state.free -= 1;
                *state.running.entry(client).or_insert(0) += 1;
                return Slot {
                    slots: Arc::clone(self),
                    client,
                };
            }
            let (sender, receiver) = oneshot::channel();
            state.waiting.push_back((client, sender));
            receiver
        };
        match receiver.await {
            Ok(slot) => slot,
            // The sender is dropped only with the `Slots` themselves, which outlive every
            // request; wait again rather than run without a slot.
            Err(_) => Box::pin(self.acquire(client)).await,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A slot of `client` is free again: it goes to the waiting request whose client runs the
    /// fewest checks (and fewer than `per_client`), then has the fewest requests waiting, the
    /// oldest among equals.
    fn release(self: &Arc<Self>, client: Client) {
        let mut state = self.lock();
        if let Some(running) = state.running.get_mut(&client) {
            *running -= 1;
            if *running == 0 {
                state.running.remove(&client);
            }
        }
        state.free += 1;
        while state.free > 0 {
            // Requests given up while waiting leave the queue.
            state.waiting.retain(|(_, sender)| !sender.is_closed());
            let mut queued: HashMap<Client, usize> = HashMap::new();
            for (client, _) in &state.waiting {
                *queued.entry(*client).or_insert(0) += 1;
            }
            let next = state
                .waiting
                .iter()
                .enumerate()
                .map(|(at, (client, _))| {
                    let running = state.running.get(client).copied().unwrap_or(0);
                    (running, queued[client], at)
                })
                .filter(|(running, _, _)| *running < self.per_client)
                .min();
            let Some((_, _, at)) = next else { break };
            let Some((client, sender)) = state.waiting.remove(at) else {
                break;
            };
            state.free -= 1;
            *state.running.entry(client).or_insert(0) += 1;
            let slot = Slot {
                slots: Arc::clone(self),
                client,
            };
            // Gone since the queue was cleaned: the slot comes back, and dropping it (once
            // the lock is released) hands it on again.
            if let Err(slot) = sender.send(slot) {
                drop(state);
                drop(slot);
                return;
            }
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.release(self.client);
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;
    use std::time::Duration;

    use super::*;

    fn client(last: u8) -> Client {
        Some(IpAddr::V4(Ipv4Addr::new(127, 0, 0, last)))
    }

    /// Whether `future` completes within a moment (it never does when it waits for a slot).
    async fn ready<T>(future: impl std::future::Future<Output = T>) -> Option<T> {
        tokio::time::timeout(Duration::from_millis(50), future)
            .await
            .ok()
    }

    #[tokio::test]
    async fn a_client_holds_at_most_its_share_and_another_runs_beside_it() {
        let slots = Slots::new(2, 1);
        let a = slots.acquire(client(1)).await;
        // A second check of the same client waits though a slot is free...
        assert!(ready(slots.acquire(client(1))).await.is_none());
        // ...which another client's check takes at once.
        let b = ready(slots.acquire(client(2))).await.expect("a free slot");
        drop((a, b));
        let a1 = ready(slots.acquire(client(1))).await.expect("free again");
        let a2 = ready(slots.acquire(client(2))).await.expect("free again");
        drop((a1, a2));
    }

    #[tokio::test]
    async fn a_freed_slot_goes_to_the_client_with_the_fewest_waiting() {
        let slots = Slots::new(1, 1);
        let held = slots.acquire(client(1)).await;
        let (order, mut done) = tokio::sync::mpsc::unbounded_channel();
        let mut tasks = Vec::new();
        // Three more of client 1 queue first, then one of client 2.
        for (name, who) in [("a2", 1), ("a3", 1), ("a4", 1), ("b1", 2)] {
            let slots = Arc::clone(&slots);
            let order = order.clone();
            tasks.push(tokio::spawn(async move {
                let slot = slots.acquire(client(who)).await;
                order.send(name).expect("the test listens");
                // Held a moment, so that the next one is chosen after this release.
                tokio::time::sleep(Duration::from_millis(5)).await;
                drop(slot);
            }));
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        drop(held);
        for task in tasks {
            task.await.expect("no panic");
        }
        drop(order);
        let mut served = Vec::new();
        while let Some(name) = done.recv().await {
            served.push(name);
        }
        assert_eq!(served, ["b1", "a2", "a3", "a4"]);
    }

    #[tokio::test]
    async fn a_request_given_up_while_waiting_passes_its_turn_on() {
        let slots = Slots::new(1, 1);
        let held = slots.acquire(client(1)).await;
        // Given up: its future is dropped while it waits.
        assert!(ready(slots.acquire(client(2))).await.is_none());
        let waiting = {
            let slots = Arc::clone(&slots);
            tokio::spawn(async move { slots.acquire(client(3)).await })
        };
        tokio::time::sleep(Duration::from_millis(10)).await;
        drop(held);
        let slot = tokio::time::timeout(Duration::from_secs(10), waiting)
            .await
            .expect("the slot was handed on")
            .expect("no panic");
        drop(slot);
        assert!(ready(slots.acquire(client(2))).await.is_some());
    }
}
