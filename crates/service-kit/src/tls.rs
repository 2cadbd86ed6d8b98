//! # TLS on the gRPC port (ADR platform-009)
//!
//! - [`TlsArgs`]: the flags of every server binary (`--tls-cert`, `--tls-key`,
//!   `--client-ca`, `--allow-plaintext-non-loopback`) and [`TlsArgs::server`], which reads
//!   and checks the PEM files at start (an error names the file) and refuses a plaintext
//!   listener on an address other than loopback unless it is asked for explicitly.
//! - [`client_config`]: the client side (the CLI): the system's roots plus an optional
//!   CA file, and an optional client certificate for mTLS.
//!
//! rustls with the ring provider only (no aws-lc, no OpenSSL), its safe defaults (TLS
//! 1.3 and 1.2).
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tonic::transport::{Certificate, ClientTlsConfig, Identity, ServerTlsConfig};

/// How long a client may take to finish the TLS handshake before the server drops it.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Makes ring the process's rustls provider (once; a provider already installed stays).
/// Everything here builds its configs with ring explicitly; this is for the libraries
/// (tonic's server, async-nats) that ask rustls for the process default.
pub fn install_crypto_provider() {
    if rustls::crypto::CryptoProvider::get_default().is_none() {
        // Fails only when another thread installed one first: that one is kept.
        let _ = rustls::crypto::ring::default_provider().install_default();
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// TLS flags of a gRPC server (`arbiterd` and the standalone services).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct TlsArgs {
    /// Serve gRPC over TLS with this certificate chain (PEM, the server's certificate
    /// first); needs --tls-key. Without it the port is plaintext (allowed on loopback only,
    /// see --allow-plaintext-non-loopback). Read at start: a new certificate takes a restart.
    #[arg(
        long,
        env = "ARBITER_TLS_CERT",
        requires = "tls_key",
        value_name = "PEM"
    )]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(
        long,
        env = "ARBITER_TLS_KEY",
        requires = "tls_cert",
        value_name = "PEM"
    )]
    pub tls_key: Option<PathBuf>,
    /// Mutual TLS: every client must present a certificate signed by this CA (PEM; one or
    /// more certificates). Needs --tls-cert.
    #[arg(
        long,
        env = "ARBITER_CLIENT_CA",
        requires = "tls_cert",
        value_name = "PEM"
    )]
    pub client_ca: Option<PathBuf>,
    /// Serve plaintext gRPC on an address other than loopback (e.g. behind a proxy that
    /// terminates TLS, on a private network). Without TLS and without this flag the server
    /// refuses to start on such an address: bearer tokens would cross the network in clear.
    #[arg(long, env = "ARBITER_ALLOW_PLAINTEXT_NON_LOOPBACK")]
    pub allow_plaintext_non_loopback: bool,
}

/// What the gRPC listener speaks: made by [`TlsArgs::server`].
#[derive(Clone)]
pub struct ServerTls {
    config: Option<ServerTlsConfig>,
    mutual: bool,
}

impl ServerTls {
    /// Plaintext (only for in-process tests and tools that bind loopback themselves).
    pub fn plaintext() -> ServerTls {
        ServerTls {
            config: None,
            mutual: false,
        }
    }

    /// The tonic config, `None` for plaintext.
    pub fn config(&self) -> Option<&ServerTlsConfig> {
        self.config.as_ref()
    }

    /// How the listener is described in the start-up line: `plaintext`, `TLS`, or
    /// `TLS, client certificate required`.
    pub fn describe(&self) -> &'static str {
        match (&self.config, self.mutual) {
            (None, _) => "plaintext",
            (Some(_), false) => "TLS",
            (Some(_), true) => "TLS, client certificate required",
        }
    }
}

