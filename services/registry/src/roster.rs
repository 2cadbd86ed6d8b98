//! The entries of one tournament, pure: players, pairing numbers, withdrawals, requested
//! byes, prohibited pairings and the round history imported from TRF. Commands are
//! validated against a [`Roster`] and decided into [`RosterEvent`]s; events fold into it.
//! No I/O.
use std::collections::BTreeMap;
use std::sync::Arc;

use arbiter_proto::v1::{
    AdjournmentReported, ByeRecorded, PairingDiscarded, PairingExplained, PairingsPublished,
    PairingsUnpublished, ResultCorrected, ResultRecorded, ResultReported, RoundClosed, RoundPaired,
    TournamentSettingsSet,
};
use arbiter_proto::v1::{
    ByeRequested, EntryRulesSet, PairingNumbersAssigned, PairingProhibited, PlayerAdded,
    PlayerCorrected, PlayerData, PlayerWithdrawn, RoundBlock, RoundImported, RoundsPaired,
    TrfImported,
};
use prost::Message;

use crate::initial_ranking_c04_2_art2::{self as art2, AnnouncedCriterion, RankingKey};
use crate::teams::types as team_types;
use crate::tournament::FieldError;

/// Event types of the roster.
pub mod types {
    /// `PlayerAdded`.
    pub const PLAYER_ADDED: &str = "PlayerAdded";
    /// `PairingNumbersAssigned`.
    pub const PAIRING_NUMBERS_ASSIGNED: &str = "PairingNumbersAssigned";
    /// `PlayerCorrected`.
    pub const PLAYER_CORRECTED: &str = "PlayerCorrected";
    /// `PlayerWithdrawn`.
    pub const PLAYER_WITHDRAWN: &str = "PlayerWithdrawn";
    /// `ByeRequested`.
    pub const BYE_REQUESTED: &str = "ByeRequested";
    /// `PairingProhibited`.
    pub const PAIRING_PROHIBITED: &str = "PairingProhibited";
    /// `TrfImported`.
    pub const TRF_IMPORTED: &str = "TrfImported";
    /// `RoundImported`.
    pub const ROUND_IMPORTED: &str = "RoundImported";
    /// `EntryRulesSet`.
    pub const ENTRY_RULES_SET: &str = "EntryRulesSet";
    /// `RoundsPaired` (from the service that pairs).
    pub const ROUNDS_PAIRED: &str = "RoundsPaired";
    /// `TournamentSettingsSet`.
    pub const TOURNAMENT_SETTINGS_SET: &str = "TournamentSettingsSet";
    /// `RoundPaired` (pairing service, stream `pairing-<id>`).
    pub const ROUND_PAIRED: &str = "RoundPaired";
    /// `PairingsPublished` (pairing service).
    pub const PAIRINGS_PUBLISHED: &str = "PairingsPublished";
    /// `PairingDiscarded` (pairing service).
    pub const PAIRING_DISCARDED: &str = "PairingDiscarded";
    /// `PairingsUnpublished` (pairing service).
    pub const PAIRINGS_UNPUBLISHED: &str = "PairingsUnpublished";
    /// `PairingExplained` (pairing service, stream `pairing-<id>-explanations`).
    pub const PAIRING_EXPLAINED: &str = "PairingExplained";
    /// `ResultRecorded` (results service, streams `results-<id>-…`).
    pub const RESULT_RECORDED: &str = "ResultRecorded";
    /// `ResultCorrected` (results service).
    pub const RESULT_CORRECTED: &str = "ResultCorrected";
    /// `ByeRecorded` (results service).
    pub const BYE_RECORDED: &str = "ByeRecorded";
    /// `RoundClosed` (results service).
    pub const ROUND_CLOSED: &str = "RoundClosed";
    /// `ResultReported` (clock-telemetry, stream `board-<id>-<board>`).
    pub const RESULT_REPORTED: &str = "ResultReported";
    /// `AdjournmentReported` (clock-telemetry, stream `board-<id>-<board>`): an adjourned
    /// game, its result pending (Guidelines I; C.04.2 3.1).
    pub const ADJOURNMENT_REPORTED: &str = "AdjournmentReported";
}

/// Pairing numbers may be re-derived until round 4 has been paired (C.04.2 art. 2 note:
/// later corrections of rating or title do not renumber).
pub const FREEZE_AFTER_ROUND: u32 = 4;

/// Largest round number accepted.
pub const MAX_ROUND: u32 = 99;

/// A registry event about entries.
#[derive(Debug, Clone, PartialEq)]
pub enum RosterEvent {
    /// A player entered.
    PlayerAdded(PlayerAdded),
    /// Pairing numbers (re)derived.
    PairingNumbersAssigned(PairingNumbersAssigned),
    /// Player data corrected.
    PlayerCorrected(PlayerCorrected),
    /// A withdrawal.
    PlayerWithdrawn(PlayerWithdrawn),
    /// A requested bye.
    ByeRequested(ByeRequested),
    /// Players who may not meet.
    PairingProhibited(PairingProhibited),
    /// Records of an imported TRF file kept for export.
    TrfImported(TrfImported),
    /// A round of imported history.
    RoundImported(RoundImported),
    /// The event's rules for entries.
    EntryRulesSet(EntryRulesSet),
    /// A round has been paired (by the pairing service).
    RoundsPaired(RoundsPaired),
    /// Scoring, acceleration, announced tie-breaks, rating-list date.
    TournamentSettingsSet(TournamentSettingsSet),
    /// A round's pairing (pairing service).
    RoundPaired(RoundPaired),
    /// A round's pairing is published (pairing service).
    PairingsPublished(PairingsPublished),
    /// An unpublished pairing withdrawn: the round is no longer paired (pairing service).
    PairingDiscarded(PairingDiscarded),
    /// A published pairing withdrawn from publication (pairing service).
    PairingsUnpublished(PairingsUnpublished),
    /// The engine's explanation of a stored pairing, made after it (pairing service).
    PairingExplained(PairingExplained),
    /// A board's result (results service).
    ResultRecorded(ResultRecorded),
    /// A corrected result (results service).
    ResultCorrected(ResultCorrected),
    /// An unpaired player's outcome (results service).
    ByeRecorded(ByeRecorded),
    /// A round has ended (results service).
    RoundClosed(RoundClosed),
    /// A result a clock or sensor board reported (clock-telemetry).
    ResultReported(ResultReported),
    /// A game adjourned on a clock (clock-telemetry): its result pending.
    AdjournmentReported(AdjournmentReported),
    /// Boards per match and line-up deadlines (`teams.rs`).
    TeamRulesSet(arbiter_proto::v1::TeamRulesSet),
    /// A team entered.
    TeamAdded(arbiter_proto::v1::TeamAdded),
    /// A team's roster in board order.
    TeamRosterSet(arbiter_proto::v1::TeamRosterSet),
    /// A team's line-up for a round.
    LineupSubmitted(arbiter_proto::v1::LineupSubmitted),
    /// A team withdrew.
    TeamWithdrawn(arbiter_proto::v1::TeamWithdrawn),
}

