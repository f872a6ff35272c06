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
//!
//! Connections asked to close keep their place until they have closed, up to as many again as
//! the limit. A new connection that finds the places full of them waits (a [`Waiter`], at most
//! as many as the limit) for one of them to close instead of being refused: how fast an evicted
//! connection's task runs is the scheduler's business, and a burst of silent connections on a
//! busy machine must not lock out the request that comes after it.

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
    /// Woken when a connection closes.
    freed: Notify,
}

#[derive(Debug, Default)]
struct State {
    next: u64,
    /// Every open connection, oldest first.
    open: BTreeMap<u64, Arc<Slot>>,
    /// Open connections per client, how many of them were asked to close, and the new ones
    /// waiting for those to close.
    clients: HashMap<IpAddr, Count>,
    closing: usize,
    waiting: usize,
}

#[derive(Debug, Default, Clone, Copy)]
struct Count {
    open: usize,
    closing: usize,
    waiting: usize,
}

impl Count {
    fn is_empty(&self) -> bool {
        self.open == 0 && self.waiting == 0
    }
}

/// What becomes of a new connection.
#[derive(Debug)]
pub enum Entry {
    /// It has its place.
    Now(Place),
    /// The places are held by connections asked to close: it waits for one.
    Wait(Waiter),
    /// Close it at once.
    Refused,
}

/// Why a connection gets no place now.
enum Full {
    /// Connections asked to close hold the places: one frees soon.
    Closing,
    /// Every connection has a request in flight.
    Busy,
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
        if let Some(count) = state.clients.get_mut(&slot.client) {
            count.open = count.open.saturating_sub(1);
            if asked {
                count.closing = count.closing.saturating_sub(1);
            }
        }
        state.forget_if_empty(slot.client);
        if asked {
            state.closing = state.closing.saturating_sub(1);
        }
        if state.open.is_empty() {
            self.connections.all_closed.notify_waiters();
        }
        self.connections.freed.notify_waiters();
    }
}

/// A new connection waiting for a connection asked to close to give back its place.
#[derive(Debug)]
pub struct Waiter {
    connections: Arc<Connections>,
    client: IpAddr,
}

