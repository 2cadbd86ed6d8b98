//! The per-period batch: input validation and the unrated players' tallies.

use elo::calendar::ListMonth;
use elo::initial_rating_8_2::{UnratedEvent, UnratedTally, initial_rating};
use elo::k_factor_8_3_3::KProfile;
use elo::period_batch::{BatchGame, BatchPlayer, BatchResult, rate_period};
use elo::{EloError, Hundredths, Rules};

const ADULT: KProfile = KProfile {
    games_before_period: 100,
    ever_published_2400: false,
    ever_published_2300: false,
    birth: None,
};

fn player(rating: Option<u16>) -> BatchPlayer {
    BatchPlayer {
        rating,
        profile: ADULT,
    }
}

fn game(white: u32, black: u32, result: BatchResult, event: u32) -> BatchGame {
    BatchGame {
        white,
        black,
        result,
        event,
    }
}

fn may() -> ListMonth {
    ListMonth::new(2026, 5).unwrap()
}

#[test]
fn rejects_bad_indexes_self_pairing_and_event_order() {
    let ps = [player(Some(1800)), player(Some(1900))];
    assert_eq!(
        rate_period(
            Rules::standard(),
            may(),
            &ps,
            &[game(0, 2, BatchResult::Draw, 0)]
        ),
        Err(EloError::PlayerIndexOutOfRange {
            game: 0,
            player: 2,
            players: 2
        })
    );
    assert_eq!(
        rate_period(
            Rules::standard(),
            may(),
            &ps,
            &[game(1, 1, BatchResult::Draw, 0)]
        ),
        Err(EloError::SelfPairing { game: 0, player: 1 })
    );
    assert_eq!(
        rate_period(
            Rules::standard(),
            may(),
            &ps,
            &[
                game(0, 1, BatchResult::Draw, 5),
                game(1, 0, BatchResult::Draw, 3)
            ]
        ),
        Err(EloError::EventsOutOfOrder {
            game: 1,
            player: 1,
            event: 3,
            previous: 5
        })
    );
}

#[test]
fn rated_pair_is_zero_sum_with_equal_k() {
    let ps = [player(Some(1800)), player(Some(2000))];
    let out = rate_period(
        Rules::standard(),
        may(),
        &ps,
        &[game(0, 1, BatchResult::WhiteWins, 0)],
    )
    .unwrap();
    // D = −200 → PD .24; +.76 × 20 = 15.2 ; the other −15.2
    assert_eq!(out[0].change_unrounded, Hundredths(1520));
    assert_eq!(out[1].change_unrounded, Hundredths(-1520));
    assert_eq!(out[0].rating_after, Some(1815));
    assert_eq!(out[1].rating_after, Some(1985));
}

/// An unrated player with no history scores zero in their first event of the period (which
/// is their first event: §8.2.1 disregards it), then plays 5 more games in another event.
#[test]
fn unrated_tallies_feed_the_initial_rating() {
    let ps = [
        player(None),
        player(Some(1600)),
        player(Some(1700)),
        player(None),
    ];
    let games = [
        game(0, 1, BatchResult::BlackWins, 0),
        game(2, 0, BatchResult::WhiteWins, 0),
        game(0, 3, BatchResult::WhiteWins, 0), // unrated vs unrated: nothing
        game(0, 1, BatchResult::WhiteWins, 1),
        game(1, 0, BatchResult::Draw, 1),
        game(0, 2, BatchResult::Draw, 1),
        game(2, 0, BatchResult::BlackWins, 1),
        game(0, 1, BatchResult::BlackWins, 1),
    ];
    let out = rate_period(Rules::standard(), may(), &ps, &games).unwrap();
    assert_eq!(
        out[0].unrated_first_event,
        UnratedTally {
            games: 2,
            opponents_rating_sum: 3300,
            half_points: 0
        }
    );
    assert_eq!(
        out[0].unrated_later_events,
        UnratedTally {
            games: 5,
            opponents_rating_sum: 1600 + 1600 + 1700 + 1700 + 1600,
            half_points: 2 + 1 + 1 + 2
        }
    );
    // games against the unrated players are not rated for the rated ones
    assert_eq!(out[1].rated_games, 0);
    assert_eq!(out[1].change, 0);
    let events = [
        UnratedEvent {
            period: may(),
            tally: out[0].unrated_first_event,
        },
        UnratedEvent {
            period: may(),
            tally: out[0].unrated_later_events,
        },
    ];
    let r = initial_rating(Rules::standard(), may(), &events);
    assert!(r.working.first_event_zero_disregarded);
    // (8200 + 3600)/7 = 1685.7; p = (3 + 1)/7 = .57 → 50; 1735.7 → 1736
    assert_eq!(r.published, Some(1736));
}
