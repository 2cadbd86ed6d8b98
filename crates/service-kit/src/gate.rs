//! The request gate (ADR platform-010): a tower layer in front of every service that
//! enforces the request limits before a request's body is decoded, before any handler
//! runs and so before anything is loaded or authorised. In order:
//!
//! 1. a connection beyond `--max-connections` is answered `RESOURCE_EXHAUSTED`
//!    (see [`crate::connections`]);
//! 2. writes and expensive reads take a token of their caller's bucket
//!    ([`crate::rate_limit`]): the principal of a valid bearer token, else the peer
//!    address; `RESOURCE_EXHAUSTED` naming the limit and the caller, with a retry hint;
//! 3. an RPC whose messages may be larger than [`limits::DEFAULT_MESSAGE_BYTES`]
//!    (imports) is refused `UNAUTHENTICATED` without a valid token, before its body is
//!    read;
//! 4. expensive reads are read whole first (a client that holds its message back holds
//!    no slot), then wait (up to `--expensive-wait-ms`) for one of the
//!    `--max-expensive-reads` slots (`VerifyLog` also for its own single slot), else
//!    `RESOURCE_EXHAUSTED`; the slot is held until the response's body is sent;
//! 5. every message of the request body is checked against the RPC's limit
//!    ([`limits::max_message_bytes`]) from its 5-byte gRPC prefix, before the message
//!    is buffered: `RESOURCE_EXHAUSTED` naming the size and the limit.
//!
//! It also counts the requests in flight of each connection, for the idle timeout.
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::{Buf, Bytes};
use http_body::Frame;
use http_body_util::{BodyExt, Full};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tonic::Status;
use tonic::body::Body;

use crate::access::Access;
use crate::connections::{ConnInfo, InFlight};
use crate::limits::{self, ADR, LimitOptions, RpcClass};
use crate::rate_limit::{RateLimiter, Who};

/// How long an expensive read's message may take to arrive.
const BODY_WAIT: Duration = Duration::from_secs(10);

/// Shared by every clone of the gate.
struct Shared {
    access: Access,
    rates: RateLimiter,
    expensive: Arc<Semaphore>,
    max_expensive: u32,
    one_at_a_time: Vec<(&'static str, Arc<Semaphore>)>,
    wait: Duration,
}

/// The layer (see the module doc).
#[derive(Clone)]
pub struct GateLayer {
    shared: Arc<Shared>,
}

impl GateLayer {
    /// The gate of `options`, identifying callers through `access`.
    pub fn new(access: Access, options: &LimitOptions) -> GateLayer {
        GateLayer {
            shared: Arc::new(Shared {
                access,
                rates: RateLimiter::new(options),
                expensive: Arc::new(Semaphore::new(options.max_expensive_reads.max(1) as usize)),
                max_expensive: options.max_expensive_reads.max(1),
                one_at_a_time: limits::ONE_AT_A_TIME
                    .iter()
                    .map(|r| (*r, Arc::new(Semaphore::new(1))))
                    .collect(),
                wait: Duration::from_millis(options.expensive_wait_ms),
            }),
        }
    }
}

impl<S> tower::Layer<S> for GateLayer {
    type Service = Gate<S>;
    fn layer(&self, inner: S) -> Self::Service {
        Gate {
            inner,
            shared: self.shared.clone(),
        }
    }
}

/// See [`GateLayer`].
#[derive(Clone)]
pub struct Gate<S> {
    inner: S,
    shared: Arc<Shared>,
}

/// A refusal with a retry hint (`retry-after` in seconds, `grpc-retry-pushback-ms`).
fn refusal(mut status: Status, retry: Option<Duration>) -> http::Response<Body> {
    if let Some(retry) = retry {
        let secs = retry.as_secs_f64().ceil().max(1.0) as u64;
        let ms = u64::try_from(retry.as_millis()).unwrap_or(u64::MAX).max(1);
        if let Ok(v) = secs.to_string().parse() {
            status.metadata_mut().insert("retry-after", v);
        }
        if let Ok(v) = ms.to_string().parse() {
            status.metadata_mut().insert("grpc-retry-pushback-ms", v);
        }
    }
    status.into_http()
}

fn fmt_retry(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis().max(1))
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// The caller whose bucket a request takes from, and its name for messages.
fn who(access: &Access, headers: &http::HeaderMap, conn: Option<&ConnInfo>) -> (Who, String) {
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|h| {
            h.strip_prefix("Bearer ")
                .or_else(|| h.strip_prefix("bearer "))
        });
    if let Some(c) = token.and_then(|t| access.caller(t).ok()) {
        let name = format!("{} ({})", c.name, c.principal_id);
        return (Who::Principal(c.principal_id), name);
    }
    let ip = conn.and_then(|c| c.remote_addr).map(|a| a.ip());
    let w = Who::Address(ip);
    let name = format!("{w} (no valid token)");
    (w, name)
}