impl TlsArgs {
    /// The listener's TLS for `listen`: the PEM files read and checked (a certificate that
    /// does not parse, a key that does not match it, an empty CA file are errors naming
    /// the file), or plaintext — refused on a non-loopback address unless
    /// `--allow-plaintext-non-loopback` is given.
    pub fn server(&self, listen: SocketAddr) -> anyhow::Result<ServerTls> {
        let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) else {
            if self.client_ca.is_some() {
                anyhow::bail!("--client-ca needs --tls-cert and --tls-key");
            }
            if !listen.ip().is_loopback() && !self.allow_plaintext_non_loopback {
                anyhow::bail!(
                    "refusing to serve plaintext gRPC on {listen}, which is not a loopback address: \
                     give --tls-cert and --tls-key (and --client-ca to require client certificates), \
                     or --allow-plaintext-non-loopback if a TLS proxy or a private network protects the port"
                );
            }
            if !listen.ip().is_loopback() {
                tracing::warn!(%listen, "plaintext gRPC on a non-loopback address (--allow-plaintext-non-loopback)");
            }
            return Ok(ServerTls::plaintext());
        };
        install_crypto_provider();
        let (cert_pem, chain) = read_certs(cert, "--tls-cert")?;
        let (key_pem, key_der) = read_key(key, "--tls-key")?;
        // The same check tonic's acceptor makes, done here so that the error names the
        // files: the key must parse and be the certificate's.
        rustls::ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| anyhow::anyhow!("TLS: {e}"))?
            .with_no_client_auth()
            .with_single_cert(chain, key_der)
            .map_err(|e| {
                anyhow::anyhow!(
                    "--tls-key {} does not go with --tls-cert {}: {e}",
                    key.display(),
                    cert.display()
                )
            })?;
        let mut config = ServerTlsConfig::new()
            .identity(Identity::from_pem(cert_pem, key_pem))
            .timeout(HANDSHAKE_TIMEOUT);
        let mutual = match &self.client_ca {
            Some(ca) => {
                let (ca_pem, roots) = read_certs(ca, "--client-ca")?;
                let mut store = rustls::RootCertStore::empty();
                let (added, _) = store.add_parsable_certificates(roots);
                if added == 0 {
                    anyhow::bail!(
                        "--client-ca {}: no usable CA certificate in it",
                        ca.display()
                    );
                }
                config = config
                    .client_ca_root(Certificate::from_pem(ca_pem))
                    .client_auth_optional(false);
                true
            }
            None => false,
        };
        Ok(ServerTls {
            config: Some(config),
            mutual,
        })
    }
}

/// The PEM text of `path` and the certificates in it (at least one), or an error that
/// names `flag` and the file.
pub fn read_certs(
    path: &Path,
    flag: &str,
) -> anyhow::Result<(Vec<u8>, Vec<CertificateDer<'static>>)> {
    let pem = std::fs::read(path).map_err(|e| anyhow::anyhow!("{flag} {}: {e}", path.display()))?;
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("{flag} {}: not a PEM certificate: {e}", path.display()))?;
    if certs.is_empty() {
        anyhow::bail!(
            "{flag} {}: no certificate in it (expected PEM `-----BEGIN CERTIFICATE-----`)",
            path.display()
        );
    }
    Ok((pem, certs))
}

/// The PEM text of `path` and the private key in it, or an error that names `flag` and
/// the file.
pub fn read_key(path: &Path, flag: &str) -> anyhow::Result<(Vec<u8>, PrivateKeyDer<'static>)> {
    let pem = std::fs::read(path).map_err(|e| anyhow::anyhow!("{flag} {}: {e}", path.display()))?;
    let key = PrivateKeyDer::from_pem_slice(&pem).map_err(|e| {
        anyhow::anyhow!(
            "{flag} {}: no private key in it (PEM PKCS#8, PKCS#1 or SEC1): {e}",
            path.display()
        )
    })?;
    Ok((pem, key))
}

