//! Adapter: a parsed TRF document (crate `trf`) → the [`swiss::TournamentState`] before a
//! given round. Derives what the pairing rules need from the round blocks: scores (from the
//! results, with the file's scoring system), played colours, played opponents, floats
//! (2026 Art. 1.4 or 2017 A.4 by edition), PAB / unplayed-win history, absences.

use std::collections::{BTreeMap, BTreeSet};
use swiss::{Colour, Edition, Float, Player, TournamentState};
use trf::{
    BbPointKind, Colour as TColour, HeaderKind, Opponent, Record, ResultCode, TrfDocument,
    XxcOption,
};

/// Points of each result kind, in tenths of a point.
#[derive(Debug, Clone, Copy)]
pub struct Scoring {
    pub win: u32,
    pub draw: u32,
    pub loss: u32,
    pub zero_bye: u32,
    pub half_bye: u32,
    pub full_bye: u32,
    pub pab: u32,
    pub forfeit_win: u32,
    pub forfeit_loss: u32,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            half_bye: 5,
            full_bye: 10,
            pab: 10,
            forfeit_win: 10,
            forfeit_loss: 0,
        }
    }
}

fn tenths(f: &trf::Field<trf::Score>) -> Option<u32> {
    f.get().and_then(|s| u32::try_from(s.tenths()).ok())
}

/// Reads the scoring system from `162`, `XXS` and `BB*` records (later records win).
pub fn scoring(doc: &TrfDocument) -> Scoring {
    let mut s = Scoring::default();
    let mut pab_set = false;
    let mut half_set = false;
    let mut full_set = false;
    let mut fw_set = false;
    for r in doc.records() {
        match r {
            Record::ScoringSystem(ss) => {
                for e in &ss.entries {
                    let Some(v) = tenths(&e.points) else { continue };
                    match e.symbol {
                        'W' => s.win = v,
                        'D' => s.draw = v,
                        'L' => s.loss = v,
                        'A' => {
                            s.zero_bye = v;
                            s.forfeit_loss = v;
                        }
                        'P' => {
                            s.pab = v;
                            pab_set = true;
                        }
                        _ => {}
                    }
                }
            }
            Record::XxScoring(items) => {
                for it in items {
                    let Some(v) = tenths(&it.value) else { continue };
                    match it.code.as_str() {
                        "W" | "WW" | "BW" => s.win = v,
                        "D" | "WD" | "BD" => s.draw = v,
                        "WL" | "BL" => s.loss = v,
                        "ZPB" => s.zero_bye = v,
                        "HPB" => {
                            s.half_bye = v;
                            half_set = true;
                        }
                        "FPB" => {
                            s.full_bye = v;
                            full_set = true;
                        }
                        "PAB" => {
                            s.pab = v;
                            pab_set = true;
                        }
                        "FW" => {
                            s.forfeit_win = v;
                            fw_set = true;
                        }
                        "FL" => s.forfeit_loss = v,
                        _ => {}
                    }
                }
            }
            Record::BbPoints { kind, value } => {
                let Some(v) = tenths(value) else { continue };
                match kind {
                    BbPointKind::Win => s.win = v,
                    BbPointKind::Draw => s.draw = v,
                    BbPointKind::Loss => s.loss = v,
                    BbPointKind::ZeroPointBye => s.zero_bye = v,
                    BbPointKind::ForfeitLoss => s.forfeit_loss = v,
                    BbPointKind::PairingAllocatedBye => {
                        s.pab = v;
                        pab_set = true;
                    }
                }
            }
            _ => {}
        }
    }
    if !pab_set {
        s.pab = s.win;
    }
    if !half_set {
        s.half_bye = s.draw;
    }
    if !full_set {
        s.full_bye = s.win;
    }
    if !fw_set {
        s.forfeit_win = s.win;
    }
    s
}

/// The edition named by the file (records 092/192), if any.
pub fn edition_hint(doc: &TrfDocument) -> Option<Edition> {
    for k in [
        HeaderKind::EncodedTournamentType,
        HeaderKind::TournamentType,
    ] {
        if let Some(v) = doc.header_value(k) {
            let v = v.to_ascii_uppercase();
            if v.contains("DUTCH") || v.contains("FIDE") {
                if v.contains("2017") || v.contains("2016") {
                    return Some(Edition::Dutch2017);
                }
                if v.contains("2025") || v.contains("2026") {
                    return Some(Edition::Dutch2026);
                }
            }
        }
    }
    None
}

