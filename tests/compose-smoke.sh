#!/usr/bin/env bash
# Smoke test of the compose deployment (deploy/compose.yml) from the built images: up,
# one tournament round through the `arbiter` CLI against it — players entered at the
# registry, round 1 paired and published by the pairing service, results and standings
# at the results service, the tournament submitted to the rating service — and down
# (volumes and state deleted). Also checks that every container runs as a non-root user.
#
#   tests/compose-smoke.sh                       # images :latest (make images), CLI of target/release
#   ARBITER_IMAGE_TAG=debug ARBITER_BIN_DIR=target/debug tests/compose-smoke.sh   # as make test
#
# Needs a Docker engine (DOCKER_HOST; tests/docker.sh). Its own project (arbiter-smoke),
# state directory (.tools/compose-smoke) and ports (ARBITER_PORT_OFFSET, default 2000), so
# a deployment of deploy/compose.sh on the default ports is not touched.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export ARBITER_IMAGE_TAG="${ARBITER_IMAGE_TAG:-latest}"
export ARBITER_COMPOSE_PROJECT=arbiter-smoke
export ARBITER_COMPOSE_STATE="$root/.tools/compose-smoke"
export ARBITER_PORT_OFFSET="${ARBITER_PORT_OFFSET:-2000}"
cli="${ARBITER_BIN_DIR:-$root/target/release}/arbiter"
[ -x "$cli" ] || { echo "smoke: no CLI at $cli (build it, or set ARBITER_BIN_DIR)" >&2; exit 1; }
compose="$root/deploy/compose.sh"
t0=$(date +%s)
step="compose up"
say() { echo "smoke: $*" >&2; }
# What failed, kept in a file: `eventually` runs in command substitutions (subshells).
fail() { echo "$*" >"$work/last_error"; say "$*"; exit 1; }

"$compose" clean >/dev/null 2>&1 || true
cleanup() {
  local rc=$?
  if [ $rc -ne 0 ]; then
    say "FAILED; the containers' last lines:"
    "$compose" logs --tail 30 >&2 || true
    # Again after the logs, so that the tail of a CI log says what failed.
    say "FAILED at step: $step: $(cat "$work/last_error" 2>/dev/null || echo "see above") (after $(( $(date +%s) - t0 )) s)"
  fi
  "$compose" clean >/dev/null 2>&1 || true
  rm -rf "$work"
  exit $rc
}
work="$(mktemp -d)"
trap cleanup EXIT
"$compose" up
. "$ARBITER_COMPOSE_STATE/cli.env"
export ARBITER_DATA_DIR="$work/cli"
t_up=$(date +%s)

# Every container as a non-root user.
step="containers run as non-root"
for c in $(docker-compose -p "$ARBITER_COMPOSE_PROJECT" -f "$root/deploy/compose.yml" \
    --env-file "$ARBITER_COMPOSE_STATE/env" ps -q); do
  name="$(docker inspect -f '{{.Name}}' "$c")"
  uid="$(docker exec "$c" id -u)"
  [ "$uid" != 0 ] || fail "$name runs as root"
done

json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1], {"d": d}))' "$1"; }

# `arbiter --server $1 ARGS… --json`, again until it succeeds: the other services' events
# arrive over NATS. Prints the JSON.
eventually() {
  local server="$1"; shift
  local deadline=$(( $(date +%s) + 60 )) out
  while :; do
    if out="$("$cli" --server "$server" "$@" --json 2>"$work/stderr")"; then
      printf '%s\n' "$out"
      return 0
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      fail "arbiter $* never succeeded: $out $(cat "$work/stderr")"
    fi
    sleep 0.3
  done
}

step="health of each service"
# Each port serves its own service (the others are NOT_HOSTED there, so `health` exits 1).
for server in "$ARBITER_REGISTRY" "$ARBITER_PAIRING" "$ARBITER_RESULTS" "$ARBITER_RATING" "$ARBITER_CLOCK"; do
  out="$("$cli" --server "$server" health --json 2>"$work/stderr" || true)"
  serving="$(json '",".join(s["service"] for s in d["services"] if s["status"] == "SERVING")' <<<"$out")" \
    || fail "health at $server: $out $(cat "$work/stderr")"
  [ -n "$serving" ] || fail "nothing SERVING at $server"
  say "$server: $serving SERVING (TLS, client certificate)"
done
step="tournament and players at the registry"
id="$(eventually "$ARBITER_REGISTRY" tournament create --name "Compose Smoke Open" --rounds 3 \
  --start 2026-10-10 --end 2026-10-12 | json 'd["tournament_id"]')"
i=0
for p in "Alpha, Anna:2300" "Bravo, Ben:2250" "Charlie, Cleo:2200" "Delta, Dan:2150" \
         "Echo, Eva:2100" "Foxtrot, Finn:2050"; do
  eventually "$ARBITER_REGISTRY" player add "$id" --name "${p%:*}" --rating "${p##*:}" \
    --fide-id "$((3000000 + i))" >/dev/null
  i=$((i + 1))
done
say "tournament $id with 6 players (registry)"
step="round 1 paired at the pairing service (from its copy of the entries)"
boards="$(eventually "$ARBITER_PAIRING" round pair "$id" 1 | json 'len(d["boards"])')"
tries=0
while [ "$boards" -lt 3 ]; do
  # Paired before the last entries arrived over NATS: re-pair the unpublished round.
  tries=$((tries + 1)); [ $tries -lt 100 ] || fail "round 1 never had 3 boards"
  sleep 0.3
  boards="$(eventually "$ARBITER_PAIRING" round repair "$id" 1 | json 'len(d["boards"])')"
done
eventually "$ARBITER_PAIRING" round publish "$id" 1 >/dev/null
say "round 1 paired and published (pairing): $boards boards"
step="results at the results service (from its copies of the entries and the pairing)"
for b in "1 1-0" "2 1/2" "3 0-1"; do
  eventually "$ARBITER_RESULTS" result set "$id" 1 $b >/dev/null
done
eventually "$ARBITER_RESULTS" round close "$id" 1 >/dev/null
standings="$(eventually "$ARBITER_RESULTS" standings "$id")"
[ "$(json 'd["after_round"]' <<<"$standings")" = 1 ] || fail "standings: $standings"
[ "$(json 'len(d["rows"])' <<<"$standings")" = 6 ] || fail "standings: $standings"
say "results entered, round closed, standings after round 1 (results): 6 rows"
step="submission at the rating service"
rated="$(eventually "$ARBITER_RATING" rating submit-tournament "$id" --kind standard | json 'd["rated_games"]')"
[ "$rated" = 3 ] || fail "rating submission rated $rated games, not 3"
say "tournament submitted for rating (rating): $rated rated games"
t_round=$(date +%s)
step="compose down"
"$compose" clean
trap - EXIT
rm -rf "$work"
say "passed: up $((t_up - t0)) s, round $((t_round - t_up)) s, down $(( $(date +%s) - t_round )) s (images :$ARBITER_IMAGE_TAG)"
