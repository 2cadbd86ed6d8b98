//! Connection limits (ADR platform-010): at most `--max-connections` open at once, and a
//! connection idle for `--idle-timeout-secs` (no request in flight, nothing received) is
//! closed.
//!
//! The accept loop counts open connections. One beyond the cap is still accepted, but
//! only to be answered: every request on it gets `RESOURCE_EXHAUSTED` naming the limit
//! (from [`crate::gate`]), and it is closed after [`REFUSED_LIFETIME`]; at most
//! [`MAX_REFUSING`] such connections are kept, any more are closed at once. Accept errors
//! (out of file descriptors) are retried after a pause rather than in a busy loop.
//!
//! Idle timeout: hyper has none for HTTP/2, so [`LimitedIo`] wraps the socket. The gate
//! counts the requests in flight of its connection ([`ConnState::begin`]); when nothing
//! is in flight and nothing has been read for the timeout, the next read ends the
//! connection (end of file: hyper closes it, the client reconnects on its next call).
//! A stream in flight (`WatchBoard`) keeps its connection open however quiet it is.
//! At shutdown a connection with nothing in flight ends at once, so that a client that
//! connected and sent nothing cannot hold the drain up.
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// How long a connection beyond the cap is kept to answer its refusals.
pub const REFUSED_LIFETIME: Duration = Duration::from_secs(2);
/// Most connections beyond the cap kept open to be answered.
pub const MAX_REFUSING: usize = 64;
/// Pause after a failed accept (e.g. no file descriptor left).
const ACCEPT_RETRY: Duration = Duration::from_millis(50);

/// The state of one connection, shared by its socket and its requests.
#[derive(Debug)]
pub struct ConnState {
    start: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds after `start` of the last read or the last request's end.
    last_active_ms: AtomicU64,
}

impl ConnState {
    fn new() -> Arc<ConnState> {
        Arc::new(ConnState {
            start: Instant::now(),
            in_flight: AtomicUsize::new(0),
            last_active_ms: AtomicU64::new(0),
        })
    }

    fn touch(&self) {
        let ms = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_active_ms.fetch_max(ms, Ordering::Relaxed);
    }

    fn last_active(&self) -> Instant {
        self.start + Duration::from_millis(self.last_active_ms.load(Ordering::Relaxed))
    }

    /// A request starts: the connection is not idle until the guard is dropped (at the
    /// end of the response's body).
    pub fn begin(self: &Arc<Self>) -> InFlight {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(self.clone())
    }

    /// Requests in flight.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }
}

/// A request in flight on its connection (see [`ConnState::begin`]).
#[derive(Debug)]
pub struct InFlight(Arc<ConnState>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What the gate learns about a request's connection (tonic puts it in the request's
/// extensions).
#[derive(Debug, Clone)]
pub struct ConnInfo {
    /// The peer.
    pub remote_addr: Option<SocketAddr>,
    /// This end.
    pub local_addr: Option<SocketAddr>,
    /// Accepted beyond the cap: every request is refused, naming `max_connections`.
    pub refused: Option<u32>,
    /// Requests in flight, activity.
    pub state: Arc<ConnState>,
}

/// Counts a connection as open until dropped.
#[derive(Debug)]
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

type Closing = Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// An accepted socket with the idle timeout (see the module doc).
pub struct LimitedIo {
    io: TcpStream,
    info: ConnInfo,
    idle: Option<Duration>,
    timer: Pin<Box<tokio::time::Sleep>>,
    /// Ready once the process shuts down (`None`: it does).
    closing: Option<Closing>,
    _slot: Slot,
}

impl std::fmt::Debug for LimitedIo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LimitedIo")
            .field("info", &self.info)
            .finish_non_exhaustive()
    }
}

impl LimitedIo {
    /// Whether the connection has been idle for its timeout (or, beyond the cap, has
    /// lived its [`REFUSED_LIFETIME`]); arms the timer when not.
    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        if let Some(c) = &mut self.closing
            && c.as_mut().poll(cx).is_ready()
        {
            self.closing = None;
        }
        if self.closing.is_none() && self.info.state.in_flight() == 0 {
            // Shutting down: a connection with nothing in flight (one that never sent a
            // request, too) must not hold the drain up until its idle timeout.
            return true;
        }
        loop {
            let now = tokio::time::Instant::now();
            let state = &self.info.state;
            let deadline = if self.info.refused.is_some() {
                tokio::time::Instant::from_std(state.start + REFUSED_LIFETIME)
            } else {
                let Some(idle) = self.idle else {
                    return false;
                };
                if state.in_flight() > 0 {
                    // Not idle: looked at again after a while (the request's end moves
                    // the deadline).
                    let d = self.timer.deadline();
                    if d > now { d } else { now + idle }
                } else {
                    tokio::time::Instant::from_std(state.last_active() + idle)
                }
            };
            if now >= deadline {
                return true;
            }
            if self.timer.deadline() != deadline {
                self.timer.as_mut().reset(deadline);
            }
            if self.timer.as_mut().poll(cx).is_pending() {
                return false;
            }
        }
    }
}