impl<S> tower::Service<http::Request<Body>> for Gate<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<Body>>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future =
        Pin<Box<dyn std::future::Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<Body>) -> Self::Future {
        let shared = self.shared.clone();
        let rpc = req
            .uri()
            .path()
            .rsplit('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let conn = req.extensions().get::<ConnInfo>().cloned();
        if let Some(c) = &conn {
            // What tonic's `Request::remote_addr` reads.
            req.extensions_mut()
                .insert(tonic::transport::server::TcpConnectInfo {
                    local_addr: c.local_addr,
                    remote_addr: c.remote_addr,
                });
            if let Some(max) = c.refused {
                let s = Status::resource_exhausted(format!(
                    "connections: {max} are open, the limit (--max-connections, {ADR}); this connection is closed, retry later"
                ));
                let r = refusal(s, Some(Duration::from_secs(1)));
                return Box::pin(async move { Ok(r) });
            }
        }
        let class = limits::class_of(&rpc);
        let max_bytes = limits::max_message_bytes(&rpc);
        if class != RpcClass::Read || max_bytes > limits::DEFAULT_MESSAGE_BYTES {
            let (who, name) = who(&shared.access, req.headers(), conn.as_ref());
            if let Some(rate) = shared.rates.rate(class)
                && let Err(retry) = shared.rates.take(&who, class)
            {
                let s = Status::resource_exhausted(format!(
                    "rate limit: {rpc}: {name} sent more {} than {} per second (burst {}; --rate-{}-per-second, {ADR}); retry in {}",
                    class.name(),
                    rate.per_second,
                    rate.burst,
                    if class == RpcClass::Write {
                        "writes"
                    } else {
                        "expensive"
                    },
                    fmt_retry(retry)
                ));
                let r = refusal(s, Some(retry));
                return Box::pin(async move { Ok(r) });
            }
            if max_bytes > limits::DEFAULT_MESSAGE_BYTES && !matches!(who, Who::Principal(_)) {
                let s = Status::unauthenticated(format!(
                    "authorization: {rpc} needs a valid bearer token (ARBITER_TOKEN) before its body is read (messages of up to {max_bytes} bytes; {ADR})"
                ));
                let r = refusal(s, None);
                return Box::pin(async move { Ok(r) });
            }
        }
        let in_flight = conn.as_ref().map(|c| c.state.begin());
        let req = req.map(|b| Body::new(MessageLimit::new(b, rpc.clone(), max_bytes)));
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        Box::pin(async move {
            let mut permits = Vec::new();
            let mut req = req;
            if class == RpcClass::Expensive {
                // The message first (at most the RPC's limit): a client holding its
                // body back holds no slot.
                let (parts, body) = req.into_parts();
                let bytes = match tokio::time::timeout(BODY_WAIT, body.collect()).await {
                    Ok(Ok(c)) => c.to_bytes(),
                    Ok(Err(status)) => return Ok(status.into_http()),
                    Err(_) => {
                        let s = Status::deadline_exceeded(format!(
                            "{rpc}: the request message did not arrive within {} s ({ADR})",
                            BODY_WAIT.as_secs()
                        ));
                        return Ok(refusal(s, None));
                    }
                };
                req = http::Request::from_parts(parts, Body::new(Full::new(bytes)));
                let mut slots = vec![(shared.expensive.clone(), shared.max_expensive)];
                if let Some((_, s)) = shared.one_at_a_time.iter().find(|(r, _)| *r == rpc) {
                    slots.insert(0, (s.clone(), 1));
                }
                for (sem, max) in slots {
                    match tokio::time::timeout(shared.wait, sem.acquire_owned()).await {
                        Ok(Ok(p)) => permits.push(p),
                        _ => {
                            let s = Status::resource_exhausted(format!(
                                "concurrency limit: {rpc}: {max} expensive read(s) already running (--max-expensive-reads{}, {ADR}); none finished within {} ms; retry in 1 s",
                                if max == 1 {
                                    "; VerifyLog runs one at a time"
                                } else {
                                    ""
                                },
                                shared.wait.as_millis()
                            ));
                            return Ok(refusal(s, Some(Duration::from_secs(1))));
                        }
                    }
                }
            }
            let response = inner.call(req).await?;
            Ok(response.map(|b| {
                Body::new(Guarded {
                    inner: b,
                    _permits: permits,
                    _in_flight: in_flight,
                })
            }))
        })
    }
}

