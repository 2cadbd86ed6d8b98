//! The signature of a delivery (pure). `Arbiter-Signature: t=UNIX_SECONDS,v1=HEX` where
//! `HEX` is HMAC-SHA256 with the webhook's secret over `UNIX_SECONDS + "." + body`
//! (the body exactly as sent). A receiver recomputes it with the secret it was shown,
//! compares in constant time, and refuses a `t` too far from its clock (5 minutes is
//! the advice of ADR http-002) so a captured delivery cannot be replayed later.
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The header's name.
pub const HEADER: &str = "Arbiter-Signature";

/// The hex HMAC-SHA256 of `timestamp + "." + body` under `secret`.
pub fn sign(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    // HMAC takes a key of any length: `new_from_slice` cannot fail for it.
    let mut mac = HmacSha256::new_from_slice(secret).unwrap_or_else(|_| unreachable!());
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    hex::encode(mac.finalize().into_bytes())
}

/// The header's value: `t=TIMESTAMP,v1=HEX`.
pub fn header(secret: &[u8], timestamp: i64, body: &[u8]) -> String {
    format!("t={timestamp},v1={}", sign(secret, timestamp, body))
}

/// Why a signature was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// The header is not `t=…,v1=…`.
    Malformed,
    /// `t` is further than the tolerance from `now`.
    Stale {
        /// Seconds between `t` and now.
        skew: i64,
    },
    /// No `v1` matches.
    Mismatch,
}

/// What a receiver does: checks `header` for `body` with `secret` at `now` (Unix
/// seconds), `tolerance` seconds either side. Several `v1=` are allowed (any may match).
pub fn verify(
    secret: &[u8],
    header: &str,
    body: &[u8],
    now: i64,
    tolerance: i64,
) -> Result<(), Refused> {
    let mut t = None;
    let mut v1 = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = Some(v.parse::<i64>().map_err(|_| Refused::Malformed)?),
            Some(("v1", v)) => v1.push(hex::decode(v).map_err(|_| Refused::Malformed)?),
            _ => {}
        }
    }
    let t = t.ok_or(Refused::Malformed)?;
    if v1.is_empty() {
        return Err(Refused::Malformed);
    }
    let skew = (now - t).abs();
    if skew > tolerance {
        return Err(Refused::Stale { skew });
    }
    for candidate in v1 {
        let mut mac = HmacSha256::new_from_slice(secret).unwrap_or_else(|_| unreachable!());
        mac.update(t.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        // constant-time comparison
        if mac.verify_slice(&candidate).is_ok() {
            return Ok(());
        }
    }
    Err(Refused::Mismatch)
}

/// The secret of webhook `id` (generation `generation` of the server's webhook key):
/// HMAC-SHA256(key, "arbiter-webhook-secret\0" + id + "\0" + generation). Nothing secret
/// is written to the log; the key file is.
pub fn derive_secret(key: &[u8], id: &str, generation: u32) -> [u8; 32] {
    let mut mac = HmacSha256::new_from_slice(key).unwrap_or_else(|_| unreachable!());
    mac.update(b"arbiter-webhook-secret\0");
    mac.update(id.as_bytes());
    mac.update(b"\0");
    mac.update(generation.to_string().as_bytes());
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_of_timestamp_dot_body() {
        // computed independently (Python's hmac module) over `1700000000.{"a":1}`
        assert_eq!(
            sign(b"secret", 1_700_000_000, br#"{"a":1}"#),
            "49f24e537407743fa4a0242bb63b94b9a47ee99cbbe071ccd8a22550ae411686"
        );
        let h = header(b"k", 100, b"body");
        assert!(h.starts_with("t=100,v1="));
        assert_eq!(h.len(), "t=100,v1=".len() + 64);
    }

    #[test]
    fn a_receiver_verifies_and_refuses_what_it_should() {
        let h = header(b"k", 1000, b"body");
        assert_eq!(verify(b"k", &h, b"body", 1000, 300), Ok(()));
        assert_eq!(verify(b"k", &h, b"body", 1299, 300), Ok(()));
        assert_eq!(
            verify(b"k", &h, b"body", 1301, 300),
            Err(Refused::Stale { skew: 301 })
        );
        assert_eq!(verify(b"x", &h, b"body", 1000, 300), Err(Refused::Mismatch));
        assert_eq!(verify(b"k", &h, b"bodY", 1000, 300), Err(Refused::Mismatch));
        // the timestamp is signed: changing it breaks the signature
        let forged = h.replace("t=1000", "t=1001");
        assert_eq!(
            verify(b"k", &forged, b"body", 1000, 300),
            Err(Refused::Mismatch)
        );
        assert_eq!(
            verify(b"k", "v1=00", b"body", 1000, 300),
            Err(Refused::Malformed)
        );
        assert_eq!(
            verify(b"k", "t=1000", b"body", 1000, 300),
            Err(Refused::Malformed)
        );
        // a second v1 (a receiver rotating secrets) may be the one that matches
        let two = format!("t=1000,v1={},{}", "00".repeat(32), &h["t=1000,".len()..]);
        assert_eq!(verify(b"k", &two, b"body", 1000, 300), Ok(()));
    }

    #[test]
    fn secrets_differ_by_key_id_and_generation_and_are_stable() {
        let a = derive_secret(b"key", "wh_1", 1);
        assert_eq!(a, derive_secret(b"key", "wh_1", 1));
        assert_ne!(a, derive_secret(b"key", "wh_2", 1));
        assert_ne!(a, derive_secret(b"key", "wh_1", 2));
        assert_ne!(a, derive_secret(b"kex", "wh_1", 1));
    }
}
