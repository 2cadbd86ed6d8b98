//! Readiness: until the projections have caught up with the log head the process
//! started with, every RPC but health and reflection answers `UNAVAILABLE` with a retry
//! hint, so no client reads a partial projection (ADR platform-006).
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

/// Seconds a client is told to wait before retrying.
pub const RETRY_AFTER_SECS: u32 = 1;

/// The layer (see the module doc).
#[derive(Clone)]
pub struct ReadinessLayer {
    ready: Arc<AtomicBool>,
}

impl ReadinessLayer {
    /// Gates on `ready`.
    pub fn new(ready: Arc<AtomicBool>) -> Self {
        ReadinessLayer { ready }
    }
}

impl<S> tower::Layer<S> for ReadinessLayer {
    type Service = Readiness<S>;
    fn layer(&self, inner: S) -> Self::Service {
        Readiness {
            inner,
            ready: self.ready.clone(),
        }
    }
}

/// See [`ReadinessLayer`].
#[derive(Clone)]
pub struct Readiness<S> {
    inner: S,
    ready: Arc<AtomicBool>,
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
