//! C.05 Annex 1: the generated Berger tables equal FIDE's printed tables for 4–16 players
//! (every round, every board, every colour), and the odd sizes 3–15 are the next even table with
//! the highest number as the bye. Also: seed 000 "TABLES DE BERGER" (3–14) differs from FIDE
//! only by its known misprint (13–14 players, round 6).

use roundrobin::{Round, berger_table};

type Table = Vec<Vec<(u32, u32)>>;

fn parse_pair(token: &str) -> (u32, u32) {
    let token = token.trim().trim_end_matches([',', '.']);
    let (w, b) = token
        .split_once('-')
        .unwrap_or_else(|| panic!("bad pair {token:?}"));
    (w.trim().parse().unwrap(), b.trim().parse().unwrap())
}

/// `berger-tables-fide-4-16.txt`: a line with the table size, then one line per round with
/// comma-separated `white-black` pairs in board order.
fn fide_tables() -> Vec<(u32, Table)> {
    let text = include_str!("data/berger-tables-fide-4-16.txt");
    let mut out: Vec<(u32, Table)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Ok(n) = line.parse::<u32>() {
            out.push((n, Vec::new()));
        } else {
            let round = line.split(',').map(parse_pair).collect();
            out.last_mut().expect("table size first").1.push(round);
        }
    }
    out
}

/// `seed000-berger-tables-3-14.txt`: headers "N - M joueurs", rounds "R1 1-4 2-3" / "R 1\t…".
fn seed_tables() -> Vec<(u32, Table)> {
    let text = include_str!("data/seed000-berger-tables-3-14.txt");
    let mut out: Vec<(u32, Table)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.contains("joueurs") {
            let size: u32 = line
                .split(|c: char| !c.is_ascii_digit())
                .rfind(|s| !s.is_empty())
                .unwrap()
                .parse()
                .unwrap();
            out.push((size, Vec::new()));
        } else if let Some(rest) = line.strip_prefix('R') {
            let mut tokens = rest.split_whitespace();
            let _round_number = tokens.next();
            let round = tokens.map(parse_pair).collect();
            out.last_mut().expect("header first").1.push(round);
        }
    }
    out
}

fn as_pairs(rounds: &[Round]) -> Table {
    rounds
        .iter()
        .map(|r| r.games.iter().map(|g| (g.white, g.black)).collect())
        .collect()
}

#[test]
fn c05_annex1_generated_tables_equal_fide_tables_4_to_16() {
    let tables = fide_tables();
    assert_eq!(
        tables.iter().map(|t| t.0).collect::<Vec<_>>(),
        vec![4, 6, 8, 10, 12, 14, 16]
    );
    for (n, expected) in tables {
        let generated = berger_table(n).unwrap();
        assert_eq!(
            expected.len(),
            generated.len(),
            "{n} players: number of rounds"
        );
        for (i, r) in generated.iter().enumerate() {
            assert_eq!(r.number as usize, i + 1);
            assert_eq!(r.bye, None);
            for (b, g) in r.games.iter().enumerate() {
                assert_eq!(g.board as usize, b + 1, "{n} players round {}", i + 1);
            }
        }
        assert_eq!(as_pairs(&generated), expected, "{n} players");
    }
}

/// C.05 Annex 1: "Where there is an odd number of players, the highest number counts as a bye."
#[test]
fn c05_annex1_odd_numbers_3_to_15_use_next_table_with_highest_number_as_bye() {
    for (n, expected) in fide_tables() {
        let odd = n - 1;
        let generated = berger_table(odd).unwrap();
        assert_eq!(generated.len(), expected.len());
        for (round, table_round) in generated.iter().zip(&expected) {
            let bye = table_round.iter().find_map(|&(w, b)| {
                if w == n {
                    Some(b)
                } else if b == n {
                    Some(w)
                } else {
                    None
                }
            });
            assert_eq!(round.bye, bye, "{odd} players round {}", round.number);
            let without_bye: Vec<(u32, u32)> = table_round
                .iter()
                .copied()
                .filter(|&(w, b)| w != n && b != n)
                .collect();
            let got: Vec<(u32, u32)> = round.games.iter().map(|g| (g.white, g.black)).collect();
            assert_eq!(got, without_bye, "{odd} players round {}", round.number);
        }
    }
}

/// Seed 000, "TABLES DE BERGER" (3–4 … 13–14 joueurs): identical to FIDE's tables except the
/// misprint in "13-14 joueurs", R6, board 1, printed "4-10" where FIDE has "14-10"
/// (ADR roundrobin-003: the FIDE table is followed).
#[test]
fn seed_000_tables_de_berger_differ_from_fide_only_by_the_13_14_round_6_misprint() {
    let seed = seed_tables();
    assert_eq!(
        seed.iter().map(|t| t.0).collect::<Vec<_>>(),
        vec![4, 6, 8, 10, 12, 14]
    );
    let mut differences = Vec::new();
    for (n, printed) in seed {
        let generated = as_pairs(&berger_table(n).unwrap());
        assert_eq!(printed.len(), generated.len());
        for (r, (p, g)) in printed.iter().zip(&generated).enumerate() {
            assert_eq!(p.len(), g.len());
            for (b, (pp, gg)) in p.iter().zip(g).enumerate() {
                if pp != gg {
                    differences.push((n, r + 1, b + 1, *pp, *gg));
                }
            }
        }
    }
    assert_eq!(differences, vec![(14, 6, 1, (4, 10), (14, 10))]);
}
