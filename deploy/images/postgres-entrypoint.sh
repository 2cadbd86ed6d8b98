#!/bin/bash
# First start: initdb in $PGDATA, the password and pg_hba.conf, the databases named in
# $ARBITER_DATABASES. Every start: exec postgres with the listen address and port.
set -euo pipefail
port="${PGPORT:-5432}"
listen="${PG_LISTEN:-*}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pw=()
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    [ -s "$POSTGRES_PASSWORD_FILE" ] || { echo "POSTGRES_PASSWORD_FILE $POSTGRES_PASSWORD_FILE is empty or unreadable" >&2; exit 1; }
    pw=(--pwfile="$POSTGRES_PASSWORD_FILE")
    auth=scram-sha-256
  else
    echo "postgres-entrypoint: no POSTGRES_PASSWORD_FILE: every connection is trusted (tests only)" >&2
    auth=trust
  fi
  initdb -D "$PGDATA" -U postgres -E UTF8 --no-locale --no-sync --auth-local=trust \
    --auth-host="$auth" "${pw[@]}" >/dev/null
  { echo "local all all trust"; echo "host all all all $auth"; } >"$PGDATA/pg_hba.conf"
  if [ -n "${ARBITER_DATABASES:-}" ]; then
    postgres -D "$PGDATA" -c listen_addresses= -c unix_socket_directories=/run/postgresql \
      -c port="$port" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do pg_isready -q -h /run/postgresql -p "$port" && break; sleep 0.1; done
    for db in $ARBITER_DATABASES; do
      psql -q -h /run/postgresql -p "$port" -U postgres -c "CREATE DATABASE \"$db\"" postgres
    done
    kill -INT "$pid"; wait "$pid" || true
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses="$listen" -c port="$port" \
  -c unix_socket_directories=/run/postgresql -c jit=off "$@"
