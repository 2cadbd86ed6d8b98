//! Short ids and the default tournament (ADR cli-001), in one place: every command that
//! takes a tournament or a player calls [`tournament`] / [`player`] before its request.
//!
//! - A tournament is its full id, or any unique case-insensitive prefix of it of at
//!   least [`MIN_PREFIX`] characters (hyphens optional), or `.` / left out: the default
//!   set by `arbiter use ID` for this data dir and server ([`crate::use_default`]).
//! - A player is a pairing number (1–4 digits), a full id, or a unique id prefix of at
//!   least [`MIN_PREFIX`] characters.
//!
//! Text that cannot be an id prefix (other characters than hex digits and hyphens) is
//! sent as it is: the server answers for it (`NotFound: tournament_id: …`).
//!
//! Prefixes are matched against the tournaments the caller may list (`ListTournaments`,
//! every page) and the players of the tournament (`ListPlayers`); an ambiguous prefix
//! is refused listing the candidates (id and name), none refused naming the prefix.
use arbiter_proto::v1::registry_service_client::RegistryServiceClient;
use arbiter_proto::v1::{ListPlayersRequest, ListTournamentsRequest, Player, Tournament};

use crate::client::Chan;
use crate::{Cli, Failure, output};

/// The shortest prefix accepted.
pub const MIN_PREFIX: usize = 4;

/// The tournament argument that stands for the default (also what an omitted
/// tournament argument becomes, see [`with_default_tournament`]).
pub const DEFAULT: &str = ".";

/// Leaf commands whose first positional argument is a tournament id: when it is left
/// out, the default tournament is put in its place.
const TOURNAMENT_FIRST: &[&[&str]] = &[
    &["tournament", "show"],
    &["tournament", "update"],
    &["tournament", "settings"],
    &["tournament", "rules"],
    &["tournament", "export"],
    &["player", "add"],
    &["player", "import"],
    &["player", "list"],
    &["player", "correct"],
    &["player", "withdraw"],
    &["player", "bye"],
    &["player", "prohibit"],
    &["round", "pair"],
    &["round", "repair"],
    &["round", "set"],
    &["round", "publish"],
    &["round", "unpublish"],
    &["round", "discard"],
    &["round", "show"],
    &["round", "explain"],
    &["round", "close"],
    &["result", "set"],
    &["result", "confirm"],
    &["result", "correct"],
    &["result", "bye"],
    &["result", "show"],
    &["result", "history"],
    &["result", "impact"],
    &["audit", "export"],
    &["rating", "submit-tournament"],
    &["clock", "watch"],
    &["print", "pairings"],
    &["print", "results"],
    &["print", "standings"],
    &["print", "crosstable"],
    &["clock", "pgn"],
    &["access", "public"],
];

/// `argv` with the default tournament's placeholder put where a left-out tournament
/// argument goes, when `argv` does not parse as it is and does with it. `None`: leave
/// `argv` as it is (clap then reports its own error).
pub fn with_default_tournament(argv: &[std::ffi::OsString]) -> Option<Vec<std::ffi::OsString>> {
    use clap::CommandFactory;
    let root = crate::Cli::command();
    let mut cmd = &root;
    let mut path: Vec<&str> = Vec::new();
    let mut leaf_at = None;
    for (i, a) in argv.iter().enumerate().skip(1) {
        let Some(a) = a.to_str() else { break };
        if a == "--" {
            break;
        }
        if a.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(a) {
            Some(sub) => {
                path.push(sub.get_name());
                cmd = sub;
                leaf_at = Some(i);
            }
            None => break,
        }
    }
    let at = leaf_at? + 1;
    if !TOURNAMENT_FIRST.contains(&path.as_slice()) {
        return None;
    }
    let mut out = argv.to_vec();
    out.insert(at, DEFAULT.into());
    Some(out)
}

/// Where the default tournament is kept: `<data-dir>/cli-defaults.json`, one entry per
/// server (ADR cli-001).
pub fn defaults_file(cli: &Cli) -> std::path::PathBuf {
    cli.data_dir.join("cli-defaults.json")
}

/// The largest defaults file read (it holds a few ids).
const MAX_DEFAULTS_BYTES: u64 = 64 * 1024;

