//! `arbiter use [ID] [--clear]`: the default tournament of this data dir and server
//! (ADR cli-001), kept in `<data-dir>/cli-defaults.json`.
use clap::Args;

use crate::client::connect;
use crate::resolve::{self, default_tournament, defaults_file, read_defaults};
use crate::{Cli, Failure, output};

#[derive(Args)]
pub struct UseArgs {
    /// The tournament (id or a unique prefix of it) commands use when theirs is left out.
    /// Without it: show the default.
    #[arg(conflicts_with = "clear")]
    id: Option<String>,
    /// Forget the default tournament (of this data dir and server).
    #[arg(long)]
    clear: bool,
}

/// Writes the defaults file whole (a temporary file renamed over it: never half-written).
fn write_defaults(cli: &Cli, v: &serde_json::Value) -> Result<(), Failure> {
    let path = defaults_file(cli);
    let fail = |e: std::io::Error| Failure {
        code: 1,
        message: format!("{}: {e}", path.display()),
    };
    std::fs::create_dir_all(&cli.data_dir).map_err(fail)?;
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(v).unwrap_or_default();
    std::fs::write(&tmp, text + "\n").map_err(fail)?;
    std::fs::rename(&tmp, &path).map_err(fail)
}

pub async fn run(cli: &Cli, a: &UseArgs) -> Result<(), Failure> {
    if a.clear {
        let mut v = read_defaults(cli)?;
        let had = v["servers"]
            .as_object_mut()
            .and_then(|m| m.remove(&cli.server))
            .is_some();
        if had {
            write_defaults(cli, &v)?;
        }
        if cli.json {
            output::json(&serde_json::json!({"server": cli.server, "tournament_id": null}));
        } else if had {
            println!("default tournament cleared (server {})", cli.server);
        } else {
            println!("no default tournament was set (server {})", cli.server);
        }
        return Ok(());
    }
    let Some(given) = &a.id else {
        let d = default_tournament(cli)?;
        if cli.json {
            output::json(&serde_json::json!({
                "server": cli.server,
                "tournament_id": d.as_ref().map(|x| &x.0),
                "name": d.as_ref().map(|x| &x.1),
            }));
        } else {
            match d {
                Some((id, name)) => println!("default tournament: {id} ({})", output::clean(&name)),
                None => println!("no default tournament: set one with `arbiter use ID`"),
            }
        }
        return Ok(());
    };
    let chan = connect(cli).await?;
    let id = resolve::tournament(cli, &chan, given).await?;
    // The tournament must exist (and be readable by the caller): a full id is checked here.
    let t = arbiter_proto::v1::registry_service_client::RegistryServiceClient::new(chan)
        .get_tournament(arbiter_proto::v1::GetTournamentRequest {
            tournament_id: id.clone(),
        })
        .await?
        .into_inner();
    let mut v = read_defaults(cli)?;
    v["servers"][cli.server.as_str()] = serde_json::json!({"tournament_id": id, "name": t.name});
    write_defaults(cli, &v)?;
    if cli.json {
        output::json(
            &serde_json::json!({"server": cli.server, "tournament_id": id, "name": t.name}),
        );
    } else {
        println!(
            "default tournament: {id} ({}); commands whose tournament is left out use it",
            output::clean(&t.name)
        );
    }
    Ok(())
}
