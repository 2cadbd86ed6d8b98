//! Deterministic synthetic rating lists (tests and `make bench`): same `(n, seed)`, same
//! players, on every machine. Shapes follow the real combined list: increasing unique IDs,
//! "Surname, Firstname" names (some with Latin-1 diacritics), about half unrated in every
//! list, about half inactive, a few titles, K 40/20/10. Every value fits the TXT columns.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::player::{Flags, ListPlayer, RatingEntry, RatingKind, Sex, Title};

const SURNAME_PARTS: [&str; 24] = [
    "Ka", "ri", "mov", "Ben", "ko", "Sch", "mid", "ter", "Mül", "ler", "Ló", "pez", "Ni", "el",
    "sen", "Al", "va", "rez", "Ve", "ra", "Šo", "ö", "ski", "né",
];
const FIRST_NAMES: [&str; 20] = [
    "Magnus",
    "Anna",
    "José",
    "Ørjan",
    "Li",
    "Ivan",
    "Maria",
    "Ahmed",
    "Zoë",
    "Pedro",
    "Hou",
    "Élodie",
    "Ravi",
    "Olga",
    "Jan",
    "Fatima",
    "Søren",
    "Ana-María",
    "Kévin",
    "Nodirbek",
];
const FEDERATIONS: [&str; 16] = [
    "FRA", "GER", "IND", "RUS", "USA", "ESP", "NOR", "CHN", "IRI", "BEL", "UZB", "ARG", "POL",
    "TUR", "FID", "CAN",
];
const OTHER_TITLES: [&str; 6] = ["IA", "FA", "NA", "FT", "IO", "FA,FT"];

/// An endless-until-`n` iterator of synthetic players.
#[derive(Debug, Clone)]
pub struct ListGenerator {
    rng: ChaCha8Rng,
    remaining: usize,
    next_id: u32,
}

/// `n` synthetic players from `seed`, in increasing FIDE ID order.
pub fn generate_list(n: usize, seed: u64) -> ListGenerator {
    ListGenerator {
        rng: ChaCha8Rng::seed_from_u64(seed),
        remaining: n,
        next_id: 100_000,
    }
}

impl ListGenerator {
    fn entry(&mut self, p_rated: f64, female: bool) -> Option<RatingEntry> {
        let rng = &mut self.rng;
        if !rng.random_bool(p_rated) {
            return None;
        }
        let base: u16 = if female { 1350 } else { 1400 };
        let rating = base + rng.random_range(0..1400u16);
        let games = if rng.random_bool(0.7) {
            0
        } else {
            rng.random_range(1..40u16)
        };
        let k = match rating {
            2400.. => 10,
            _ if rng.random_bool(0.3) => 40,
            _ => 20,
        };
        Some(RatingEntry {
            rating,
            games,
            k: Some(k),
        })
    }
}

impl Iterator for ListGenerator {
    type Item = ListPlayer;

    fn next(&mut self) -> Option<ListPlayer> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let fide_id = self.next_id;
        let step = self.rng.random_range(1..=40u32);
        self.next_id = self.next_id.saturating_add(step);

        let rng = &mut self.rng;
        let parts = rng.random_range(2..=4usize);
        let mut surname = String::new();
        for i in 0..parts {
            let part = SURNAME_PARTS[rng.random_range(0..SURNAME_PARTS.len())];
            if i == 0 {
                let mut cs = part.chars();
                if let Some(c) = cs.next() {
                    surname.extend(c.to_uppercase());
                    surname.push_str(cs.as_str());
                }
            } else {
                surname.push_str(&part.to_lowercase());
            }
        }
        let name = if rng.random_bool(0.02) {
            surname
        } else {
            format!(
                "{surname}, {}",
                FIRST_NAMES[rng.random_range(0..FIRST_NAMES.len())]
            )
        };
        let female = rng.random_bool(0.15);
        let federation = FEDERATIONS[rng.random_range(0..FEDERATIONS.len())].to_string();
        let title = if rng.random_bool(0.03) {
            Some(Title::ALL[rng.random_range(0..Title::ALL.len())])
        } else {
            None
        };
        let women_title = match title {
            Some(t) if t.is_women_title() => Some(t),
            _ if female && rng.random_bool(0.02) => Some(Title::WFM),
            _ => None,
        };
        let title = title.filter(|t| !t.is_women_title() || rng.random_bool(0.5));
        let other_titles = if rng.random_bool(0.01) {
            OTHER_TITLES[rng.random_range(0..OTHER_TITLES.len())]
                .split(',')
                .map(str::to_string)
                .collect()
        } else {
            Vec::new()
        };
        let foa_title = rng.random_bool(0.002).then(|| "AIM".to_string());
        let birth_year = if rng.random_bool(0.02) {
            None
        } else {
            Some(rng.random_range(1930..=2020u16))
        };
        let inactive = rng.random_bool(0.5);
        let mut player = ListPlayer {
            fide_id,
            name,
            federation,
            sex: Some(if female { Sex::Female } else { Sex::Male }),
            title,
            women_title,
            other_titles,
            foa_title,
            standard: None,
            rapid: None,
            blitz: None,
            birth_year,
            flags: Flags {
                inactive,
                woman: female,
                other: String::new(),
            },
        };
        for (kind, p) in [
            (RatingKind::Standard, 0.45),
            (RatingKind::Rapid, 0.35),
            (RatingKind::Blitz, 0.3),
        ] {
            *player.rating_mut(kind) = self.entry(p, female);
        }
        Some(player)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for ListGenerator {}
