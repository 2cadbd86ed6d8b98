//! The bounds of every free-text and list field the services accept, in one place, and
//! the pure check of a text field against them (no I/O). Each refusal names the rule and
//! the limit; the caller names the field. README "Limits" lists these constants.
//!
//! Also the request limits of ADR platform-010, as tables: the largest message each RPC
//! accepts ([`max_message_bytes`]), the class each RPC is rate-limited in ([`class_of`]),
//! and the defaults of the rate, concurrency and connection limits ([`LimitOptions`]).
//! They are enforced by [`crate::gate`] and [`crate::connections`], before a request's
//! body is decoded.

/// Most players in one tournament: the TRF numbers players with four digits (columns
/// 5-8 of a `001` record), so 9,999 is the largest pairing number a file can carry.
pub const MAX_PLAYERS: usize = 9_999;
/// Tournament name (the TRF `012` record has no limit; 200 is a printed title's worth).
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 200;
/// Place (city, venue).
pub const MAX_PLACE_CHARS: usize = 100;
/// Time control (PGN TimeControl notation, e.g. `40/7200:1800+30`).
pub const MAX_TIME_CONTROL_CHARS: usize = 100;
/// Player name: the TRF name field (columns 15-47).
pub const MAX_PLAYER_NAME_CHARS: usize = 33;
/// Player's club.
pub const MAX_CLUB_CHARS: usize = 100;
/// Player's national id.
pub const MAX_NATIONAL_ID_CHARS: usize = 30;
/// The reason recorded on an event (`--reason`).
pub const MAX_REASON_CHARS: usize = 1_000;
/// The announced tie-break list as text (`BH/C1,BH,SB`).
pub const MAX_TIEBREAKS_CHARS: usize = 200;
/// Tie-breaks in the announced list (C.07 lists need a handful).
pub const MAX_TIEBREAKS: usize = 20;
/// Scoring in XXS notation (`W=3 D=1 PAB=3 FW=3`).
pub const MAX_SCORING_CHARS: usize = 200;
/// Acceleration name (`degressive:A_MIN:C_BELOW`).
pub const MAX_ACCELERATION_CHARS: usize = 50;
/// A knockout's tie-break stages (`rapid:2,blitz:2,armageddon`).
pub const MAX_KNOCKOUT_TIE_BREAKS_CHARS: usize = 200;
/// Players named in one prohibited pairing (a club or a family).
pub const MAX_PROHIBITED_PLAYERS: usize = 100;
/// A player reference (id or pairing number) in a request.
pub const MAX_PLAYER_REF_CHARS: usize = 64;
/// A chief or deputy arbiter's name (TRF 102/112: the rest of the line).
pub const MAX_ARBITER_NAME_CHARS: usize = 100;
/// Deputy arbiters of one tournament (TRF 112, a line each).
pub const MAX_DEPUTY_ARBITERS: usize = 50;

/// An id in a request (tournament, principal, token; ids are UUIDs or `p_…`/`t_…`).
pub const MAX_ID_CHARS: usize = 64;
/// One entry of a tie-break list (`BH/C1/M1`, `DE`, …).
pub const MAX_TIEBREAK_ENTRY_CHARS: usize = 32;

/// The ADR every request-limit refusal names.
pub const ADR: &str = "ADR platform-010";

/// Checks an id field (`tournament_id`, …): at most [`MAX_ID_CHARS`] characters. Cheap
/// on any input: the byte length is looked at before anything else.
pub fn check_id(field: &str, id: &str) -> Result<(), String> {
    if id.len() <= MAX_ID_CHARS {
        return Ok(());
    }
    let n = id.chars().count();
    if n > MAX_ID_CHARS {
        return Err(format!(
            "{field}: {n} characters; the limit is {MAX_ID_CHARS} ({ADR})"
        ));
    }
    Ok(())
}

/// Checks a tie-break list as requested (`BH/C1,BH,SB`): the text bound of
/// [`MAX_TIEBREAKS_CHARS`] (and no control character), at most [`MAX_TIEBREAKS`]
/// entries, each at most [`MAX_TIEBREAK_ENTRY_CHARS`] characters. Meant to run before
/// anything is loaded or authorised: its cost is bounded by the message limit.
/// `Err` is the message (the caller prefixes the field).
pub fn check_tiebreak_list(list: &str) -> Result<(), String> {
    check_text(list, MAX_TIEBREAKS_CHARS)?;
    let entries: Vec<&str> = list.split(',').map(str::trim).collect();
    if entries.len() > MAX_TIEBREAKS {
        return Err(format!(
            "{} entries; the limit is {MAX_TIEBREAKS} ({ADR})",
            entries.len()
        ));
    }
    if let Some((i, e)) = entries
        .iter()
        .enumerate()
        .find(|(_, e)| e.chars().count() > MAX_TIEBREAK_ENTRY_CHARS)
    {
        return Err(format!(
            "entry {} has {} characters; the limit is {MAX_TIEBREAK_ENTRY_CHARS} ({ADR})",
            i + 1,
            e.chars().count()
        ));
    }
    Ok(())
}

