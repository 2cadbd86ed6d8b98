//! Bearer tokens: `arb_<token id>_<secret>`, the token id `t_` + 12 hex digits (named
//! in lists and revocations without showing the token), the secret 64 hex digits from
//! the OS random source (2 × UUID v4: 244 random bits). Only SHA-256 digests of whole
//! tokens are recorded.
use sha2::{Digest, Sha256};

/// SHA-256 of a token (surrounding white space ignored).
pub fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.trim().as_bytes()).into()
}

fn random_hex() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// A new token and its id.
pub fn new_token() -> (String, String) {
    let id = format!("t_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    let token = format!("arb_{id}_{}", random_hex());
    (id, token)
}

/// A new principal id.
pub fn new_principal_id() -> String {
    format!("p_{}", &uuid::Uuid::new_v4().simple().to_string()[..16])
}

/// The token id a token names (`None`: not of this form).
pub fn token_id(token: &str) -> Option<&str> {
    let rest = token.trim().strip_prefix("arb_")?;
    let (id, secret) = rest.rsplit_once('_')?;
    (id.starts_with("t_") && secret.len() >= 32).then_some(id)
}

/// The least length of a token read from a token file (32 characters: a token of the
/// old `arb_` + 64 hex form qualifies, a short hand-written one does not).
pub const MIN_FILE_TOKEN_LEN: usize = 32;

/// The id recorded for a token of a token file (derived from its digest, so every
/// standalone service importing the same file records the same id).
pub fn file_token_id(token: &str) -> String {
    format!("t_{}", &hex::encode(digest(token))[..12])
}

/// The id recorded for a principal of a token file (derived from its name).
pub fn file_principal_id(name: &str) -> String {
    format!(
        "p_{}",
        &hex::encode(Sha256::digest(name.trim().as_bytes()))[..16]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_name_their_id_and_are_long() {
        let (id, t) = new_token();
        assert_eq!(token_id(&t), Some(id.as_str()));
        assert!(t.len() >= 4 + 14 + 1 + 64);
        assert_ne!(new_token().1, t);
        assert_eq!(token_id("arb_wrong"), None);
        assert_eq!(token_id("secret"), None);
    }
}
