//! The one table of who may call what: every RPC of every service, the roles that may
//! call it, whether it is scoped to a tournament, and whether it may be read without a
//! token. Enforcement ([`super::Access::authorize`]), the table in ARCHITECTURE.md
//! ([`render_markdown`]) and the table-driven test (`tests/tests/access.rs`) all read
//! [`RULES`], so they cannot drift.

/// A role. Per-tournament roles may be granted on one tournament or on all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Access management and everything else.
    Admin,
    /// Registry, pairing and results of a tournament, corrections; grants its helpers.
    ChiefArbiter,
    /// Registry, pairing and results of a tournament, corrections.
    DeputyArbiter,
    /// Records results and byes (and confirms clock reports) of a tournament; no
    /// corrections, no pairing, no personal data.
    ResultsEntry,
    /// The rating service.
    RatingOfficer,
    /// A federation system: create, import and export tournaments, read across them.
    Integrator,
    /// A board clock: telemetry of a tournament's boards only.
    ClockDevice,
    /// Reads, with personal data.
    Viewer,
    /// A team's captain: submits the line-ups of the team whose `captain_principal` it
    /// is, and only those (the rules' `own` roles; ADR registry-008).
    TeamCaptain,
}

use Role::*;

impl Role {
    /// Every role, in the order of the table.
    pub const ALL: [Role; 9] = [
        Admin,
        ChiefArbiter,
        DeputyArbiter,
        ResultsEntry,
        RatingOfficer,
        Integrator,
        ClockDevice,
        Viewer,
        TeamCaptain,
    ];

    /// The role's name (`chief-arbiter`).
    pub fn name(self) -> &'static str {
        match self {
            Admin => "admin",
            ChiefArbiter => "chief-arbiter",
            DeputyArbiter => "deputy-arbiter",
            ResultsEntry => "results-entry",
            RatingOfficer => "rating-officer",
            Integrator => "integrator",
            ClockDevice => "clock-device",
            Viewer => "viewer",
            TeamCaptain => "team-captain",
        }
    }

    /// The role named `name`.
    pub fn parse(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.name() == name.trim())
    }

    /// Whether the role may be granted on one tournament (else only on all).
    pub fn per_tournament(self) -> bool {
        !matches!(self, Admin | RatingOfficer | Integrator)
    }
}

/// What a request is about, as far as permissions go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    /// One tournament (the request's `tournament_id`): a grant on it or on all counts.
    Tournament,
    /// Not one tournament: any grant of an allowed role counts.
    Global,
    /// One tournament when the request names one, else global (`VerifyLog`, grants).
    TournamentOrGlobal,
    /// Each message of the stream names its tournament (`BoardTelemetry`).
    PerMessage,
}

/// Who may call without a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anonymous {
    /// Nobody: a token is needed.
    No,
    /// Anybody, when the tournament is public.
    IfPublic,
    /// Anybody (service information: no tournament data).
    Always,
}

/// One RPC's rule.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The service (`registry`, …; `*`: every service).
    pub service: &'static str,
    /// The RPC name as in the proto.
    pub rpc: &'static str,
    /// A write: appends events (refused when the log failed its check).
    pub write: bool,
    /// Its scope.
    pub scope: ScopeKind,
    /// The roles that may call it. Empty with `any_principal`: every principal.
    pub roles: &'static [Role],
    /// Any authenticated principal may call it, whatever its roles.
    pub any_principal: bool,
    /// Who may call it without a token.
    pub anonymous: Anonymous,
    /// Its answer carries personal data (birth date, national id, sex, club, e-mail).
    pub personal: bool,
    /// Roles that may call it for their own subject only (a captain for the team it
    /// captains, an integrator for the webhooks it registered): the handler is told ([`super::Caller::only_as_own`]) and the command's
    /// pure guard checks the subject. Empty for every other RPC.
    pub own: &'static [Role],
}

const ARB: &[Role] = &[Admin, ChiefArbiter, DeputyArbiter];
const ENTRY: &[Role] = &[Admin, ChiefArbiter, DeputyArbiter, ResultsEntry];
const READ: &[Role] = &[
    Admin,
    ChiefArbiter,
    DeputyArbiter,
    ResultsEntry,
    Integrator,
    Viewer,
];
const PERSONAL: &[Role] = &[Admin, ChiefArbiter, DeputyArbiter, Integrator, Viewer];
const CREATE: &[Role] = &[Admin, Integrator];
const RATING_W: &[Role] = &[Admin, RatingOfficer];
const RATING_R: &[Role] = &[Admin, RatingOfficer, Integrator, Viewer];
const CLOCK_W: &[Role] = &[Admin, ChiefArbiter, DeputyArbiter, ClockDevice];
const CLOCK_R: &[Role] = &[
    Admin,
    ChiefArbiter,
    DeputyArbiter,
    ResultsEntry,
    Integrator,
    ClockDevice,
    Viewer,
];
const MANAGE: &[Role] = &[Admin, ChiefArbiter];
/// Webhooks (ADR http-002): the systems that receive them, and the admin.
const HOOKS: &[Role] = &[Admin, Integrator];
/// Every webhook: the admin (an integrator its own only, the `own` column; ADR http-003).
const HOOKS_ALL: &[Role] = &[Admin];
/// An integrator sees and changes the webhooks it registered, and no other.
const HOOKS_OWN: &[Role] = &[Integrator];

