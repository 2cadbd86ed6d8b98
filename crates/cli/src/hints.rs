//! The server's messages in the arbiter's words (ADR cli-002). A gRPC status message
//! names the API: the request field at fault (`meta.expected_version: …`) and, in its
//! hints, RPCs (`use SetPairings …`). That stays so for API users; the CLI shows the
//! command or flag that fixes it instead, from this one table.

/// API name → what the arbiter types. Longer names first (a name that contains another
/// is replaced before it).
const IN_CLI_WORDS: &[(&str, &str)] = &[
    ("meta.expected_version", "--expected-version"),
    ("meta.command_id", "--command-id"),
    ("meta.reason", "--reason"),
    ("expected_version", "--expected-version"),
    ("previous_result", "--was"),
    // Player data (`player add|correct`).
    ("data.name", "--name"),
    ("data.fide_id", "--fide-id"),
    ("data.sex", "--sex"),
    ("data.title", "--title"),
    ("data.federation", "--federation"),
    ("data.birth_date", "--birth"),
    ("data.rating_standard", "--rating"),
    ("data.rating_rapid", "--rapid"),
    ("data.rating_blitz", "--blitz"),
    ("data.national_id", "--national-id"),
    ("data.national_rating", "--national-rating"),
    ("data.club", "--club"),
    ("missed_rounds", "--missed-rounds"),
    ("from_round", "--from-round"),
    // Tournament fields (`tournament create|update|settings|rules`).
    ("start_date", "--start"),
    ("end_date", "--end"),
    ("time_control", "--time-control"),
    ("pairing_system", "--system"),
    ("rule_edition", "--edition"),
    ("chief_arbiter", "--chief-arbiter"),
    ("deputy_arbiters", "--deputy-arbiter"),
    ("rating_list_date", "--rating-list-date"),
    ("knockout_games", "--knockout-games"),
    ("knockout_tie_breaks", "--knockout-tie-breaks"),
    ("late_entry_byes", "--late-entry-byes"),
    ("announced_criterion", "--tie-criterion"),
    ("bye_player_id", "--bye"),
    // Adjourned games (`clock adjourn|resume|sealed`).
    ("sealed_move", "--move"),
    ("sealed_by", "--sealed-by"),
    ("session_end_ms", "--session-end-ms"),
    ("AdjournGame", "`arbiter clock adjourn`"),
    ("ResumeGame", "`arbiter clock resume`"),
    ("GetSealedMove", "`arbiter clock sealed`"),
    ("SetPairings", "`arbiter round set`"),
    ("PairRound", "`arbiter round pair`"),
    ("RepairRound", "`arbiter round repair`"),
    ("PublishPairings", "`arbiter round publish`"),
    ("UnpublishPairings", "`arbiter round unpublish`"),
    ("DiscardPairing", "`arbiter round discard`"),
    ("CloseRound", "`arbiter round close`"),
    ("CorrectResult", "`arbiter result correct`"),
    ("RecordResult", "`arbiter result set`"),
    ("RecordBye", "`arbiter result bye`"),
    ("UpdateTournament", "`arbiter tournament update`"),
    ("SetTournamentSettings", "`arbiter tournament settings`"),
    ("SetEntryRules", "`arbiter tournament rules`"),
    ("ImportTrf", "`arbiter tournament import`"),
    ("SubmitTournament", "`arbiter rating submit-tournament`"),
    ("AddPlayer", "`arbiter player add`"),
    ("CorrectPlayer", "`arbiter player correct`"),
    ("WithdrawPlayer", "`arbiter player withdraw`"),
    ("RequestBye", "`arbiter player bye`"),
    ("ListPlayers", "`arbiter player list`"),
    ("AddTeam", "`arbiter team add`"),
    ("SetTeamRoster", "`arbiter team roster`"),
    ("SubmitLineup", "`arbiter team lineup`"),
    ("ListTeams", "`arbiter team list`"),
    ("SetTeamRules", "`arbiter team rules`"),
    ("WithdrawTeam", "`arbiter team withdraw`"),
    ("ListTournaments", "`arbiter tournament list`"),
    ("GetTournament", "`arbiter tournament show`"),
    ("GetPairings", "`arbiter round show`"),
    ("ExplainPairing", "`arbiter round explain`"),
    ("GetStandings", "`arbiter standings`"),
    ("GetHistory", "`arbiter result history`"),
    ("ExportAudit", "`arbiter audit export`"),
    // The tie-break adapter's hint is the offline flag; the server's is --round.
    ("(use --rounds ", "(use --round "),
];

/// `message` with every API name of the table replaced by the CLI's words. Only whole
/// names are replaced (not part of a longer identifier).
pub fn in_cli_words(message: &str) -> String {
    let mut out = message.to_owned();
    for (api, cli) in IN_CLI_WORDS {
        out = replace_whole(&out, api, cli);
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

fn replace_whole(text: &str, name: &str, with: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(name) {
        let before = rest[..i].chars().next_back();
        let after = rest[i + name.len()..].chars().next();
        let word_start = name.chars().next().is_some_and(is_ident);
        let word_end = name.chars().next_back().is_some_and(is_ident);
        let joined_before = word_start && before.is_some_and(is_ident);
        let joined_after = word_end && after.is_some_and(|c| is_ident(c) && c != '.');
        let whole = !(joined_before || joined_after);
        out.push_str(&rest[..i]);
        out.push_str(if whole { with } else { name });
        rest = &rest[i + name.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_hints_name_the_cli_command_or_flag() {
        assert_eq!(
            in_cli_words(
                "round: round 2 is published: C.04.2 art. 4 keeps a published pairing (use SetPairings for an allowed change)"
            ),
            "round: round 2 is published: C.04.2 art. 4 keeps a published pairing (use `arbiter round set` for an allowed change)"
        );
        assert_eq!(
            in_cli_words(
                "previous_result: say which result you are correcting (board 1.2 now has 1-0), or give meta.expected_version"
            ),
            "--was: say which result you are correcting (board 1.2 now has 1-0), or give --expected-version"
        );
        assert_eq!(
            in_cli_words("expected_version: stream t is at version 2, the command expected 1"),
            "--expected-version: stream t is at version 2, the command expected 1"
        );
        assert_eq!(
            in_cli_words("meta.command_id: x was already used"),
            "--command-id: x was already used"
        );
        assert_eq!(
            in_cli_words(
                "tournament_id: record as TRF: 3:92: round 2: paired against 4 but no result yet; standings need finished rounds (use --rounds 1)"
            ),
            "tournament_id: record as TRF: 3:92: round 2: paired against 4 but no result yet; standings need finished rounds (use --round 1)"
        );
    }

    #[test]
    fn player_and_tournament_fields_are_their_flags() {
        assert_eq!(
            in_cli_words("end_date: 2026-05-01 is before start_date 2026-05-02"),
            "--end: 2026-05-01 is before --start 2026-05-02"
        );
        assert_eq!(
            in_cli_words(
                "data.fide_id: 1 is not in the player directory (0 players); give data.name"
            ),
            "--fide-id: 1 is not in the player directory (0 players); give --name"
        );
    }

    #[test]
    fn only_whole_names_are_replaced() {
        assert_eq!(in_cli_words("SetPairingsX"), "SetPairingsX");
        assert_eq!(in_cli_words("xmeta.reason"), "xmeta.reason");
        assert_eq!(
            in_cli_words("meta.reason: too long."),
            "--reason: too long."
        );
    }
}
