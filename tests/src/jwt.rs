//! An identity provider for tests: keys made here (P-256 and Ed25519), their JWKS file,
//! and JWTs signed with them (ADR platform-008).
use base64::Engine as _;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::pkcs8::EncodePrivateKey as _;
use rand_core::{OsRng, RngCore};
use serde_json::{Value, json};

/// A signing key and its public JWK.
pub struct TestKey {
    /// The key id the JWKS file and the tokens' headers name.
    pub kid: String,
    alg: Algorithm,
    key: EncodingKey,
    /// The public key as a JWK (with `kid`).
    pub jwk: Value,
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

impl TestKey {
    /// A new P-256 key (ES256).
    pub fn es256(kid: &str) -> TestKey {
        let sk = p256::SecretKey::random(&mut OsRng);
        let point =
            p256::elliptic_curve::sec1::ToEncodedPoint::to_encoded_point(&sk.public_key(), false);
        TestKey {
            kid: kid.into(),
            alg: Algorithm::ES256,
            key: EncodingKey::from_ec_der(sk.to_pkcs8_der().unwrap().as_bytes()),
            jwk: json!({
                "kty": "EC", "crv": "P-256", "kid": kid, "use": "sig", "alg": "ES256",
                "x": b64(point.x().unwrap()), "y": b64(point.y().unwrap()),
            }),
        }
    }

    /// A new Ed25519 key (EdDSA).
    pub fn ed25519(kid: &str) -> TestKey {
        let mut seed = [0u8; 32];
        OsRng.fill_bytes(&mut seed);
        let sk = ed25519_dalek::SigningKey::from_bytes(&seed);
        let der = ed25519_dalek::pkcs8::EncodePrivateKey::to_pkcs8_der(&sk).unwrap();
        TestKey {
            kid: kid.into(),
            alg: Algorithm::EdDSA,
            key: EncodingKey::from_ed_der(der.as_bytes()),
            jwk: json!({
                "kty": "OKP", "crv": "Ed25519", "kid": kid, "use": "sig",
                "x": b64(sk.verifying_key().as_bytes()),
            }),
        }
    }

    /// The same private key, its tokens naming `kid` instead (a forger's header).
    pub fn claiming_kid(mut self, kid: &str) -> TestKey {
        self.kid = kid.into();
        self
    }

    /// A JWT of `claims` signed with this key.
    pub fn sign(&self, claims: &Value) -> String {
        let mut h = Header::new(self.alg);
        h.kid = Some(self.kid.clone());
        jsonwebtoken::encode(&h, claims, &self.key).unwrap()
    }
}

/// Writes the JWKS file of `keys` to `path`.
pub fn write_jwks(path: &std::path::Path, keys: &[&TestKey]) {
    let doc = json!({"keys": keys.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>()});
    std::fs::write(path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
}

/// Seconds since the Unix epoch.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// Claims for `sub` of `issuer` and `audience`, valid for ten minutes, with `extra`
/// merged in (a `null` removes a claim).
pub fn claims(issuer: &str, audience: &str, sub: &str, extra: Value) -> Value {
    let mut c = json!({
        "iss": issuer, "aud": audience, "sub": sub,
        "iat": now(), "exp": now() + 600,
    });
    let m = c.as_object_mut().unwrap();
    for (k, v) in extra.as_object().expect("extra claims: an object") {
        if v.is_null() {
            m.remove(k);
        } else {
            m.insert(k.clone(), v.clone());
        }
    }
    c
}
