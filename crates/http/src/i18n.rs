//! Every word of the public pages, in one table: English and French (the languages of
//! the seeds), a key per message. Another language is one more column. A page asks for
//! its words with [`words`] (a map the templates read as `t.KEY`); a test checks that
//! every `t.KEY` a template uses is in the table and that no message is empty.
use std::collections::BTreeMap;

/// A language of the pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// French.
    Fr,
}

impl Lang {
    /// Every language, in the order of the table's columns.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

    /// The BCP 47 code (`en`, `fr`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// The language of code `code` (`fr`, `fr-CA`, `FR`…).
    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The language of a request: `?lang=` when it names one, else the first language of
    /// `Accept-Language` (by its q values) that the pages have, else English.
    pub fn negotiate(query: Option<&str>, accept_language: Option<&str>) -> Lang {
        if let Some(l) = query.and_then(Lang::parse) {
            return l;
        }
        let mut best: Option<(f32, usize, Lang)> = None;
        for (i, part) in accept_language
            .unwrap_or("")
            .split(',')
            .take(32)
            .enumerate()
        {
            let mut bits = part.split(';');
            let Some(lang) = bits.next().and_then(Lang::parse) else {
                continue;
            };
            let q = bits
                .find_map(|b| b.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if q > 0.0 && best.is_none_or(|(bq, bi, _)| q > bq || (q == bq && i < bi)) {
                best = Some((q, i, lang));
            }
        }
        best.map_or(Lang::En, |(_, _, l)| l)
    }

    fn column(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Fr => 1,
        }
    }
}

/// `(key, [English, French])`.
pub const MESSAGES: &[(&str, [&str; 2])] = &[
    ("site", ["Arbiter — tournaments", "Arbiter — tournois"]),
    ("skip", ["Skip to the content", "Aller au contenu"]),
    ("nav", ["Site", "Site"]),
    ("tournaments", ["Tournaments", "Tournois"]),
    (
        "no_tournaments",
        [
            "No public tournament yet.",
            "Aucun tournoi public pour l’instant.",
        ],
    ),
    ("language", ["Language", "Langue"]),
    ("tournament", ["Tournament", "Tournoi"]),
    ("place", ["Place", "Lieu"]),
    ("dates", ["Dates", "Dates"]),
    ("federation", ["Federation", "Fédération"]),
    ("rounds", ["Rounds", "Rondes"]),
    ("round", ["Round", "Ronde"]),
    ("round_n", ["Round {n}", "Ronde {n}"]),
    ("system", ["Pairing system", "Système d’appariement"]),
    ("time_control", ["Time control", "Cadence"]),
    ("chief_arbiter", ["Chief arbiter", "Arbitre principal"]),
    ("deputy_arbiters", ["Deputy arbiters", "Arbitres adjoints"]),
    ("players", ["Players", "Joueurs"]),
    ("pairings", ["Pairings", "Appariements"]),
    (
        "pairings_round",
        [
            "Pairings and results, round {n}",
            "Appariements et résultats, ronde {n}",
        ],
    ),
    ("by_board", ["By board", "Par échiquier"]),
    ("by_name", ["By name", "Par nom"]),
    ("live", ["Live", "En direct"]),
    (
        "live_round",
        ["Live boards, round {n}", "Parties en direct, ronde {n}"],
    ),
    ("white_clock", ["White’s clock", "Pendule des Blancs"]),
    ("black_clock", ["Black’s clock", "Pendule des Noirs"]),
    ("moves", ["Moves", "Coups"]),
    ("no_clock", ["no clock", "sans pendule"]),
    (
        "live_connecting",
        [
            "Connecting to the live boards…",
            "Connexion aux parties en direct…",
        ],
    ),
    (
        "live_connected",
        [
            "Live: clocks and moves update by themselves.",
            "En direct : pendules et coups se mettent à jour d’eux-mêmes.",
        ],
    ),
    (
        "live_interrupted",
        [
            "Live updates interrupted; reconnecting…",
            "Direct interrompu ; reconnexion…",
        ],
    ),
    ("standings", ["Standings", "Classement"]),
    (
        "standings_after",
        ["Standings after round {n}", "Classement après la ronde {n}"],
    ),
    ("crosstable", ["Crosstable", "Grille américaine"]),
    (
        "no_rounds",
        [
            "No round is published yet.",
            "Aucune ronde n’est encore publiée.",
        ],
    ),
    (
        "not_published",
        [
            "This pairing is not published yet.",
            "Cet appariement n’est pas encore publié.",
        ],
    ),
    (
        "no_standings",
        [
            "No round is complete yet: every player has 0 points.",
            "Aucune ronde n’est terminée : tous les joueurs ont 0 point.",
        ],
    ),
    ("board", ["Board", "Échiquier"]),
    ("bd", ["Bd", "Éch."]),
    ("white", ["White", "Blancs"]),
    ("black", ["Black", "Noirs"]),
    ("result", ["Result", "Résultat"]),
    ("no_result", ["not played yet", "pas encore joué"]),
    ("colour", ["Colour", "Couleur"]),
    ("opponent", ["Opponent", "Adversaire"]),
    ("name", ["Name", "Nom"]),
    ("no", ["No", "N°"]),
    ("tpn", ["Pairing number", "Numéro d’appariement"]),
    ("title", ["Title", "Titre"]),
    ("rating", ["Rating", "Elo"]),
    ("rtg", ["Rtg", "Elo"]),
    ("fed", ["Fed", "Féd."]),
    ("points", ["Points", "Points"]),
    ("pts", ["Pts", "Pts"]),
    (
        "points_before",
        ["Points before the round", "Points avant la ronde"],
    ),
    (
        "points_after",
        ["Points after the round", "Points après la ronde"],
    ),
    ("rank", ["Rank", "Rang"]),
    ("tiebreaks", ["Tie-breaks", "Départages"]),
    ("not_paired", ["Not paired", "Non appariés"]),
    ("why", ["Why", "Motif"]),
    (
        "kind_pab",
        ["pairing-allocated bye", "exempt (bye d’appariement)"],
    ),
    (
        "kind_rr_bye",
        ["bye (round robin)", "exempt (toutes rondes)"],
    ),
    ("kind_ko_bye", ["bye", "exempt"]),
    ("kind_half", ["half-point bye", "bye d’un demi-point"]),
    ("kind_zero", ["zero-point bye", "bye à zéro point"]),
    ("kind_full", ["full-point bye", "bye d’un point"]),
    ("kind_withdrawn", ["withdrawn", "forfait définitif"]),
    (
        "kind_not_entered",
        ["not yet entered", "pas encore inscrit"],
    ),
    ("kind_absent", ["absent", "absent"]),
    (
        "kind_not_in_lineup",
        ["not in the line-up", "pas dans la composition"],
    ),
    ("matches", ["Matches", "Rencontres"]),
    (
        "team_standings",
        ["Team standings", "Classement des équipes"],
    ),
    ("team", ["Team", "Équipe"]),
    ("mp", ["MP", "PM"]),
    ("match_points", ["Match points", "Points de match"]),
    ("gp", ["GP", "PP"]),
    ("game_points", ["Game points", "Points de partie"]),
    ("match_table", ["Match", "Match"]),
    (
        "team_first",
        [
            "Team (White on board 1)",
            "Équipe (Blancs au 1er échiquier)",
        ],
    ),
    ("team_second", ["Team", "Équipe"]),
    ("match_boards", ["Boards", "Échiquiers"]),
    ("notes", ["Notes", "Remarques"]),
    (
        "board_empty",
        [
            "board {n} empty on both sides",
            "échiquier {n} vide des deux côtés",
        ],
    ),
    (
        "board_unopposed",
        [
            "board {n} unopposed, won by forfeit",
            "échiquier {n} sans adversaire, gagné par forfait",
        ],
    ),
    (
        "kind_no_game",
        ["no game this round", "pas de partie cette ronde"],
    ),
    ("player_card", ["Player card", "Fiche du joueur"]),
    ("games", ["Games", "Parties"]),
    ("w", ["white", "blancs"]),
    ("b", ["black", "noirs"]),
    ("bye", ["bye", "exempt"]),
    (
        "qr",
        [
            "QR code of this tournament’s address",
            "Code QR de l’adresse de ce tournoi",
        ],
    ),
    ("address", ["Address", "Adresse"]),
    ("print", ["Print", "Imprimer"]),
    (
        "footer",
        [
            "Published by Arbiter. Times are the server’s.",
            "Publié par Arbiter. Heures du serveur.",
        ],
    ),
    ("error", ["Error", "Erreur"]),
    ("back", ["Back to the tournaments", "Retour aux tournois"]),
    (
        "crosstable_note",
        [
            "Each cell: the opponent’s line, colour (w/b) and result; + and - forfeits, PAB the pairing-allocated bye, H/F/Z byes.",
            "Chaque case : la ligne de l’adversaire, la couleur (w/b) et le résultat ; + et - forfaits, PAB l’exempt, H/F/Z byes.",
        ],
    ),
];