/// The client side of TLS: trusts the system's roots (when the system has any) and the
/// certificates of `ca` (`--ca-cert`), and presents `identity` (`--client-cert`,
/// `--client-key`) when given. Errors name the flag and the file.
pub fn client_config(
    ca: Option<&Path>,
    identity: Option<(&Path, &Path)>,
) -> anyhow::Result<ClientTlsConfig> {
    install_crypto_provider();
    let mut roots = rustls::RootCertStore::empty();
    // Loaded here rather than by tonic's `with_native_roots`, which fails on a machine
    // without system roots even when --ca-cert names the one CA that matters.
    let native = rustls_native_certs::load_native_certs();
    roots.add_parsable_certificates(native.certs);
    let mut config = ClientTlsConfig::new().timeout(HANDSHAKE_TIMEOUT);
    if let Some(ca) = ca {
        let (pem, certs) = read_certs(ca, "--ca-cert")?;
        let mut store = rustls::RootCertStore::empty();
        if store.add_parsable_certificates(certs).0 == 0 {
            anyhow::bail!("--ca-cert {}: no usable CA certificate in it", ca.display());
        }
        config = config.ca_certificate(Certificate::from_pem(pem));
    }
    if roots.is_empty() && ca.is_none() {
        anyhow::bail!(
            "this system has no trusted root certificates: give --ca-cert with the CA that signed the server's certificate"
        );
    }
    config = config.trust_anchors(roots.roots);
    if let Some((cert, key)) = identity {
        let (cert_pem, chain) = read_certs(cert, "--client-cert")?;
        let (key_pem, key_der) = read_key(key, "--client-key")?;
        rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| anyhow::anyhow!("TLS: {e}"))?
            .with_root_certificates(rustls::RootCertStore::empty())
            .with_client_auth_cert(chain, key_der)
            .map_err(|e| {
                anyhow::anyhow!(
                    "--client-key {} does not go with --client-cert {}: {e}",
                    key.display(),
                    cert.display()
                )
            })?;
        config = config.identity(Identity::from_pem(cert_pem, key_pem));
    }
    Ok(config)
}

/// One line for a failed connection: the first TLS error in `error`'s chain said in
/// words, with what to do (an unknown issuer: `--ca-cert`; a required client
/// certificate: `--client-cert`), or `None` when TLS is not what failed.
pub fn explain_tls_failure(error: &(dyn std::error::Error + 'static)) -> Option<String> {
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(tls) = e.downcast_ref::<rustls::Error>() {
            return Some(describe_rustls(tls));
        }
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            if let Some(tls) = io.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
                return Some(describe_rustls(tls));
            }
            // h2 keeps only the text of an I/O error (io::Error is not Clone), so an error
            // that reaches a call (not the connect) has lost its type: read rustls's words.
            if io.kind() == std::io::ErrorKind::InvalidData
                && let Some(why) = describe_rustls_text(&io.to_string())
            {
                return Some(why);
            }
        }
        next = e.source();
    }
    None
}

fn describe_rustls(e: &rustls::Error) -> String {
    use rustls::{CertificateError, Error};
    match e {
        Error::InvalidCertificate(CertificateError::UnknownIssuer) => server_untrusted(e),
        Error::InvalidCertificate(
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
        ) => format!(
            "the server's certificate is not for this host name or address ({e}): connect with a name the certificate lists"
        ),
        Error::InvalidCertificate(_) => {
            format!("the server's certificate is not accepted ({e})")
        }
        Error::InvalidMessage(_) | Error::InappropriateMessage { .. } => not_tls(e),
        _ => describe_rustls_text(&e.to_string()).unwrap_or_else(|| format!("TLS failed: {e}")),
    }
}

/// rustls's `Display` of the errors a client meets, explained.
fn describe_rustls_text(text: &str) -> Option<String> {
    let alert = text.strip_prefix("received fatal alert: ");
    Some(match alert {
        Some("CertificateRequired" | "HandshakeFailure") => format!(
            "the server refused the connection ({text}): it requires a client certificate: give --client-cert and --client-key"
        ),
        Some("UnknownCA" | "BadCertificate" | "CertificateUnknown" | "DecryptError") => format!(
            "the server refused this client's certificate ({text}): it is not signed by the CA the server trusts"
        ),
        Some(_) => format!("the server ended the TLS handshake ({text})"),
        None if text.starts_with("invalid peer certificate: UnknownIssuer") => {
            server_untrusted(text)
        }
        None if text.starts_with("invalid peer certificate") => {
            format!("the server's certificate is not accepted ({text})")
        }
        None if text.starts_with("received corrupt message") => not_tls(text),
        None => return None,
    })
}