/// A response body that holds its request's slots until it is sent (or dropped).
struct Guarded {
    inner: Body,
    _permits: Vec<OwnedSemaphorePermit>,
    _in_flight: Option<InFlight>,
}

impl http_body::Body for Guarded {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }
    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }
    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// A request body whose gRPC messages are checked against a limit from their 5-byte
/// prefix (compressed flag, big-endian length), as the bytes pass.
struct MessageLimit {
    inner: Body,
    rpc: String,
    limit: usize,
    /// Bytes of the current prefix seen, and the prefix.
    prefix: ([u8; 5], usize),
    /// Bytes of the current message still to pass.
    remaining: usize,
    failed: bool,
}

impl MessageLimit {
    fn new(inner: Body, rpc: String, limit: usize) -> MessageLimit {
        MessageLimit {
            inner,
            rpc,
            limit,
            prefix: ([0; 5], 0),
            remaining: 0,
            failed: false,
        }
    }

    /// Follows the framing through `data`; the first message over the limit is an error.
    fn check(&mut self, mut data: &[u8]) -> Result<(), Status> {
        while !data.is_empty() {
            if self.remaining > 0 {
                let n = self.remaining.min(data.len());
                self.remaining -= n;
                data.advance(n);
                continue;
            }
            let (buf, have) = &mut self.prefix;
            let n = (5 - *have).min(data.len());
            buf[*have..*have + n].copy_from_slice(&data[..n]);
            *have += n;
            data.advance(n);
            if *have == 5 {
                let len = u32::from_be_bytes([buf[1], buf[2], buf[3], buf[4]]) as usize;
                *have = 0;
                if len > self.limit {
                    return Err(Status::resource_exhausted(format!(
                        "message size: {}: the request message is {len} bytes; the limit is {} bytes ({ADR})",
                        self.rpc, self.limit
                    )));
                }
                self.remaining = len;
            }
        }
        Ok(())
    }
}