/// The largest message most RPCs accept (ADR platform-010): every request that is not an
/// import fits in a few kilobytes.
pub const DEFAULT_MESSAGE_BYTES: usize = 64 * 1024;
/// A TRF file (16 MiB, `arbiter_trf::MAX_INPUT_BYTES`) and the other fields of its message.
pub const TRF_MESSAGE_BYTES: usize = 16 * 1024 * 1024 + 64 * 1024;

/// The RPCs whose messages may be larger than [`DEFAULT_MESSAGE_BYTES`], with their
/// limit per message (a stream's limit is per message of the stream).
pub const MESSAGE_BYTES: &[(&str, usize)] = &[
    // A whole TRF file.
    ("ImportTrf", TRF_MESSAGE_BYTES),
    ("SubmitExternalTournament", TRF_MESSAGE_BYTES),
    // One chunk of a rating list file (the CLI sends 1 MiB chunks).
    ("ImportRatingList", 2 * 1024 * 1024),
    // One chunk of a starting list (the CLI sends 5,000 players, about 0.5 MiB).
    ("ImportStartingList", 4 * 1024 * 1024),
    // Manual pairings of up to 5,000 boards.
    ("SetPairings", 1024 * 1024),
];

/// The largest message `rpc` accepts.
pub fn max_message_bytes(rpc: &str) -> usize {
    MESSAGE_BYTES
        .iter()
        .find(|(r, _)| *r == rpc)
        .map_or(DEFAULT_MESSAGE_BYTES, |(_, n)| *n)
}

/// The largest message any RPC of `service` (as named in the access table: `registry`,
/// `results`, …) accepts: the decoding limit its tonic server is built with, behind the
/// per-RPC check of [`crate::gate`].
pub fn service_max_message_bytes(service: &str) -> usize {
    crate::access::roles::RULES
        .iter()
        .filter(|r| r.service == service || r.service == "*")
        .map(|r| max_message_bytes(r.rpc))
        .max()
        .unwrap_or(DEFAULT_MESSAGE_BYTES)
}

/// How an RPC is rate-limited and capped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RpcClass {
    /// A read that costs about a lookup: not rate-limited.
    Read,
    /// Appends events (the `write` column of the access table).
    Write,
    /// A read that walks a log, a roster or a rating list (standings, verify, exports,
    /// audit): rate-limited, and at most a few at a time.
    Expensive,
}

impl RpcClass {
    /// Its name in refusals (`writes`, `expensive reads`).
    pub fn name(self) -> &'static str {
        match self {
            RpcClass::Read => "reads",
            RpcClass::Write => "writes",
            RpcClass::Expensive => "expensive reads",
        }
    }
}

/// The reads of class [`RpcClass::Expensive`].
pub const EXPENSIVE_READS: &[&str] = &[
    "GetStandings",
    "GetCorrectionImpact",
    "GetHistory",
    "VerifyLog",
    "ExportAudit",
    "ExportTrf",
    "ExplainPairing",
    "LookupPlayers",
    "ExportList",
    "GetPlayerReport",
    "GetTournamentReport",
];

/// The RPCs that run one at a time, whatever the concurrency cap: `VerifyLog` walks and
/// checks the signature of every event of the log.
pub const ONE_AT_A_TIME: &[&str] = &["VerifyLog"];

/// The class of `rpc`: a write when the access table says so, an expensive read when
/// [`EXPENSIVE_READS`] lists it, else a read (also health and reflection).
pub fn class_of(rpc: &str) -> RpcClass {
    if EXPENSIVE_READS.contains(&rpc) {
        RpcClass::Expensive
    } else if crate::access::roles::rule_of(rpc).is_some_and(|r| r.write) {
        RpcClass::Write
    } else {
        RpcClass::Read
    }
}