fn server_untrusted(e: impl std::fmt::Display) -> String {
    format!(
        "the server's certificate is not signed by a trusted CA ({e}): give --ca-cert with the CA that signed it"
    )
}

fn not_tls(e: impl std::fmt::Display) -> String {
    format!("the server did not answer with TLS ({e}); is it serving plaintext (http://)?")
}

/// NATS TLS and credential flags (`arbiterd --nats-url` and the standalone services).
#[derive(Clone, Default, clap::Args)]
pub struct NatsArgs {
    /// CA certificate (PEM) that signed the NATS server's certificate (instead of the
    /// system's roots). Implies TLS, as do `tls://` URLs; a server that is not TLS is
    /// then refused, never used in plaintext.
    #[arg(long, env = "ARBITER_NATS_CA", value_name = "PEM")]
    pub nats_ca: Option<PathBuf>,
    /// Client certificate (PEM) for a NATS server that verifies clients; needs --nats-key.
    #[arg(
        long,
        env = "ARBITER_NATS_CERT",
        requires = "nats_key",
        value_name = "PEM"
    )]
    pub nats_cert: Option<PathBuf>,
    /// The private key of --nats-cert (PEM).
    #[arg(
        long,
        env = "ARBITER_NATS_KEY",
        requires = "nats_cert",
        value_name = "PEM"
    )]
    pub nats_key: Option<PathBuf>,
    /// NATS user (with --nats-password).
    #[arg(
        long,
        env = "ARBITER_NATS_USER",
        requires = "nats_password",
        conflicts_with = "nats_nkey"
    )]
    pub nats_user: Option<String>,
    /// NATS password of --nats-user. Prefer the environment variable: a flag is visible
    /// to every user of the machine in the process list.
    #[arg(
        long,
        env = "ARBITER_NATS_PASSWORD",
        requires = "nats_user",
        hide_env_values = true
    )]
    pub nats_password: Option<String>,
    /// File with this service's NATS NKey seed (`SU…`; the server lists its public key
    /// `U…`). Instead of --nats-user.
    #[arg(long, env = "ARBITER_NATS_NKEY", value_name = "FILE")]
    pub nats_nkey: Option<PathBuf>,
}

impl std::fmt::Debug for NatsArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NatsArgs")
            .field("nats_ca", &self.nats_ca)
            .field("nats_cert", &self.nats_cert)
            .field("nats_key", &self.nats_key)
            .field("nats_user", &self.nats_user)
            .field("nats_password", &self.nats_password.as_ref().map(|_| "***"))
            .field("nats_nkey", &self.nats_nkey)
            .finish()
    }
}

