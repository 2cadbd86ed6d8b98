#!/usr/bin/env bash
# The distributed deployment in containers (deploy/compose.yml), from the images of
# `make images`. State — the CA and certificates, the passwords, the NATS configurations,
# the signing keys, the token file, NATS's store — lives in $ARBITER_COMPOSE_STATE
# (default deploy/.compose), made on first `up` with openssl; PostgreSQL's data is the
# volume `<project>_pgdata`.
#
#   deploy/compose.sh up               # make the state if missing, start, wait until healthy
#   . deploy/.compose/cli.env          # the CLI's CA, client certificate, admin token, servers
#   arbiter --server "$ARBITER_REGISTRY" tournament list
#   deploy/compose.sh ps | logs [SERVICE] | down [--volumes]
#   deploy/compose.sh clean            # down --volumes and delete the state directory
#
# ARBITER_IMAGE_TAG (latest; `debug` for the images `make test` builds),
# ARBITER_PORT_OFFSET (0: added to every port), ARBITER_COMPOSE_PROJECT (arbiter),
# ARBITER_HOSTNAMES (more names/addresses for the server certificate, comma-separated).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="${ARBITER_COMPOSE_STATE:-$root/deploy/.compose}"
project="${ARBITER_COMPOSE_PROJECT:-arbiter}"
tag="${ARBITER_IMAGE_TAG:-latest}"
offset="${ARBITER_PORT_OFFSET:-0}"
services="registry pairing results rating clock-telemetry"

die() { echo "compose: $*" >&2; exit 1; }
say() { echo "compose: $*" >&2; }

if ! command -v docker-compose >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || die "docker-compose is missing: apt-get install docker-compose (as root)"
  say "installing docker-compose (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker-compose >/dev/null
fi
docker info >/dev/null 2>&1 \
  || die "no Docker engine reachable (DOCKER_HOST=${DOCKER_HOST:-unset}): eval \"\$(tests/docker.sh start)\" or set DOCKER_HOST"

dc() { docker-compose -p "$project" -f "$root/deploy/compose.yml" --env-file "$state/env" "$@"; }