const fn rule(
    service: &'static str,
    rpc: &'static str,
    write: bool,
    scope: ScopeKind,
    roles: &'static [Role],
) -> Rule {
    Rule {
        service,
        rpc,
        write,
        scope,
        roles,
        any_principal: false,
        anonymous: Anonymous::No,
        personal: false,
        own: &[],
    }
}

const fn w(service: &'static str, rpc: &'static str, roles: &'static [Role]) -> Rule {
    rule(service, rpc, true, ScopeKind::Tournament, roles)
}

const fn r(service: &'static str, rpc: &'static str, roles: &'static [Role]) -> Rule {
    rule(service, rpc, false, ScopeKind::Tournament, roles)
}

const fn global(mut r: Rule) -> Rule {
    r.scope = ScopeKind::Global;
    r
}

const fn personal(mut r: Rule) -> Rule {
    r.personal = true;
    r
}

const fn public(mut r: Rule) -> Rule {
    r.anonymous = Anonymous::IfPublic;
    r
}

/// `roles` may also call it, for their own subject only.
const fn own(mut r: Rule, roles: &'static [Role]) -> Rule {
    r.own = roles;
    r
}

const fn either(mut r: Rule) -> Rule {
    r.scope = ScopeKind::TournamentOrGlobal;
    r
}

use ScopeKind::PerMessage;