/// What one round block means for pairing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// A game played over the board (colour, opponent).
    Played(Colour, u16),
    /// Paired but not played (forfeit): points scored, opponent.
    Forfeit(u32),
    /// PAB.
    Pab,
    /// Other bye / absence with its points.
    Bye(u32, ResultCode),
    /// Nothing.
    Nothing,
}

fn block(rr: &trf::RoundResult, sc: &Scoring) -> Block {
    let col = match rr.colour {
        TColour::White => Some(Colour::White),
        TColour::Black => Some(Colour::Black),
        _ => None,
    };
    match (&rr.opponent, rr.result) {
        (Opponent::Player(o), r)
            if matches!(
                r,
                ResultCode::Win
                    | ResultCode::Draw
                    | ResultCode::Loss
                    | ResultCode::UnratedWin
                    | ResultCode::UnratedDraw
                    | ResultCode::UnratedLoss
            ) && col.is_some() =>
        {
            Block::Played(col.unwrap_or(Colour::White), *o)
        }
        (Opponent::Player(_), ResultCode::ForfeitWin) => Block::Forfeit(sc.forfeit_win),
        (Opponent::Player(_), ResultCode::ForfeitLoss) => Block::Forfeit(sc.forfeit_loss),
        (_, ResultCode::PairingAllocatedBye) => Block::Pab,
        (_, ResultCode::HalfPointBye) => Block::Bye(sc.half_bye, ResultCode::HalfPointBye),
        (_, ResultCode::FullPointBye) => Block::Bye(sc.full_bye, ResultCode::FullPointBye),
        (_, ResultCode::ForfeitWin) => Block::Bye(sc.forfeit_win, ResultCode::ForfeitWin),
        (_, ResultCode::ZeroPointBye) => Block::Bye(sc.zero_bye, ResultCode::ZeroPointBye),
        (Opponent::Player(_), ResultCode::Blank) => Block::Nothing,
        (_, ResultCode::Blank) if rr.is_blank() => Block::Nothing,
        (_, ResultCode::Blank) => Block::Bye(sc.zero_bye, ResultCode::ZeroPointBye),
        (_, ResultCode::Win | ResultCode::UnratedWin) => Block::Bye(sc.win, ResultCode::Win),
        (_, ResultCode::Draw | ResultCode::UnratedDraw) => Block::Bye(sc.draw, ResultCode::Draw),
        _ => Block::Bye(0, ResultCode::Loss),
    }
}

fn points(b: &Block, rr: &trf::RoundResult, sc: &Scoring) -> u32 {
    match *b {
        Block::Played(_, _) => match rr.result {
            ResultCode::Win | ResultCode::UnratedWin => sc.win,
            ResultCode::Draw | ResultCode::UnratedDraw => sc.draw,
            _ => sc.loss,
        },
        Block::Forfeit(p) | Block::Bye(p, _) => p,
        Block::Pab => sc.pab,
        Block::Nothing => 0,
    }
}

/// The first round without results: one past the last round in which a game or a PAB is
/// recorded.
pub fn round_to_pair(doc: &TrfDocument) -> usize {
    let mut last = 0;
    for p in doc.players() {
        for (i, rr) in p.rounds.iter().enumerate() {
            if matches!(rr.opponent, Opponent::Player(_))
                || rr.result == ResultCode::PairingAllocatedBye
            {
                last = last.max(i + 1);
            }
        }
    }
    last + 1
}

/// Total rounds from `XXR` / `142`.
pub fn declared_rounds(doc: &TrfDocument) -> Option<u32> {
    doc.records().find_map(|r| match r {
        Record::XxRounds(f) | Record::NumberOfRounds(f) => f.get().map(u32::from),
        _ => None,
    })
}