impl Waiter {
    /// Its place, once a connection has closed; `None` when `limit` passes first, when every
    /// connection in the way has a request in flight, or when the server stops.
    pub async fn place(self, shutdown: &CancellationToken, limit: Duration) -> Option<Place> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let freed = self.connections.freed.notified();
            tokio::pin!(freed);
            freed.as_mut().enable();
            match self
                .connections
                .place(&mut self.connections.lock(), self.client, shutdown)
            {
                Ok(place) => return Some(place),
                Err(Full::Busy) => return None,
                Err(Full::Closing) => {}
            }
            tokio::select! {
                () = freed => {}
                () = shutdown.cancelled() => return None,
                () = tokio::time::sleep_until(deadline) => return None,
            }
        }
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        let mut state = self.connections.lock();
        if let Some(count) = state.clients.get_mut(&self.client) {
            count.waiting = count.waiting.saturating_sub(1);
        }
        state.waiting = state.waiting.saturating_sub(1);
        state.forget_if_empty(self.client);
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
            freed: Notify::new(),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent between statements: a panic elsewhere cannot break it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What becomes of a new connection from `client`; its place's `close` token is a child of
    /// `shutdown`.
    pub fn admit(self: &Arc<Self>, client: IpAddr, shutdown: &CancellationToken) -> Entry {
        let mut state = self.lock();
        match self.place(&mut state, client, shutdown) {
            Ok(place) => Entry::Now(place),
            Err(Full::Closing)
                if state.waiting < self.limits.total
                    && state.clients.get(&client).map_or(0, |count| count.waiting)
                        < self.limits.per_client =>
            {
                state.waiting += 1;
                state.clients.entry(client).or_default().waiting += 1;
                Entry::Wait(Waiter {
                    connections: Arc::clone(self),
                    client,
                })
            }
            Err(_) => Entry::Refused,
        }
    }

    /// A place for a new connection from `client`, given by the oldest connection waiting for
    /// a request if need be.
    fn place(
        self: &Arc<Self>,
        state: &mut State,
        client: IpAddr,
        shutdown: &CancellationToken,
    ) -> Result<Place, Full> {
        let limits = self.limits;
        let count = state.clients.get(&client).copied().unwrap_or_default();
        // Connections asked to close keep their place until they have closed (at once when
        // they wait for a request), but never more than as many again as the limit.
        if count.open - count.closing >= limits.per_client {
            if count.open >= 2 * limits.per_client {
                return Err(Full::Closing);
            }
            if !state.evict(|slot| slot.client == client) {
                return Err(Full::Busy);
            }
        } else if state.open.len() - state.closing >= limits.total {
            if state.open.len() >= 2 * limits.total {
                return Err(Full::Closing);
            }
            if !state.evict(|_| true) {
                return Err(Full::Busy);
            }
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
        Ok(Place {
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
    fn forget_if_empty(&mut self, client: IpAddr) {
        if self.clients.get(&client).is_some_and(Count::is_empty) {
            self.clients.remove(&client);
        }
    }

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

    /// The place of a connection admitted at once.
    fn now(entry: Entry) -> Place {
        match entry {
            Entry::Now(place) => place,
            other => panic!("admitted later or refused: {other:?}"),
        }
    }

    fn refused(entry: &Entry) -> bool {
        matches!(entry, Entry::Refused)
    }

    #[test]
    fn a_client_at_its_limit_gives_up_its_oldest_waiting_connection() {
        let connections = Connections::new(Limits {
            total: 100,
            per_client: 2,
        });
        let shutdown = CancellationToken::new();
        let first = now(connections.admit(ip(1), &shutdown));
        let second = now(connections.admit(ip(1), &shutdown));
        let _busy = first.slot.busy();
        // The third takes the place of the second, which waits; the first has a request.
        let third = now(connections.admit(ip(1), &shutdown));
        assert!(!first.slot.close().is_cancelled());
        assert!(second.slot.close().is_cancelled());
        // Another client is not concerned.
        let other = now(connections.admit(ip(2), &shutdown));
        assert!(!other.slot.close().is_cancelled());
        drop(second);
        let _busy_third = third.slot.busy();
        // Every connection of the client has a request in flight: the new one is refused.
        assert!(refused(&connections.admit(ip(1), &shutdown)));
        drop(_busy);
        let _fourth = now(connections.admit(ip(1), &shutdown));
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
            .map(|n| now(connections.admit(ip(n), &shutdown)))
            .collect();
        let _busy: Vec<Busy> = places[..1].iter().map(|p| p.slot.busy()).collect();
        let fourth = now(connections.admit(ip(4), &shutdown));
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
        // twice the limit, then as many again wait, then the next are refused.
        let entries: Vec<Entry> = (0..10)
            .map(|_| connections.admit(ip(1), &shutdown))
            .collect();
        let kinds: Vec<&str> = entries
            .iter()
            .map(|entry| match entry {
                Entry::Now(_) => "now",
                Entry::Wait(_) => "wait",
                Entry::Refused => "refused",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "now", "now", "now", "now", "wait", "wait", "refused", "refused", "refused",
                "refused"
            ]
        );
        assert_eq!(connections.open(), 4);
        drop(entries);
        assert_eq!(connections.open(), 0);
        assert!(connections.lock().clients.is_empty());
    }

    /// A new connection from client 1 that must wait, waiting for its place (2 s at most) on a
    /// task of its own.
    async fn waiting_for_a_place(
        connections: &Arc<Connections>,
        shutdown: &CancellationToken,
    ) -> tokio::task::JoinHandle<Option<Place>> {
        let Entry::Wait(waiter) = connections.admit(ip(1), shutdown) else {
            panic!("the new connection does not wait");
        };
        let shutdown = shutdown.clone();
        let waiting =
            tokio::spawn(async move { waiter.place(&shutdown, Duration::from_secs(2)).await });
        tokio::task::yield_now().await;
        waiting
    }

    #[tokio::test(start_paused = true)]
    async fn a_new_connection_waits_for_one_asked_to_close_instead_of_being_refused() {
        let connections = Connections::new(Limits {
            total: 100,
            per_client: 2,
        });
        let shutdown = CancellationToken::new();
        // A burst: the scheduler has not yet run the tasks of the two connections asked to
        // close when the fifth arrives.
        let mut places: Vec<Place> = (0..4)
            .map(|_| now(connections.admit(ip(1), &shutdown)))
            .collect();
        assert!(places[0].slot.close().is_cancelled() && places[1].slot.close().is_cancelled());
        let waiting = waiting_for_a_place(&connections, &shutdown).await;
        // The oldest asked to close closes: the waiter takes a place, and asks the oldest
        // connection still waiting for a request (the third) to close.
        drop(places.remove(0));
        let place = waiting.await.expect("joined").expect("a place");
        assert!(!place.slot.close().is_cancelled());
        assert!(places[1].slot.close().is_cancelled());
        assert!(!places[2].slot.close().is_cancelled());
        assert_eq!(connections.open(), 4);
        // Nobody closes: a waiter gives up after its limit.
        let Entry::Wait(waiter) = connections.admit(ip(1), &shutdown) else {
            panic!("refused");
        };
        assert!(
            waiter
                .place(&shutdown, Duration::from_secs(2))
                .await
                .is_none()
        );
        assert_eq!(connections.lock().clients[&ip(1)].waiting, 0);
        // The connections not asked to close all have a request in flight: when one asked to
        // close closes, the waiter gives up at once instead of taking a place.
        let _busy = [&places[2], &place].map(|p| p.slot.busy());
        let waiting = waiting_for_a_place(&connections, &shutdown).await;
        let started = tokio::time::Instant::now();
        drop(places.remove(0));
        assert!(waiting.await.expect("joined").is_none());
        assert!(started.elapsed() < Duration::from_secs(1));
        // And one more is refused outright.
        assert!(refused(&connections.admit(ip(1), &shutdown)));
    }

    #[test]
    fn shutdown_asks_every_connection_to_close() {
        let connections = Connections::new(Limits {
            total: 10,
            per_client: 10,
        });
        let shutdown = CancellationToken::new();
        let place = now(connections.admit(ip(1), &shutdown));
        shutdown.cancel();
        assert!(place.slot.close().is_cancelled());
    }
}
