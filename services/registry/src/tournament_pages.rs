//! `ListTournaments` in pages (ADR registry-004): tournaments in creation order, a page
//! at most `page_size` of them (0 = [`DEFAULT_PAGE_SIZE`], at most [`MAX_PAGE_SIZE`])
//! and at most [`MAX_PAGE_BYTES`] encoded, so no answer nears the 4 MiB gRPC limit
//! however many tournaments there are. The page token is the creation position of the
//! last tournament of the page before. Pure: no I/O.
use arbiter_proto::v1::Tournament;
use prost::Message;

use crate::tournament::FieldError;

/// Tournaments a page holds when the request says 0.
pub const DEFAULT_PAGE_SIZE: u32 = 100;
/// The most tournaments a page holds.
pub const MAX_PAGE_SIZE: u32 = 1_000;
/// A page ends before its tournaments reach this many encoded bytes (at least one each page).
pub const MAX_PAGE_BYTES: usize = 1024 * 1024;

/// Where a page starts: after this creation position (0 = from the first).
pub fn parse_token(token: &str) -> Result<i64, FieldError> {
    let t = token.trim();
    if t.is_empty() {
        return Ok(0);
    }
    t.parse::<i64>()
        .ok()
        .filter(|p| *p > 0)
        .ok_or_else(|| FieldError {
            field: "page_token",
            message: format!(
                "{:?} is not a page token: pass back the next_page_token of the page before",
                t.chars().take(40).collect::<String>()
            ),
        })
}

/// The page size asked for, bounded.
pub fn page_size(asked: u32) -> usize {
    let n = if asked == 0 {
        DEFAULT_PAGE_SIZE
    } else {
        asked.min(MAX_PAGE_SIZE)
    };
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// One page of `tournaments` (creation position, tournament), oldest first, already
/// filtered to those the caller may see: the page and the next page's token ("" = last).
pub fn page(
    tournaments: impl IntoIterator<Item = (i64, Tournament)>,
    size: usize,
) -> (Vec<Tournament>, String) {
    let mut out = Vec::new();
    let mut bytes = 0usize;
    let mut last = 0i64;
    for (pos, t) in tournaments {
        let len = t.encoded_len();
        if out.len() == size || (!out.is_empty() && bytes + len > MAX_PAGE_BYTES) {
            return (out, last.to_string());
        }
        bytes += len;
        last = pos;
        out.push(t);
    }
    (out, String::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(i: i64) -> (i64, Tournament) {
        (
            i * 10,
            Tournament {
                tournament_id: format!("t{i}"),
                name: "x".repeat(150),
                ..Default::default()
            },
        )
    }

    #[test]
    fn pages_follow_each_other_without_gap_or_repeat() {
        let all: Vec<_> = (1..=7).map(t).collect();
        let mut seen = Vec::new();
        let mut after = 0;
        loop {
            let rest = all.iter().filter(|(p, _)| *p > after).cloned();
            let (page, next) = page(rest, 3);
            assert!(page.len() <= 3);
            seen.extend(page.into_iter().map(|t| t.tournament_id));
            if next.is_empty() {
                break;
            }
            after = parse_token(&next).unwrap();
        }
        assert_eq!(seen, ["t1", "t2", "t3", "t4", "t5", "t6", "t7"]);
    }

    #[test]
    fn a_page_stops_before_a_mebibyte_and_sizes_are_bounded() {
        let all: Vec<_> = (1..=20_000).map(t).collect();
        let (p, next) = page(all, page_size(MAX_PAGE_SIZE * 10));
        assert_eq!(p.len(), 1_000);
        assert!(!next.is_empty());
        assert_eq!(page_size(0), 100);
        let big: Vec<_> = (1..=20)
            .map(|i| {
                let (p, mut t) = t(i);
                t.name = "y".repeat(200_000);
                (p, t)
            })
            .collect();
        let (p, _) = page(big, 1_000);
        assert_eq!(p.len(), 5, "5 × 200 kB fit in 1 MiB, not 6");
    }

    #[test]
    fn a_bad_token_names_the_field() {
        assert_eq!(parse_token("").unwrap(), 0);
        let e = parse_token("abc").unwrap_err();
        assert_eq!(e.field, "page_token");
        assert!(e.message.contains("next_page_token"));
        assert!(parse_token("-3").is_err());
    }
}
