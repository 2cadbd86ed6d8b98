//! Readiness: until the projections have caught up with the log head the process
//! started with, every RPC but health and reflection answers `UNAVAILABLE` with a retry
//! hint, so no client reads a partial projection (ADR platform-006). A health answer
//! given while a dependency is down carries `arbiter-unhealthy` metadata naming it
//! (ADR platform-014).
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use crate::dependencies::{Dependencies, UNHEALTHY_METADATA};

/// Seconds a client is told to wait before retrying.
pub const RETRY_AFTER_SECS: u32 = 1;
/// Longest `arbiter-unhealthy` value (the probes' messages cut to it).
const MAX_UNHEALTHY_CHARS: usize = 500;

/// The layer (see the module doc).
#[derive(Clone)]
pub struct ReadinessLayer {
    ready: Arc<AtomicBool>,
    dependencies: Dependencies,
}

impl ReadinessLayer {
    /// Gates on `ready`; health answers name what `dependencies` says is down.
    pub fn new(ready: Arc<AtomicBool>, dependencies: Dependencies) -> Self {
        ReadinessLayer {
            ready,
            dependencies,
        }
    }
}

impl<S> tower::Layer<S> for ReadinessLayer {
    type Service = Readiness<S>;
    fn layer(&self, inner: S) -> Self::Service {
        Readiness {
            inner,
            ready: self.ready.clone(),
            dependencies: self.dependencies.clone(),
        }
    }
}

/// See [`ReadinessLayer`].
#[derive(Clone)]
pub struct Readiness<S> {
    inner: S,
    ready: Arc<AtomicBool>,
    dependencies: Dependencies,
}

/// The problems as one header value: printable ASCII, at most [`MAX_UNHEALTHY_CHARS`].
fn unhealthy_value(problems: &[String]) -> Option<http::HeaderValue> {
    if problems.is_empty() {
        return None;
    }
    let text: String = problems
        .join("; ")
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .take(MAX_UNHEALTHY_CHARS)
        .collect();
    http::HeaderValue::from_str(&text).ok()
}

fn always_open(path: &str) -> bool {
    path.starts_with("/grpc.health.") || path.starts_with("/grpc.reflection.")
}

impl<S, B> tower::Service<http::Request<B>> for Readiness<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<tonic::body::Body>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn std::future::Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        if req.uri().path().starts_with("/grpc.health.") {
            let problems = self.dependencies.problems();
            let answer = self.inner.call(req);
            return Box::pin(async move {
                let mut response = answer.await?;
                if let Some(v) = unhealthy_value(&problems) {
                    response.headers_mut().insert(UNHEALTHY_METADATA, v);
                }
                Ok(response)
            });
        }
        if self.ready.load(Ordering::Acquire) || always_open(req.uri().path()) {
            return Box::pin(self.inner.call(req));
        }
        let mut status = tonic::Status::unavailable(format!(
            "the service is starting: its projections are catching up with the event log; retry in {RETRY_AFTER_SECS} s"
        ));
        if let Ok(v) = RETRY_AFTER_SECS.to_string().parse() {
            status.metadata_mut().insert("retry-after", v);
        }
        let response = status.into_http();
        Box::pin(async move { Ok(response) })
    }
}
