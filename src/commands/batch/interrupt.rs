//! SIGINT and SIGTERM while `batch` or `compare` runs: flags the handlers set, readers that end
//! once one is set, and input read on a thread of its own so that a signal also ends a wait for
//! input (a FIFO no writer opened, standard input open and silent), which the handlers cannot
//! interrupt: they restart the system call (`SA_RESTART`).

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use anyhow::Result;

use super::Signal;

/// How often a wait for input looks whether a signal came.
const POLL: Duration = Duration::from_millis(50);

/// Blocks read ahead of the reader on an input's thread: bounded memory.
const BLOCKS_AHEAD: usize = 4;

/// Whether SIGINT or SIGTERM came while a batch ran: set by the handlers `install` registers
/// (signal-hook), which a second signal of the same kind bypasses to end the process at once;
/// removed when dropped, so that the Python console script gets its own handlers back.
pub struct Interrupt {
    flags: Flags,
    #[cfg(unix)]
    handlers: Vec<signal_hook::SigId>,
}

/// The two flags, shared with the handlers and the readers.
#[derive(Clone, Default)]
struct Flags {
    interrupt: Arc<AtomicBool>,
    terminate: Arc<AtomicBool>,
}

impl Flags {
    /// The signal received, if any (SIGINT first).
    fn received(&self) -> Option<Signal> {
        if self.interrupt.load(Ordering::Relaxed) {
            Some(Signal::Interrupt)
        } else if self.terminate.load(Ordering::Relaxed) {
            Some(Signal::Terminate)
        } else {
            None
        }
    }
}

impl Interrupt {
    /// Flags that no signal sets.
    pub fn never() -> Self {
        Interrupt {
            flags: Flags::default(),
            #[cfg(unix)]
            handlers: Vec::new(),
        }
    }

    /// Flags set by SIGINT and SIGTERM from now until dropped.
    pub fn install() -> Result<Self> {
        #[cfg_attr(not(unix), allow(unused_mut))]
        let mut interrupt = Interrupt::never();
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            for (signal, flag) in [
                (SIGINT, Arc::clone(&interrupt.flags.interrupt)),
                (SIGTERM, Arc::clone(&interrupt.flags.terminate)),
            ] {
                // The first signal sets the flag; a second one, the flag already set, does what
                // the signal does by default: it ends the process.
                let handlers = [
                    signal_hook::flag::register_conditional_default(signal, Arc::clone(&flag)),
                    signal_hook::flag::register(signal, flag),
                ];
                for handler in handlers {
                    interrupt
                        .handlers
                        .push(handler.map_err(|e| anyhow::anyhow!("cannot handle signals: {e}"))?);
                }
            }
        }
        Ok(interrupt)
    }

    /// The signal received, if any (SIGINT first).
    pub(in crate::commands) fn received(&self) -> Option<Signal> {
        self.flags.received()
    }

    /// Whether signals set the flags (else nothing needs to wait for them).
    fn handled(&self) -> bool {
        #[cfg(unix)]
        return !self.handlers.is_empty();
        #[cfg(not(unix))]
        return false;
    }

    /// What `work` gives, run on a thread of its own, or the signal that came first: the thread
    /// is then left waiting, and ends with the process. Without handlers, `work` runs here.
    pub(in crate::commands) fn wait_for<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Signal> {
        if !self.handled() {
            return Ok(work());
        }
        if let Some(signal) = self.received() {
            return Err(signal);
        }
        let (send, receive) = mpsc::sync_channel(1);
        // Taken back when no thread can be started: `work` then runs here, as without handlers.
        let work = Arc::new(Mutex::new(Some(work)));
        let given = Arc::clone(&work);
        let started = std::thread::Builder::new()
            .name("ragcite-input".to_string())
            .spawn(move || {
                let work = given.lock().ok().and_then(|mut w| w.take());
                if let Some(work) = work {
                    let _ = send.send(work());
                }
            });
        let thread = match started {
            Ok(thread) => thread,
            Err(_) => {
                let work = work.lock().ok().and_then(|mut w| w.take());
                return Ok(work.expect("the work no thread took")());
            }
        };
        loop {
            match receive.recv_timeout(POLL) {
                Ok(done) => return Ok(done),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(signal) = self.received() {
                        return Err(signal);
                    }
                }
                // The work panicked: so does the caller.
                Err(mpsc::RecvTimeoutError::Disconnected) => match thread.join() {
                    Err(panic) => std::panic::resume_unwind(panic),
                    Ok(()) => unreachable!("the thread sends before it ends"),
                },
            }
        }
    }

    /// `open(file)`, then its bytes read ahead on a thread of its own, so that a signal ends a
    /// wait for the file to open (an error of kind `Interrupted`) or for its next bytes (the
    /// reader ends as at the end of the file). Without handlers, `open(file)` as it is.
    pub(in crate::commands) fn open(
        &self,
        file: &str,
        open: fn(&str) -> io::Result<Box<dyn io::BufRead + Send>>,
    ) -> io::Result<Box<dyn io::BufRead + Send>> {
        if !self.handled() {
            return open(file);
        }
        let name = file.to_string();
        let reader = match self.wait_for(move || open(&name)) {
            Ok(opened) => opened?,
            Err(signal) => {
                return Err(io::Error::new(
                    io::ErrorKind::Interrupted,
                    format!("interrupted by {} while waiting to open it", signal.name()),
                ));
            }
        };
        Ok(ReadAhead::start(reader, self.flags.clone()).unwrap_or_else(|reader| reader))
    }

    /// `reader`, ending (as at the end of the file) once a signal came.
    pub(in crate::commands) fn reader(
        &self,
        reader: Box<dyn io::BufRead + Send>,
    ) -> Box<dyn io::BufRead + Send> {
        Box::new(UntilSignal {
            inner: reader,
            flags: self.flags.clone(),
        })
    }
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        #[cfg(unix)]
        for handler in self.handlers.drain(..) {
            signal_hook::low_level::unregister(handler);
        }
    }
}

