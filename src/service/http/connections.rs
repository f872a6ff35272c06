//! The connections of `ragcite serve`: how many are open, in all and per client address, which
//! of them wait for a request (and so may give their place to a new one), and the socket
//! wrapper that gives up on a client that stopped reading.
//!
//! A connection holds a place from `accept` until it closes. When a new one would go over
//! `--max-connections-per-client` (or `--max-connections`), the oldest connection of that
//! client (of any client) that has no request in flight is asked to close, and the new one takes
//! its place; when every one has a request in flight, the new connection is closed at once. So
//! connections that send nothing cannot lock anyone out: a flood from one address only ever
//! competes with itself, and a connection that sends a request wins over one that sends none.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How many connections may be open at once.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub total: usize,
    pub per_client: usize,
}

/// The open connections.
#[derive(Debug)]
pub struct Connections {
    limits: Limits,
    state: Mutex<State>,
    /// Woken when the last connection closes.
    all_closed: Notify,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    /// Every open connection, oldest first.
    open: BTreeMap<u64, Arc<Slot>>,
    /// Open connections per client, and how many of them were asked to close.
    clients: HashMap<IpAddr, Count>,
    closing: usize,
}

#[derive(Debug, Default, Clone, Copy)]
struct Count {
    open: usize,
    closing: usize,
}

/// One open connection.
#[derive(Debug)]
pub struct Slot {
    id: u64,
    client: IpAddr,
    /// Requests in flight: from their head to the last byte of their response's body.
    requests: AtomicUsize,
    /// Asked to close to give its place to a new connection.
    evicted: AtomicBool,
    /// Cancelled when the connection should close: it gave its place to a new one, or the
    /// server stops.
    close: CancellationToken,
}

impl Slot {
    /// Cancelled when the connection should close.
    pub fn close(&self) -> &CancellationToken {
        &self.close
    }

    /// A request is in flight until the returned guard is dropped.
    pub fn busy(self: &Arc<Self>) -> Busy {
        self.requests.fetch_add(1, Ordering::SeqCst);
        Busy(Arc::clone(self))
    }

    /// Whether a request is in flight.
    pub fn in_flight(&self) -> bool {
        self.requests.load(Ordering::SeqCst) > 0
    }

    fn waiting(&self) -> bool {
        self.requests.load(Ordering::SeqCst) == 0
            && !self.close.is_cancelled()
            && !self.evicted.load(Ordering::SeqCst)
    }
}

/// A request in flight on a connection.
#[derive(Debug)]
pub struct Busy(Arc<Slot>);

impl Busy {
    /// Nothing: a closure that calls it owns the guard, and so keeps the request in flight for
    /// as long as it lives.
    pub fn hold(&self) {}
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.requests.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A connection's place, given back when dropped.
#[derive(Debug)]
pub struct Place {
    connections: Arc<Connections>,
    pub slot: Arc<Slot>,
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut state = self.connections.lock();
        let slot = &self.slot;
        let asked = state.open.remove(&slot.id).is_some() && slot.evicted.load(Ordering::SeqCst);
        let emptied = match state.clients.get_mut(&slot.client) {
            Some(count) => {
                count.open = count.open.saturating_sub(1);
                if asked {
                    count.closing = count.closing.saturating_sub(1);
                }
                count.open == 0
            }
            None => false,
        };
        if emptied {
            state.clients.remove(&slot.client);
        }
        if asked {
            state.closing = state.closing.saturating_sub(1);
        }
        if state.open.is_empty() {
            self.connections.all_closed.notify_waiters();
        }
    }
}