impl RosterEvent {
    /// Event type and encoded payload.
    pub fn encode(&self) -> (&'static str, Vec<u8>) {
        use types::*;
        match self {
            RosterEvent::PlayerAdded(e) => (PLAYER_ADDED, e.encode_to_vec()),
            RosterEvent::PairingNumbersAssigned(e) => (PAIRING_NUMBERS_ASSIGNED, e.encode_to_vec()),
            RosterEvent::PlayerCorrected(e) => (PLAYER_CORRECTED, e.encode_to_vec()),
            RosterEvent::PlayerWithdrawn(e) => (PLAYER_WITHDRAWN, e.encode_to_vec()),
            RosterEvent::ByeRequested(e) => (BYE_REQUESTED, e.encode_to_vec()),
            RosterEvent::PairingProhibited(e) => (PAIRING_PROHIBITED, e.encode_to_vec()),
            RosterEvent::TrfImported(e) => (TRF_IMPORTED, e.encode_to_vec()),
            RosterEvent::RoundImported(e) => (ROUND_IMPORTED, e.encode_to_vec()),
            RosterEvent::EntryRulesSet(e) => (ENTRY_RULES_SET, e.encode_to_vec()),
            RosterEvent::RoundsPaired(e) => (ROUNDS_PAIRED, e.encode_to_vec()),
            RosterEvent::TournamentSettingsSet(e) => (TOURNAMENT_SETTINGS_SET, e.encode_to_vec()),
            RosterEvent::RoundPaired(e) => (ROUND_PAIRED, e.encode_to_vec()),
            RosterEvent::PairingsPublished(e) => (PAIRINGS_PUBLISHED, e.encode_to_vec()),
            RosterEvent::PairingDiscarded(e) => (PAIRING_DISCARDED, e.encode_to_vec()),
            RosterEvent::PairingsUnpublished(e) => (PAIRINGS_UNPUBLISHED, e.encode_to_vec()),
            RosterEvent::PairingExplained(e) => (PAIRING_EXPLAINED, e.encode_to_vec()),
            RosterEvent::ResultRecorded(e) => (RESULT_RECORDED, e.encode_to_vec()),
            RosterEvent::ResultCorrected(e) => (RESULT_CORRECTED, e.encode_to_vec()),
            RosterEvent::ByeRecorded(e) => (BYE_RECORDED, e.encode_to_vec()),
            RosterEvent::RoundClosed(e) => (ROUND_CLOSED, e.encode_to_vec()),
            RosterEvent::ResultReported(e) => (RESULT_REPORTED, e.encode_to_vec()),
            RosterEvent::AdjournmentReported(e) => (ADJOURNMENT_REPORTED, e.encode_to_vec()),
            RosterEvent::TeamRulesSet(e) => (team_types::TEAM_RULES_SET, e.encode_to_vec()),
            RosterEvent::TeamAdded(e) => (team_types::TEAM_ADDED, e.encode_to_vec()),
            RosterEvent::TeamRosterSet(e) => (team_types::TEAM_ROSTER_SET, e.encode_to_vec()),
            RosterEvent::LineupSubmitted(e) => (team_types::LINEUP_SUBMITTED, e.encode_to_vec()),
            RosterEvent::TeamWithdrawn(e) => (team_types::TEAM_WITHDRAWN, e.encode_to_vec()),
        }
    }

    /// Decodes a stored event of one of the roster's types (`None` for other types).
    pub fn decode(event_type: &str, payload: &[u8]) -> Option<Result<RosterEvent, String>> {
        use types::*;
        fn d<M: Message + Default>(
            p: &[u8],
            f: fn(M) -> RosterEvent,
        ) -> Option<Result<RosterEvent, String>> {
            Some(M::decode(p).map(f).map_err(|e| e.to_string()))
        }
        match event_type {
            PLAYER_ADDED => d(payload, RosterEvent::PlayerAdded),
            PAIRING_NUMBERS_ASSIGNED => d(payload, RosterEvent::PairingNumbersAssigned),
            PLAYER_CORRECTED => d(payload, RosterEvent::PlayerCorrected),
            PLAYER_WITHDRAWN => d(payload, RosterEvent::PlayerWithdrawn),
            BYE_REQUESTED => d(payload, RosterEvent::ByeRequested),
            PAIRING_PROHIBITED => d(payload, RosterEvent::PairingProhibited),
            TRF_IMPORTED => d(payload, RosterEvent::TrfImported),
            ROUND_IMPORTED => d(payload, RosterEvent::RoundImported),
            ENTRY_RULES_SET => d(payload, RosterEvent::EntryRulesSet),
            ROUNDS_PAIRED => d(payload, RosterEvent::RoundsPaired),
            TOURNAMENT_SETTINGS_SET => d(payload, RosterEvent::TournamentSettingsSet),
            ROUND_PAIRED => d(payload, RosterEvent::RoundPaired),
            PAIRINGS_PUBLISHED => d(payload, RosterEvent::PairingsPublished),
            PAIRING_DISCARDED => d(payload, RosterEvent::PairingDiscarded),
            PAIRINGS_UNPUBLISHED => d(payload, RosterEvent::PairingsUnpublished),
            PAIRING_EXPLAINED => d(payload, RosterEvent::PairingExplained),
            RESULT_RECORDED => d(payload, RosterEvent::ResultRecorded),
            RESULT_CORRECTED => d(payload, RosterEvent::ResultCorrected),
            BYE_RECORDED => d(payload, RosterEvent::ByeRecorded),
            ROUND_CLOSED => d(payload, RosterEvent::RoundClosed),
            RESULT_REPORTED => d(payload, RosterEvent::ResultReported),
            ADJOURNMENT_REPORTED => d(payload, RosterEvent::AdjournmentReported),
            team_types::TEAM_RULES_SET => d(payload, RosterEvent::TeamRulesSet),
            team_types::TEAM_ADDED => d(payload, RosterEvent::TeamAdded),
            team_types::TEAM_ROSTER_SET => d(payload, RosterEvent::TeamRosterSet),
            team_types::LINEUP_SUBMITTED => d(payload, RosterEvent::LineupSubmitted),
            team_types::TEAM_WITHDRAWN => d(payload, RosterEvent::TeamWithdrawn),
            _ => None,
        }
    }
}