/// Every RPC of every service (checked against the proto descriptors by a test).
pub const RULES: &[Rule] = &[
    Rule {
        service: "*",
        rpc: "GetServiceInfo",
        write: false,
        scope: ScopeKind::Global,
        roles: &[],
        any_principal: true,
        anonymous: Anonymous::Always,
        personal: false,
        own: &[],
    },
    // registry
    global(w("registry", "CreateTournament", CREATE)),
    w("registry", "UpdateTournament", ARB),
    public(r("registry", "GetTournament", CLOCK_R)),
    Rule {
        any_principal: true,
        ..global(r("registry", "ListTournaments", &[]))
    },
    w("registry", "AddPlayer", ARB),
    w("registry", "CorrectPlayer", ARB),
    w("registry", "WithdrawPlayer", ARB),
    w("registry", "RequestBye", ARB),
    w("registry", "ProhibitPairing", ARB),
    personal(r("registry", "ListPlayers", PERSONAL)),
    w("registry", "SetEntryRules", ARB),
    w("registry", "SetTournamentSettings", ARB),
    global(w("registry", "ImportTrf", CREATE)),
    personal(r(
        "registry",
        "ExportTrf",
        &[
            Admin,
            ChiefArbiter,
            DeputyArbiter,
            RatingOfficer,
            Integrator,
            Viewer,
        ],
    )),
    global(w(
        "registry",
        "ImportRatingList",
        &[Admin, RatingOfficer, Integrator],
    )),
    // teams (ADR registry-008): a captain submits its own team's line-ups only
    w("registry", "SetTeamRules", ARB),
    w("registry", "AddTeam", ARB),
    w("registry", "SetTeamRoster", ARB),
    own(w("registry", "SubmitLineup", ARB), &[TeamCaptain]),
    w("registry", "WithdrawTeam", ARB),
    public(r(
        "registry",
        "ListTeams",
        &[
            Admin,
            ChiefArbiter,
            DeputyArbiter,
            ResultsEntry,
            Integrator,
            Viewer,
            TeamCaptain,
        ],
    )),
    personal(global(r(
        "registry",
        "LookupPlayers",
        &[
            Admin,
            ChiefArbiter,
            DeputyArbiter,
            RatingOfficer,
            Integrator,
            Viewer,
        ],
    ))),
    // pairing
    w("pairing", "PairRound", ARB),
    w("pairing", "RepairRound", ARB),
    w("pairing", "SetPairings", ARB),
    w("pairing", "PublishPairings", ARB),
    w("pairing", "DiscardPairing", ARB),
    w("pairing", "UnpublishPairings", ARB),
    public(r("pairing", "GetPairings", CLOCK_R)),
    r("pairing", "ExplainPairing", READ),
    // results
    w("results", "RecordResult", ENTRY),
    w("results", "CorrectResult", ARB),
    w("results", "RecordBye", ENTRY),
    w("results", "CloseRound", ARB),
    public(r("results", "GetRoundResults", READ)),
    public(r("results", "GetStandings", READ)),
    r("results", "GetCorrectionImpact", READ),
    personal(r("results", "GetHistory", PERSONAL)),
    either(r("results", "VerifyLog", PERSONAL)),
    personal(r("results", "ExportAudit", PERSONAL)),
    // rating
    global(w("rating", "ImportStartingList", RATING_W)),
    global(w("rating", "SubmitExternalTournament", RATING_W)),
    w(
        "rating",
        "SubmitTournament",
        &[Admin, ChiefArbiter, RatingOfficer],
    ),
    global(w("rating", "RunPeriod", RATING_W)),
    global(w("rating", "PublishPeriod", RATING_W)),
    global(r("rating", "GetPeriod", RATING_R)),
    personal(global(r("rating", "ExportList", RATING_R))),
    personal(global(r("rating", "GetPlayerReport", RATING_R))),
    global(r("rating", "GetTournamentReport", RATING_R)),
    // clock-telemetry
    w("clock", "OpenBoard", ARB),
    rule("clock", "BoardTelemetry", true, PerMessage, CLOCK_W),
    // a public tournament's boards are public: its live pages and round PGN (ADR http-009)
    public(r("clock", "GetClockState", CLOCK_R)),
    public(r("clock", "WatchBoard", CLOCK_R)),
    w("clock", "AdjournGame", ARB),
    w("clock", "ResumeGame", ARB),
    // the sealed move (Guidelines I.7): the arbiters only
    r("clock", "GetSealedMove", ARB),
    // access
    global(w("access", "AddPrincipal", MANAGE)),
    personal(global(r("access", "ListPrincipals", MANAGE))),
    either(w("access", "GrantRole", MANAGE)),
    either(w("access", "RevokeRole", MANAGE)),
    global(w("access", "IssueToken", MANAGE)),
    global(r("access", "ListTokens", MANAGE)),
    global(w("access", "RevokeToken", MANAGE)),
    w("access", "SetTournamentVisibility", MANAGE),
    Rule {
        any_principal: true,
        ..global(r("access", "WhoAmI", &[]))
    },
    // webhooks (ADR http-002): an integrator registers, then sees and changes its own
    // webhooks only (ADR http-003)
    global(w("webhooks", "AddWebhook", HOOKS)),
    own(global(r("webhooks", "ListWebhooks", HOOKS_ALL)), HOOKS_OWN),
    own(global(r("webhooks", "GetWebhook", HOOKS_ALL)), HOOKS_OWN),
    own(global(w("webhooks", "RemoveWebhook", HOOKS_ALL)), HOOKS_OWN),
    own(
        global(r("webhooks", "ListDeliveries", HOOKS_ALL)),
        HOOKS_OWN,
    ),
    own(global(w("webhooks", "Redeliver", HOOKS_ALL)), HOOKS_OWN),
    own(global(r("webhooks", "GetDelivery", HOOKS_ALL)), HOOKS_OWN),
];

/// The rule of `rpc`.
pub fn rule_of(rpc: &str) -> Option<&'static Rule> {
    RULES.iter().find(|r| r.rpc == rpc)
}

impl Rule {
    /// Whether `role` may call it (for every subject, or for its own with [`Rule::own`]).
    pub fn allows(&self, role: Role) -> bool {
        self.any_principal || self.roles.contains(&role) || self.own.contains(&role)
    }
}

