//! The imperative shell of the team commands (ADR registry-008): authorise from the
//! access table, begin the command (id, digest), replay a retry, load the latest record,
//! decide in `teams.rs`, append, answer from the projection.

use arbiter_proto::v1::{
    AddTeamRequest, AddTeamResponse, CommandAck, LineupDeadline, ListTeamsResponse,
    SubmitLineupRequest, TeamAdded, TeamLineup, TeamMember,
};
use arbiter_service_kit::auth::Scope;
use arbiter_service_kit::status::{from_log, invalid};
use prost::Message;
use tonic::{Request, Status};

use crate::roster::Roster;
use crate::teams::{self, LineupRefusal, Submitter, Team};
use crate::{Registry, field, total_rounds};

fn member(roster: &Roster, player_id: &str) -> TeamMember {
    TeamMember {
        player_id: player_id.to_owned(),
        pairing_number: roster.pairing_number(player_id),
        name: roster
            .entry(player_id)
            .map(|e| e.data.name.clone())
            .unwrap_or_default(),
    }
}

/// A team as the API shows it (members with their names and pairing numbers).
pub fn team_message(roster: &Roster, t: &Team) -> arbiter_proto::v1::Team {
    arbiter_proto::v1::Team {
        team_id: t.team_id.clone(),
        number: t.number,
        name: t.name.clone(),
        federation: t.federation.clone(),
        club: t.club.clone(),
        captain: t.captain.clone(),
        captain_principal: t.captain_principal.clone(),
        roster: t.roster.iter().map(|p| member(roster, p)).collect(),
        lineups: t
            .lineups
            .iter()
            .map(|(round, (boards, by_captain))| TeamLineup {
                round: *round,
                boards: boards.iter().map(|p| member(roster, p)).collect(),
                by_captain: *by_captain,
            })
            .collect(),
        withdrawn_from_round: t.withdrawn_from_round,
    }
}

/// `ListTeams`' answer.
pub fn list(roster: &Roster) -> ListTeamsResponse {
    ListTeamsResponse {
        boards: roster.teams.boards(),
        teams: roster
            .teams
            .teams
            .iter()
            .map(|t| team_message(roster, t))
            .collect(),
        deadlines: roster
            .teams
            .deadlines
            .iter()
            .map(|(round, d)| LineupDeadline {
                round: *round,
                deadline: teams::fmt_micros(*d),
            })
            .collect(),
        colour_preferences: if roster.teams.colour_preferences.is_empty() {
            "type-a".to_owned()
        } else {
            roster.teams.colour_preferences.clone()
        },
        primary_score: if roster.teams.primary_score.is_empty() {
            "mp".to_owned()
        } else {
            roster.teams.primary_score.clone()
        },
    }
}

impl Registry {
    /// `AddTeam`: the team with its new id; a retry answers with the team it added.
    pub(crate) async fn add_team(
        &self,
        request: Request<AddTeamRequest>,
    ) -> Result<AddTeamResponse, Status> {
        let tid = request.get_ref().tournament_id.clone();
        let actor = self
            .platform
            .auth
            .actor(&request, "AddTeam", Scope::Tournament(&tid))?;
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "AddTeam", &r, r.meta.clone())
            .await?;
        let (ack, team_id) = if let Some(a) = self.replayed(&meta, teams::types::TEAM_ADDED).await?
        {
            let e = self
                .platform
                .store
                .read_at(a.first_position)
                .await
                .map_err(from_log)?
                .ok_or_else(|| Status::internal("replayed command has no event"))?;
            let added = TeamAdded::decode(e.payload.as_slice())
                .map_err(|e| Status::internal(e.to_string()))?;
            (a, added.team_id)
        } else {
            let (t, roster) = self.load_latest(&tid).await?;
            let team_id = uuid::Uuid::now_v7().to_string();
            let events = teams::decide_add_team(
                &t.pairing_system,
                &roster.teams,
                &team_id,
                teams::TeamDraft {
                    name: r.name,
                    federation: r.federation,
                    club: r.club,
                    captain: r.captain,
                    captain_principal: r.captain_principal,
                },
            )
            .map_err(field)?;
            (self.append_roster(actor, &meta, &t, events).await?, team_id)
        };
        let roster = self.tournaments.roster(&tid).unwrap_or_default();
        let team = roster.teams.get(&team_id).map(|t| team_message(&roster, t));
        Ok(AddTeamResponse {
            ack: Some(ack),
            team,
        })
    }

    /// `SubmitLineup`: an arbiter for any team, a captain (the rule's `own` role) for its
    /// own team only and before the round's deadline.
    pub(crate) async fn submit_lineup(
        &self,
        request: Request<SubmitLineupRequest>,
    ) -> Result<CommandAck, Status> {
        let tid = request.get_ref().tournament_id.clone();
        let caller =
            self.platform
                .auth
                .authorize(&request, "SubmitLineup", Scope::Tournament(&tid))?;
        let only_as_captain = caller.only_as_own("SubmitLineup", Scope::Tournament(&tid));
        let r = request.into_inner();
        let (meta, _in_flight) = self
            .platform
            .commands
            .begin(&self.platform.store, "SubmitLineup", &r, r.meta.clone())
            .await?;
        if let Some(a) = self.replayed(&meta, teams::types::LINEUP_SUBMITTED).await? {
            return Ok(a);
        }
        let (t, roster) = self.load_latest(&tid).await?;
        let events = teams::decide_lineup(
            &roster,
            total_rounds(&t, &roster),
            &r.team,
            r.round,
            &r.boards,
            Submitter {
                principal_id: &caller.principal_id,
                only_as_captain,
                now_micros: chrono::Utc::now().timestamp_micros(),
            },
        )
        .map_err(|e| match e {
            LineupRefusal::Field(e) => invalid(e.field, e.message),
            LineupRefusal::NotTheCaptain(m) => {
                Status::permission_denied(format!("{m} (caller {})", caller.name))
            }
            LineupRefusal::Late(m) | LineupRefusal::HasResults(m) => Status::failed_precondition(m),
        })?;
        self.append_roster(caller.actor, &meta, &t, events).await
    }
}