/// One entry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    /// Player id (unique in the tournament).
    pub player_id: String,
    /// Player data (latest correction).
    pub data: PlayerData,
    /// First round the player can be paired in.
    pub joined_round: u32,
    /// Bye kind of the rounds missed before joining (`zero` or `half`).
    pub missed_rounds: String,
    /// First round of absence after a withdrawal (0 = not withdrawn).
    pub withdrawn_from_round: u32,
    /// Requested byes by round: `half`, `zero`, `full`.
    pub byes: BTreeMap<u32, String>,
}

/// The rating an event ranks by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RatingKind {
    /// Standard (classical) rating.
    #[default]
    Standard,
    /// Rapid rating.
    Rapid,
    /// Blitz rating.
    Blitz,
}

impl RatingKind {
    /// The player's rating of this kind (0 = unrated).
    pub fn of(self, d: &PlayerData) -> u32 {
        match self {
            RatingKind::Standard => d.rating_standard,
            RatingKind::Rapid => d.rating_rapid,
            RatingKind::Blitz => d.rating_blitz,
        }
    }
}

/// The event's rules for entries.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EntryRules {
    /// Full-point byes may be requested.
    pub full_point_byes_allowed: bool,
    /// Rounds a late entry missed score as half-point byes (default: zero-point).
    pub late_entry_half_point: bool,
    /// Ties after rating, title and name.
    pub criterion: AnnouncedCriterion,
    /// Rating the initial ranking uses.
    pub rating: RatingKind,
}

/// The entries of one tournament.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Roster {
    /// The event's rules for entries.
    pub rules: EntryRules,
    /// Entries in registration order.
    pub entries: Arc<Vec<Entry>>,
    /// Player ids in pairing-number order (TPN = index + 1).
    pub order: Arc<Vec<String>>,
    /// Rounds paired so far.
    pub paired_rounds: u32,
    /// Round history (imported): round → blocks.
    pub rounds: Arc<BTreeMap<u32, Arc<Vec<RoundBlock>>>>,
    /// Prohibited pairings.
    pub prohibited: Arc<Vec<PairingProhibited>>,
    /// The records of an imported TRF file kept for export (empty if not imported).
    pub trf: Option<Arc<TrfImported>>,
    /// Pairings, results and closed rounds made here (`round_record.rs`).
    pub record: crate::round_record::RoundRecord,
    /// Scoring, acceleration, announced tie-breaks, rating-list date.
    pub settings: crate::tournament_settings::TournamentSettings,
    /// Teams, rosters and line-ups of a team tournament (`teams.rs`).
    pub teams: crate::teams::Teams,
    /// Lookups by player id (kept by [`Roster::apply`]; `entries` and `order` change
    /// only through it).
    index: Arc<RosterIndex>,
}

/// Player id → pairing number and entry position: a large open (10,000 entries) folds
/// and exports in linear time.
#[derive(Debug, Clone, PartialEq, Default)]
struct RosterIndex {
    tpn: std::collections::HashMap<String, u32>,
    entry: std::collections::HashMap<String, usize>,
}

impl Roster {
    fn reindex_order(&mut self) {
        Arc::make_mut(&mut self.index).tpn = self
            .order
            .iter()
            .enumerate()
            .map(|(i, id)| (id.clone(), u32::try_from(i + 1).unwrap_or(0)))
            .collect();
    }

    fn entry_mut(&mut self, player_id: &str) -> Option<&mut Entry> {
        let i = *self.index.entry.get(player_id)?;
        Arc::make_mut(&mut self.entries).get_mut(i)
    }
}

fn err(field: &'static str, message: impl Into<String>) -> FieldError {
    FieldError {
        field,
        message: message.into(),
    }
}

impl Roster {
    /// True once round 4 has been paired: pairing numbers are final.
    pub fn numbers_frozen(&self) -> bool {
        self.paired_rounds >= FREEZE_AFTER_ROUND
    }

    /// The entry with this id.
    pub fn entry(&self, player_id: &str) -> Option<&Entry> {
        let i = *self.index.entry.get(player_id)?;
        self.entries.get(i)
    }

    /// Pairing number of a player (0 = none).
    pub fn pairing_number(&self, player_id: &str) -> u32 {
        self.index.tpn.get(player_id).copied().unwrap_or(0)
    }

    /// Finds a player by id or by pairing number (digits).
    pub fn resolve(&self, player: &str) -> Result<&Entry, FieldError> {
        let p = player.trim();
        if p.is_empty() {
            return Err(err(
                "player",
                "must not be empty (a player id or pairing number)",
            ));
        }
        let max = arbiter_service_kit::limits::MAX_PLAYER_REF_CHARS;
        let n = p.chars().count();
        if n > max {
            return Err(err(
                "player",
                format!("at most {max} characters (a player id or pairing number), got {n}"),
            ));
        }
        let id = if p.bytes().all(|b| b.is_ascii_digit()) && p.len() <= 5 {
            let n: usize = p.parse().unwrap_or(0);
            n.checked_sub(1)
                .and_then(|i| self.order.get(i))
                .map(String::as_str)
                .ok_or_else(|| err("player", format!("no player with pairing number {p}")))?
        } else {
            p
        };
        self.entry(id)
            .ok_or_else(|| err("player", format!("no player {p:?} in this tournament")))
    }

