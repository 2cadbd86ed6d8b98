//! What a registration may say (pure). Every error starts with the field and says the
//! limit.
use std::net::IpAddr;

use crate::matching;

/// Longest address.
pub const MAX_URL_CHARS: usize = 500;
/// Longest description.
pub const MAX_DESCRIPTION_CHARS: usize = 200;
/// Webhooks registered at once (all principals).
pub const MAX_WEBHOOKS: usize = 100;

/// A refused field: (field, why).
pub type Refusal = (&'static str, String);

/// A registration that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// The address, trimmed.
    pub url: String,
    /// Sorted, without repeats.
    pub event_types: Vec<String>,
    /// Empty: every tournament.
    pub tournament_id: String,
    /// Free text.
    pub description: String,
}

/// Where a delivery goes, read from a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// `https` or `http`.
    pub tls: bool,
    /// Host name or address (no brackets).
    pub host: String,
    /// Port.
    pub port: u16,
    /// Path and query (`/` at least).
    pub path_and_query: String,
}

/// Whether `host` is the loopback: `localhost`, 127.0.0.0/8, ::1.
pub fn loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|a| a.is_loopback())
}

/// The target of `url`: `https://HOST[:PORT]/PATH`, or `http://` to the loopback unless
/// `allow_plain_http`. No user name or password, no fragment, no control characters.
pub fn target(url: &str, allow_plain_http: bool) -> Result<Target, Refusal> {
    let url = url.trim();
    if url.is_empty() {
        return Err(("url", "must not be empty: give https://HOST/PATH".into()));
    }
    if url.chars().count() > MAX_URL_CHARS {
        return Err((
            "url",
            format!(
                "{} characters: at most {MAX_URL_CHARS}",
                url.chars().count()
            ),
        ));
    }
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(("url", "has spaces or control characters".into()));
    }
    if url.contains('#') {
        return Err((
            "url",
            "has a fragment (#…): a receiver never sees it".into(),
        ));
    }
    let uri: http::Uri = url.parse().map_err(|e| {
        (
            "url",
            format!("{url:?} is not an address ({e}): give https://HOST/PATH"),
        )
    })?;
    let tls = match uri.scheme_str() {
        Some("https") => true,
        Some("http") => false,
        _ => {
            return Err((
                "url",
                format!("{url:?}: the scheme must be https (or http to the loopback)"),
            ));
        }
    };
    let authority = uri
        .authority()
        .ok_or(("url", format!("{url:?} has no host")))?;
    if authority.as_str().contains('@') {
        return Err((
            "url",
            "must not hold a user name or password: the signature authenticates".into(),
        ));
    }
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    if host.is_empty() {
        return Err(("url", format!("{url:?} has no host")));
    }
    if !tls && !allow_plain_http && !loopback(&host) {
        return Err((
            "url",
            format!(
                "http:// to {host}, which is not the loopback: use https (or start arbiterd with --webhooks-allow-plain-http)"
            ),
        ));
    }
    let port = authority.port_u16().unwrap_or(if tls { 443 } else { 80 });
    let path_and_query = uri
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| "/".into());
    Ok(Target {
        tls,
        host,
        port,
        path_and_query,
    })
}

/// Checks a registration against the limits; `registered` webhooks exist already.
pub fn registration(
    url: &str,
    event_types: &[String],
    tournament_id: &str,
    description: &str,
    allow_plain_http: bool,
    registered: usize,
) -> Result<Registration, Refusal> {
    target(url, allow_plain_http)?;
    if event_types.is_empty() {
        return Err((
            "event_types",
            format!("must name at least one of: {}", matching::names()),
        ));
    }
    if event_types.len() > matching::EVENT_TYPES.len() {
        return Err((
            "event_types",
            format!(
                "{} given: at most {} (each of: {})",
                event_types.len(),
                matching::EVENT_TYPES.len(),
                matching::names()
            ),
        ));
    }
    let mut types: Vec<String> = Vec::new();
    for t in event_types {
        let t = t.trim();
        if !matching::known(t) {
            let shown: String = t.chars().take(40).collect();
            return Err((
                "event_types",
                format!(
                    "{shown:?} is not an event type: give one of {}",
                    matching::names()
                ),
            ));
        }
        types.push(t.to_owned());
    }
    types.sort();
    types.dedup();
    let tournament_id = tournament_id.trim();
    arbiter_service_kit::limits::check_id("tournament_id", tournament_id)
        .map_err(|m| ("tournament_id", m))?;
    let description = description.trim();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err((
            "description",
            format!(
                "{} characters: at most {MAX_DESCRIPTION_CHARS}",
                description.chars().count()
            ),
        ));
    }
    if description.chars().any(char::is_control) {
        return Err(("description", "has control characters".into()));
    }
    if registered >= MAX_WEBHOOKS {
        return Err((
            "url",
            format!(
                "{registered} webhooks are registered: at most {MAX_WEBHOOKS} — remove one first"
            ),
        ));
    }
    Ok(Registration {
        url: url.trim().to_owned(),
        event_types: types,
        tournament_id: tournament_id.to_owned(),
        description: description.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn types(x: &[&str]) -> Vec<String> {
        x.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn addresses() {
        let t = target("https://example.org/hook?x=1", false).unwrap();
        assert_eq!(
            (t.tls, t.host.as_str(), t.port, t.path_and_query.as_str()),
            (true, "example.org", 443, "/hook?x=1")
        );
        let t = target("http://127.0.0.1:9000", false).unwrap();
        assert_eq!(
            (t.tls, t.port, t.path_and_query.as_str()),
            (false, 9000, "/")
        );
        assert!(target("http://[::1]:9/x", false).is_ok());
        assert!(target("http://localhost/x", false).is_ok());
        for bad in [
            "",
            "ftp://example.org/",
            "example.org/hook",
            "http://example.org/hook",
            "https://user:pw@example.org/",
            "https://example.org/a b",
            "https://example.org/#frag",
            "https:///nohost",
        ] {
            let e = target(bad, false).unwrap_err();
            assert_eq!(e.0, "url", "{bad}");
        }
        assert!(target("http://example.org/hook", true).is_ok());
        let long = format!("https://example.org/{}", "a".repeat(500));
        assert!(target(&long, false).unwrap_err().1.contains("at most 500"));
    }

    #[test]
    fn registrations() {
        let r = registration(
            "https://x.org/h",
            &types(&["result.recorded", "round.published", "result.recorded"]),
            " t1 ",
            "",
            false,
            0,
        )
        .unwrap();
        assert_eq!(
            r.event_types,
            types(&["result.recorded", "round.published"])
        );
        assert_eq!(r.tournament_id, "t1");
        let e = registration(
            "https://x.org/h",
            &types(&["round.paired"]),
            "",
            "",
            false,
            0,
        )
        .unwrap_err();
        assert_eq!(e.0, "event_types");
        assert!(e.1.contains("round.published"), "{}", e.1);
        assert_eq!(
            registration("https://x.org/h", &[], "", "", false, 0)
                .unwrap_err()
                .0,
            "event_types"
        );
        let e = registration(
            "https://x.org/h",
            &types(&["round.published"]),
            "",
            &"d".repeat(201),
            false,
            0,
        )
        .unwrap_err();
        assert_eq!(e.0, "description");
        assert!(e.1.contains("at most 200"));
        let e = registration(
            "https://x.org/h",
            &types(&["round.published"]),
            "",
            "",
            false,
            MAX_WEBHOOKS,
        )
        .unwrap_err();
        assert!(e.1.contains("at most 100"), "{}", e.1);
    }
}