impl http_body::Body for MessageLimit {
    type Data = Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Status>>> {
        if self.failed {
            return Poll::Ready(None);
        }
        let frame = match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(f))) => f,
            other => return other,
        };
        if let Some(data) = frame.data_ref()
            && let Err(s) = self.check(data)
        {
            self.failed = true;
            return Poll::Ready(Some(Err(s)));
        }
        Poll::Ready(Some(Ok(frame)))
    }
    fn is_end_stream(&self) -> bool {
        self.failed || self.inner.is_end_stream()
    }
    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::{Layer, Service};

    /// Answers at once, except the calls of `hold` (an RPC name): those wait for
    /// `release` (after saying they started).
    #[derive(Clone)]
    struct Inner {
        hold: &'static str,
        started: tokio::sync::mpsc::UnboundedSender<()>,
        release: Arc<tokio::sync::Semaphore>,
    }

    impl Service<http::Request<Body>> for Inner {
        type Response = http::Response<Body>;
        type Error = std::convert::Infallible;
        type Future =
            Pin<Box<dyn std::future::Future<Output = Result<Self::Response, Self::Error>> + Send>>;
        fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
            Poll::Ready(Ok(()))
        }
        fn call(&mut self, req: http::Request<Body>) -> Self::Future {
            let held = req.uri().path().ends_with(self.hold);
            let (started, release) = (self.started.clone(), self.release.clone());
            Box::pin(async move {
                if held {
                    let _ = started.send(());
                    release.acquire().await.unwrap().forget();
                }
                Ok(http::Response::new(Body::empty()))
            })
        }
    }

    fn request(rpc: &str) -> http::Request<Body> {
        http::Request::builder()
            .uri(format!("/arbiter.v1.ResultsService/{rpc}"))
            .body(Body::empty())
            .unwrap()
    }

    fn status(r: &http::Response<Body>) -> Option<Status> {
        Status::from_header_map(r.headers())
    }

    #[tokio::test]
    async fn expensive_reads_beyond_the_cap_are_refused_after_the_wait_and_verify_runs_alone() {
        let options = LimitOptions {
            max_expensive_reads: 2,
            expensive_wait_ms: 50,
            ..LimitOptions::default()
        };
        let (started, mut started_rx) = tokio::sync::mpsc::unbounded_channel();
        let release = Arc::new(tokio::sync::Semaphore::new(0));
        let gate = GateLayer::new(Access::default(), &options).layer(Inner {
            hold: "/VerifyLog",
            started,
            release: release.clone(),
        });
        let mut g = gate.clone();
        let first = tokio::spawn(async move { g.call(request("VerifyLog")).await.unwrap() });
        started_rx.recv().await.unwrap();
        // A second VerifyLog waits, then is refused naming the limit.
        let r = gate.clone().call(request("VerifyLog")).await.unwrap();
        let s = status(&r).expect("a refusal");
        assert_eq!(s.code(), tonic::Code::ResourceExhausted, "{s:?}");
        assert!(
            s.message().contains("concurrency limit: VerifyLog")
                && s.message().contains("one at a time")
                && s.message().contains("--max-expensive-reads"),
            "{}",
            s.message()
        );
        assert!(r.headers().contains_key("retry-after"));
        // Another expensive read takes the second slot; reads are not held up.
        let r = gate.clone().call(request("GetStandings")).await.unwrap();
        assert!(status(&r).is_none(), "{:?}", status(&r));
        let r = gate.clone().call(request("GetTournament")).await.unwrap();
        assert!(status(&r).is_none());
        // Released: the slot is free again.
        release.add_permits(1);
        assert!(status(&first.await.unwrap()).is_none());
        release.add_permits(1);
        let r = gate.clone().call(request("VerifyLog")).await.unwrap();
        assert!(status(&r).is_none(), "{:?}", status(&r));
    }

    #[tokio::test]
    async fn the_cap_counts_every_expensive_read_and_a_refused_one_takes_no_slot() {
        let options = LimitOptions {
            max_expensive_reads: 1,
            expensive_wait_ms: 20,
            ..LimitOptions::default()
        };
        let (started, mut started_rx) = tokio::sync::mpsc::unbounded_channel();
        let release = Arc::new(tokio::sync::Semaphore::new(0));
        let gate = GateLayer::new(Access::default(), &options).layer(Inner {
            hold: "/GetStandings",
            started,
            release: release.clone(),
        });
        let mut g = gate.clone();
        let first = tokio::spawn(async move { g.call(request("GetStandings")).await.unwrap() });
        started_rx.recv().await.unwrap();
        for rpc in ["ExportAudit", "GetStandings", "ExportTrf"] {
            let r = gate.clone().call(request(rpc)).await.unwrap();
            let s = status(&r).expect("a refusal");
            assert_eq!(s.code(), tonic::Code::ResourceExhausted, "{rpc}: {s:?}");
            assert!(
                s.message().contains("1 expensive read(s) already running"),
                "{}",
                s.message()
            );
        }
        release.add_permits(1);
        first.await.unwrap();
        let r = gate.clone().call(request("ExportAudit")).await.unwrap();
        assert!(status(&r).is_none());
    }

    fn framed(len: u32, payload: usize) -> Vec<u8> {
        let mut v = vec![0u8];
        v.extend_from_slice(&len.to_be_bytes());
        v.extend(std::iter::repeat_n(7u8, payload));
        v
    }

    #[test]
    fn messages_are_checked_from_their_prefix_across_chunks() {
        let mut m = MessageLimit::new(Body::empty(), "GetStandings".into(), 100);
        let mut data = framed(100, 100);
        data.extend(framed(3, 3));
        // Split everywhere, the prefix too.
        for chunk in data.chunks(3) {
            m.check(chunk).unwrap();
        }
        let big = framed(3_000_000, 10);
        let e = m
            .check(&big[..2])
            .and_then(|()| m.check(&big[2..]))
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::ResourceExhausted);
        assert_eq!(
            e.message(),
            "message size: GetStandings: the request message is 3000000 bytes; the limit is 100 bytes (ADR platform-010)"
        );
    }
}
