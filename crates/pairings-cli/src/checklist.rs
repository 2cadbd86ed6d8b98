//! The check-list (`-l [file]` with `-p`): the arbiter's table to verify a pairing by hand,
//! one line per player, in pairing-number order:
//!
//! - `TPN`, `Score` (points before the round, plus the acceleration in `(+a)` if any),
//! - `CD`: colour difference, whites minus blacks of the games played (C.04.3 Art. 1.7;
//!   GHR 3.4: unplayed rounds do not count),
//! - `Pref`: the colour preference and its strength — `absolute`, `strong`, `mild` or `none`
//!   (2026 Art. 1.7.1–1.7.4; 2017 A.6 has the same definitions),
//! - `Fl-2 Fl-1`: the floats received two rounds ago and in the last round (`D` down,
//!   `U` up, `-` none; 2026 Art. 1.4, 2017 A.4), as used by C14–C17 / C.12–C.15,
//! - `This round`: the colour and opponent given now (`W 12` / `B 12`), `PAB`, or `absent`.
//!
//! Pure: renders text from the state paired and the pairing produced.

use std::collections::BTreeMap;
use swiss::colour::{ColourState, Strength};
use swiss::{Colour, Edition, Float, RoundPairing, TournamentState};

fn points(tenths: u32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

fn colour_letter(c: Colour) -> char {
    match c {
        Colour::White => 'W',
        Colour::Black => 'B',
    }
}

fn float_letter(f: Option<Float>) -> char {
    match f {
        Some(Float::Down) => 'D',
        Some(Float::Up) => 'U',
        Some(Float::None) => '-',
        None => ' ',
    }
}

/// The check-list of `pairing` (the round `state.rounds_played + 1`). Scores are shown in
/// points, reading the state's scoring unit as tenths of a point (as the TRF adapter builds it).
pub fn render(state: &TournamentState, pairing: &RoundPairing, edition: Edition) -> String {
    let round = state.rounds_played + 1;
    let mut this: BTreeMap<u32, String> = BTreeMap::new();
    for b in &pairing.boards {
        this.insert(b.white, format!("W {}", b.black));
        this.insert(b.black, format!("B {}", b.white));
    }
    if let Some(b) = pairing.bye {
        this.insert(b, "PAB".into());
    }
    let mut s = format!(
        "Check-list round {round} ({})\n",
        match edition {
            Edition::Dutch2026 => "FIDE Dutch C.04.3, 2026",
            Edition::Dutch2017 => "FIDE Dutch C.04.3, 2017",
        }
    );
    s.push_str(" TPN  Rtg  Score      CD  Pref          Fl-2 Fl-1  This round\n");
    let mut players: Vec<_> = state.players.iter().collect();
    players.sort_by_key(|p| p.tpn);
    for p in players {
        let cs = ColourState::from_history(&p.colours);
        let pref = match (cs.preference, cs.strength) {
            (Some(c), Strength::Absolute) => format!("{} absolute", colour_letter(c)),
            (Some(c), Strength::Strong) => format!("{} strong", colour_letter(c)),
            (Some(c), Strength::Mild) => format!("{} mild", colour_letter(c)),
            _ => "none".to_string(),
        };
        let score = if p.acceleration > 0 {
            format!("{}(+{})", points(p.score), points(p.acceleration))
        } else {
            points(p.score)
        };
        let len = p.floats.len();
        let f2 = len.checked_sub(2).map(|i| p.floats[i]);
        let f1 = len.checked_sub(1).map(|i| p.floats[i]);
        let now = match this.get(&p.tpn) {
            Some(t) => t.clone(),
            None if p.absent => "absent".into(),
            None => "not paired".into(),
        };
        s.push_str(&format!(
            "{:>4} {:>4}  {:<10} {:>+3}  {:<12}  {:>4} {:>4}  {}\n",
            p.tpn,
            p.rating,
            score,
            cs.difference,
            pref,
            float_letter(f2),
            float_letter(f1),
            now
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use swiss::{Board, Player};

    fn player(tpn: u32, score: u32, colours: Vec<Option<Colour>>, floats: Vec<Float>) -> Player {
        Player {
            tpn,
            rating: 2000,
            score,
            acceleration: 0,
            colours,
            floats,
            opponents: vec![],
            had_pab: false,
            had_unplayed_win: false,
            absent: false,
        }
    }

    #[test]
    fn one_line_per_player_with_preference_floats_and_this_round() {
        use Colour::{Black as B, White as W};
        let mut absent = player(4, 10, vec![Some(W), None], vec![Float::None, Float::None]);
        absent.absent = true;
        let state = TournamentState {
            players: vec![
                // Art. 1.7.1: WW in the last two games → absolute black.
                player(
                    1,
                    20,
                    vec![Some(W), Some(W)],
                    vec![Float::None, Float::Down],
                ),
                // Art. 1.7.2: difference -1 → strong white.
                player(2, 10, vec![Some(B), None], vec![Float::Up, Float::Down]),
                // Art. 1.7.3: difference 0 → mild, alternate from the last game (B) → W.
                player(
                    3,
                    10,
                    vec![Some(W), Some(B)],
                    vec![Float::None, Float::None],
                ),
                absent,
                player(5, 0, vec![None, None], vec![Float::None, Float::None]),
            ],
            rounds_played: 2,
            total_rounds: 5,
            points_for_win: 10,
            initial_colour: W,
            forbidden_pairs: vec![],
        };
        let pairing = RoundPairing {
            boards: vec![Board { white: 2, black: 1 }, Board { white: 3, black: 5 }],
            bye: None,
            explanation: vec![],
        };
        let text = render(&state, &pairing, Edition::Dutch2026);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2 + 5, "{text}");
        assert!(lines[0].contains("round 3"));
        let l1 = lines[2];
        assert!(l1.contains("2.0") && l1.contains("+2") && l1.contains("B absolute"));
        assert!(l1.trim_end().ends_with("B 2"), "{l1}");
        assert!(l1.contains("   -    D  "), "{l1}");
        let l2 = lines[3];
        assert!(l2.contains("W strong") && l2.contains("   U    D  ") && l2.ends_with("W 1"));
        assert!(lines[4].contains("W mild") && lines[4].ends_with("W 5"));
        assert!(lines[5].ends_with("absent"));
        // Art. 1.7.4: no game played → no preference.
        assert!(lines[6].contains("none") && lines[6].ends_with("B 3"));
    }
}