/// The table of [`RULES`] as Markdown (included in ARCHITECTURE.md, checked by a test).
pub fn render_markdown() -> String {
    let mut s = String::from("| service | RPC | kind | scope | without a token |");
    for role in Role::ALL {
        s.push_str(&format!(" {} |", role.name()));
    }
    s.push_str("\n|---|---|---|---|---|");
    for _ in Role::ALL {
        s.push_str("---|");
    }
    s.push('\n');
    for r in RULES {
        let kind = match (r.write, r.personal) {
            (true, _) => "write",
            (false, true) => "read, personal data",
            (false, false) => "read",
        };
        let scope = match r.scope {
            ScopeKind::Tournament => "tournament",
            ScopeKind::Global => "global",
            ScopeKind::TournamentOrGlobal => "tournament or global",
            ScopeKind::PerMessage => "tournament (each message)",
        };
        let anonymous = match r.anonymous {
            Anonymous::No => "—",
            Anonymous::IfPublic => "if public",
            Anonymous::Always => "yes",
        };
        s.push_str(&format!(
            "| {} | {} | {kind} | {scope} | {anonymous} |",
            r.service, r.rpc
        ));
        for role in Role::ALL {
            s.push_str(if r.own.contains(&role) {
                " own |"
            } else if r.allows(role) {
                " ✓ |"
            } else {
                " |"
            });
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rpc_of_the_protos_has_exactly_one_rule() {
        use prost::Message;
        let set =
            prost_types::FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET).unwrap();
        let mut rpcs = std::collections::BTreeSet::new();
        for f in &set.file {
            for s in &f.service {
                for m in &s.method {
                    rpcs.insert(m.name().to_owned());
                }
            }
        }
        let ruled: std::collections::BTreeSet<String> =
            RULES.iter().map(|r| r.rpc.to_owned()).collect();
        assert_eq!(ruled.len(), RULES.len(), "an RPC has two rules");
        assert_eq!(rpcs, ruled, "the proto's RPCs and the rules differ");
    }

    #[test]
    fn personal_data_never_reaches_results_entry_clocks_or_anonymous_callers() {
        for r in RULES.iter().filter(|r| r.personal) {
            assert_eq!(r.anonymous, Anonymous::No, "{}", r.rpc);
            assert!(
                !r.allows(ResultsEntry) && !r.allows(ClockDevice),
                "{}",
                r.rpc
            );
        }
        for r in RULES.iter().filter(|r| r.anonymous != Anonymous::No) {
            assert!(!r.write, "{}", r.rpc);
        }
    }

    #[test]
    fn results_entry_cannot_correct_or_pair() {
        for rpc in ["CorrectResult", "PairRound", "SetPairings", "CloseRound"] {
            assert!(!rule_of(rpc).unwrap().allows(ResultsEntry), "{rpc}");
        }
        assert!(rule_of("RecordResult").unwrap().allows(ResultsEntry));
    }

    #[test]
    fn an_integrator_reaches_only_its_own_webhooks_and_the_admin_every_one() {
        use crate::access::{Caller, Scope};
        let caller = |grants: Vec<Role>| Caller {
            actor: "x (p_x; token t_x)".into(),
            principal_id: "p_x".into(),
            name: "x".into(),
            token_id: "t_x".into(),
            grants: grants.into_iter().map(|r| (r, None)).collect(),
        };
        let integrator = caller(vec![Integrator]);
        let admin = caller(vec![Admin]);
        let both = caller(vec![Integrator, Admin]);
        for rpc in [
            "ListWebhooks",
            "GetWebhook",
            "RemoveWebhook",
            "ListDeliveries",
            "Redeliver",
            "GetDelivery",
        ] {
            let r = rule_of(rpc).unwrap();
            assert!(
                r.allows(Integrator) && r.allows(Admin) && !r.allows(Viewer),
                "{rpc}"
            );
            assert!(integrator.only_as_own(rpc, Scope::Global), "{rpc}");
            assert!(!admin.only_as_own(rpc, Scope::Global), "{rpc}");
            assert!(!both.only_as_own(rpc, Scope::Global), "{rpc}");
        }
        // Registering makes the caller the owner: no subject to check yet.
        assert!(!integrator.only_as_own("AddWebhook", Scope::Global));
        assert!(rule_of("AddWebhook").unwrap().allows(Integrator));
    }

    /// ARCHITECTURE.md holds [`render_markdown`] between its access-table markers;
    /// `ARBITER_WRITE_DOCS=1 cargo test -p arbiter-service-kit architecture_md` rewrites it.
    #[test]
    fn architecture_md_has_the_rendered_table() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ARCHITECTURE.md");
        let doc = std::fs::read_to_string(path).unwrap();
        let (start, end) = ("<!-- access-table:start -->\n", "<!-- access-table:end -->");
        let a = doc
            .find(start)
            .expect("ARCHITECTURE.md has no access-table markers")
            + start.len();
        let b = doc[a..].find(end).expect("no end marker") + a;
        let table = render_markdown();
        if std::env::var_os("ARBITER_WRITE_DOCS").is_some() {
            std::fs::write(path, format!("{}{table}{}", &doc[..a], &doc[b..])).unwrap();
            return;
        }
        assert!(
            doc[a..b] == table,
            "ARCHITECTURE.md's access table differs from access::roles::RULES: run ARBITER_WRITE_DOCS=1 cargo test -p arbiter-service-kit architecture_md"
        );
    }
}