    /// The art. 2 initial ranking of the current entries (player ids in TPN order).
    pub fn art2_order(&self) -> Vec<String> {
        let keys: Vec<RankingKey<'_>> = self
            .entries
            .iter()
            .enumerate()
            .map(|(i, e)| RankingKey {
                rating: self.rules.rating.of(&e.data),
                title: &e.data.title,
                name: &e.data.name,
                fide_id: e.data.fide_id,
                registration: i,
            })
            .collect();
        art2::initial_ranking(&keys, self.rules.criterion)
            .into_iter()
            .map(|i| self.entries[i].player_id.clone())
            .collect()
    }

    /// Folds one event.
    pub fn apply(&mut self, e: RosterEvent) {
        self.apply_with(e, &crate::round_record::EventMeta::default());
    }

    /// Folds one event with its envelope's metadata (who, when, where in the log).
    pub fn apply_with(&mut self, e: RosterEvent, meta: &crate::round_record::EventMeta) {
        match e {
            RosterEvent::RoundPaired(_)
            | RosterEvent::PairingsPublished(_)
            | RosterEvent::PairingDiscarded(_)
            | RosterEvent::PairingsUnpublished(_)
            | RosterEvent::PairingExplained(_)
            | RosterEvent::ResultRecorded(_)
            | RosterEvent::ResultCorrected(_)
            | RosterEvent::ByeRecorded(_)
            | RosterEvent::RoundClosed(_)
            | RosterEvent::ResultReported(_)
            | RosterEvent::AdjournmentReported(_) => self.apply_round_record(e, meta),
            RosterEvent::TeamRulesSet(_)
            | RosterEvent::TeamAdded(_)
            | RosterEvent::TeamRosterSet(_)
            | RosterEvent::LineupSubmitted(_)
            | RosterEvent::TeamWithdrawn(_) => self.teams.apply(&e),
            RosterEvent::PlayerAdded(a) => {
                let id = a.player_id.clone();
                if self.index.entry.contains_key(&id) {
                    return;
                }
                Arc::make_mut(&mut self.index)
                    .entry
                    .insert(id.clone(), self.entries.len());
                Arc::make_mut(&mut self.index)
                    .tpn
                    .insert(id.clone(), u32::try_from(self.order.len() + 1).unwrap_or(0));
                Arc::make_mut(&mut self.entries).push(Entry {
                    player_id: a.player_id,
                    data: a.data.unwrap_or_default(),
                    joined_round: a.joined_round.max(1),
                    missed_rounds: a.missed_rounds,
                    withdrawn_from_round: 0,
                    byes: BTreeMap::new(),
                });
                // Until the next PairingNumbersAssigned: the next free number.
                Arc::make_mut(&mut self.order).push(id);
            }
            RosterEvent::PairingNumbersAssigned(p) => {
                let mut seen = std::collections::HashSet::new();
                let mut order: Vec<String> = p
                    .player_ids
                    .into_iter()
                    .filter(|id| self.entry(id).is_some() && seen.insert(id.clone()))
                    .collect();
                for e in self.entries.iter() {
                    if !seen.contains(&e.player_id) {
                        order.push(e.player_id.clone());
                    }
                }
                self.order = Arc::new(order);
                self.reindex_order();
            }
            RosterEvent::PlayerCorrected(c) => {
                if let Some(e) = self.entry_mut(&c.player_id) {
                    e.data = c.data.unwrap_or_default();
                }
            }
            RosterEvent::PlayerWithdrawn(w) => {
                if let Some(e) = self.entry_mut(&w.player_id) {
                    e.withdrawn_from_round = w.from_round;
                }
            }
            RosterEvent::ByeRequested(b) => {
                if let Some(e) = self.entry_mut(&b.player_id) {
                    e.byes.insert(b.round, b.kind);
                }
            }
            RosterEvent::PairingProhibited(p) => Arc::make_mut(&mut self.prohibited).push(p),
            RosterEvent::EntryRulesSet(r) => {
                if let Some(v) = r.full_point_byes_allowed {
                    self.rules.full_point_byes_allowed = v;
                }
                if let Some(v) = r.late_entry_byes {
                    self.rules.late_entry_half_point = v == "half";
                }
                if let Some(v) = r.announced_criterion {
                    self.rules.criterion = if v == "fide-id" {
                        AnnouncedCriterion::FideId
                    } else {
                        AnnouncedCriterion::RegistrationOrder
                    };
                }
                if let Some(v) = r.rating {
                    self.rules.rating = match v.as_str() {
                        "rapid" => RatingKind::Rapid,
                        "blitz" => RatingKind::Blitz,
                        _ => RatingKind::Standard,
                    };
                }
            }
            RosterEvent::TrfImported(t) => {
                self.rules.full_point_byes_allowed |= t.full_point_byes_allowed;
                self.paired_rounds = self.paired_rounds.max(t.paired_rounds);
                self.trf = Some(Arc::new(t));
            }
            RosterEvent::RoundsPaired(r) => {
                self.paired_rounds = self.paired_rounds.max(r.round);
            }
            RosterEvent::TournamentSettingsSet(x) => self.settings.apply(x),
            RosterEvent::RoundImported(r) => {
                self.paired_rounds = self.paired_rounds.max(r.round);
                Arc::make_mut(&mut self.rounds).insert(r.round, Arc::new(r.blocks));
            }
        }
    }

    /// `PairingNumbersAssigned` by art. 2 after `pending` would be applied, if numbers may
    /// still be re-derived and the order changes.
    pub(crate) fn renumber_after(&self, pending: &[RosterEvent]) -> Option<RosterEvent> {
        if self.numbers_frozen() {
            return None;
        }
        let mut next = self.clone();
        for e in pending {
            next.apply(e.clone());
        }
        let order = next.art2_order();
        (order != *next.order).then(|| {
            RosterEvent::PairingNumbersAssigned(PairingNumbersAssigned {
                player_ids: order,
                basis: "C.04.2 art. 2".into(),
            })
        })
    }
}