/// Default writes per second per principal (and per address, for callers without a
/// valid token). An arbiter entering 200 results in a minute needs 3.
pub const DEFAULT_RATE_WRITES_PER_SECOND: f64 = 50.0;
/// Default burst of writes (a script entering a round's results at once).
pub const DEFAULT_RATE_WRITES_BURST: u32 = 500;
/// Default expensive reads per second per principal (and per address).
pub const DEFAULT_RATE_EXPENSIVE_PER_SECOND: f64 = 10.0;
/// Default burst of expensive reads.
pub const DEFAULT_RATE_EXPENSIVE_BURST: u32 = 100;
/// Default number of expensive reads running at once (the whole process).
pub const DEFAULT_MAX_EXPENSIVE_READS: u32 = 4;
/// Default wait for a free slot before an expensive read is refused.
pub const DEFAULT_EXPENSIVE_WAIT_MS: u64 = 2_000;
/// Default number of open connections.
pub const DEFAULT_MAX_CONNECTIONS: u32 = 4_096;
/// Default seconds a connection may stay idle (no request in flight, nothing read).
pub const DEFAULT_IDLE_TIMEOUT_SECS: u64 = 300;

/// The rate, concurrency and connection limits of a process (flags of `arbiterd` and of
/// every standalone service; ADR platform-010).
#[derive(Debug, Clone, PartialEq, clap::Args)]
pub struct LimitOptions {
    /// Writes per second each principal may send (and each address, for callers without
    /// a valid token); 0 turns the limit off.
    #[arg(long, env = "ARBITER_RATE_WRITES_PER_SECOND", default_value_t = DEFAULT_RATE_WRITES_PER_SECOND)]
    pub rate_writes_per_second: f64,
    /// Writes a principal may send at once before the rate applies.
    #[arg(long, env = "ARBITER_RATE_WRITES_BURST", default_value_t = DEFAULT_RATE_WRITES_BURST)]
    pub rate_writes_burst: u32,
    /// Expensive reads (standings, verify, exports, audit, history) per second each
    /// principal may send (and each address); 0 turns the limit off.
    #[arg(long, env = "ARBITER_RATE_EXPENSIVE_PER_SECOND", default_value_t = DEFAULT_RATE_EXPENSIVE_PER_SECOND)]
    pub rate_expensive_per_second: f64,
    /// Expensive reads a principal may send at once before the rate applies.
    #[arg(long, env = "ARBITER_RATE_EXPENSIVE_BURST", default_value_t = DEFAULT_RATE_EXPENSIVE_BURST)]
    pub rate_expensive_burst: u32,
    /// Expensive reads running at once in this process (`VerifyLog`: one at a time).
    #[arg(long, env = "ARBITER_MAX_EXPENSIVE_READS", default_value_t = DEFAULT_MAX_EXPENSIVE_READS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_expensive_reads: u32,
    /// Milliseconds an expensive read waits for a free slot before it is refused.
    #[arg(long, env = "ARBITER_EXPENSIVE_WAIT_MS", default_value_t = DEFAULT_EXPENSIVE_WAIT_MS)]
    pub expensive_wait_ms: u64,
    /// Open connections; beyond it a connection is answered `RESOURCE_EXHAUSTED` and
    /// closed (keep `ulimit -n` above it).
    #[arg(long, env = "ARBITER_MAX_CONNECTIONS", default_value_t = DEFAULT_MAX_CONNECTIONS, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Seconds a connection may stay idle (no request in flight, nothing received)
    /// before it is closed; 0 keeps idle connections open.
    #[arg(long, env = "ARBITER_IDLE_TIMEOUT_SECS", default_value_t = DEFAULT_IDLE_TIMEOUT_SECS)]
    pub idle_timeout_secs: u64,
}

impl Default for LimitOptions {
    fn default() -> Self {
        LimitOptions {
            rate_writes_per_second: DEFAULT_RATE_WRITES_PER_SECOND,
            rate_writes_burst: DEFAULT_RATE_WRITES_BURST,
            rate_expensive_per_second: DEFAULT_RATE_EXPENSIVE_PER_SECOND,
            rate_expensive_burst: DEFAULT_RATE_EXPENSIVE_BURST,
            max_expensive_reads: DEFAULT_MAX_EXPENSIVE_READS,
            expensive_wait_ms: DEFAULT_EXPENSIVE_WAIT_MS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            idle_timeout_secs: DEFAULT_IDLE_TIMEOUT_SECS,
        }
    }
}

/// The first control character of `text` (C0, DEL, C1: anything a terminal may act on)
/// with its 1-based character position.
pub fn first_control(text: &str) -> Option<(usize, char)> {
    text.chars()
        .enumerate()
        .find(|(_, c)| c.is_control())
        .map(|(i, c)| (i + 1, c))
}

