//! The distributed deployment under faults (issue 45): the registry, pairing and results
//! services on their own PostgreSQL databases, linked by NATS JetStream. Each test injects
//! one fault in the middle of a burst of commands and counts, at the end, that every
//! acknowledged event is in every service that copies it — the same (stream, version,
//! hash) as its owner wrote, none missing, none twice — within a stated time:
//! - a 3-node JetStream cluster (stream with 3 replicas) loses the node the services reach
//!   first (SIGKILL) and gets it back;
//! - NATS entirely down for 30 s: writes go on (the outbox), all delivered after;
//! - PostgreSQL restarted (fast, then immediate shutdown) under 4 concurrent clients: only
//!   `Unavailable` (exit 3) while it is down, and retries with the same command ids write
//!   each command exactly once;
//! - each service killed (SIGKILL) in the middle of its commands and started again;
//! - a consumer that holds an event unacknowledged and a stopped one: the writers' events
//!   all reach the stream, and the stopped one catches up when started again.
//!
//! Each prints what it injected and what it counted. They run one at a time (each is a
//! whole deployment).
use std::path::Path;
use std::time::{Duration, Instant};

use arbiter_testkit::{NatsCluster, NatsServer, PgServer, PgShutdown};
use arbiter_tests::{output_text, run_cli, start_service};

const TOURNAMENTS: usize = 6;
const PLAYERS: usize = 6;
/// How long the copies may take to be complete after the node is back.
const CATCH_UP: Duration = Duration::from_secs(60);

/// Runs until the command succeeds (another service's events may still be on their way).
fn eventually(data: &Path, port: u16, args: &[&str]) -> serde_json::Value {
    arbiter_tests::run_cli_until_ok(data, port, args, Duration::from_secs(60))
}