impl NatsArgs {
    /// The bus's connection settings; `name` is shown by the NATS server for this client.
    pub fn connect(&self, name: &str) -> arbiter_bus::NatsConnect {
        use arbiter_bus::NatsAuth;
        let auth = if let (Some(user), Some(password)) = (&self.nats_user, &self.nats_password) {
            NatsAuth::UserPassword {
                user: user.clone(),
                password: password.clone(),
            }
        } else if let Some(seed) = &self.nats_nkey {
            NatsAuth::NkeySeedFile(seed.clone())
        } else {
            NatsAuth::None
        };
        arbiter_bus::NatsConnect {
            ca: self.nats_ca.clone(),
            client_cert: self.nats_cert.clone().zip(self.nats_key.clone()),
            require_tls: false,
            auth,
            name: Some(name.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cert: Option<&Path>, key: Option<&Path>, ca: Option<&Path>) -> TlsArgs {
        TlsArgs {
            tls_cert: cert.map(Path::to_owned),
            tls_key: key.map(Path::to_owned),
            client_ca: ca.map(Path::to_owned),
            allow_plaintext_non_loopback: false,
        }
    }

    fn err(r: anyhow::Result<ServerTls>) -> String {
        match r {
            Ok(t) => panic!("accepted ({})", t.describe()),
            Err(e) => format!("{e:#}"),
        }
    }

    #[test]
    fn plaintext_only_on_loopback_unless_allowed() {
        let plain = TlsArgs::default();
        for ok in ["127.0.0.1:1", "[::1]:1", "127.9.9.9:1"] {
            assert_eq!(
                plain.server(ok.parse().unwrap()).unwrap().describe(),
                "plaintext"
            );
        }
        for refused in ["0.0.0.0:1", "[::]:1", "192.168.1.2:1"] {
            let e = err(plain.server(refused.parse().unwrap()));
            assert!(e.contains("refusing to serve plaintext gRPC"), "{e}");
        }
        let allowed = TlsArgs {
            allow_plaintext_non_loopback: true,
            ..TlsArgs::default()
        };
        assert!(allowed.server("0.0.0.0:1".parse().unwrap()).is_ok());
    }

    #[test]
    fn pem_files_are_checked_at_start_and_named_in_errors() {
        let dir = tempfile::tempdir().unwrap();
        let pki = arbiter_testkit::TestPki::new(dir.path()).unwrap();
        let (cert, key) = pki.server();
        let (other_cert, other_key) = pki.client("other").unwrap();
        let any = "0.0.0.0:1".parse().unwrap();
        let tls = args(Some(&cert), Some(&key), None).server(any).unwrap();
        assert_eq!(tls.describe(), "TLS");
        let mtls = args(Some(&cert), Some(&key), Some(&pki.ca()))
            .server(any)
            .unwrap();
        assert_eq!(mtls.describe(), "TLS, client certificate required");

        let missing = dir.path().join("missing.pem");
        let e = err(args(Some(&missing), Some(&key), None).server(any));
        assert!(
            e.starts_with("--tls-cert ") && e.contains("missing.pem"),
            "{e}"
        );
        // A key where the certificate should be, and the other way round.
        let e = err(args(Some(&key), Some(&key), None).server(any));
        assert!(
            e.contains("--tls-cert") && e.contains("no certificate"),
            "{e}"
        );
        let e = err(args(Some(&cert), Some(&cert), None).server(any));
        assert!(
            e.contains("--tls-key") && e.contains("no private key"),
            "{e}"
        );
        // Somebody else's key.
        let e = err(args(Some(&cert), Some(&other_key), None).server(any));
        assert!(e.contains("does not go with --tls-cert"), "{e}");
        let e = err(args(Some(&cert), Some(&key), Some(&other_key)).server(any));
        assert!(e.contains("--client-ca"), "{e}");
        let e = err(args(None, None, Some(&pki.ca())).server(any));
        assert!(e.contains("--client-ca needs --tls-cert"), "{e}");

        assert!(client_config(Some(&pki.ca()), Some((&other_cert, &other_key))).is_ok());
        let e = client_config(Some(&pki.ca()), Some((&other_cert, &key)))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("--client-key") && e.contains("does not go with"),
            "{e}"
        );
        let e = client_config(Some(&missing), None).unwrap_err().to_string();
        assert!(
            e.starts_with("--ca-cert ") && e.contains("missing.pem"),
            "{e}"
        );
    }

    #[test]
    fn rustls_errors_are_explained_with_what_to_do() {
        use rustls::{AlertDescription, CertificateError, Error};
        let cases: [(Error, &str); 4] = [
            (
                Error::InvalidCertificate(CertificateError::UnknownIssuer),
                "--ca-cert",
            ),
            (
                Error::AlertReceived(AlertDescription::CertificateRequired),
                "--client-cert",
            ),
            (
                Error::AlertReceived(AlertDescription::UnknownCA),
                "not signed by the CA the server trusts",
            ),
            (
                Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType),
                "plaintext",
            ),
        ];
        for (e, want) in cases {
            // Typed, inside an io::Error, and as the text h2 keeps of it.
            let text = e.to_string();
            let typed = std::io::Error::new(std::io::ErrorKind::InvalidData, e);
            let texted = std::io::Error::new(std::io::ErrorKind::InvalidData, text);
            for io in [typed, texted] {
                let why = explain_tls_failure(&io).unwrap_or_else(|| panic!("{io}"));
                assert!(why.contains(want), "{why}");
            }
        }
        let other = std::io::Error::other("connection refused");
        assert_eq!(explain_tls_failure(&other), None);
    }
}
