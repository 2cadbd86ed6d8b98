//! The rest round of an odd round robin (ADR tiebreak-014): C.07 Art. 15.2 — in a round robin
//! forfeits are the only unplayed rounds, Art. 16 is for Swiss events — so an opponent's
//! rest round counts at the points awarded (none), not as a draw, in the scores the
//! Sonneborn-Berger family multiplies. Expected values: OttoMilvang/TieBreakServer (commit
//! 14a34a2, `tiebreakchecker.py -i FILE -f TRF -p -r -t PTS … -d T -o - -c`, team file with
//! `-e 1`), on two files of tests/fixtures (README.md there).

use tiebreak::trf_crosstable::{AdapterOptions, event_kind};
use tiebreak::trf_team_crosstable::{TeamAdapterOptions, from_trf as team_from_trf};
use tiebreak::*;

fn doc(name: &str) -> trf::TrfDocument {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    trf::parse(text.as_bytes()).unwrap().doc
}

fn shown(v: &TieBreakValue) -> String {
    v.value.map_or_else(|| "-".into(), |x| x.to_string())
}

/// Five players, one rest round each (`0000 - Z`); player 3 rests in the last round, so a
/// reading of Art. 16.3 would count it as a draw for player 1's SB (6.5 instead of 6).
#[test]
fn an_individual_rest_round_is_not_a_draw_for_the_opponents() {
    let d = doc("hand-rr5-rest-rounds.trf");
    let kind = event_kind(&d);
    assert_eq!(kind, EventKind::RoundRobin);
    let ct = trf_crosstable::from_trf(
        &d,
        &AdapterOptions {
            kind,
            ..AdapterOptions::default()
        },
    )
    .unwrap()
    .crosstable;
    let list = parse_list(&["SB"], Edition::C07_2026).unwrap();
    let s = standings(&ct, Edition::C07_2026, &list, &Options::default()).unwrap();
    let got: Vec<(u32, String)> = s
        .rows
        .iter()
        .map(|r| (r.tpn, shown(&r.values[0])))
        .collect();
    let want = [(1, "6"), (4, "2.75"), (3, "2.25"), (5, "1.5"), (2, "1")];
    assert_eq!(
        got,
        want.map(|(t, v)| (t, v.to_owned())).to_vec(),
        "SB, rank order"
    );
}

/// A five-team, two-board round robin made by arbiterd (tests/tests/team_pairing.rs): each
/// team is free one round; TRF26 record 320 says there is no PAB.
#[test]
fn a_team_rest_round_is_not_a_draw_for_the_opponents() {
    let d = doc("team-rr5-rest-rounds.trf");
    let kind = event_kind(&d);
    assert_eq!(kind, EventKind::RoundRobin);
    let ct = team_from_trf(
        &d,
        &TeamAdapterOptions {
            kind,
            ..TeamAdapterOptions::default()
        },
    )
    .unwrap()
    .crosstable;
    let list = parse_list(&["MPvGP", "EMMSB", "EMGSB"], Edition::C07_2026).unwrap();
    let s = team_standings(&ct, Edition::C07_2026, &list, &Options::default()).unwrap();
    let got: Vec<(u32, String, Vec<String>)> = s
        .rows
        .iter()
        .map(|r| {
            (
                r.tpn,
                r.match_points.to_string(),
                r.values.iter().map(shown).collect(),
            )
        })
        .collect();
    let want = [
        (1, "8", ["7.5", "24", "21.5"]),
        (4, "5", ["4.5", "11", "13"]),
        (2, "4", ["3.5", "6", "7"]),
        (3, "3", ["3", "5", "7"]),
        (5, "0", ["1.5", "0", "6"]),
    ];
    let want: Vec<(u32, String, Vec<String>)> = want
        .iter()
        .map(|(t, mp, v)| (*t, (*mp).to_owned(), v.map(str::to_owned).to_vec()))
        .collect();
    assert_eq!(got, want);
}