impl tonic::transport::server::Connected for LimitedIo {
    type ConnectInfo = ConnInfo;
    fn connect_info(&self) -> ConnInfo {
        self.info.clone()
    }
}

impl AsyncRead for LimitedIo {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.info.state.touch();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                if self.expired(cx) {
                    // End of file: hyper ends the connection and the socket is closed.
                    Poll::Ready(Ok(()))
                } else {
                    Poll::Pending
                }
            }
        }
    }
}

impl AsyncWrite for LimitedIo {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.io).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

/// The connection limits of an accept loop.
#[derive(Debug, Clone)]
pub struct ConnLimits {
    /// Most open connections.
    pub max_connections: u32,
    /// Idle timeout (`None`: none).
    pub idle_timeout: Option<Duration>,
    /// Turns true when the process shuts down: connections with nothing in flight are
    /// closed then.
    pub shutdown: tokio::sync::watch::Receiver<bool>,
}

struct Accept {
    listener: TcpListener,
    limits: ConnLimits,
    open: Arc<AtomicUsize>,
    refusing: Arc<AtomicUsize>,
    refused_total: u64,
    warned: Option<Instant>,
}

impl Accept {
    fn limited(&self, io: TcpStream, refused: bool) -> LimitedIo {
        let _ = io.set_nodelay(true);
        let slot = if refused {
            self.refusing.fetch_add(1, Ordering::AcqRel);
            Slot(self.refusing.clone())
        } else {
            self.open.fetch_add(1, Ordering::AcqRel);
            Slot(self.open.clone())
        };
        let state = ConnState::new();
        let info = ConnInfo {
            remote_addr: io.peer_addr().ok(),
            local_addr: io.local_addr().ok(),
            refused: refused.then_some(self.limits.max_connections),
            state,
        };
        let mut shutdown = self.limits.shutdown.clone();
        LimitedIo {
            io,
            info,
            idle: self.limits.idle_timeout,
            timer: Box::pin(tokio::time::sleep(Duration::ZERO)),
            closing: Some(Box::pin(async move {
                let _ = shutdown.wait_for(|s| *s).await;
            })),
            _slot: slot,
        }
    }

    fn count_refusal(&mut self) {
        self.refused_total += 1;
        if self
            .warned
            .is_none_or(|w| w.elapsed() >= Duration::from_secs(10))
        {
            self.warned = Some(Instant::now());
            tracing::warn!(
                open = self.open.load(Ordering::Acquire),
                limit = self.limits.max_connections,
                refused_total = self.refused_total,
                "connection refused: the limit of open connections (--max-connections) is reached"
            );
        }
    }
}

/// The accepted connections of `listener`, within `limits` (see the module doc).
pub fn incoming(
    listener: TcpListener,
    limits: ConnLimits,
) -> impl futures::Stream<Item = io::Result<LimitedIo>> {
    let accept = Accept {
        listener,
        limits,
        open: Arc::new(AtomicUsize::new(0)),
        refusing: Arc::new(AtomicUsize::new(0)),
        refused_total: 0,
        warned: None,
    };
    futures::stream::unfold(accept, |mut a| async move {
        loop {
            let io = match a.listener.accept().await {
                Ok((io, _)) => io,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed; retrying");
                    tokio::time::sleep(ACCEPT_RETRY).await;
                    continue;
                }
            };
            let open = a.open.load(Ordering::Acquire);
            if open < a.limits.max_connections as usize {
                let io = a.limited(io, false);
                return Some((Ok(io), a));
            }
            a.count_refusal();
            if a.refusing.load(Ordering::Acquire) < MAX_REFUSING {
                let io = a.limited(io, true);
                return Some((Ok(io), a));
            }
            // Beyond the answered ones too: closed at once.
            drop(io);
        }
    })
}