/// Bye kinds as accepted in requests.
pub fn bye_kind(kind: &str) -> Result<&'static str, FieldError> {
    match kind.trim().to_ascii_lowercase().as_str() {
        "" | "half" | "h" | "0.5" => Ok("half"),
        "zero" | "z" | "0" => Ok("zero"),
        "full" | "f" | "1" => Ok("full"),
        other => Err(err(
            "kind",
            format!("{other:?} is not a bye kind; half, zero or full"),
        )),
    }
}

/// Titles in their FIDE spelling; TRF letters are accepted.
pub fn normalise_title(title: &str) -> Result<String, FieldError> {
    let t = title.trim().to_ascii_uppercase();
    let spelled = match t.as_str() {
        "" => "",
        "GM" | "G" => "GM",
        "IM" | "M" => "IM",
        "WGM" | "WG" => "WGM",
        "FM" | "F" => "FM",
        "WIM" | "WM" => "WIM",
        "CM" | "C" => "CM",
        "WFM" | "WF" => "WFM",
        "WCM" | "WC" => "WCM",
        "AGM" | "AIM" | "AFM" | "ACM" | "H" => return Ok(t),
        _ => {
            return Err(err(
                "data.title",
                format!("{title:?} is not a FIDE title (GM IM WGM FM WIM CM WFM WCM)"),
            ));
        }
    };
    Ok(spelled.to_owned())
}

/// Validates and normalises player data (names up to 33 characters: the TRF name field).
pub fn check_player_data(mut d: PlayerData) -> Result<PlayerData, FieldError> {
    use arbiter_service_kit::limits;
    // Control characters are refused where they stand (before trimming), each field
    // with its limit.
    for (field, text, max) in [
        ("data.name", &d.name, usize::MAX),
        ("data.club", &d.club, limits::MAX_CLUB_CHARS),
        (
            "data.national_id",
            &d.national_id,
            limits::MAX_NATIONAL_ID_CHARS,
        ),
        ("data.title", &d.title, 10),
        ("data.federation", &d.federation, 10),
        ("data.sex", &d.sex, 10),
        ("data.birth_date", &d.birth_date, 10),
    ] {
        crate::tournament::check_free_text(field, text, max)?;
    }
    d.name = d.name.trim().to_owned();
    if d.name.is_empty() {
        return Err(err(
            "data.name",
            "must not be empty (\"Lastname, Firstname\")",
        ));
    }
    let n = d.name.chars().count();
    if n > limits::MAX_PLAYER_NAME_CHARS {
        return Err(err(
            "data.name",
            format!(
                "at most {} characters (the TRF name field, columns 15-47), got {n}",
                limits::MAX_PLAYER_NAME_CHARS
            ),
        ));
    }
    d.sex = match d.sex.trim().to_ascii_lowercase().as_str() {
        "" => String::new(),
        "m" => "m".into(),
        "w" | "f" => "w".into(),
        other => return Err(err("data.sex", format!("{other:?}: m, w or empty"))),
    };
    d.title = normalise_title(&d.title)?;
    d.federation = d.federation.trim().to_owned();
    if !(d.federation.is_empty()
        || (d.federation.len() == 3 && d.federation.chars().all(|c| c.is_ascii_uppercase())))
    {
        return Err(err(
            "data.federation",
            format!("{:?} is not a 3-letter FIDE code like IRL", d.federation),
        ));
    }
    d.birth_date = d.birth_date.trim().replace('-', "/");
    let b = d.birth_date.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    let ok = match b.len() {
        0 => true,
        4 => digits(0..4),
        10 => digits(0..4) && b[4] == b'/' && digits(5..7) && b[7] == b'/' && digits(8..10),
        _ => false,
    };
    if !ok {
        return Err(err(
            "data.birth_date",
            format!("{:?}: YYYY/MM/DD or YYYY", d.birth_date),
        ));
    }
    for (field, r) in [
        ("data.rating_standard", d.rating_standard),
        ("data.rating_rapid", d.rating_rapid),
        ("data.rating_blitz", d.rating_blitz),
        ("data.national_rating", d.national_rating),
    ] {
        if r > 3500 {
            return Err(err(
                field,
                format!("{r} is not a rating (0 = unrated, at most 3500)"),
            ));
        }
    }
    if d.fide_id > 99_999_999_999 {
        return Err(err("data.fide_id", "at most 11 digits"));
    }
    d.national_id = d.national_id.trim().to_owned();
    d.club = d.club.trim().to_owned();
    crate::tournament::check_free_text("data.club", &d.club, limits::MAX_CLUB_CHARS)?;
    crate::tournament::check_free_text(
        "data.national_id",
        &d.national_id,
        limits::MAX_NATIONAL_ID_CHARS,
    )?;
    Ok(d)
}

/// Decides a new entry. A player added after rounds have been paired is a late entry: they
/// join in the next round and the rounds missed score as `missed_rounds` byes.
pub fn decide_add_player(
    roster: &Roster,
    total_rounds: u32,
    player_id: &str,
    data: PlayerData,
    missed_rounds: &str,
) -> Result<Vec<RosterEvent>, FieldError> {
    let data = check_player_data(data)?;
    let missed = match missed_rounds.trim().to_ascii_lowercase().as_str() {
        "" if roster.rules.late_entry_half_point => "half",
        "" | "zero" => "zero",
        "half" => "half",
        other => {
            return Err(err(
                "missed_rounds",
                format!("{other:?}: zero (default) or half"),
            ));
        }
    };
    if data.fide_id != 0
        && let Some(e) = roster
            .entries
            .iter()
            .find(|e| e.data.fide_id == data.fide_id)
    {
        return Err(err(
            "data.fide_id",
            format!("{} is already entered as {:?}", data.fide_id, e.data.name),
        ));
    }
    let joined = roster.paired_rounds + 1;
    if total_rounds != 0 && joined > total_rounds {
        return Err(err(
            "tournament_id",
            format!("all {total_rounds} rounds have been paired; no more entries"),
        ));
    }
    if roster.entries.len() >= arbiter_service_kit::limits::MAX_PLAYERS {
        return Err(err(
            "tournament_id",
            format!(
                "the tournament has {} players, the most a tournament can hold: the TRF numbers players with four digits (at most {})",
                roster.entries.len(),
                arbiter_service_kit::limits::MAX_PLAYERS
            ),
        ));
    }
    let mut events = vec![RosterEvent::PlayerAdded(PlayerAdded {
        player_id: player_id.to_owned(),
        data: Some(data),
        joined_round: joined,
        missed_rounds: missed.to_owned(),
    })];
    if let Some(renumber) = roster.renumber_after(&events) {
        events.push(renumber);
    }
    Ok(events)
}