/// The stored defaults (`{"servers": {URL: {"tournament_id", "name"}}}`); a missing file
/// is empty, an unreadable or oversized one an error naming it.
pub fn read_defaults(cli: &Cli) -> Result<serde_json::Value, Failure> {
    use std::io::Read as _;
    let path = defaults_file(cli);
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(serde_json::json!({"servers": {}}));
        }
        Err(e) => return Err(usage(format!("{}: {e}", path.display()))),
    };
    let mut text = String::new();
    file.take(MAX_DEFAULTS_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|e| usage(format!("{}: {e}", path.display())))?;
    if text.len() as u64 > MAX_DEFAULTS_BYTES {
        return Err(usage(format!(
            "{}: larger than {MAX_DEFAULTS_BYTES} bytes: not a defaults file (remove it, or run `arbiter use --clear`)",
            path.display()
        )));
    }
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        usage(format!(
            "{}:{}:{}: {e} (remove it, or run `arbiter use --clear`)",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    if !v["servers"].is_object() {
        return Err(usage(format!(
            "{}: no \"servers\" object (remove it, or run `arbiter use --clear`)",
            path.display()
        )));
    }
    Ok(v)
}

/// The default tournament of this data dir and server: (id, name).
pub fn default_tournament(cli: &Cli) -> Result<Option<(String, String)>, Failure> {
    let v = read_defaults(cli)?;
    let e = &v["servers"][cli.server.as_str()];
    Ok(e["tournament_id"].as_str().map(|id| {
        (
            id.to_owned(),
            e["name"].as_str().unwrap_or_default().to_owned(),
        )
    }))
}

fn usage(message: String) -> Failure {
    Failure { code: 2, message }
}

/// Is `s` a whole UUID (8-4-4-4-12 hex digits)?
fn is_full_uuid(s: &str) -> bool {
    uuid::Uuid::try_parse(s).is_ok() && s.len() == 36
}

/// The prefix as matched: lower case, no hyphens; `None` when it cannot be an id prefix
/// (other characters than hex digits and hyphens).
fn normalised(prefix: &str) -> Option<String> {
    let p: String = prefix
        .trim()
        .chars()
        .filter(|c| *c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    p.chars().all(|c| c.is_ascii_hexdigit()).then_some(p)
}

/// The ids among `candidates` (id, label) that start with `prefix` (see [`normalised`]).
pub fn matches<'a>(prefix: &str, candidates: &'a [(String, String)]) -> Vec<&'a (String, String)> {
    let Some(p) = normalised(prefix) else {
        return Vec::new();
    };
    candidates
        .iter()
        .filter(|(id, _)| id.replace('-', "").to_ascii_lowercase().starts_with(&p))
        .collect()
}

/// The one candidate `prefix` names, or the error: too short, none, or ambiguous (the
/// candidates listed). `what`: "tournament" or "player"; `hint`: where to look.
pub fn pick(
    what: &str,
    prefix: &str,
    candidates: &[(String, String)],
    hint: &str,
) -> Result<String, Failure> {
    let shown = output::clean(prefix).into_owned();
    if normalised(prefix).is_some_and(|p| p.len() < MIN_PREFIX) {
        return Err(usage(format!(
            "{what} {shown:?}: give at least {MIN_PREFIX} characters of the id ({hint})"
        )));
    }
    let found = matches(prefix, candidates);
    match found.as_slice() {
        [one] => Ok(one.0.clone()),
        [] => Err(Failure {
            code: 1,
            message: format!("no {what} starts with {shown:?} ({hint})"),
        }),
        many => Err(Failure {
            code: 1,
            message: format!(
                "{what} {shown:?} is ambiguous: {} {what}s start with it; give more characters:\n{}",
                many.len(),
                many.iter()
                    .map(|(id, label)| format!("  {id}  {}", output::clean(label)))
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
        }),
    }
}

/// Every tournament the caller may list, every page (`page_size` 0: the server's).
pub async fn all_tournaments(chan: &Chan, page_size: u32) -> Result<Vec<Tournament>, Failure> {
    let mut client = RegistryServiceClient::new(chan.clone());
    let mut out = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .list_tournaments(ListTournamentsRequest {
                page_size,
                page_token: token.clone(),
            })
            .await?
            .into_inner();
        out.extend(page.tournaments);
        if page.next_page_token.is_empty() || page.next_page_token == token {
            return Ok(out);
        }
        token = page.next_page_token;
    }
}

/// The full id of the tournament `given` names (see the module's rules).
pub async fn tournament(cli: &Cli, chan: &Chan, given: &str) -> Result<String, Failure> {
    let given = given.trim();
    if given.is_empty() || given == DEFAULT {
        return match default_tournament(cli)? {
            Some((id, _)) => Ok(id),
            None => Err(usage(
                "no tournament given: pass ID or run `arbiter use ID`".into(),
            )),
        };
    }
    // A full id, or text that is no id prefix at all (the server names it: NotFound).
    if is_full_uuid(given) || normalised(given).is_none() {
        return Ok(given.to_owned());
    }
    let list = all_tournaments(chan, 0).await?;
    let candidates: Vec<(String, String)> = list
        .into_iter()
        .map(|t| {
            let label = if t.start_date.is_empty() {
                t.name
            } else {
                format!("{} ({})", t.name, t.start_date)
            };
            (t.tournament_id, label)
        })
        .collect();
    pick(
        "tournament",
        given,
        &candidates,
        "see `arbiter tournament list`",
    )
}