/// Checks a free-text field: no control character, at most `max_chars` characters.
/// `Err` is the message (the caller prefixes the field).
pub fn check_text(text: &str, max_chars: usize) -> Result<(), String> {
    if let Some((pos, c)) = first_control(text) {
        return Err(format!(
            "control character U+{:04X} at character {pos}: control characters are not allowed",
            u32::from(c)
        ));
    }
    let n = text.chars().count();
    if n > max_chars {
        return Err(format!("at most {max_chars} characters, got {n}"));
    }
    Ok(())
}

/// Escapes control characters as `\u{1b}` so printed data never drives a terminal;
/// `keep_newlines` leaves `\n` (a message of several lines) as it is.
pub fn escape_controls(text: &str, keep_newlines: bool) -> std::borrow::Cow<'_, str> {
    if !text
        .chars()
        .any(|c| c.is_control() && !(keep_newlines && c == '\n'))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && !(keep_newlines && c == '\n') {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_refused_with_their_position() {
        assert_eq!(check_text("Bunratty", 200), Ok(()));
        for (text, pos, code) in [
            ("A\0B", 2, "U+0000"),
            ("\u{1b}[2J", 1, "U+001B"),
            ("ab\r", 3, "U+000D"),
            ("x\ny", 2, "U+000A"),
            ("é\u{9b}", 2, "U+009B"),
        ] {
            let m = check_text(text, 200).unwrap_err();
            assert!(
                m.contains(code) && m.contains(&format!("character {pos}")),
                "{text:?}: {m}"
            );
        }
    }

    #[test]
    fn length_is_counted_in_characters_and_the_limit_is_named() {
        assert_eq!(check_text(&"é".repeat(33), MAX_PLAYER_NAME_CHARS), Ok(()));
        let m = check_text(&"é".repeat(34), MAX_PLAYER_NAME_CHARS).unwrap_err();
        assert_eq!(m, "at most 33 characters, got 34");
    }

    #[test]
    fn tiebreak_lists_are_bounded_by_text_entries_and_entry_length() {
        assert_eq!(check_tiebreak_list("BH/C1,BH,SB,DE"), Ok(()));
        assert_eq!(check_tiebreak_list(""), Ok(()));
        let m = check_tiebreak_list(&"BH,".repeat(1_000)).unwrap_err();
        assert_eq!(m, "at most 200 characters, got 3000");
        let m = check_tiebreak_list(&"B,".repeat(30)).unwrap_err();
        assert_eq!(m, "31 entries; the limit is 20 (ADR platform-010)");
        let m = check_tiebreak_list(&format!("BH,{}", "X".repeat(33))).unwrap_err();
        assert_eq!(
            m,
            "entry 2 has 33 characters; the limit is 32 (ADR platform-010)"
        );
    }

    #[test]
    fn ids_are_bounded() {
        assert_eq!(check_id("tournament_id", &"a".repeat(64)), Ok(()));
        assert_eq!(check_id("tournament_id", &"é".repeat(64)), Ok(()));
        let m = check_id("tournament_id", &"a".repeat(3_000_000)).unwrap_err();
        assert_eq!(
            m,
            "tournament_id: 3000000 characters; the limit is 64 (ADR platform-010)"
        );
    }

    #[test]
    fn every_rpc_of_the_message_table_and_the_expensive_list_has_an_access_rule() {
        for (rpc, _) in MESSAGE_BYTES {
            assert!(crate::access::roles::rule_of(rpc).is_some(), "{rpc}");
        }
        for rpc in EXPENSIVE_READS.iter().chain(ONE_AT_A_TIME) {
            let rule = crate::access::roles::rule_of(rpc).unwrap_or_else(|| panic!("{rpc}"));
            assert!(!rule.write, "{rpc} is a write");
        }
        assert_eq!(class_of("RecordResult"), RpcClass::Write);
        assert_eq!(class_of("GetStandings"), RpcClass::Expensive);
        assert_eq!(class_of("GetTournament"), RpcClass::Read);
        assert_eq!(class_of("Check"), RpcClass::Read);
        assert_eq!(max_message_bytes("GetStandings"), 64 * 1024);
        assert_eq!(service_max_message_bytes("results"), 64 * 1024);
        assert_eq!(service_max_message_bytes("registry"), TRF_MESSAGE_BYTES);
    }

    #[test]
    fn escaping_leaves_ordinary_text_and_shows_controls() {
        assert_eq!(escape_controls("Short, Nigel", false), "Short, Nigel");
        assert_eq!(escape_controls("a\u{1b}[2Jb", false), "a\\u{1b}[2Jb");
        assert_eq!(escape_controls("a\nb\r", true), "a\nb\\u{d}");
        assert_eq!(escape_controls("a\nb", false), "a\\u{a}b");
    }
}