make_state() {
  mkdir -p "$state"
  chmod 700 "$state"
  local pki="$state/pki"
  if [ ! -f "$pki/ca.pem" ]; then
    command -v openssl >/dev/null 2>&1 || die "openssl is missing: apt-get install openssl"
    mkdir -p "$pki"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 825 \
      -subj "/CN=Arbiter compose CA" -keyout "$pki/ca.key" -out "$pki/ca.pem" 2>/dev/null
    leaf() { # name, extensions
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$1" \
        -keyout "$pki/$1.key" -out "$pki/$1.csr" 2>/dev/null
      printf '%s\n' "$2" >"$pki/$1.ext"
      openssl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.pem" -CAkey "$pki/ca.key" -CAcreateserial \
        -days 825 -extfile "$pki/$1.ext" -out "$pki/$1.pem" 2>/dev/null
      rm -f "$pki/$1.csr" "$pki/$1.ext"
    }
    local sans="IP:127.0.0.1,DNS:localhost" h
    hosts="${ARBITER_HOSTNAMES:-}"
    for h in ${hosts//,/ }; do
      if [[ "$h" =~ ^[0-9.]+$|: ]]; then sans="$sans,IP:$h"; else sans="$sans,DNS:$h"; fi
    done
    leaf server "subjectAltName=$sans
extendedKeyUsage=serverAuth"
    leaf client "extendedKeyUsage=clientAuth"
    # The CA's key is not needed by any container: kept beside, not mounted.
    mkdir -p "$state/ca-private"
    mv "$pki/ca.key" "$pki/ca.srl" "$state/ca-private/" 2>/dev/null || true
  fi
  mkdir -p "$state/secrets"
  [ -s "$state/secrets/postgres.password" ] || openssl rand -hex 24 >"$state/secrets/postgres.password"
  local svc
  for svc in $services; do
    [ -s "$state/secrets/nats-$svc.password" ] || openssl rand -hex 24 >"$state/secrets/nats-$svc.password"
  done
  mkdir -p "$state/nats" "$state/shared" "$state/data/nats1" "$state/data/nats2" "$state/data/nats3"

  local users="" i
  for svc in $services; do
    users="$users    { user: \"$svc\", password: \"$(cat "$state/secrets/nats-$svc.password")\" }
"
  done
  for i in 1 2 3; do
    cat >"$state/nats/node$i.conf" <<CONF
server_name: node$i
host: 127.0.0.1
port: $((offset + 4221 + i))
http: 127.0.0.1:$((offset + 8221 + i))
jetstream { store_dir: "/var/lib/nats/js" }
tls { cert_file: "/etc/arbiter/pki/server.pem", key_file: "/etc/arbiter/pki/server.key", timeout: 5 }
authorization {
  users = [
$users  ]
}
cluster {
  name: arbiter
  listen: 127.0.0.1:$((offset + 6221 + i))
  routes: [nats://127.0.0.1:$((offset + 6222)), nats://127.0.0.1:$((offset + 6223)), nats://127.0.0.1:$((offset + 6224))]
}
CONF
  done

  # The containers run as ARBITER_UID: 10001 (the images' user) when this runs as root,
  # else the caller (so the files stay theirs).
  local uid gid
  if [ "$(id -u)" -eq 0 ]; then uid=10001; gid=10001; else uid="$(id -u)"; gid="$(id -g)"; fi
  {
    echo "ARBITER_STATE=$state"
    echo "ARBITER_UID=$uid"
    echo "ARBITER_GID=$gid"
    echo "ARBITER_IMAGE_TAG=$tag"
    echo "PG_PORT=$((offset + 55432))"
    echo "PG_PASSWORD=$(cat "$state/secrets/postgres.password")"
    for i in 1 2 3; do
      echo "NATS${i}_PORT=$((offset + 4221 + i))"
      echo "NATS${i}_MONITOR_PORT=$((offset + 8221 + i))"
    done
    echo "REGISTRY_PORT=$((offset + 50061))"
    echo "PAIRING_PORT=$((offset + 50062))"
    echo "RESULTS_PORT=$((offset + 50063))"
    echo "RATING_PORT=$((offset + 50064))"
    echo "CLOCK_PORT=$((offset + 50065))"
    for svc in $services; do
      local var="NATS_PASSWORD_$(echo "$svc" | tr 'a-z-' 'A-Z_')"
      echo "$var=$(cat "$state/secrets/nats-$svc.password")"
    done
  } >"$state/env"
  # Readable by the containers' user only. The postgres password file (mounted as a
  # single file) by PostgreSQL's user in its image: as root it is given to that user;
  # otherwise it has to be world-readable (the state directory itself is not listable).
  chmod -R go-rwx "$state"
  chmod 711 "$state" "$state/secrets"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R "$uid:$gid" "$state/pki" "$state/nats" "$state/shared" "$state/data"
    chown 999:999 "$state/secrets/postgres.password"   # postgres in arbiter/postgres
  else
    chmod 644 "$state/secrets/postgres.password"
  fi
}

wait_healthy() {
  local deadline=$(( $(date +%s) + ${1:-240} )) c st bad
  while :; do
    bad=""
    for c in $(dc ps -q); do
      st="$(docker inspect -f '{{.Name}} {{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$c")"
      case "$st" in *" healthy") ;; *) bad="$bad ${st#/}" ;; esac
    done
    [ -z "$bad" ] && [ -n "$(dc ps -q)" ] && return 0
    if [ "$(date +%s)" -ge "$deadline" ]; then
      dc ps >&2 || true
      dc logs --tail 20 >&2 || true
      die "not healthy in time:$bad"
    fi
    sleep 2
  done
}

case "${1:-}" in
  up)
    for img in postgres nats $services; do
      docker image inspect "arbiter/$img:$tag" >/dev/null 2>&1 \
        || die "image arbiter/$img:$tag is missing: make images (or ARBITER_IMAGE_TAG=debug after make test)"
    done
    make_state
    start=$(date +%s)
    dc up -d --no-build
    wait_healthy 300
    for _ in $(seq 100); do [ -s "$state/shared/tokens" ] && break; sleep 0.2; done
    [ -s "$state/shared/tokens" ] || die "the registry made no token file in $state/shared"
    o=$offset
    cat >"$state/cli.env" <<ENV
export ARBITER_CA_CERT="$state/pki/ca.pem" ARBITER_CLIENT_CERT="$state/pki/client.pem" ARBITER_CLIENT_KEY="$state/pki/client.key"
export ARBITER_TOKEN="\$(awk '/^admin/{print \$2}' "$state/shared/tokens")"
export ARBITER_REGISTRY=https://127.0.0.1:$((o + 50061)) ARBITER_PAIRING=https://127.0.0.1:$((o + 50062))
export ARBITER_RESULTS=https://127.0.0.1:$((o + 50063)) ARBITER_RATING=https://127.0.0.1:$((o + 50064))
export ARBITER_CLOCK=https://127.0.0.1:$((o + 50065))
ENV
    chmod 600 "$state/cli.env"
    say "up and healthy in $(( $(date +%s) - start )) s (project $project, images :$tag)"
    say "CLI: . $state/cli.env; arbiter --server \"\$ARBITER_REGISTRY\" tournament list"
    ;;
  down)
    shift
    [ -f "$state/env" ] || die "no deployment state in $state"
    dc down "$@"
    ;;
  clean)
    if [ -f "$state/env" ]; then dc down --volumes || true; fi
    rm -rf "$state"
    ;;
  ps) dc ps ;;
  logs) shift; dc logs "$@" ;;
  *) echo "usage: $0 up|down [--volumes]|clean|ps|logs [SERVICE]" >&2; exit 2 ;;
esac
