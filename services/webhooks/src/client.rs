//! One delivery attempt over HTTP/1.1 (the shell): a new connection per attempt (TLS
//! with the system's roots for https), one POST, the status read, the connection
//! dropped. Redirects are not followed (a 3xx is a failed attempt); the answer's body
//! is not read; the whole attempt is bounded by `timeout`.
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::rt::TokioIo;

use crate::validate::Target;

/// What an attempt got: the HTTP status, or why there was none.
pub type Outcome = Result<u16, String>;

fn tls_config() -> Result<Arc<rustls::ClientConfig>, String> {
    static CONFIG: OnceLock<Result<Arc<rustls::ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = rustls::RootCertStore::empty();
            let found = rustls_native_certs::load_native_certs();
            for c in found.certs {
                let _ = roots.add(c);
            }
            let config = rustls::ClientConfig::builder_with_provider(Arc::new(
                rustls::crypto::ring::default_provider(),
            ))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("TLS: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
            Ok(Arc::new(config))
        })
        .clone()
}

/// POSTs `body` to `target` with `headers`, within `timeout`.
pub async fn post(
    target: &Target,
    headers: &[(&'static str, String)],
    body: Bytes,
    timeout: Duration,
) -> Outcome {
    match tokio::time::timeout(timeout, attempt(target, headers, body)).await {
        Ok(r) => r,
        Err(_) => Err(format!("no answer within {} ms", timeout.as_millis())),
    }
}

async fn attempt(target: &Target, headers: &[(&'static str, String)], body: Bytes) -> Outcome {
    let tcp = tokio::net::TcpStream::connect((target.host.as_str(), target.port))
        .await
        .map_err(|e| format!("connect {}:{}: {e}", target.host, target.port))?;
    let _ = tcp.set_nodelay(true);
    let host_header = if (target.tls && target.port == 443) || (!target.tls && target.port == 80) {
        target.host.clone()
    } else if target.host.contains(':') {
        format!("[{}]:{}", target.host, target.port)
    } else {
        format!("{}:{}", target.host, target.port)
    };
    let mut req = http::Request::builder()
        .method(http::Method::POST)
        .uri(target.path_and_query.as_str())
        .header(http::header::HOST, host_header)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::USER_AGENT, "arbiter-webhooks/1")
        .header(http::header::CONNECTION, "close");
    for (k, v) in headers {
        req = req.header(*k, v);
    }
    let req = req
        .body(Full::new(body))
        .map_err(|e| format!("request: {e}"))?;
    if target.tls {
        let name = rustls::pki_types::ServerName::try_from(target.host.clone())
            .map_err(|e| format!("TLS server name {}: {e}", target.host))?;
        let tls = tokio_rustls::TlsConnector::from(tls_config()?)
            .connect(name, tcp)
            .await
            .map_err(|e| format!("TLS with {}: {e}", target.host))?;
        send(TokioIo::new(tls), req).await
    } else {
        send(TokioIo::new(tcp), req).await
    }
}

async fn send<IO>(io: IO, req: http::Request<Full<Bytes>>) -> Outcome
where
    IO: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, conn) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    let conn = tokio::spawn(conn);
    let r = sender
        .send_request(req)
        .await
        .map_err(|e| format!("HTTP: {e}"));
    // The body is not read: the connection goes.
    conn.abort();
    Ok(r?.status().as_u16())
}
