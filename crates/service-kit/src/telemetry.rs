//! Tracing and OpenTelemetry.
//!
//! [`init`] installs a `tracing` subscriber (human log lines on stderr, `RUST_LOG`
//! filter, default `info`) and an OpenTelemetry layer. Spans always get W3C trace ids
//! so that context propagates; they are *exported* (OTLP/gRPC, traces and metrics)
//! only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
//!
//! Propagation: [`current_traceparent`] gives the `traceparent` of the current span
//! (stored on events, sent as a NATS header and as gRPC metadata); [`set_parent`]
//! makes a span the child of a received `traceparent`. [`GrpcTraceLayer`] does it for
//! every incoming gRPC request, [`inject_traceparent`] for outgoing ones.
use std::collections::HashMap;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use opentelemetry::global;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing::Instrument;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Flushes and stops exporters on drop.
pub struct TelemetryGuard {
    tracer: SdkTracerProvider,
    meter: Option<SdkMeterProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        // Exporters time out after 3 s each; errors (no collector) are not fatal.
        let _ = self.tracer.shutdown();
        if let Some(m) = self.meter.take() {
            let _ = m.shutdown();
        }
    }
}

/// Installs logging and tracing for `service`. Call once, inside the Tokio runtime.
pub fn init(service: &str) -> TelemetryGuard {
    global::set_text_map_propagator(TraceContextPropagator::new());
    let resource = Resource::builder()
        .with_service_name(service.to_owned())
        .build();
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|e| !e.is_empty());
    let mut tracer = SdkTracerProvider::builder().with_resource(resource.clone());
    let mut meter = None;
    if let Some(endpoint) = &endpoint {
        match opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .with_endpoint(endpoint.clone())
            .with_timeout(Duration::from_secs(3))
            .build()
        {
            Ok(exporter) => tracer = tracer.with_batch_exporter(exporter),
            Err(e) => eprintln!("OTLP trace exporter disabled: {e}"),
        }
        match opentelemetry_otlp::MetricExporter::builder()
            .with_tonic()
            .with_endpoint(endpoint.clone())
            .with_timeout(Duration::from_secs(3))
            .build()
        {
            Ok(exporter) => {
                let provider = SdkMeterProvider::builder()
                    .with_resource(resource)
                    .with_periodic_exporter(exporter)
                    .build();
                global::set_meter_provider(provider.clone());
                meter = Some(provider);
            }
            Err(e) => eprintln!("OTLP metric exporter disabled: {e}"),
        }
    }
    let tracer = tracer.build();
    let otel = tracing_opentelemetry::layer().with_tracer(tracer.tracer(service.to_owned()));
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // `RUST_LOG` filters what is logged, never what is traced: spans feed the trace
    // context that travels to other services even when logging is quiet.
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_filter(filter),
        )
        .with(otel.with_filter(tracing_subscriber::filter::LevelFilter::INFO))
        .try_init();
    TelemetryGuard { tracer, meter }
}

/// The W3C `traceparent` of the current span ("" when there is none).
pub fn current_traceparent() -> String {
    let cx = tracing::Span::current().context();
    let mut carrier = HashMap::new();
    global::get_text_map_propagator(|p| p.inject_context(&cx, &mut carrier));
    carrier.remove("traceparent").unwrap_or_default()
}

/// Makes `span` a child of the remote context in `traceparent` (ignored when empty or
/// malformed).
pub fn set_parent(span: &tracing::Span, traceparent: &str) {
    if traceparent.is_empty() {
        return;
    }
    let carrier = HashMap::from([("traceparent".to_owned(), traceparent.to_owned())]);
    let cx = global::get_text_map_propagator(|p| p.extract(&carrier));
    let _ = span.set_parent(cx);
}

/// Client interceptor: adds the current span's `traceparent` to outgoing metadata.
pub fn inject_traceparent(
    mut request: tonic::Request<()>,
) -> Result<tonic::Request<()>, tonic::Status> {
    let tp = current_traceparent();
    if !tp.is_empty()
        && let Ok(v) = tp.parse()
    {
        request.metadata_mut().insert("traceparent", v);
    }
    Ok(request)
}

/// Server layer: one span per gRPC request, child of the caller's `traceparent`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GrpcTraceLayer;

impl<S> tower::Layer<S> for GrpcTraceLayer {
    type Service = GrpcTrace<S>;
    fn layer(&self, inner: S) -> Self::Service {
        GrpcTrace { inner }
    }
}

/// See [`GrpcTraceLayer`].
#[derive(Clone, Debug)]
pub struct GrpcTrace<S> {
    inner: S,
}

impl<S, B> tower::Service<http::Request<B>> for GrpcTrace<S>
where
    S: tower::Service<http::Request<B>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn std::future::Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let span = tracing::info_span!("grpc", rpc = %request.uri().path());
        if let Some(tp) = request
            .headers()
            .get("traceparent")
            .and_then(|v| v.to_str().ok())
        {
            set_parent(&span, tp);
        }
        Box::pin(self.inner.call(request).instrument(span))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn traceparent_round_trips_through_a_remote_parent() {
        let _g = init("test");
        let remote = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        let span = tracing::info_span!("child");
        set_parent(&span, remote);
        let inner = span.in_scope(current_traceparent);
        // Same trace id, new span id.
        assert!(
            inner.starts_with("00-0af7651916cd43dd8448eb211c80319c-"),
            "{inner}"
        );
        assert_ne!(inner, remote);
        let req = span.in_scope(|| inject_traceparent(tonic::Request::new(())).unwrap());
        assert_eq!(
            req.metadata().get("traceparent").unwrap().to_str().unwrap(),
            inner
        );
    }
}
