//! Report: how many rounds of a real team Swiss (paired by another program, before C.04.6 2026)
//! the engine reproduces. A report, not a conformance test: it asserts only that every round
//! pairs. Team TPNs are read as the order of the `013` records (the file gives no team TPN).

use std::collections::{BTreeMap, BTreeSet};

use teampairing::{
    BoardColourSequence, Colour, Edition, PreferenceType, PrimaryScore, RoundRecord,
    SwissTeamSettings, TeamState, pair_round,
};

const TRF: &str = include_str!("data/heltour-crete-friendship-cup-2024-team.trf");

/// Per team of a round of the file: (opponent team, board-1 colour, game points in halves).
type RoundOfFile = BTreeMap<u32, (u32, Option<Colour>, u32)>;

struct Game {
    opponent: u32,
    colour: Option<Colour>,
    halves: u32,
}

#[test]
fn heltour_crete_2024_reproduction_report() {
    let mut teams: Vec<Vec<u32>> = Vec::new();
    let mut games: BTreeMap<u32, Vec<Game>> = BTreeMap::new();
    let rounds = 7usize;
    for line in TRF.lines() {
        if let Some(rest) = line.strip_prefix("013 ") {
            let ids: Vec<u32> = rest
                .chars()
                .skip(32)
                .collect::<String>()
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            teams.push(ids);
        } else if line.starts_with("001 ") {
            let chars: Vec<char> = line.chars().collect();
            let field = |a: usize, b: usize| {
                chars
                    .get(a..b.min(chars.len()))
                    .map(|c| c.iter().collect::<String>())
                    .unwrap_or_default()
            };
            let id: u32 = field(4, 8).trim().parse().unwrap();
            let mut gs = Vec::new();
            for r in 0..rounds {
                let base = 91 + r * 10;
                let opp: u32 = field(base, base + 4).trim().parse().unwrap_or(0);
                let col = match field(base + 5, base + 6).as_str() {
                    "w" => Some(Colour::White),
                    "b" => Some(Colour::Black),
                    _ => None,
                };
                let halves = match field(base + 7, base + 8).as_str() {
                    "1" | "+" | "W" | "U" => 2,
                    "=" | "D" | "H" => 1,
                    _ => 0,
                };
                gs.push(Game {
                    opponent: opp,
                    colour: col,
                    halves,
                });
            }
            games.insert(id, gs);
        }
    }
    let team_of: BTreeMap<u32, u32> = teams
        .iter()
        .enumerate()
        .flat_map(|(t, ids)| ids.iter().map(move |&i| (i, u32::try_from(t).unwrap() + 1)))
        .collect();
    let n = teams.len();
    // Per round and team: (opponent team, board-1 colour, game points in halves).
    let mut actual: Vec<RoundOfFile> = vec![BTreeMap::new(); rounds];
    for (t, ids) in teams.iter().enumerate() {
        let tpn = u32::try_from(t).unwrap() + 1;
        for (r, act) in actual.iter_mut().enumerate() {
            let played: Vec<&Game> = ids
                .iter()
                .filter_map(|i| games.get(i))
                .map(|g| &g[r])
                .filter(|g| g.opponent != 0)
                .collect();
            if let Some(first) = played.first() {
                let opp = team_of.get(&first.opponent).copied().unwrap_or(0);
                let gp = played.iter().map(|g| g.halves).sum();
                act.insert(tpn, (opp, first.colour, gp));
            }
        }
    }
    let settings = SwissTeamSettings {
        edition: Edition::C0406_2026,
        primary: PrimaryScore::MatchPoints,
        use_secondary: true,
        preferences: PreferenceType::TypeA,
        initial_colour: Colour::White,
        rounds: 7,
        boards: BoardColourSequence::alternating(4).unwrap(),
    };
    let mut state: Vec<TeamState> = (1..=u32::try_from(n).unwrap())
        .map(TeamState::new)
        .collect();
    let mut reproduced = 0;
    for (r, act) in actual.iter().enumerate() {
        let round = u32::try_from(r).unwrap() + 1;
        let paired = pair_round(&settings, round, &state).expect("the engine pairs every round");
        let ours: BTreeSet<(u32, u32)> = paired
            .matches
            .iter()
            .map(|m| (m.white.min(m.black), m.white.max(m.black)))
            .collect();
        let theirs: BTreeSet<(u32, u32)> = act
            .iter()
            .filter(|(a, (b, _, _))| *b != 0 && **a < *b)
            .map(|(a, (b, _, _))| (*a, *b))
            .collect();
        let same = ours == theirs;
        reproduced += usize::from(same);
        println!(
            "round {round}: {} (ours {ours:?}, pab {:?}; file {theirs:?})",
            if same { "same" } else { "differs" },
            paired.pab
        );
        // Apply the file's round (1.5: floaters had different scores before it).
        let before: BTreeMap<u32, u32> = state.iter().map(|t| (t.tpn, t.match_points.0)).collect();
        for t in state.iter_mut() {
            match act.get(&t.tpn) {
                Some(&(opp, colour, gp)) if opp != 0 => {
                    let (_, _, ogp) = act[&opp];
                    let mp = match gp.cmp(&ogp) {
                        std::cmp::Ordering::Greater => 4,
                        std::cmp::Ordering::Equal => 2,
                        std::cmp::Ordering::Less => 0,
                    };
                    let floated = before[&t.tpn] != before[&opp];
                    t.history.push(match colour {
                        Some(c) => RoundRecord::Played {
                            opponent: opp,
                            colour: c,
                            floated,
                        },
                        None => RoundRecord::Forfeit {
                            opponent: opp,
                            won: gp > ogp,
                        },
                    });
                    t.match_points.0 += mp;
                    t.game_points.0 += gp;
                }
                _ => {
                    t.history.push(RoundRecord::Pab);
                    t.match_points.0 += 2;
                    t.game_points.0 += 4;
                }
            }
        }
    }
    println!("heltour Crete 2024: {reproduced} of {rounds} rounds reproduced");
}