/// Decides a correction of a player's data; `reason` is required. Until round 4 has been
/// paired, a change of rating, title or name re-derives the pairing numbers; afterwards
/// it is recorded only.
pub fn decide_correct_player(
    roster: &Roster,
    player: &str,
    data: PlayerData,
    reason: &str,
) -> Result<Vec<RosterEvent>, FieldError> {
    if reason.trim().is_empty() {
        return Err(err("meta.reason", "a correction needs a reason"));
    }
    let entry = roster.resolve(player)?;
    let data = check_player_data(data)?;
    let old = &entry.data;
    let mut changed = Vec::new();
    macro_rules! diff {
        ($($f:ident),*) => { $( if old.$f != data.$f { changed.push(stringify!($f).to_owned()); } )* };
    }
    diff!(
        fide_id,
        name,
        sex,
        title,
        federation,
        birth_date,
        rating_standard,
        rating_rapid,
        rating_blitz,
        national_id,
        national_rating,
        club
    );
    if changed.is_empty() {
        return Err(err("data", "nothing differs from the recorded data"));
    }
    // Only what art. 2 ranks by re-derives the numbers (a club or birth date does not).
    let ranking = changed.iter().any(|f| {
        matches!(
            f.as_str(),
            "name" | "title" | "rating_standard" | "rating_rapid" | "rating_blitz" | "fide_id"
        )
    });
    let mut events = vec![RosterEvent::PlayerCorrected(PlayerCorrected {
        player_id: entry.player_id.clone(),
        data: Some(data),
        changed_fields: changed,
    })];
    if ranking && let Some(renumber) = roster.renumber_after(&events) {
        events.push(renumber);
    }
    Ok(events)
}

/// Decides a withdrawal from round `from_round` on (a round not yet paired).
pub fn decide_withdraw(
    roster: &Roster,
    total_rounds: u32,
    player: &str,
    from_round: u32,
) -> Result<Vec<RosterEvent>, FieldError> {
    let entry = roster.resolve(player)?;
    if entry.withdrawn_from_round != 0 {
        return Err(err(
            "player",
            format!(
                "already withdrawn from round {}",
                entry.withdrawn_from_round
            ),
        ));
    }
    check_future_round(roster, total_rounds, "from_round", from_round)?;
    Ok(vec![RosterEvent::PlayerWithdrawn(PlayerWithdrawn {
        player_id: entry.player_id.clone(),
        from_round,
    })])
}

fn check_future_round(
    roster: &Roster,
    total_rounds: u32,
    field: &'static str,
    round: u32,
) -> Result<(), FieldError> {
    if round == 0 || round > MAX_ROUND {
        return Err(err(
            field,
            format!("{round} is not a round (1-{MAX_ROUND})"),
        ));
    }
    if round <= roster.paired_rounds {
        return Err(err(
            field,
            format!(
                "round {round} has already been paired (rounds 1-{} are)",
                roster.paired_rounds
            ),
        ));
    }
    if total_rounds != 0 && round > total_rounds {
        return Err(err(
            field,
            format!("the tournament has {total_rounds} rounds"),
        ));
    }
    Ok(())
}

/// Decides a requested bye for a round not yet paired. Full-point byes only where the
/// tournament allows them.
pub fn decide_bye(
    roster: &Roster,
    total_rounds: u32,
    player: &str,
    round: u32,
    kind: &str,
) -> Result<Vec<RosterEvent>, FieldError> {
    let entry = roster.resolve(player)?;
    let kind = bye_kind(kind)?;
    check_future_round(roster, total_rounds, "round", round)?;
    if kind == "full" && !roster.rules.full_point_byes_allowed {
        return Err(err(
            "kind",
            "this tournament does not allow full-point byes; half or zero",
        ));
    }
    if entry.withdrawn_from_round != 0 && round >= entry.withdrawn_from_round {
        return Err(err(
            "round",
            format!(
                "the player withdrew from round {}",
                entry.withdrawn_from_round
            ),
        ));
    }
    if let Some(k) = entry.byes.get(&round) {
        return Err(err(
            "round",
            format!("a {k}-point bye is already requested for round {round}"),
        ));
    }
    Ok(vec![RosterEvent::ByeRequested(ByeRequested {
        player_id: entry.player_id.clone(),
        round,
        kind: kind.to_owned(),
    })])
}

/// Decides a change of the event's rules for entries; a change of the ranking rating or
/// of the announced criterion re-derives the pairing numbers until round 4 is paired.
pub fn decide_entry_rules(
    roster: &Roster,
    mut r: EntryRulesSet,
) -> Result<Vec<RosterEvent>, FieldError> {
    fn one_of(
        field: &'static str,
        v: Option<String>,
        allowed: &[&str],
    ) -> Result<Option<String>, FieldError> {
        match v.map(|s| s.trim().to_ascii_lowercase()) {
            None => Ok(None),
            Some(s) if allowed.contains(&s.as_str()) => Ok(Some(s)),
            Some(s) => Err(err(field, format!("{s:?}: one of {}", allowed.join(", ")))),
        }
    }
    r.late_entry_byes = one_of("late_entry_byes", r.late_entry_byes, &["zero", "half"])?;
    r.announced_criterion = one_of(
        "announced_criterion",
        r.announced_criterion,
        &["registration", "fide-id"],
    )?;
    r.rating = one_of("rating", r.rating, &["standard", "rapid", "blitz"])?;
    if r == EntryRulesSet::default() {
        return Err(err("rules", "no rule to change"));
    }
    if r.rating.is_some() && roster.numbers_frozen() {
        return Err(err(
            "rating",
            "round 4 has been paired: the ranking rating can no longer change",
        ));
    }
    let mut events = vec![RosterEvent::EntryRulesSet(r)];
    if let Some(renumber) = roster.renumber_after(&events) {
        events.push(renumber);
    }
    Ok(events)
}