/// The words of `lang`, by key (what a template reads as `t.KEY`).
pub fn words(lang: Lang) -> BTreeMap<&'static str, &'static str> {
    MESSAGES
        .iter()
        .map(|(k, v)| (*k, v[lang.column()]))
        .collect()
}

/// One message (the key itself when it is not in the table: a test keeps that from
/// happening).
pub fn word(lang: Lang, key: &str) -> &'static str {
    MESSAGES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("?", |(_, v)| v[lang.column()])
}

/// A message with `{n}` filled in.
pub fn word_n(lang: Lang, key: &str, n: u32) -> String {
    word(lang, key).replace("{n}", &n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_has_every_language_and_keys_are_unique() {
        let mut keys = std::collections::BTreeSet::new();
        for (k, v) in MESSAGES {
            assert!(keys.insert(*k), "{k} twice");
            for (i, m) in v.iter().enumerate() {
                assert!(!m.trim().is_empty(), "{k}: language {i} empty");
            }
            assert_eq!(
                v[0].contains("{n}"),
                v[1].contains("{n}"),
                "{k}: {{n}} in one language only"
            );
        }
    }

    #[test]
    fn every_word_a_template_uses_is_in_the_table() {
        for (name, source) in crate::pages::TEMPLATES {
            let mut rest = *source;
            while let Some(i) = rest.find("t.") {
                let before = rest[..i].chars().last();
                rest = &rest[i + 2..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.') {
                    continue;
                }
                let key: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                assert!(
                    MESSAGES.iter().any(|(k, _)| *k == key),
                    "template {name} uses t.{key}, which is not in i18n::MESSAGES"
                );
            }
        }
    }

    #[test]
    fn the_language_comes_from_the_query_then_accept_language() {
        assert_eq!(Lang::negotiate(Some("fr"), Some("en")), Lang::Fr);
        assert_eq!(
            Lang::negotiate(Some("xx"), Some("fr-FR,en;q=0.5")),
            Lang::Fr
        );
        assert_eq!(
            Lang::negotiate(None, Some("de, en;q=0.3, fr;q=0.8")),
            Lang::Fr
        );
        assert_eq!(Lang::negotiate(None, Some("fr;q=0, en")), Lang::En);
        assert_eq!(Lang::negotiate(None, None), Lang::En);
        assert_eq!(Lang::negotiate(None, Some(";;;,q=,\u{0}")), Lang::En);
    }
}