/// Runs a command with a fixed `--command-id` until it is answered: while a dependency or
/// the service itself is down the answer must be `Unavailable` (exit 3, retryable) and
/// nothing else — any other failure is a wrong answer. Returns the answer and how many
/// times it was `Unavailable`.
fn with_retries(data: &Path, port: u16, args: &[&str], id: &str) -> (serde_json::Value, u32) {
    let mut a = args.to_vec();
    a.extend(["--command-id", id, "--json"]);
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut unavailable = 0;
    loop {
        let o = run_cli(data, port, &a);
        if o.status.success() {
            return (
                serde_json::from_slice(&o.stdout).expect("JSON"),
                unavailable,
            );
        }
        assert_eq!(
            o.status.code(),
            Some(3),
            "a wrong answer, not Unavailable, to {args:?} (command {id}): {}",
            output_text(&o)
        );
        unavailable += 1;
        assert!(
            Instant::now() < deadline,
            "{args:?} (command {id}) still Unavailable after 90 s: {}",
            output_text(&o)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Every event of `owner` in the log at `url`: (stream, version, hash hex), and how many
/// rows there are (a duplicate would make the rows outnumber the set).
fn events_of(rt: &tokio::runtime::Runtime, url: &str, owner: &str) -> (Vec<String>, usize) {
    use sqlx::Connection as _;
    rt.block_on(async {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        let rows: Vec<(String, i64, Vec<u8>)> = sqlx::query_as(
            "SELECT stream, stream_version, hash FROM events WHERE service = $1 \
             ORDER BY stream, stream_version",
        )
        .bind(owner)
        .fetch_all(&mut c)
        .await
        .unwrap();
        c.close().await.unwrap();
        let n = rows.len();
        let mut set: Vec<String> = rows
            .into_iter()
            .map(|(s, v, h)| {
                format!(
                    "{s}#{v}#{}",
                    h.iter().map(|b| format!("{b:02x}")).collect::<String>()
                )
            })
            .collect();
        set.sort();
        set.dedup();
        (set, n)
    })
}

/// Waits (at most [`CATCH_UP`] from `since`) until every service that copies another's
/// events holds each of them once, exactly as written; prints the counts.
fn all_copies_complete(pgs: &[PgServer], since: Instant, what: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let owners = [("registry", 0), ("pairing", 1), ("results", 2)];
    loop {
        let mut missing = Vec::new();
        let mut counted = Vec::new();
        for (owner, at) in owners {
            let (originals, _) = events_of(&rt, pgs[at].url(), owner);
            for (other, there) in owners.iter().filter(|(o, _)| *o != owner) {
                let (copies, rows) = events_of(&rt, pgs[*there].url(), owner);
                assert_eq!(
                    rows,
                    copies.len(),
                    "{owner}'s events twice in {other}'s log"
                );
                assert!(
                    copies.iter().all(|c| originals.binary_search(c).is_ok()),
                    "{other} holds a copy of {owner}'s that {owner} never wrote"
                );
                let lacking = originals
                    .iter()
                    .filter(|e| copies.binary_search(e).is_err())
                    .count();
                if lacking > 0 {
                    missing.push(format!("{other} lacks {lacking} of {owner}'s"));
                }
                counted.push(format!(
                    "{other} holds {} of {owner}'s {}",
                    copies.len(),
                    originals.len()
                ));
            }
        }
        if missing.is_empty() {
            eprintln!(
                "counted: {} — caught up {} ms after {what}; 0 lost, 0 twice",
                counted.join(", "),
                since.elapsed().as_millis()
            );
            return;
        }
        assert!(
            since.elapsed() < CATCH_UP,
            "not caught up within {CATCH_UP:?} after {what}: {}",
            missing.join(", ")
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The fault tests each run a whole deployment (three PostgreSQL servers, NATS, three
/// services) and stop parts of it: one at a time, so that the 2 cores of a CI machine do
/// not turn one test's injected fault into another's timeout.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

const SERVICES: [&str; 3] = ["registry", "pairing", "results"];

/// The three services on their own databases over the NATS servers `urls`, the stream
/// with `replicas` copies.
struct Deployment {
    pgs: Vec<PgServer>,
    data: std::path::PathBuf,
    tokens: std::path::PathBuf,
    urls: String,
    ports: Vec<u16>,
    reg: u16,
    pair: u16,
    res: u16,
    services: Vec<arbiter_tests::Proc>,
    _dir: tempfile::TempDir,
}

impl Deployment {
    /// Kills service `i` (SIGKILL: no goodbye) and starts it again on its port and database.
    fn kill_and_restart(&mut self, i: usize) {
        self.services[i].kill9();
        eprintln!("injected: {} killed (SIGKILL)", SERVICES[i]);
        self.services[i] = start_service(
            SERVICES[i],
            self.pgs[i].url(),
            &self.urls,
            self.ports[i],
            &self.tokens,
        );
        eprintln!("injected: {} started again", SERVICES[i]);
    }
}

fn deploy(urls: &str, replicas: u8, pgs: Vec<PgServer>) -> Deployment {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let tokens = data.join("admin.token");
    // The stream's replicas (3 on a cluster: the deployment's setting). Set for the
    // children only while this test holds `one_at_a_time`.
    unsafe { std::env::set_var("ARBITER_NATS_STREAM_REPLICAS", replicas.to_string()) };
    let ports: Vec<u16> = (0..3).map(|_| arbiter_testkit::free_port()).collect();
    let services = SERVICES
        .iter()
        .enumerate()
        .map(|(i, name)| start_service(name, pgs[i].url(), urls, ports[i], &tokens))
        .collect();
    Deployment {
        pgs,
        data,
        tokens,
        urls: urls.to_owned(),
        reg: ports[0],
        pair: ports[1],
        res: ports[2],
        ports,
        services,
        _dir: dir,
    }
}

fn three_databases() -> Vec<PgServer> {
    (0..3)
        .map(|_| PgServer::start().unwrap_or_else(|e| panic!("PostgreSQL: {e}")))
        .collect()
}

#[test]
fn a_jetstream_node_lost_in_a_burst_loses_nothing_and_copies_nothing_twice() {
    let _one = one_at_a_time();
    let mut cluster = NatsCluster::start(3).unwrap_or_else(|e| panic!("NATS cluster: {e}"));
    let d = deploy(&cluster.urls(), 3, three_databases());
    let (data, reg, pair, res) = (&d.data, d.reg, d.pair, d.res);
    // The burst: tournaments and entries at the registry, then a round paired, published
    // and played at the pairing and results services; node 0 dies half way.
    let mut commands = 0;
    let mut ids = Vec::new();
    let kill_after = TOURNAMENTS / 2;
    for t in 0..TOURNAMENTS {
        if t == kill_after {
            cluster.kill(0);
            eprintln!("injected: NATS node0 killed (SIGKILL) after {commands} commands");
        }
        let name = format!("Fault Open {t}");
        let v = eventually(
            data,
            reg,
            &["tournament", "create", "--name", &name, "--rounds", "5"],
        );
        let id = v["tournament_id"].as_str().unwrap().to_owned();
        commands += 1;
        for p in 0..PLAYERS {
            let name = format!("Player{p}, T{t}");
            let rating = (2200 - 20 * p).to_string();
            eventually(
                data,
                reg,
                &["player", "add", &id, "--name", &name, "--rating", &rating],
            );
            commands += 1;
        }
        ids.push(id);
    }
    for id in &ids {
        // Paired from the pairing service's copies of the entries: re-paired until every
        // entry has arrived.
        let mut r1 = eventually(data, pair, &["round", "pair", id, "1"]);
        while r1["boards"].as_array().unwrap().len() < PLAYERS / 2 {
            std::thread::sleep(Duration::from_millis(200));
            r1 = eventually(data, pair, &["round", "repair", id, "1"]);
        }
        eventually(data, pair, &["round", "publish", id, "1"]);
        commands += 2;
        for board in 1..=PLAYERS / 2 {
            eventually(
                data,
                res,
                &["result", "set", id, "1", &board.to_string(), "1-0"],
            );
            commands += 1;
        }
    }
    cluster
        .start_again(0)
        .and_then(|()| cluster.wait_healthy(0, Duration::from_secs(60)))
        .unwrap_or_else(|e| panic!("node0 again: {e}"));
    eprintln!("injected: NATS node0 started again after {commands} acknowledged commands");
    let back = Instant::now();

    all_copies_complete(&d.pgs, back, "node0 was back");
    // And the round's results reached the registry's record: its TRF export has them.
    for id in &ids {
        let s = eventually(data, res, &["standings", id]);
        assert_eq!(s["rows"].as_array().unwrap().len(), PLAYERS, "{s}");
    }
}

#[test]
fn nats_down_for_30_seconds_writes_go_on_and_everything_is_delivered_after() {
    const DOWN: Duration = Duration::from_secs(30);
    let _one = one_at_a_time();
    let mut cluster = NatsCluster::start(3).unwrap_or_else(|e| panic!("NATS cluster: {e}"));
    let d = deploy(&cluster.urls(), 3, three_databases());
    let (data, reg, res) = (&d.data, d.reg, d.res);
    let t = eventually(
        data,
        reg,
        &[
            "tournament",
            "create",
            "--name",
            "Outage Open",
            "--rounds",
            "5",
        ],
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    for i in 0..3 {
        cluster.kill(i);
    }
    let down = Instant::now();
    eprintln!(
        "injected: every NATS node killed (SIGKILL) for {} s",
        DOWN.as_secs()
    );
    // Writes go on at every service while the bus is gone: each answers at once (the
    // outbox keeps what the relay cannot publish yet).
    let mut written = 0;
    while down.elapsed() < DOWN {
        let name = format!("Late{written}, Entry");
        let o = run_cli(
            data,
            reg,
            &["player", "add", &id, "--name", &name, "--rating", "1800"],
        );
        assert!(
            o.status.success(),
            "a write while NATS is down: {}",
            output_text(&o)
        );
        written += 1;
        std::thread::sleep(Duration::from_millis(500));
    }
    // The results service's own write too: a tournament it does not know yet is refused
    // for what it is, not for the bus.
    let o = run_cli(data, res, &["round", "close", &id, "1"]);
    assert!(!output_text(&o).contains("nats"), "{}", output_text(&o));
    for i in 0..3 {
        cluster
            .start_again(i)
            .unwrap_or_else(|e| panic!("node{i} again: {e}"));
    }
    for i in 0..3 {
        cluster
            .wait_healthy(i, Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("node{i} again: {e}"));
    }
    eprintln!("injected: every NATS node started again after {written} acknowledged writes");
    all_copies_complete(&d.pgs, Instant::now(), "NATS was back");
}

#[test]
fn postgres_restarted_in_a_burst_answers_unavailable_then_writes_each_retried_command_once() {
    const CLIENTS: usize = 4;
    const EACH: usize = 15;
    let _one = one_at_a_time();
    let nats = NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let pg = PgServer::start_restartable().unwrap_or_else(|e| panic!("PostgreSQL: {e}"));
    let mut d = deploy(
        nats.url(),
        1,
        vec![pg, PgServer::start().unwrap(), PgServer::start().unwrap()],
    );
    let (data, reg) = (d.data.clone(), d.reg);
    let done = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (data, done) = (data.clone(), done.clone());
            std::thread::spawn(move || {
                let mut answers = Vec::new();
                let mut unavailable = 0;
                for i in 0..EACH {
                    let name = format!("Burst {c}-{i}");
                    let id = format!("burst-{c}-{i}");
                    let args = ["tournament", "create", "--name", &name, "--rounds", "5"];
                    let (v, u) = with_retries(&data, reg, &args, &id);
                    unavailable += u;
                    answers.push((id, v["tournament_id"].as_str().unwrap().to_owned()));
                    done.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
                (answers, unavailable)
            })
        })
        .collect();
    // Two restarts in the middle of the burst: a fast shutdown, then an immediate one
    // (a crash: no checkpoint).
    for (mode, after) in [(PgShutdown::Fast, 10), (PgShutdown::Immediate, 35)] {
        while done.load(std::sync::atomic::Ordering::SeqCst) < after {
            std::thread::sleep(Duration::from_millis(20));
        }
        d.pgs[0].stop(mode);
        eprintln!("injected: PostgreSQL {mode:?} shutdown after {after} commands");
        std::thread::sleep(Duration::from_secs(3));
        d.pgs[0]
            .start_again()
            .unwrap_or_else(|e| panic!("PostgreSQL again: {e}"));
        eprintln!("injected: PostgreSQL started again");
    }
    let mut unavailable = 0;
    let mut answers = Vec::new();
    for c in clients {
        let (a, u) = c.join().expect("a client");
        answers.extend(a);
        unavailable += u;
    }
    assert!(unavailable > 0, "the outages were not seen by any client");
    // Each command once: every name once in the record, and a retry of every command id
    // replays the same tournament.
    let v = eventually(&data, reg, &["tournament", "list"]);
    let list = v
        .as_array()
        .or_else(|| v["tournaments"].as_array())
        .unwrap();
    let mut names: Vec<&str> = list.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "a command written twice");
    assert_eq!(names.len(), CLIENTS * EACH, "a command lost");
    for (id, tournament) in &answers {
        let (c, i) = id.trim_start_matches("burst-").split_once('-').unwrap();
        let name = format!("Burst {c}-{i}");
        let args = ["tournament", "create", "--name", &name, "--rounds", "5"];
        let (v, _) = with_retries(&data, reg, &args, id);
        assert_eq!(
            v["tournament_id"].as_str(),
            Some(tournament.as_str()),
            "{id}"
        );
    }
    eprintln!(
        "counted: {} commands, {unavailable} Unavailable answers while PostgreSQL was down, each written once",
        CLIENTS * EACH
    );
}

#[test]
fn each_service_killed_in_the_middle_of_commands_comes_back_with_each_acknowledged_command_once() {
    let _one = one_at_a_time();
    let nats = NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let mut d = deploy(nats.url(), 1, three_databases());
    let (data, reg, pair, res) = (d.data.clone(), d.reg, d.pair, d.res);
    let (t, _) = with_retries(
        &data,
        reg,
        &[
            "tournament",
            "create",
            "--name",
            "Crash Open",
            "--rounds",
            "5",
        ],
        "crash-open",
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    // Entries from a client at the registry, which is killed half way.
    const PLAYERS: usize = 40;
    let progress = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let half_way = |n: usize| {
        while progress.load(std::sync::atomic::Ordering::SeqCst) < n {
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let adder = {
        let (data, id, progress) = (data.clone(), id.clone(), progress.clone());
        std::thread::spawn(move || {
            let mut unavailable = 0;
            for p in 0..PLAYERS {
                let name = format!("Player{p:02}, Crash");
                let rating = (2400 - 10 * p).to_string();
                let args = ["player", "add", &id, "--name", &name, "--rating", &rating];
                unavailable += with_retries(&data, reg, &args, &format!("add-{p}")).1;
                progress.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            unavailable
        })
    };
    half_way(PLAYERS / 2);
    d.kill_and_restart(0);
    let unavailable_at_registry = adder.join().expect("the entries client");
    let v = eventually(&data, reg, &["player", "list", &id]);
    assert_eq!(v.as_array().unwrap().len(), PLAYERS, "each entry once: {v}");

    // The pairing service killed right after it paired; the pairing is there once.
    let mut r1 = eventually(&data, pair, &["round", "pair", &id, "1"]);
    while r1["boards"].as_array().unwrap().len() < PLAYERS / 2 {
        std::thread::sleep(Duration::from_millis(200));
        r1 = eventually(&data, pair, &["round", "repair", &id, "1"]);
    }
    d.kill_and_restart(1);
    with_retries(&data, pair, &["round", "publish", &id, "1"], "publish-1");

    // Results from a client at the results service, which is killed half way.
    progress.store(0, std::sync::atomic::Ordering::SeqCst);
    let setter = {
        let (data, id, progress) = (data.clone(), id.clone(), progress.clone());
        std::thread::spawn(move || {
            let mut unavailable = 0;
            for b in 1..=PLAYERS / 2 {
                let board = b.to_string();
                let args = ["result", "set", &id, "1", &board, "1-0"];
                // The round may not have reached the results service yet: Unavailable
                // is retried by `with_retries`, a not-yet-paired round here.
                let deadline = Instant::now() + Duration::from_secs(60);
                loop {
                    let command = format!("result-{b}");
                    let mut a = args.to_vec();
                    a.extend(["--command-id", &command, "--json"]);
                    let o = run_cli(&data, res, &a);
                    if o.status.success() {
                        break;
                    }
                    let text = output_text(&o);
                    if o.status.code() == Some(3) {
                        unavailable += 1;
                    } else {
                        assert!(
                            text.contains("not paired")
                                || text.contains("NotFound")
                                || text.contains("not found"),
                            "a wrong answer to {a:?}: {text}"
                        );
                    }
                    assert!(Instant::now() < deadline, "{a:?}: {text}");
                    std::thread::sleep(Duration::from_millis(100));
                }
                progress.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            unavailable
        })
    };
    half_way(PLAYERS / 4);
    d.kill_and_restart(2);
    let unavailable_at_results = setter.join().expect("the results client");
    assert!(
        unavailable_at_registry > 0 && unavailable_at_results > 0,
        "a service was killed between bursts, not in one"
    );
    all_copies_complete(&d.pgs, Instant::now(), "every service was back");
    let s = eventually(&data, res, &["standings", &id]);
    let rows = s["rows"].as_array().unwrap();
    assert_eq!(rows.len(), PLAYERS, "{s}");
    let points: f64 = rows
        .iter()
        .map(|r| match &r["points"] {
            serde_json::Value::String(p) => p.replace('½', ".5").parse::<f64>().unwrap(),
            p => p.as_f64().unwrap(),
        })
        .sum();
    assert_eq!(points, (PLAYERS / 2) as f64, "each result once: {s}");
    eprintln!(
        "counted: {PLAYERS} entries ({unavailable_at_registry} Unavailable), {} results ({unavailable_at_results} Unavailable), each once",
        PLAYERS / 2
    );
}

#[test]
fn a_stopped_or_slow_consumer_does_not_hold_back_the_writers() {
    use futures::StreamExt as _;
    const WRITES: usize = 60;
    let _one = one_at_a_time();
    let nats = NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let mut d = deploy(nats.url(), 1, three_databases());
    let (data, reg) = (d.data.clone(), d.reg);
    let t = eventually(
        &data,
        reg,
        &[
            "tournament",
            "create",
            "--name",
            "Slow Reader Open",
            "--rounds",
            "5",
        ],
    );
    let id = t["tournament_id"].as_str().unwrap().to_owned();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // A slow consumer: takes one event and never acknowledges it (at most one pending).
    let js = rt.block_on(async {
        let c = async_nats::connect(nats.url()).await.unwrap();
        async_nats::jetstream::new(c)
    });
    let slow = rt.block_on(async {
        let stream = js.get_stream("ARBITER").await.unwrap();
        let consumer: async_nats::jetstream::consumer::PullConsumer = stream
            .create_consumer(async_nats::jetstream::consumer::pull::Config {
                durable_name: Some("slow-reader".into()),
                max_ack_pending: 1,
                ack_policy: async_nats::jetstream::consumer::AckPolicy::Explicit,
                ..Default::default()
            })
            .await
            .unwrap();
        let mut batch = consumer.fetch().max_messages(1).messages().await.unwrap();
        let _held = batch.next().await.unwrap().unwrap();
        consumer
    });
    // A stopped consumer: the results service, which copies the registry's events.
    d.services[2].kill9();
    eprintln!("injected: a consumer holding one event unacknowledged; results killed");
    let last_seq = |js: &async_nats::jetstream::Context| {
        rt.block_on(async {
            let mut s = js.get_stream("ARBITER").await.unwrap();
            s.info().await.unwrap().state.last_sequence
        })
    };
    let before = last_seq(&js);
    let mut latencies = Vec::new();
    for p in 0..WRITES {
        let name = format!("Reader{p:02}, Slow");
        let start = Instant::now();
        let o = run_cli(&data, reg, &["player", "add", &id, "--name", &name]);
        latencies.push(start.elapsed());
        assert!(o.status.success(), "{}", output_text(&o));
    }
    // Every write reached the stream while the consumers lag: the writers publish to
    // JetStream, which keeps what the readers have not taken.
    let deadline = Instant::now() + Duration::from_secs(30);
    while last_seq(&js) < before + WRITES as u64 {
        assert!(
            Instant::now() < deadline,
            "the registry's events did not reach the stream: {} of {WRITES}",
            last_seq(&js) - before
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let mut slow = slow;
    let info = rt.block_on(async { slow.info().await.unwrap().clone() });
    assert_eq!(info.num_ack_pending, 1, "the slow consumer holds one");
    assert!(info.num_pending >= WRITES as u64, "{info:?}");
    latencies.sort();
    eprintln!(
        "measured: {WRITES} writes while a consumer lags, CLI round trip p50 {} ms, max {} ms; slow consumer {} pending",
        latencies[WRITES / 2].as_millis(),
        latencies[WRITES - 1].as_millis(),
        info.num_pending
    );
    // The stopped consumer catches up once started again.
    d.services[2] = start_service("results", d.pgs[2].url(), &d.urls, d.ports[2], &d.tokens);
    all_copies_complete(&d.pgs, Instant::now(), "results was started again");
}

/// An append larger than NATS's default limit of unacknowledged deliveries (1,000): the
/// import of a 1,500-player history is one append of more than 1,500 events, which a
/// mirror acknowledges only once its seal has arrived. It reaches the pairing service
/// and the round is paired there.
#[test]
fn an_import_of_more_than_a_thousand_events_is_copied_and_paired_at_the_pairing_service() {
    const PLAYERS: usize = 1_500;
    let _one = one_at_a_time();
    let nats = NatsServer::start().unwrap_or_else(|e| panic!("nats: {e}"));
    let d = deploy(nats.url(), 1, three_databases());
    let tool = arbiter_testkit::workspace_root().join("../shared/tools/gen_swiss_history.py");
    let file = d.data.join("large.trf");
    let made = std::process::Command::new("python3")
        .arg(&tool)
        .args([&PLAYERS.to_string(), "1", "9", "5"])
        .stdout(std::fs::File::create(&file).unwrap())
        .status()
        .unwrap_or_else(|e| panic!("{}: {e}", tool.display()));
    assert!(made.success(), "{}", tool.display());
    let v = eventually(
        &d.data,
        d.reg,
        &["tournament", "import", file.to_str().unwrap()],
    );
    let id = v["tournament_id"].as_str().unwrap().to_owned();
    let start = Instant::now();
    let r2 = eventually(&d.data, d.pair, &["round", "pair", &id, "2"]);
    assert_eq!(r2["boards"].as_array().unwrap().len(), PLAYERS / 2, "{r2}");
    eprintln!(
        "counted: {PLAYERS} players imported at the registry, paired at the pairing service {} ms later",
        start.elapsed().as_millis()
    );
}