/// Decides a prohibited pairing (two or more players, e.g. same club or family).
pub fn decide_prohibit(
    roster: &Roster,
    total_rounds: u32,
    players: &[String],
    first_round: u32,
    last_round: u32,
) -> Result<Vec<RosterEvent>, FieldError> {
    let max = arbiter_service_kit::limits::MAX_PROHIBITED_PLAYERS;
    if players.len() > max {
        return Err(err(
            "players",
            format!(
                "at most {max} players in one prohibited pairing, got {}",
                players.len()
            ),
        ));
    }
    let mut ids: Vec<String> = Vec::new();
    for p in players {
        let id = roster.resolve(p)?.player_id.clone();
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    if ids.len() < 2 {
        return Err(err("players", "at least two different players"));
    }
    if first_round > MAX_ROUND || last_round > MAX_ROUND {
        return Err(err("first_round", format!("rounds are 1-{MAX_ROUND}")));
    }
    if last_round != 0 && first_round > last_round {
        return Err(err(
            "last_round",
            format!("{last_round} is before first_round {first_round}"),
        ));
    }
    if total_rounds != 0 && first_round > total_rounds {
        return Err(err(
            "first_round",
            format!("the tournament has {total_rounds} rounds"),
        ));
    }
    Ok(vec![RosterEvent::PairingProhibited(PairingProhibited {
        player_ids: ids,
        first_round,
        last_round,
    })])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(name: &str, rating: u32, title: &str) -> PlayerData {
        PlayerData {
            name: name.into(),
            rating_standard: rating,
            title: title.into(),
            ..Default::default()
        }
    }

    fn add(r: &mut Roster, id: &str, d: PlayerData) -> Vec<RosterEvent> {
        let ev = decide_add_player(r, 9, id, d, "").unwrap();
        for e in ev.clone() {
            r.apply(e);
        }
        ev
    }

    fn tpns(r: &Roster) -> Vec<&str> {
        r.order.iter().map(String::as_str).collect()
    }

    #[test]
    fn a_10000th_player_is_refused_with_the_trf_reason() {
        let mut r = Roster::default();
        for i in 0..9_999 {
            r.apply(RosterEvent::PlayerAdded(PlayerAdded {
                player_id: format!("p{i}"),
                data: Some(data(&format!("P, {i}"), 1500, "")),
                joined_round: 1,
                missed_rounds: "zero".into(),
            }));
        }
        let e = decide_add_player(&r, 9, "x", data("Late, One", 1500, ""), "").unwrap_err();
        assert_eq!(e.field, "tournament_id");
        assert!(
            e.message.contains("9999 players") && e.message.contains("four digits"),
            "{e:?}"
        );
    }

    #[test]
    fn player_text_fields_refuse_control_characters_and_are_bounded() {
        let r = Roster::default();
        for (d, field, needle) in [
            (
                data("Doe,\u{1b}[2J John", 0, ""),
                "data.name",
                "U+001B at character 5",
            ),
            (
                data("Doe, John\n", 0, ""),
                "data.name",
                "U+000A at character 10",
            ),
            (
                data(&"x".repeat(34), 0, ""),
                "data.name",
                "at most 33 characters",
            ),
            (
                PlayerData {
                    club: "Club\0".into(),
                    ..data("Doe, John", 0, "")
                },
                "data.club",
                "U+0000 at character 5",
            ),
            (
                PlayerData {
                    club: "c".repeat(101),
                    ..data("Doe, John", 0, "")
                },
                "data.club",
                "at most 100 characters",
            ),
        ] {
            let e = decide_add_player(&r, 9, "x", d, "").unwrap_err();
            assert_eq!(e.field, field);
            assert!(e.message.contains(needle), "{e:?}");
        }
        let e = r.resolve(&"9".repeat(65)).unwrap_err();
        assert_eq!(e.field, "player");
        assert!(e.message.contains("at most 64 characters"), "{e:?}");
        let players: Vec<String> = (1..=101).map(|i| i.to_string()).collect();
        let e = decide_prohibit(&r, 9, &players, 1, 0).unwrap_err();
        assert_eq!(e.field, "players");
        assert!(e.message.contains("at most 100 players"), "{e:?}");
    }

    #[test]
    fn entries_are_numbered_by_art_2_on_every_change() {
        let mut r = Roster::default();
        add(&mut r, "a", data("Low, Al", 1800, ""));
        add(&mut r, "b", data("High, Bo", 2400, ""));
        add(&mut r, "c", data("Same, Cy", 2400, "g"));
        assert_eq!(tpns(&r), ["c", "b", "a"]);
        let ev = decide_correct_player(&r, "a", data("Low, Al", 2500, ""), "new list").unwrap();
        assert!(matches!(ev[1], RosterEvent::PairingNumbersAssigned(_)));
        for e in ev {
            r.apply(e);
        }
        assert_eq!(tpns(&r), ["a", "c", "b"]);
    }

    #[test]
    fn a_correction_outside_the_ranking_keeps_the_numbers() {
        let mut r = Roster::default();
        add(&mut r, "a", data("A, A", 2000, ""));
        add(&mut r, "b", data("B, B", 2100, ""));
        // Numbers as a file imported them (not in art. 2 order).
        r.apply(RosterEvent::PairingNumbersAssigned(
            PairingNumbersAssigned {
                player_ids: vec!["a".into(), "b".into()],
                basis: "TRF import".into(),
            },
        ));
        let club = PlayerData {
            club: "Phibsboro".into(),
            ..data("A, A", 2000, "")
        };
        let ev = decide_correct_player(&r, "a", club, "club").unwrap();
        assert_eq!(ev.len(), 1, "{ev:?}");
        let RosterEvent::PlayerCorrected(c) = &ev[0] else {
            panic!()
        };
        assert_eq!(c.changed_fields, ["club"]);
    }

    #[test]
    fn late_entry_joins_next_round_and_is_placed_by_strength() {
        let mut r = Roster::default();
        add(&mut r, "a", data("A, A", 2200, ""));
        add(&mut r, "b", data("B, B", 2000, ""));
        r.apply(RosterEvent::RoundImported(RoundImported {
            round: 2,
            blocks: vec![],
        }));
        let ev = add(&mut r, "late", data("Late, L", 2100, ""));
        let RosterEvent::PlayerAdded(p) = &ev[0] else {
            panic!()
        };
        assert_eq!((p.joined_round, p.missed_rounds.as_str()), (3, "zero"));
        assert_eq!(tpns(&r), ["a", "late", "b"]);
    }

    #[test]
    fn after_round_4_corrections_do_not_renumber_and_late_entries_go_last() {
        let mut r = Roster::default();
        add(&mut r, "a", data("A, A", 2200, ""));
        add(&mut r, "b", data("B, B", 2000, ""));
        r.apply(RosterEvent::RoundImported(RoundImported {
            round: 4,
            blocks: vec![],
        }));
        let ev = decide_correct_player(&r, "2", data("B, B", 2300, ""), "typo").unwrap();
        assert_eq!(ev.len(), 1, "recorded only: {ev:?}");
        add(&mut r, "late", data("Late, L", 2900, ""));
        assert_eq!(tpns(&r), ["a", "b", "late"]);
    }

    #[test]
    fn rounds_paired_marker_freezes_numbers_after_round_4() {
        let mut r = Roster::default();
        add(&mut r, "a", data("A, A", 2000, ""));
        r.apply(RosterEvent::RoundsPaired(RoundsPaired { round: 3 }));
        add(&mut r, "b", data("B, B", 2100, ""));
        assert_eq!(tpns(&r), ["b", "a"], "still re-derived after round 3");
        r.apply(RosterEvent::RoundsPaired(RoundsPaired { round: 4 }));
        assert!(r.numbers_frozen());
        add(&mut r, "c", data("C, C", 2900, ""));
        assert_eq!(tpns(&r), ["b", "a", "c"]);
        let (ty, payload) = RosterEvent::RoundsPaired(RoundsPaired { round: 4 }).encode();
        assert_eq!(
            RosterEvent::decode(ty, &payload).unwrap().unwrap(),
            RosterEvent::RoundsPaired(RoundsPaired { round: 4 })
        );
    }

    #[test]
    fn bad_commands_name_the_field() {
        let mut r = Roster::default();
        add(&mut r, "a", data("A, A", 2200, ""));
        let e = |x: Result<Vec<RosterEvent>, FieldError>| x.unwrap_err().field;
        assert_eq!(
            e(decide_add_player(&r, 9, "x", data("", 0, ""), "")),
            "data.name"
        );
        assert_eq!(
            e(decide_add_player(&r, 9, "x", data("X", 0, "GMX"), "")),
            "data.title"
        );
        assert_eq!(
            e(decide_add_player(&r, 9, "x", data("X", 9000, ""), "")),
            "data.rating_standard"
        );
        assert_eq!(
            e(decide_correct_player(&r, "a", data("A", 1, ""), " ")),
            "meta.reason"
        );
        assert_eq!(e(decide_withdraw(&r, 9, "zz", 2)), "player");
        assert_eq!(e(decide_withdraw(&r, 9, "1", 10)), "from_round");
        assert_eq!(e(decide_bye(&r, 9, "1", 3, "full")), "kind");
        assert_eq!(e(decide_bye(&r, 9, "1", 3, "double")), "kind");
        assert_eq!(
            e(decide_prohibit(&r, 9, &["a".into(), "1".into()], 1, 2)),
            "players"
        );
    }

    #[test]
    fn rules_rank_by_the_event_rating_and_allow_full_point_byes() {
        let mut r = Roster::default();
        add(
            &mut r,
            "a",
            PlayerData {
                rating_rapid: 1500,
                ..data("A, A", 2200, "")
            },
        );
        add(
            &mut r,
            "b",
            PlayerData {
                rating_rapid: 2100,
                ..data("B, B", 2000, "")
            },
        );
        assert_eq!(tpns(&r), ["a", "b"]);
        let ev = decide_entry_rules(
            &r,
            EntryRulesSet {
                rating: Some("Rapid".into()),
                full_point_byes_allowed: Some(true),
                late_entry_byes: Some("half".into()),
                ..Default::default()
            },
        )
        .unwrap();
        for e in ev {
            r.apply(e);
        }
        assert_eq!(tpns(&r), ["b", "a"]);
        assert!(decide_bye(&r, 9, "a", 3, "full").is_ok());
        r.apply(RosterEvent::RoundImported(RoundImported {
            round: 1,
            blocks: vec![],
        }));
        let ev = decide_add_player(&r, 9, "c", data("C, C", 1000, ""), "").unwrap();
        assert!(matches!(&ev[0], RosterEvent::PlayerAdded(p) if p.missed_rounds == "half"));
        let bad = |x: EntryRulesSet| decide_entry_rules(&r, x).unwrap_err().field;
        assert_eq!(bad(EntryRulesSet::default()), "rules");
        assert_eq!(
            bad(EntryRulesSet {
                rating: Some("bullet".into()),
                ..Default::default()
            }),
            "rating"
        );
    }

    #[test]
    fn byes_only_for_rounds_not_yet_paired_and_not_after_withdrawal() {
        let mut r = Roster::default();
        add(&mut r, "a", data("A, A", 2200, ""));
        r.apply(RosterEvent::RoundImported(RoundImported {
            round: 2,
            blocks: vec![],
        }));
        assert_eq!(
            decide_bye(&r, 9, "a", 2, "half").unwrap_err().field,
            "round"
        );
        for e in decide_withdraw(&r, 9, "a", 5).unwrap() {
            r.apply(e);
        }
        assert_eq!(
            decide_bye(&r, 9, "a", 6, "half").unwrap_err().field,
            "round"
        );
        let ok = decide_bye(&r, 9, "a", 4, "").unwrap();
        assert!(matches!(&ok[0], RosterEvent::ByeRequested(b) if b.kind == "half"));
    }
}