/// Builds the state before round `round` (1-based): blocks of rounds `< round` are history;
/// byes already recorded for `round` (and `XXZ` / `240`) mark absences.
pub fn state_before(
    doc: &TrfDocument,
    round: usize,
    edition: Edition,
) -> Result<TournamentState, String> {
    let sc = scoring(doc);
    let mut recs: Vec<&trf::PlayerRecord> = doc.players().collect();
    recs.sort_by_key(|p| p.tpn().unwrap_or(0));
    let mut tpns = BTreeSet::new();
    for p in &recs {
        let t = p
            .tpn()
            .ok_or_else(|| format!("player record '{}' has no pairing number", p.name))?;
        if t == 0 || !tpns.insert(t) {
            return Err(format!("pairing number {t} is zero or duplicated"));
        }
    }
    let hist = round.saturating_sub(1);
    // Scores before each round (for floats).
    let mut before: BTreeMap<u16, Vec<u32>> = BTreeMap::new();
    let mut blocks: BTreeMap<u16, Vec<Block>> = BTreeMap::new();
    for p in &recs {
        let t = p.tpn().unwrap_or(0);
        let mut s = 0u32;
        let mut bs = Vec::new();
        let mut sb = Vec::new();
        for k in 0..hist {
            sb.push(s);
            let (b, pts) = match p.rounds.get(k) {
                Some(rr) => {
                    let b = block(rr, &sc);
                    (b, points(&b, rr, &sc))
                }
                None => (Block::Nothing, 0),
            };
            s += pts;
            bs.push(b);
        }
        sb.push(s);
        before.insert(t, sb);
        blocks.insert(t, bs);
    }
    // Acceleration (XXA per round; 250 ranges).
    let mut accel: BTreeMap<u16, u32> = BTreeMap::new();
    for r in doc.records() {
        match r {
            Record::XxAcceleration(x) => {
                if let (Some(t), Some(f)) = (x.player.get(), x.points.get(hist)) {
                    *accel.entry(t).or_default() += tenths(f).unwrap_or(0);
                }
            }
            Record::Acceleration(a) => {
                let (Some(r1), Some(r2)) = (a.first_round.get(), a.last_round.get()) else {
                    continue;
                };
                let (Some(p1), Some(p2)) = (a.first_player.get(), a.last_player.get()) else {
                    continue;
                };
                if (usize::from(r1)..=usize::from(r2)).contains(&round) {
                    for t in p1..=p2 {
                        *accel.entry(t).or_default() += tenths(&a.points).unwrap_or(0);
                    }
                }
            }
            _ => {}
        }
    }
    // Absences for the round to pair.
    let mut absent: BTreeSet<u16> = BTreeSet::new();
    let mut extra_points: BTreeMap<u16, u32> = BTreeMap::new();
    for p in &recs {
        let t = p.tpn().unwrap_or(0);
        if let Some(rr) = p.rounds.get(hist) {
            let b = block(rr, &sc);
            if let Block::Bye(pts, _) = b {
                absent.insert(t);
                extra_points.insert(t, pts);
            }
        }
    }
    let mut forbidden = Vec::new();
    for r in doc.records() {
        match r {
            Record::XxAbsent(ids) => {
                absent.extend(ids.iter().filter_map(|f| f.get()));
            }
            Record::Bye(b) if b.round.get().map(usize::from) == Some(round) => {
                absent.extend(b.players.iter().filter_map(|f| f.get()));
            }
            Record::XxProhibited(ids) => {
                let v: Vec<u16> = ids.iter().filter_map(|f| f.get()).collect();
                for i in 0..v.len() {
                    for j in i + 1..v.len() {
                        forbidden.push((u32::from(v[i]), u32::from(v[j])));
                    }
                }
            }
            Record::ProhibitedPairing(pp) => {
                let r1 = pp.first_round.get().map_or(1, usize::from);
                let r2 = pp.last_round.get().map_or(usize::MAX, usize::from);
                if (r1..=r2).contains(&round) {
                    let v: Vec<u16> = pp.players.iter().filter_map(|f| f.get()).collect();
                    for i in 0..v.len() {
                        for j in i + 1..v.len() {
                            forbidden.push((u32::from(v[i]), u32::from(v[j])));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut players = Vec::new();
    for p in &recs {
        let t = p.tpn().unwrap_or(0);
        let bs = &blocks[&t];
        let sb = &before[&t];
        let mut colours = Vec::new();
        let mut floats = Vec::new();
        let mut opponents = Vec::new();
        let mut had_pab = false;
        let mut had_unplayed_win = false;
        for (k, b) in bs.iter().enumerate() {
            match *b {
                Block::Played(c, o) => {
                    colours.push(Some(c));
                    opponents.push(u32::from(o));
                    let mine = sb[k];
                    let theirs = before.get(&o).map_or(mine, |v| v[k]);
                    floats.push(if mine > theirs {
                        Float::Down
                    } else if mine < theirs {
                        Float::Up
                    } else {
                        Float::None
                    });
                }
                Block::Pab => {
                    colours.push(None);
                    had_pab = true;
                    floats.push(Float::Down);
                }
                Block::Forfeit(pts) | Block::Bye(pts, _) => {
                    colours.push(None);
                    if pts >= sc.win && pts > 0 {
                        let counts = match edition {
                            Edition::Dutch2026 => true,
                            Edition::Dutch2017 => {
                                matches!(b, Block::Forfeit(_))
                                    || matches!(b, Block::Bye(_, ResultCode::ForfeitWin))
                            }
                        };
                        had_unplayed_win |= counts;
                    }
                    floats.push(match edition {
                        Edition::Dutch2026 if pts > sc.loss => Float::Down,
                        Edition::Dutch2026 => Float::None,
                        Edition::Dutch2017 => Float::Down,
                    });
                }
                Block::Nothing => {
                    colours.push(None);
                    floats.push(match edition {
                        Edition::Dutch2017 => Float::Down,
                        Edition::Dutch2026 => Float::None,
                    });
                }
            }
        }
        let score = sb[hist] + extra_points.get(&t).copied().unwrap_or(0);
        players.push(Player {
            tpn: u32::from(t),
            rating: u32::from(p.rating.get().unwrap_or(0)),
            score,
            acceleration: accel.get(&t).copied().unwrap_or(0),
            colours,
            floats,
            opponents,
            had_pab,
            had_unplayed_win,
            absent: absent.contains(&t),
        });
    }
    let total_rounds = declared_rounds(doc)
        .unwrap_or(0)
        .max(doc.rounds_in_player_records() as u32)
        .max(round as u32);
    Ok(TournamentState {
        players,
        rounds_played: hist as u32,
        total_rounds,
        points_for_win: sc.win,
        initial_colour: initial_colour(doc),
        forbidden_pairs: forbidden,
    })
}

/// `XXC white1/black1` or `152`; otherwise inferred from round 1 (the higher-ranked player
/// of a board gets the initial colour when their pairing number is odd); default White.
pub fn initial_colour(doc: &TrfDocument) -> Colour {
    for r in doc.records() {
        match r {
            Record::XxColour(opts) => {
                for o in opts {
                    match o {
                        XxcOption::White1 => return Colour::White,
                        XxcOption::Black1 => return Colour::Black,
                        _ => {}
                    }
                }
            }
            Record::InitialColour(f) => {
                if let Some(c) = f.get() {
                    return match c {
                        trf::InitialColour::White => Colour::White,
                        trf::InitialColour::Black => Colour::Black,
                    };
                }
            }
            _ => {}
        }
    }
    let mut best: Option<(u16, TColour)> = None;
    for p in doc.players() {
        let (Some(t), Some(rr)) = (p.tpn(), p.rounds.first()) else {
            continue;
        };
        if let Opponent::Player(o) = rr.opponent
            && t < o
            && rr.colour.is_colour()
            && best.is_none_or(|b| t < b.0)
        {
            best = Some((t, rr.colour));
        }
    }
    match best {
        Some((t, c)) => {
            let white = (c == TColour::White) == (t % 2 == 1);
            if white { Colour::White } else { Colour::Black }
        }
        None => Colour::White,
    }
}

/// The pairing recorded in the file for `round`: (white, black) boards and PAB receivers.
pub fn recorded_round(doc: &TrfDocument, round: usize) -> (BTreeSet<(u32, u32)>, BTreeSet<u32>) {
    let mut boards = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for p in doc.players() {
        let (Some(t), Some(rr)) = (p.tpn(), p.round(round)) else {
            continue;
        };
        match (&rr.opponent, rr.colour) {
            (Opponent::Player(o), TColour::White) => {
                boards.insert((u32::from(t), u32::from(*o)));
            }
            _ if rr.result == ResultCode::PairingAllocatedBye => {
                byes.insert(u32::from(t));
            }
            _ => {}
        }
    }
    (boards, byes)
}

/// Whether the file carries acceleration records (`XXA` or `250`).
pub fn has_acceleration_records(doc: &TrfDocument) -> bool {
    doc.records()
        .any(|r| matches!(r, Record::XxAcceleration(_) | Record::Acceleration(_)))
}

/// Sets the virtual points of `state` (built by [`state_before`] for `round`) from the
/// accelerated system declared by the arbiter (`swiss::acceleration`), for a file that
/// has no `XXA`/`250` records. Needs the declared number of rounds (`XXR`/`142`): the
/// accelerated rounds depend on it. Every player is taken as present from round 1 (a TRF
/// does not record when a player registered; ADR swiss-005).
pub fn accelerate_from_method(
    doc: &TrfDocument,
    state: &TournamentState,
    round: usize,
    method: &swiss::AccelerationMethod,
) -> Result<TournamentState, String> {
    use swiss::acceleration::{AcceleratedPlayer, AccelerationInput, PointValues};
    let total_rounds = declared_rounds(doc).ok_or_else(|| {
        format!(
            "--acceleration {}: the file does not declare the number of rounds (XXR or 142), which the accelerated rounds depend on",
            method.name()
        )
    })?;
    let sc = scoring(doc);
    let players: Vec<AcceleratedPlayer> = state
        .players
        .iter()
        .map(|p| AcceleratedPlayer {
            tpn: p.tpn,
            rating: p.rating,
            score: p.score,
            entry_round: 1,
        })
        .collect();
    let input = AccelerationInput {
        players: &players,
        total_rounds,
        round: u32::try_from(round).unwrap_or(u32::MAX),
        points: PointValues {
            win: sc.win,
            draw: sc.draw,
            loss: sc.loss,
        },
    };
    let vp = swiss::virtual_points(method, &input)
        .map_err(|e| format!("--acceleration {}: {e}", method.name()))?;
    let mut out = state.clone();
    for p in &mut out.players {
        p.acceleration = vp.get(&p.tpn).copied().unwrap_or(0);
    }
    Ok(out)
}

/// One round of a player's history, for the pairing systems that need per-game points
/// (the draughts Swiss: Solkoff and Sonneborn-Berger inside scoregroups).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryEntry {
    /// A game played over the board: colour, opponent, points (file units, tenths).
    Played {
        colour: Colour,
        opponent: u32,
        points: u32,
    },
    /// Paired but not played (forfeit), with the points scored.
    Forfeit { opponent: Option<u32>, points: u32 },
    /// Pairing-allocated bye with its points.
    Pab { points: u32 },
    /// Any other bye or absence with its points.
    Bye { points: u32 },
    /// Nothing recorded.
    Nothing,
}

/// Every player's rounds `1..round` (the history before pairing `round`), by TPN, read
/// with the file's scoring system (points in tenths).
pub fn history(doc: &TrfDocument, round: usize) -> BTreeMap<u32, Vec<HistoryEntry>> {
    let sc = scoring(doc);
    let hist = round.saturating_sub(1);
    let mut out = BTreeMap::new();
    for p in doc.players() {
        let Some(t) = p.tpn() else { continue };
        let mut v = Vec::with_capacity(hist);
        for k in 0..hist {
            let Some(rr) = p.rounds.get(k) else {
                v.push(HistoryEntry::Nothing);
                continue;
            };
            let b = block(rr, &sc);
            let pts = points(&b, rr, &sc);
            v.push(match b {
                Block::Played(colour, o) => HistoryEntry::Played {
                    colour,
                    opponent: u32::from(o),
                    points: pts,
                },
                Block::Forfeit(_) => HistoryEntry::Forfeit {
                    opponent: match rr.opponent {
                        Opponent::Player(o) => Some(u32::from(o)),
                        _ => None,
                    },
                    points: pts,
                },
                Block::Pab => HistoryEntry::Pab { points: pts },
                Block::Bye(..) => HistoryEntry::Bye { points: pts },
                Block::Nothing => HistoryEntry::Nothing,
            });
        }
        out.insert(u32::from(t), v);
    }
    out
}