impl Connections {
    pub fn new(limits: Limits) -> Arc<Self> {
        Arc::new(Connections {
            limits: Limits {
                total: limits.total.max(1),
                per_client: limits.per_client.max(1),
            },
            state: Mutex::new(State::default()),
            all_closed: Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent between statements: a panic elsewhere cannot break it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for a new connection from `client`, whose `close` token is a child of
    /// `shutdown`; `None` when the connection must be closed at once.
    pub fn admit(self: &Arc<Self>, client: IpAddr, shutdown: &CancellationToken) -> Option<Place> {
        let limits = self.limits;
        let mut state = self.lock();
        let count = state.clients.get(&client).copied().unwrap_or_default();
        // Connections asked to close keep their place until they have closed (at once when
        // they wait for a request), but never more than as many again as the limit.
        if count.open - count.closing >= limits.per_client {
            if count.open >= 2 * limits.per_client || !state.evict(|slot| slot.client == client) {
                return None;
            }
        } else if state.open.len() - state.closing >= limits.total
            && (state.open.len() >= 2 * limits.total || !state.evict(|_| true))
        {
            return None;
        }
        state.next += 1;
        let slot = Arc::new(Slot {
            id: state.next,
            client,
            requests: AtomicUsize::new(0),
            evicted: AtomicBool::new(false),
            close: shutdown.child_token(),
        });
        state.open.insert(slot.id, Arc::clone(&slot));
        state.clients.entry(client).or_default().open += 1;
        Some(Place {
            connections: Arc::clone(self),
            slot,
        })
    }

    /// Connections open now.
    #[cfg(test)]
    fn open(&self) -> usize {
        self.lock().open.len()
    }

    /// Returns once every connection has closed.
    pub async fn all_closed(&self) {
        loop {
            let notified = self.all_closed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.lock().open.is_empty() {
                return;
            }
            notified.await;
        }
    }
}

impl State {
    /// Asks the oldest connection that `matches` and waits for a request to close; false when
    /// there is none.
    fn evict(&mut self, matches: impl Fn(&Slot) -> bool) -> bool {
        let Some(slot) = self
            .open
            .values()
            .find(|slot| matches(slot) && slot.waiting())
            .cloned()
        else {
            return false;
        };
        slot.evicted.store(true, Ordering::SeqCst);
        slot.close.cancel();
        self.closing += 1;
        if let Some(count) = self.clients.get_mut(&slot.client) {
            count.closing += 1;
        }
        true
    }
}

/// A socket whose writes give up when the client has read nothing for `limit`: a client that
/// asks and never reads cannot hold its connection for ever.
pub struct WriteDeadline<I> {
    io: I,
    limit: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl<I> WriteDeadline<I> {
    pub fn new(io: I, limit: Duration) -> Self {
        WriteDeadline {
            io,
            limit,
            stalled: None,
        }
    }

    /// What a write that went `Pending` returns: still `Pending`, or an error once it has been
    /// pending for `limit` without progress.
    fn stalled<T>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<T>> {
        let limit = self.limit;
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn progress<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        match poll {
            Poll::Pending => self.stalled(cx),
            ready => {
                self.stalled = None;
                ready
            }
        }
    }
}

impl<I: hyper::rt::Read + Unpin> hyper::rt::Read for WriteDeadline<I> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: hyper::rt::ReadBufCursor<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<I: hyper::rt::Write + Unpin> hyper::rt::Write for WriteDeadline<I> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.progress(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.progress(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_flush(cx);
        this.progress(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_shutdown(cx);
        this.progress(cx, poll)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(last: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, last])
    }

    #[test]
    fn a_client_at_its_limit_gives_up_its_oldest_waiting_connection() {
        let connections = Connections::new(Limits {
            total: 100,
            per_client: 2,
        });
        let shutdown = CancellationToken::new();
        let first = connections.admit(ip(1), &shutdown).expect("a place");
        let second = connections.admit(ip(1), &shutdown).expect("a place");
        let _busy = first.slot.busy();
        // The third takes the place of the second, which waits; the first has a request.
        let third = connections.admit(ip(1), &shutdown).expect("a place");
        assert!(!first.slot.close().is_cancelled());
        assert!(second.slot.close().is_cancelled());
        // Another client is not concerned.
        let other = connections.admit(ip(2), &shutdown).expect("a place");
        assert!(!other.slot.close().is_cancelled());
        drop(second);
        let _busy_third = third.slot.busy();
        // Every connection of the client has a request in flight: the new one is refused.
        assert!(connections.admit(ip(1), &shutdown).is_none());
        drop(_busy);
        assert!(connections.admit(ip(1), &shutdown).is_some());
        assert!(first.slot.close().is_cancelled());
    }

    #[test]
    fn at_the_total_the_oldest_waiting_connection_of_anyone_gives_way() {
        let connections = Connections::new(Limits {
            total: 3,
            per_client: 3,
        });
        let shutdown = CancellationToken::new();
        let places: Vec<Place> = (1..=3)
            .map(|n| connections.admit(ip(n), &shutdown).expect("a place"))
            .collect();
        let _busy: Vec<Busy> = places[..1].iter().map(|p| p.slot.busy()).collect();
        let fourth = connections.admit(ip(4), &shutdown).expect("a place");
        assert!(places[1].slot.close().is_cancelled());
        assert!(!places[2].slot.close().is_cancelled());
        assert_eq!(connections.open(), 4);
        drop(fourth);
        drop(places);
        assert_eq!(connections.open(), 0);
    }

    #[test]
    fn connections_asked_to_close_never_hold_more_than_as_many_again() {
        let connections = Connections::new(Limits {
            total: 100,
            per_client: 2,
        });
        let shutdown = CancellationToken::new();
        // None of them closes when asked (say, headers that trickle in): places run out at
        // twice the limit.
        let held: Vec<Place> = std::iter::from_fn(|| connections.admit(ip(1), &shutdown))
            .take(10)
            .collect();
        assert_eq!(held.len(), 4);
        assert_eq!(connections.open(), 4);
    }

    #[test]
    fn shutdown_asks_every_connection_to_close() {
        let connections = Connections::new(Limits {
            total: 10,
            per_client: 10,
        });
        let shutdown = CancellationToken::new();
        let place = connections.admit(ip(1), &shutdown).expect("a place");
        shutdown.cancel();
        assert!(place.slot.close().is_cancelled());
    }
}