/// A reader that ends once a flag is set.
struct UntilSignal {
    inner: Box<dyn io::BufRead + Send>,
    flags: Flags,
}

impl io::Read for UntilSignal {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.flags.received().is_some() {
            return Ok(0);
        }
        self.inner.read(buf)
    }
}

impl io::BufRead for UntilSignal {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.flags.received().is_some() {
            return Ok(&[]);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.inner.consume(amount);
    }
}

/// The blocks a thread reads from a reader, a few ahead; ends as at the end of the file when a
/// signal came while it waited for the next one.
struct ReadAhead {
    blocks: mpsc::Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
    ended: bool,
    flags: Flags,
}

impl ReadAhead {
    /// Starts the thread that reads `reader`; gives `reader` back when no thread can start.
    fn start(
        reader: Box<dyn io::BufRead + Send>,
        flags: Flags,
    ) -> Result<Box<dyn io::BufRead + Send>, Box<dyn io::BufRead + Send>> {
        let (send, blocks) = mpsc::sync_channel(BLOCKS_AHEAD);
        let reader = Arc::new(Mutex::new(Some(reader)));
        let given = Arc::clone(&reader);
        let started = std::thread::Builder::new()
            .name("ragcite-input".to_string())
            .spawn(move || {
                if let Some(reader) = given.lock().ok().and_then(|mut r| r.take()) {
                    read_blocks(reader, &send);
                }
            });
        match started {
            Ok(_) => Ok(Box::new(ReadAhead {
                blocks,
                block: Vec::new(),
                at: 0,
                ended: false,
                flags,
            })),
            Err(_) => Err(reader
                .lock()
                .ok()
                .and_then(|mut r| r.take())
                .expect("the reader no thread took")),
        }
    }
}

/// Sends the blocks of `reader` until its end, an error, or a receiver that is gone.
fn read_blocks(
    mut reader: Box<dyn io::BufRead + Send>,
    send: &mpsc::SyncSender<io::Result<Vec<u8>>>,
) {
    loop {
        let block = match reader.fill_buf() {
            Ok([]) => return,
            Ok(bytes) => bytes.to_vec(),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = send.send(Err(e));
                return;
            }
        };
        reader.consume(block.len());
        if send.send(Ok(block)).is_err() {
            return;
        }
    }
}

impl io::Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = io::BufRead::fill_buf(self)?;
        let n = available.len().min(buf.len());
        buf[..n].copy_from_slice(&available[..n]);
        io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl io::BufRead for ReadAhead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.block.len() && !self.ended {
            match self.blocks.recv_timeout(POLL) {
                Ok(Ok(block)) => {
                    self.block = block;
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.ended = self.flags.received().is_some();
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => self.ended = true,
            }
        }
        Ok(&self.block[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.block.len());
    }
}