/// Is `s` a pairing number as a player reference (1–4 digits)?
pub fn is_pairing_number(s: &str) -> bool {
    let s = s.trim();
    (1..=4).contains(&s.len()) && s.chars().all(|c| c.is_ascii_digit())
}

/// The player `given` names in `tournament`: a pairing number or a full id as given (the
/// server checks them), an id prefix resolved to the full id.
pub async fn player(chan: &Chan, tournament: &str, given: &str) -> Result<String, Failure> {
    let g = given.trim();
    if g.is_empty() || is_pairing_number(g) || is_full_uuid(g) || normalised(g).is_none() {
        return Ok(g.to_owned());
    }
    let list = players(chan, tournament).await?;
    let candidates: Vec<(String, String)> = list
        .into_iter()
        .map(|p| {
            let label = format!(
                "{} (pairing number {})",
                p.data.unwrap_or_default().name,
                p.pairing_number
            );
            (p.player_id, label)
        })
        .collect();
    pick(
        "player",
        g,
        &candidates,
        "see `arbiter player list`, or give the pairing number",
    )
}

async fn players(chan: &Chan, tournament: &str) -> Result<Vec<Player>, Failure> {
    Ok(RegistryServiceClient::new(chan.clone())
        .list_players(ListPlayersRequest {
            tournament_id: tournament.to_owned(),
        })
        .await?
        .into_inner()
        .players)
}

/// Every player reference of `given` resolved (see [`player`]).
pub async fn players_named(
    chan: &Chan,
    tournament: &str,
    given: &[String],
) -> Result<Vec<String>, Failure> {
    let mut out = Vec::with_capacity(given.len());
    for g in given {
        out.push(player(chan, tournament, g).await?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect()
    }

    #[test]
    fn a_unique_prefix_names_its_id_in_any_case_with_or_without_hyphens() {
        let list = c(&[
            ("019ab3cd-cad5-7560-bf97-047d036b5cd8", "Bunratty Masters"),
            ("019ab3ff-0000-7000-8000-000000000001", "Spring Open"),
        ]);
        assert_eq!(
            pick("tournament", "019AB3C", &list, "").ok().unwrap(),
            list[0].0
        );
        assert_eq!(
            pick("tournament", "019ab3cdcad5", &list, "").ok().unwrap(),
            list[0].0
        );
        assert_eq!(
            pick("tournament", "019ab3cd-cad5", &list, "").ok().unwrap(),
            list[0].0
        );
    }

    #[test]
    fn ambiguous_short_and_unknown_prefixes_are_refused_saying_which() {
        let list = c(&[
            ("019ab3cd-cad5-7560-bf97-047d036b5cd8", "Bunratty Masters"),
            ("019ab3ff-0000-7000-8000-000000000001", "Spring Open"),
        ]);
        let e = pick("tournament", "019a", &list, "").unwrap_err();
        assert_eq!(e.code, 1);
        assert!(e.message.contains("ambiguous"), "{}", e.message);
        assert!(e.message.contains("Bunratty Masters") && e.message.contains("Spring Open"));
        assert!(e.message.contains(&list[0].0) && e.message.contains(&list[1].0));
        let short = pick("tournament", "019", &list, "").unwrap_err();
        assert_eq!(short.code, 2);
        assert!(short.message.contains("at least 4"), "{}", short.message);
        let none = pick("tournament", "abcd", &list, "").unwrap_err();
        assert!(
            none.message
                .starts_with("no tournament starts with \"abcd\""),
            "{}",
            none.message
        );
        let odd = pick("tournament", "spring", &list, "").unwrap_err();
        assert!(odd.message.starts_with("no tournament starts with"));
    }

    #[test]
    fn a_left_out_tournament_becomes_the_default_placeholder_where_it_goes() {
        let argv = |s: &str| -> Vec<std::ffi::OsString> { s.split(' ').map(Into::into).collect() };
        assert_eq!(
            with_default_tournament(&argv("arbiter round pair 3 --reason x")).unwrap(),
            argv("arbiter round pair . 3 --reason x")
        );
        assert_eq!(
            with_default_tournament(&argv("arbiter --json result set 1 2 1-0")).unwrap(),
            argv("arbiter --json result set . 1 2 1-0")
        );
        assert!(with_default_tournament(&argv("arbiter tournament list")).is_none());
        assert!(with_default_tournament(&argv("arbiter trf check x.trf")).is_none());
    }

    #[test]
    fn pairing_numbers_are_up_to_four_digits() {
        assert!(is_pairing_number("7"));
        assert!(is_pairing_number("9999"));
        assert!(!is_pairing_number("01934"));
        assert!(!is_pairing_number("019a"));
    }
}
