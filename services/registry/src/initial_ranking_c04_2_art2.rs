//! Initial ranking list, FIDE Handbook C.04.2 (General handling rules for Swiss
//! tournaments), article 2: players are ranked by rating (highest first), then by FIDE
//! title in the order GM, IM, WGM, FM, WIM, CM, WFM, WCM, untitled last, then by name
//! (alphabetically); players still equal are ordered by the criterion announced before the
//! tournament. The pairing numbers (TPN) are the positions in this list.
//!
//! Pure: no I/O, deterministic.
use std::cmp::Ordering;

/// The criterion announced for players equal in rating, title and name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AnnouncedCriterion {
    /// Order of registration (entry order).
    #[default]
    RegistrationOrder,
    /// FIDE ID, lowest first (players without an ID last).
    FideId,
}

/// What art. 2 looks at for one player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RankingKey<'a> {
    /// The rating of the event's kind (standard, rapid, blitz); 0 = unrated.
    pub rating: u32,
    /// FIDE title, either spelled out (`GM`) or as a TRF letter (`g`).
    pub title: &'a str,
    /// "Lastname, Firstname".
    pub name: &'a str,
    /// FIDE ID, 0 = none.
    pub fide_id: u64,
    /// Registration order (0-based).
    pub registration: usize,
}

/// Rank of a title in art. 2 (0 = GM … 7 = WCM, 8 = no title or one art. 2 does not name).
pub fn title_rank(title: &str) -> u8 {
    match title.trim().to_ascii_uppercase().as_str() {
        "GM" | "G" => 0,
        "IM" | "M" => 1,
        "WGM" | "WG" => 2,
        "FM" | "F" => 3,
        "WIM" | "WM" => 4,
        "CM" | "C" => 5,
        "WFM" | "WF" => 6,
        "WCM" | "WC" => 7,
        _ => 8,
    }
}

/// Case- and accent-insensitive enough for ordering names: Unicode lowercase, then the
/// exact text as a last resort so that the order is total.
fn name_order(a: &str, b: &str) -> Ordering {
    let la = a.trim().to_lowercase();
    let lb = b.trim().to_lowercase();
    la.cmp(&lb).then_with(|| a.cmp(b))
}

/// The art. 2 comparison of two players (`Less` = ranked higher).
pub fn compare(a: &RankingKey<'_>, b: &RankingKey<'_>, criterion: AnnouncedCriterion) -> Ordering {
    b.rating
        .cmp(&a.rating)
        .then_with(|| title_rank(a.title).cmp(&title_rank(b.title)))
        .then_with(|| name_order(a.name, b.name))
        .then_with(|| match criterion {
            AnnouncedCriterion::RegistrationOrder => Ordering::Equal,
            AnnouncedCriterion::FideId => {
                let id = |k: &RankingKey<'_>| if k.fide_id == 0 { u64::MAX } else { k.fide_id };
                id(a).cmp(&id(b))
            }
        })
        .then_with(|| a.registration.cmp(&b.registration))
}

/// The initial ranking: indices into `players` in TPN order (TPN = position + 1).
pub fn initial_ranking(players: &[RankingKey<'_>], criterion: AnnouncedCriterion) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&i, &j| compare(&players[i], &players[j], criterion));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key<'a>(rating: u32, title: &'a str, name: &'a str, registration: usize) -> RankingKey<'a> {
        RankingKey {
            rating,
            title,
            name,
            fide_id: 0,
            registration,
        }
    }

    #[test]
    fn rating_first_highest_first_unrated_last() {
        let p = [
            key(0, "GM", "Unrated, Ann", 0),
            key(2100, "", "Low, Bob", 1),
            key(2400, "", "High, Cy", 2),
        ];
        assert_eq!(
            initial_ranking(&p, AnnouncedCriterion::default()),
            vec![2, 1, 0]
        );
    }

    #[test]
    fn equal_rating_title_order_of_art_2() {
        let titles = ["", "WCM", "WFM", "CM", "WIM", "FM", "WGM", "IM", "GM"];
        let p: Vec<_> = titles
            .iter()
            .enumerate()
            .map(|(i, t)| key(2300, t, "Same, Name", i))
            .collect();
        let order = initial_ranking(&p, AnnouncedCriterion::default());
        let got: Vec<&str> = order.iter().map(|&i| titles[i]).collect();
        assert_eq!(
            got,
            ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", ""]
        );
    }

    #[test]
    fn trf_title_letters_rank_like_the_spelled_out_titles() {
        for (a, b) in [
            ("g", "GM"),
            ("m", "IM"),
            ("wg", "WGM"),
            ("f", "FM"),
            ("wm", "WIM"),
            ("c", "CM"),
            ("wf", "WFM"),
            ("wc", "WCM"),
        ] {
            assert_eq!(title_rank(a), title_rank(b), "{a} vs {b}");
        }
        assert_eq!(
            title_rank("AGM"),
            8,
            "titles art. 2 does not name rank last"
        );
    }

    #[test]
    fn then_name_then_announced_criterion() {
        let mut p = [
            key(2000, "", "Zorn, Al", 0),
            key(2000, "", "adams, Bo", 1),
            key(2000, "", "Murphy, Jo", 2),
            key(2000, "", "Murphy, Jo", 3),
        ];
        p[2].fide_id = 900;
        p[3].fide_id = 100;
        assert_eq!(
            initial_ranking(&p, AnnouncedCriterion::RegistrationOrder),
            vec![1, 2, 3, 0],
            "names compare case-insensitively; equal names keep registration order"
        );
        assert_eq!(
            initial_ranking(&p, AnnouncedCriterion::FideId),
            vec![1, 3, 2, 0]
        );
    }

    #[test]
    fn empty_list() {
        assert!(initial_ranking(&[], AnnouncedCriterion::default()).is_empty());
    }
}
