#!/usr/bin/env bash
# The distributed deployment, on this machine's loopback: one PostgreSQL with a database
# per service, a 3-node NATS JetStream cluster (stream ARBITER with 3 replicas), and the
# five services as separate processes. Ctrl-C stops everything. State lives in
# deploy/.run (delete it to start over).
#
# Every gRPC port serves TLS and requires a client certificate (mTLS); NATS serves TLS to
# its clients and each service logs in as its own user (ADR platform-009). The CA, the
# certificates and the NATS passwords are made on first run (openssl) in deploy/.run/pki.
#
#   make distributed            # builds release binaries, then runs this script
#   . deploy/.run/cli.env       # ARBITER_CA_CERT, ARBITER_CLIENT_CERT/KEY, ARBITER_TOKEN
#   ./target/release/arbiter --server https://127.0.0.1:50061 tournament list
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
run="$root/deploy/.run"
bin="${ARBITER_BIN_DIR:-$root/target/release}"
mkdir -p "$run"
nats="$(command -v nats-server || true)"
[ -x "$root/.tools/bin/nats-server" ] && nats="$root/.tools/bin/nats-server"
[ -n "$nats" ] || { echo "no nats-server: run make test-deps" >&2; exit 1; }
pgbin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# Certificates: a CA, one server certificate for 127.0.0.1/localhost (every gRPC port and
# the NATS nodes), one client certificate (the CLI). NATS passwords: one per service.
pki="$run/pki"
services="registry pairing results rating clock-telemetry"
if [ ! -f "$pki/ca.pem" ]; then
  mkdir -p "$pki"; chmod 700 "$pki"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 \
    -subj "/CN=Arbiter local CA" -keyout "$pki/ca.key" -out "$pki/ca.pem" 2>/dev/null
  leaf() { # name, extensions
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$1" \
      -keyout "$pki/$1.key" -out "$pki/$1.csr" 2>/dev/null
    printf '%s\n' "$2" >"$pki/$1.ext"
    openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial \
      -days 825 -extfile "$pki/$1.ext" -out "$pki/$1.pem" 2>/dev/null
  }
  leaf server "subjectAltName=IP:127.0.0.1,DNS:localhost
extendedKeyUsage=serverAuth"
  leaf client "extendedKeyUsage=clientAuth"
  for svc in $services; do openssl rand -hex 24 >"$pki/nats-$svc.password"; done
  chmod 600 "$pki"/*
fi

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

# NATS: 3 clustered JetStream nodes, clients on 4222/4223/4224 over TLS, a user per service.
users=""
for svc in $services; do
  users="$users    { user: \"$svc\", password: \"$(cat "$pki/nats-$svc.password")\" }
"
done
for i in 1 2 3; do
  mkdir -p "$run/nats$i"
  cat >"$run/nats$i.conf" <<CONF
server_name: node$i
host: 127.0.0.1
port: $((4221 + i))
jetstream { store_dir: "$run/nats$i" }
tls { cert_file: "$pki/server.pem", key_file: "$pki/server.key", timeout: 5 }
authorization {
  users = [
$users  ]
}
cluster {
  name: arbiter
  listen: 127.0.0.1:$((6221 + i))
  routes: [nats://127.0.0.1:6222, nats://127.0.0.1:6223, nats://127.0.0.1:6224]
}
CONF
  chmod 600 "$run/nats$i.conf"
  "$nats" -c "$run/nats$i.conf" >"$run/nats$i.log" 2>&1 &
  pids+=($!)
done
sleep 2
export ARBITER_NATS_STREAM_REPLICAS=3
export ARBITER_TOKEN_FILE="$run/tokens"
# One key directory on this machine: each service makes its signing key there and trusts
# the others' public keys (*.pub). Across machines: a key dir each, and --trusted-keys.
export ARBITER_KEY_DIR="$run/keys"
port=50061
for svc in $services; do
  db="arbiter_${svc%%-*}"
  ARBITER_NATS_PASSWORD="$(cat "$pki/nats-$svc.password")" \
  "$bin/arbiter-$svc" --database-url "postgres://postgres@127.0.0.1:55432/$db" \
    --nats-url "tls://127.0.0.1:4222,tls://127.0.0.1:4223,tls://127.0.0.1:4224" \
    --nats-ca "$pki/ca.pem" --nats-user "$svc" \
    --tls-cert "$pki/server.pem" --tls-key "$pki/server.key" --client-ca "$pki/ca.pem" \
    --listen "127.0.0.1:$port" >"$run/$svc.log" 2>&1 &
  pids+=($!)
  echo "$svc: grpc https://127.0.0.1:$port, client certificate required (log $run/$svc.log)"
  port=$((port + 1))
  sleep 1
done
for _ in $(seq 50); do [ -s "$ARBITER_TOKEN_FILE" ] && break; sleep 0.2; done
cat >"$run/cli.env" <<ENV
export ARBITER_CA_CERT="$pki/ca.pem" ARBITER_CLIENT_CERT="$pki/client.pem" ARBITER_CLIENT_KEY="$pki/client.key"
export ARBITER_TOKEN="\$(awk '/^admin/{print \$2}' "$ARBITER_TOKEN_FILE")"
ENV
echo "CLI: . $run/cli.env; $bin/arbiter --server https://127.0.0.1:50061 tournament list"
echo "Ctrl-C to stop"
wait
