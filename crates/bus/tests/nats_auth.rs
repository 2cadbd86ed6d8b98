//! NATS with TLS and credentials (ADR platform-009): a TLS server is used over TLS only,
//! with the CA given; users are refused without their password or NKey seed; a client
//! that asks for TLS never falls back to plaintext.
use std::path::Path;

use arbiter_bus::{NatsAuth, NatsBus, NatsConnect};
use arbiter_eventlog::Keys;
use arbiter_testkit::{NatsOptions, NatsServer, NatsTls, TestPki};

async fn start(options: NatsOptions) -> NatsServer {
    tokio::task::spawn_blocking(move || NatsServer::start_with(&options))
        .await
        .unwrap()
        .unwrap_or_else(|e| panic!("cannot start nats-server: {e}"))
}

async fn connect(url: &str, how: &NatsConnect) -> Result<NatsBus, String> {
    NatsBus::connect_configured(url, Keys::ephemeral("test"), how)
        .await
        .map_err(|e| e.to_string())
}

fn tls(pki: &TestPki) -> Option<NatsTls> {
    let (cert, key) = pki.server();
    Some(NatsTls {
        cert,
        key,
        verify_clients: None,
    })
}

fn user(name: &str, password: &str) -> NatsAuth {
    NatsAuth::UserPassword {
        user: name.into(),
        password: password.into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_server_with_users_admits_the_right_password_over_a_verified_connection() {
    let dir = tempfile::tempdir().unwrap();
    let pki = TestPki::new(&dir.path().join("pki")).unwrap();
    let stranger = TestPki::new(&dir.path().join("other")).unwrap();
    let server = start(NatsOptions {
        tls: tls(&pki),
        users: vec![("registry".into(), "s3cret".into())],
        ..Default::default()
    })
    .await;
    let ok = NatsConnect {
        ca: Some(pki.ca()),
        auth: user("registry", "s3cret"),
        ..Default::default()
    };
    connect(server.url(), &ok).await.expect("right password");

    for (how, expect) in [
        (
            NatsConnect {
                auth: user("registry", "wrong"),
                ..ok.clone()
            },
            "authorization",
        ),
        (
            NatsConnect {
                auth: NatsAuth::None,
                ..ok.clone()
            },
            "authorization",
        ),
        // Another CA: the server's certificate is not trusted.
        (
            NatsConnect {
                ca: Some(stranger.ca()),
                ..ok.clone()
            },
            "",
        ),
    ] {
        let e = connect(server.url(), &how)
            .await
            .err()
            .unwrap_or_else(|| panic!("{how:?} was admitted"));
        assert!(e.to_lowercase().contains(expect), "{how:?}: {e}");
    }
    // A CA file that is not there is named.
    let e = connect(
        server.url(),
        &NatsConnect {
            ca: Some(dir.path().join("missing.pem")),
            ..ok.clone()
        },
    )
    .await
    .err()
    .unwrap();
    assert!(e.contains("missing.pem"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_nkey_seed_file_authenticates_and_another_seed_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let known = nkeys::KeyPair::new_user();
    let server = start(NatsOptions {
        nkeys: vec![known.public_key()],
        ..Default::default()
    })
    .await;
    let seed_file = |name: &str, pair: &nkeys::KeyPair| {
        let p = dir.path().join(name);
        std::fs::write(&p, format!("{}\n", pair.seed().unwrap())).unwrap();
        p
    };
    let with = |p: &Path| NatsConnect {
        auth: NatsAuth::NkeySeedFile(p.to_owned()),
        ..Default::default()
    };
    connect(server.url(), &with(&seed_file("known.nk", &known)))
        .await
        .expect("known seed");
    let e = connect(
        server.url(),
        &with(&seed_file("other.nk", &nkeys::KeyPair::new_user())),
    )
    .await
    .err()
    .expect("another seed was admitted");
    assert!(e.to_lowercase().contains("authorization"), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_asks_for_tls_refuses_a_plaintext_server() {
    let dir = tempfile::tempdir().unwrap();
    let pki = TestPki::new(&dir.path().join("pki")).unwrap();
    let server = start(NatsOptions::default()).await;
    assert!(server.url().starts_with("nats://"));
    let tls_url = server.url().replacen("nats://", "tls://", 1);
    for (url, how) in [
        (
            server.url().to_owned(),
            NatsConnect {
                ca: Some(pki.ca()),
                ..Default::default()
            },
        ),
        (
            server.url().to_owned(),
            NatsConnect {
                require_tls: true,
                ..Default::default()
            },
        ),
        (tls_url, NatsConnect::default()),
    ] {
        assert!(
            connect(&url, &how).await.is_err(),
            "{url} {how:?} connected in plaintext"
        );
    }
}
