#!/usr/bin/env bash
# The distributed deployment, on this machine's loopback: one PostgreSQL with a database
# per service, a 3-node NATS JetStream cluster (stream ARBITER with 3 replicas), and the
# five services as separate processes. Ctrl-C stops everything. State lives in
# deploy/.run (delete it to start over).
#
#   make distributed            # builds release binaries, then runs this script
#   ./target/release/arbiter --server http://127.0.0.1:50061 tournament list
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run="$root/deploy/.run"
bin="$root/target/release"
mkdir -p "$run"
nats="$(command -v nats-server || true)"
[ -x "$root/.tools/bin/nats-server" ] && nats="$root/.tools/bin/nats-server"
[ -n "$nats" ] || { echo "no nats-server: run make test-deps" >&2; exit 1; }
pgbin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# PostgreSQL on 127.0.0.1:55432, one database per service.
if [ ! -d "$run/pg" ]; then
  mkdir -p "$run/pg"; [ "$(id -u)" -eq 0 ] && chown postgres:postgres "$run/pg"
  as_pg "$pgbin/initdb" -D "$run/pg" -U postgres --auth=trust -E UTF8 --no-locale >/dev/null
fi
as_pg "$pgbin/postgres" -D "$run/pg" -c listen_addresses=127.0.0.1 -c port=55432 \
  -c unix_socket_directories="$run/pg" >"$run/pg.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do psql -h 127.0.0.1 -p 55432 -U postgres -qc 'select 1' >/dev/null 2>&1 && break; sleep 0.2; done
for db in registry pairing results rating clock; do
  psql -h 127.0.0.1 -p 55432 -U postgres -qtc "select 1 from pg_database where datname='arbiter_$db'" | grep -q 1 \
    || psql -h 127.0.0.1 -p 55432 -U postgres -qc "create database arbiter_$db"
done

# NATS: 3 clustered JetStream nodes, clients on 4222/4223/4224.
for i in 1 2 3; do
  mkdir -p "$run/nats$i"
  "$nats" -n "node$i" -a 127.0.0.1 -p $((4221 + i)) -js -sd "$run/nats$i" \
    --cluster_name arbiter --cluster "nats://127.0.0.1:$((6221 + i))" \
    --routes "nats://127.0.0.1:6222,nats://127.0.0.1:6223,nats://127.0.0.1:6224" \
    >"$run/nats$i.log" 2>&1 &
  pids+=($!)
done
sleep 2
export ARBITER_NATS_STREAM_REPLICAS=3
export ARBITER_TOKEN_FILE="$run/tokens"
# One key directory on this machine: each service makes its signing key there and trusts
# the others' public keys (*.pub). Across machines: a key dir each, and --trusted-keys.
export ARBITER_KEY_DIR="$run/keys"
port=50061
for svc in registry pairing results rating clock-telemetry; do
  db="arbiter_${svc%%-*}"
  "$bin/arbiter-$svc" --database-url "postgres://postgres@127.0.0.1:55432/$db" \
    --nats-url "nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224" \
    --listen "127.0.0.1:$port" >"$run/$svc.log" 2>&1 &
  pids+=($!)
  echo "$svc: grpc http://127.0.0.1:$port (log $run/$svc.log)"
  port=$((port + 1))
  sleep 1
done
echo "token file: $ARBITER_TOKEN_FILE (export ARBITER_TOKEN=\$(awk '/^admin/{print \$2}' $ARBITER_TOKEN_FILE))"
echo "Ctrl-C to stop"
wait
