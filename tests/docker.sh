#!/usr/bin/env bash
# A Docker engine for `make test` and `make images`.
#
#   eval "$(tests/docker.sh start)"   # prints `export DOCKER_HOST=… ARBITER_DOCKER_NETWORK=…`
#   tests/docker.sh stop              # stops the daemon `start` started, if it did
#   tests/docker.sh run CMD [ARGS…]   # start, CMD with DOCKER_HOST set, stop (also on failure)
#
# An engine already reachable ($DOCKER_HOST, else /var/run/docker.sock) is used as it is.
# Otherwise, as root, a private dockerd is started here (Debian's docker.io, installed
# when missing): its data in .tools/docker (kept between runs: the base and built images
# stay), its socket .tools/docker/docker.sock, `--storage-driver vfs --iptables=false
# --bridge=none` — no bridge network, so containers use the host network
# (ARBITER_DOCKER_NETWORK=host; with an engine that has a bridge it is `bridge`).
# When no engine can run, this fails saying why: nothing is skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
state="$root/.tools/docker"
sock="$state/docker.sock"
# containerd's sockets live under the exec root: keep its path short.
exec_root="/run/arbiter-docker-$(printf '%s' "$root" | sha256sum | cut -c1-8)"

say() { echo "docker: $*" >&2; }

reachable() { docker info >/dev/null 2>&1; }

network_of() {
  if docker network inspect bridge >/dev/null 2>&1; then echo bridge; else echo host; fi
}

# The exports for an engine reachable at $DOCKER_HOST.
emit() {
  echo "export DOCKER_HOST='$DOCKER_HOST' ARBITER_DOCKER_NETWORK=$(network_of)"
}

start() {
  if [ -n "${DOCKER_HOST:-}" ] && reachable; then
    say "using the engine at $DOCKER_HOST"
    emit
    return
  fi
  if [ -z "${DOCKER_HOST:-}" ] && [ -S /var/run/docker.sock ] && DOCKER_HOST=unix:///var/run/docker.sock reachable; then
    say "using the engine at /var/run/docker.sock"
    export DOCKER_HOST=unix:///var/run/docker.sock
    emit
    return
  fi
  export DOCKER_HOST="unix://$sock"
  if [ -S "$sock" ] && reachable; then
    say "using the private dockerd already running at $sock"
    emit
    return
  fi
  if [ "$(id -u)" -ne 0 ]; then
    say "no Docker engine reachable (DOCKER_HOST=${DOCKER_HOST}, /var/run/docker.sock), and a private"
    say "dockerd needs root: run as root, or start an engine and set DOCKER_HOST"
    exit 1
  fi
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v docker >/dev/null 2>&1; then
    say "installing docker.io (Debian)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends docker.io >/dev/null \
      || { say "apt-get install docker.io failed"; exit 1; }
  fi
  if [ -f "$state/dockerd.pid" ] && kill -0 "$(cat "$state/dockerd.pid")" 2>/dev/null; then
    say "a dockerd (pid $(cat "$state/dockerd.pid")) runs on $state/data but does not answer at $sock: stop it first"
    exit 1
  fi
  mkdir -p "$state/data" "$exec_root"
  rm -f "$sock"
  say "starting a private dockerd (data $state/data, log $state/dockerd.log)"
  setsid dockerd --data-root "$state/data" --exec-root "$exec_root" -H "unix://$sock" \
    --pidfile "$state/dockerd.pid" --storage-driver vfs --iptables=false --ip-masq=false \
    --bridge=none --log-level warn >"$state/dockerd.log" 2>&1 </dev/null &
  echo $! >"$state/started-by-tests"
  for _ in $(seq 150); do
    reachable && break
    if ! kill -0 "$(cat "$state/started-by-tests")" 2>/dev/null; then
      tail -20 "$state/dockerd.log" >&2
      say "dockerd exited at start (log above)"
      rm -f "$state/started-by-tests"
      exit 1
    fi
    sleep 0.2
  done
  reachable || { tail -20 "$state/dockerd.log" >&2; say "dockerd did not answer within 30 s (log above)"; exit 1; }
  say "private dockerd $(docker version -f '{{.Server.Version}}') up at $sock (no bridge: host network)"
  emit
}

stop() {
  local marker="$state/started-by-tests" pid
  [ -f "$marker" ] || return 0
  pid="$(cat "$marker")"
  export DOCKER_HOST="unix://$sock"
  # Test containers left behind by a crashed test process.
  ids="$(docker ps -aq --filter label=arbiter.test 2>/dev/null || true)"
  [ -z "$ids" ] || docker rm -f $ids >/dev/null 2>&1 || true
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -0 "$pid" 2>/dev/null && { say "dockerd $pid did not stop in 20 s: killed"; kill -KILL "$pid" || true; }
  fi
  # dockerd leaves its default network namespace mounted under the exec root, and its
  # data root bind-mounted on itself.
  for m in "$exec_root"/netns/*; do [ -e "$m" ] && umount "$m" 2>/dev/null || true; done
  if mountpoint -q "$state/data" 2>/dev/null; then umount "$state/data" 2>/dev/null || true; fi
  rm -rf "$exec_root"
  rm -f "$marker" "$sock"
  say "private dockerd stopped (its data stays in $state/data; delete it to free the disk)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: $0 run CMD [ARGS…]" >&2; exit 2; }
    # Stops at the end only what this run started (an engine already up stays up).
    had_daemon=0
    [ -f "$state/started-by-tests" ] && had_daemon=1
    env_lines="$(start)"
    eval "$env_lines"
    [ $had_daemon -eq 1 ] || trap stop EXIT
    "$@"
    ;;
  *) echo "usage: $0 start|stop|run CMD [ARGS…]" >&2; exit 2 ;;
esac
