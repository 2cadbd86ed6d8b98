//! Issue 40 part 4 (ADR platform-008): federation single sign-on. arbiterd started with
//! `--jwt-issuer`, `--jwt-audience` and `--jwt-jwks` over keys made here; JWTs through
//! the CLI and over gRPC: valid within and outside its scope, expired, wrong audience,
//! wrong key, no role claim; the flags' errors at start; a JWT where none is configured.
use arbiter_proto::v1::access_service_client::AccessServiceClient;
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::*;
use arbiter_tests::jwt::{TestKey, claims, now, write_jwks};
use arbiter_tests::{Arbiter, binary, output_text, start_arbiterd};
use serde_json::{Value, json};
use tonic::{Code, Request, Status};

const ISS: &str = "https://sso.federation.example/realms/arbiters";
const AUD: &str = "arbiter-test";

/// The CLI as the holder of `token` (never the admin token of the data dir).
fn as_holder(a: &Arbiter, token: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new(binary("arbiter"))
        .args(args)
        .env("ARBITER_SERVER", format!("http://127.0.0.1:{}", a.port))
        .env("ARBITER_TOKEN", token)
        .env_remove("ARBITER_DATA_DIR")
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap()
}

fn holder_ok(a: &Arbiter, token: &str, args: &[&str]) -> String {
    let o = as_holder(a, token, args);
    assert!(o.status.success(), "arbiter {args:?}: {}", output_text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn holder_refused(a: &Arbiter, token: &str, args: &[&str], needles: &[&str]) -> String {
    let o = as_holder(a, token, args);
    let text = output_text(&o);
    assert_eq!(o.status.code(), Some(1), "arbiter {args:?}: {text}");
    for n in needles {
        assert!(text.contains(n), "arbiter {args:?}: {n:?} not in {text}");
    }
    text
}

fn bearer<T>(body: T, token: &str) -> Request<T> {
    let mut r = Request::new(body);
    r.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    r
}

/// `WhoAmI` over gRPC with `token`.
async fn who(a: &Arbiter, token: &str) -> Result<Principal, Status> {
    let mut c = AccessServiceClient::connect(format!("http://127.0.0.1:{}", a.port))
        .await
        .unwrap();
    c.who_am_i(bearer(WhoAmIRequest {}, token))
        .await
        .map(|r| r.into_inner().principal.unwrap_or_default())
}

/// `GetTournament` of `t` over gRPC with `token`.
async fn get_tournament(a: &Arbiter, token: &str, t: &str) -> Result<(), Status> {
    let mut c = RegistryServiceClient::connect(format!("http://127.0.0.1:{}", a.port))
        .await
        .unwrap();
    c.get_tournament(bearer(
        GetTournamentRequest {
            tournament_id: t.into(),
        },
        token,
    ))
    .await
    .map(|_| ())
}

fn refusal(r: Result<impl std::fmt::Debug, Status>, code: Code, needles: &[&str]) {
    let s = r.expect_err("expected a refusal");
    assert_eq!(s.code(), code, "{}", s.message());
    for n in needles {
        assert!(s.message().contains(n), "{n:?} not in {:?}", s.message());
    }
}

fn new_tournament(a: &Arbiter, name: &str) -> String {
    a.json(&["tournament", "create", "--name", name, "--rounds", "5"])["tournament_id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn federation_jwts_are_verified_mapped_to_grants_and_named_on_events() {
    let dir = tempfile::tempdir().unwrap();
    let (ec, ed) = (TestKey::es256("fed-ec-1"), TestKey::ed25519("fed-ed-1"));
    let jwks = dir.path().join("jwks.json");
    write_jwks(&jwks, &[&ec, &ed]);
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start_arbiterd(&a.data, a.port, |c| {
        c.args(["--jwt-issuer", ISS, "--jwt-audience", AUD, "--jwt-jwks"])
            .arg(&jwks)
            .args(["--jwt-leeway-seconds", "5"]);
    });
    // The admin (an opaque token of the access stream) makes two tournaments.
    let t = new_tournament(&a, "Federation Open");
    let u = new_tournament(&a, "Other Open");
    let anna = |extra: Value| {
        let mut c = claims(
            ISS,
            AUD,
            "fide-4100018",
            json!({"name": "Anna Federation", "jti": "sess-1", "arbiter_roles": [format!("chief-arbiter:{t}")]}),
        );
        for (k, v) in extra.as_object().unwrap() {
            if v.is_null() {
                c.as_object_mut().unwrap().remove(k);
            } else {
                c[k] = v.clone();
            }
        }
        c
    };
    let principal = format!("jwt:{ISS}#fide-4100018");

    // Valid (ES256): who it is, what it may do on T, and the events name it.
    let token = ec.sign(&anna(json!({})));
    let me = holder_ok(&a, &token, &["whoami"]);
    assert!(
        me.contains(&format!("Anna Federation ({principal}; token jwt sess-1)"))
            && me.contains(&format!("chief-arbiter@{t}")),
        "{me}"
    );
    holder_ok(
        &a,
        &token,
        &["tournament", "update", &t, "--place", "Dublin"],
    );
    for i in 1..=4 {
        holder_ok(
            &a,
            &token,
            &[
                "player",
                "add",
                &t,
                "--name",
                &format!("Player, No{i}"),
                "--rating",
                &(2200 - 10 * i).to_string(),
            ],
        );
    }
    holder_ok(&a, &token, &["round", "pair", &t, "1"]);
    let audit = holder_ok(&a, &token, &["audit", "export", &t]);
    let actors: Vec<String> = audit
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["actor"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    let expected = format!("Anna Federation ({principal}; token jwt sess-1)");
    assert!(
        actors.iter().filter(|x| **x == expected).count() >= 6,
        "the JWT's events name it: {actors:?}"
    );
    assert!(
        actors.iter().any(|x| x.starts_with("admin (p_")),
        "{actors:?}"
    );

    // A role on another tournament: PERMISSION_DENIED naming the principal.
    holder_refused(
        &a,
        &token,
        &[
            "player",
            "add",
            &u,
            "--name",
            "Intruder, Ivo",
            "--rating",
            "2000",
        ],
        &["PermissionDenied", "Anna Federation", &principal, &u],
    );
    holder_refused(
        &a,
        &token,
        &["tournament", "update", &u, "--place", "Cork"],
        &["PermissionDenied", &principal],
    );
    refusal(
        get_tournament(&a, &token, &u).await,
        Code::PermissionDenied,
        &[&principal],
    );
    // Not the access stream's principal: it may not grant itself more.
    holder_refused(
        &a,
        &token,
        &["access", "grant", "admin", "--role", "viewer"],
        &["PermissionDenied"],
    );

    // EdDSA works too; a viewer reads T and writes nothing.
    let viewer = ed.sign(&claims(
        ISS,
        AUD,
        "fide-999",
        json!({"arbiter_roles": [format!("viewer:{t}")]}),
    ));
    let p = who(&a, &viewer).await.unwrap();
    assert_eq!(
        (p.name.as_str(), p.principal_id.as_str()),
        ("fide-999", format!("jwt:{ISS}#fide-999").as_str())
    );
    get_tournament(&a, &viewer, &t).await.unwrap();
    holder_refused(
        &a,
        &viewer,
        &["tournament", "update", &t, "--place", "Galway"],
        &["PermissionDenied", "fide-999"],
    );

    // Expired (beyond the leeway): UNAUTHENTICATED naming the expiry.
    let expired = ec.sign(&anna(json!({"exp": now() - 120})));
    refusal(
        who(&a, &expired).await,
        Code::Unauthenticated,
        &["JWT of \"fide-4100018\" expired", "leeway 5 s"],
    );
    holder_refused(&a, &expired, &["whoami"], &["expired"]);

    // Wrong audience, wrong issuer.
    refusal(
        who(&a, &ec.sign(&anna(json!({"aud": "another-app"})))).await,
        Code::Unauthenticated,
        &["audience \"another-app\" does not include \"arbiter-test\""],
    );
    refusal(
        who(&a, &ec.sign(&anna(json!({"iss": "https://evil.example"})))).await,
        Code::Unauthenticated,
        &["issuer \"https://evil.example\" is not"],
    );

    // Wrong key: one the JWKS file does not have, and one posing as a key it has.
    let stranger = TestKey::es256("stranger");
    refusal(
        who(&a, &stranger.sign(&anna(json!({})))).await,
        Code::Unauthenticated,
        &["\"stranger\", which is not in the JWKS file", "fed-ec-1"],
    );
    let forger = TestKey::es256("x").claiming_kid("fed-ec-1");
    refusal(
        who(&a, &forger.sign(&anna(json!({})))).await,
        Code::Unauthenticated,
        &["signature does not verify with key \"fed-ec-1\""],
    );
    holder_refused(
        &a,
        &forger.sign(&anna(json!({}))),
        &[
            "player",
            "add",
            &t,
            "--name",
            "Forged, Fred",
            "--rating",
            "2000",
        ],
        &["Unauthenticated", "signature does not verify"],
    );

    // No role claim; an unknown role; admin from a JWT.
    refusal(
        who(&a, &ec.sign(&anna(json!({"arbiter_roles": null})))).await,
        Code::PermissionDenied,
        &[
            &format!("JWT of Anna Federation ({principal})"),
            "carries no arbiter_roles claim",
        ],
    );
    refusal(
        who(
            &a,
            &ec.sign(&anna(json!({"arbiter_roles": ["grandmaster"]}))),
        )
        .await,
        Code::PermissionDenied,
        &["\"grandmaster\" is not a role"],
    );
    refusal(
        who(&a, &ec.sign(&anna(json!({"arbiter_roles": ["admin"]})))).await,
        Code::PermissionDenied,
        &["admin is never granted by a JWT"],
    );

    // Nothing the refused tokens tried was recorded; the opaque admin token still works.
    let after = a.ok(&["audit", "export", &t]);
    assert!(!after.contains("Forged, Fred") && !after.contains("stranger"));
    assert!(a.ok(&["whoami"]).contains("admin"));
}

#[test]
fn jwt_flags_are_all_three_or_none_and_a_jwt_needs_them() {
    let dir = tempfile::tempdir().unwrap();
    let start = |args: &[&str]| {
        let o = std::process::Command::new(binary("arbiterd"))
            .arg("--data-dir")
            .arg(dir.path().join("refused"))
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .env_remove("ARBITER_JWT_ISSUER")
            .env_remove("ARBITER_JWT_AUDIENCE")
            .env_remove("ARBITER_JWT_JWKS")
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap();
        assert!(!o.status.success());
        output_text(&o)
    };
    let e = start(&["--jwt-issuer", ISS]);
    assert!(
        e.contains("needs all three")
            && e.contains("--jwt-audience (ARBITER_JWT_AUDIENCE)")
            && e.contains("--jwt-jwks (ARBITER_JWT_JWKS)"),
        "{e}"
    );
    let bad = dir.path().join("bad-jwks.json");
    std::fs::write(
        &bad,
        r#"{"keys": [{"kty": "oct", "kid": "s", "k": "c2VjcmV0"}]}"#,
    )
    .unwrap();
    let bad_arg = bad.to_str().unwrap();
    let e = start(&[
        "--jwt-issuer",
        ISS,
        "--jwt-audience",
        AUD,
        "--jwt-jwks",
        bad_arg,
    ]);
    assert!(e.contains(bad_arg) && e.contains("symmetric"), "{e}");
    let e = start(&[
        "--jwt-issuer",
        ISS,
        "--jwt-audience",
        AUD,
        "--jwt-jwks",
        "/nonexistent/jwks.json",
    ]);
    assert!(e.contains("/nonexistent/jwks.json"), "{e}");

    // Without the flags a JWT is refused, saying how to accept one.
    let a = Arbiter {
        data: dir.path().join("data"),
        port: arbiter_testkit::free_port(),
    };
    let _d = start_arbiterd(&a.data, a.port, |_| {});
    let token = TestKey::es256("k").sign(&claims(
        ISS,
        AUD,
        "u1",
        json!({"arbiter_roles": ["viewer"]}),
    ));
    holder_refused(
        &a,
        &token,
        &["whoami"],
        &[
            "Unauthenticated",
            "JWT not accepted: no issuer configured (--jwt-issuer",
        ],
    );
}
