#!/usr/bin/env bash
# Builds the Arbiter images from binaries cargo already built on the host (no Rust
# toolchain in any image; ADR platform-012):
#   arbiter/registry, arbiter/pairing, arbiter/results, arbiter/rating,
#   arbiter/clock-telemetry, arbiter/arbiterd (+ the `arbiter` CLI),
#   arbiter/postgres (Debian's PostgreSQL 15), arbiter/nats (the nats-server of .tools/bin).
#
#   deploy/images/build.sh                    # target/release binaries, tag :latest (make images)
#   deploy/images/build.sh --profile debug    # target/debug binaries, tag :debug (make test)
#   deploy/images/build.sh --only "postgres nats"   # some of them
#   deploy/images/build.sh --bin-dir DIR      # binaries from elsewhere (the profile names the tag)
#
# Needs a Docker engine (DOCKER_HOST, or tests/docker.sh start) and the base image
# debian:bookworm-slim (deploy/images/base.sh: present, pulled, or made by debootstrap).
# Each image is checked after its build: it runs as a non-root user and holds no compiler,
# linker, make or cargo. Prints the sizes at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/deploy/images"
profile=release
tag=""
only=""
bin_dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --bin-dir) bin_dir="$2"; shift 2 ;;
    *) echo "usage: $0 [--profile release|debug] [--tag TAG] [--only \"NAME ...\"] [--bin-dir DIR]" >&2; exit 2 ;;
  esac
done
case "$profile" in release) : "${tag:=latest}" ;; debug) : "${tag:=debug}" ;; *) echo "--profile: release or debug" >&2; exit 2 ;; esac
bin="${bin_dir:-$root/target/$profile}"

if ! docker info >/dev/null 2>&1; then
  echo "no Docker engine reachable (DOCKER_HOST=${DOCKER_HOST:-unset}): start one with" \
    "'eval \"\$(tests/docker.sh start)\"' (root; installs docker.io if missing) or set DOCKER_HOST" >&2
  exit 1
fi
"$here/base.sh"

nats="$root/.tools/bin/nats-server"
[ -x "$nats" ] || nats="$(command -v nats-server || true)"
[ -n "$nats" ] && [ -x "$nats" ] || { echo "no nats-server to package: run make test-deps" >&2; exit 1; }

# image name, then the files of its build context (binaries from target/$profile).
images=(
  "registry arbiter-registry"
  "pairing arbiter-pairing"
  "results arbiter-results"
  "rating arbiter-rating"
  "clock-telemetry arbiter-clock-telemetry"
  "arbiterd arbiterd arbiter"
  "postgres @postgres-entrypoint.sh"
  "nats @nats-server"
)
# BuildKit: the legacy builder commits a container per instruction, which on the vfs
# storage driver is a full copy of the file system each time (a 9 s build takes 60 s).
# `docker buildx`, else Debian's client (built-in BuildKit), else the legacy builder.
if docker buildx version >/dev/null 2>&1; then
  builder=(docker buildx build --load)
elif [ -x /usr/bin/docker ] && DOCKER_BUILDKIT=1 /usr/bin/docker build -q - <<<"FROM debian:bookworm-slim" >/dev/null 2>&1; then
  builder=(env DOCKER_BUILDKIT=1 /usr/bin/docker build)
else
  echo "images: no BuildKit client (docker buildx): the legacy builder (slow on vfs)" >&2
  builder=(env DOCKER_BUILDKIT=0 docker build)
fi
ctx_root="$root/.tools/images-context"
rm -rf "$ctx_root"
trap 'rm -rf "$ctx_root"' EXIT
revision="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
total_start=$(date +%s)
for entry in "${images[@]}"; do
  set -- $entry
  name="$1"; shift
  if [ -n "$only" ] && [[ " $only " != *" $name "* ]]; then continue; fi
  ctx="$ctx_root/$name"
  mkdir -p "$ctx"
  for f in "$@"; do
    case "$f" in
      @postgres-entrypoint.sh) cp "$here/postgres-entrypoint.sh" "$ctx/" ;;
      @nats-server) cp "$nats" "$ctx/nats-server" ;;
      *)
        [ -x "$bin/$f" ] || { echo "$bin/$f is missing: build the binaries first (make images does)" >&2; exit 1; }
        # Without the line tables (`debug = "line-tables-only"` makes most of a binary's
        # size; every container copies its image in full on vfs): symbols stay, so a
        # backtrace still names the functions.
        objcopy --strip-debug "$bin/$f" "$ctx/$f" ;;
    esac
  done
  start=$(date +%s)
  if ! out="$("${builder[@]}" --network host -q -t "arbiter/$name:$tag" \
      --label "org.opencontainers.image.revision=$revision" --label "arbiter.profile=$profile" \
      -f "$here/$name.Dockerfile" "$ctx" 2>&1)"; then
    printf '%s\n' "$out" >&2
    echo "docker build of arbiter/$name:$tag failed (output above)" >&2
    exit 1
  fi
  user="$(docker image inspect -f '{{.Config.User}}' "arbiter/$name:$tag")"
  case "$user" in ""|0|0:*|root|root:*) echo "arbiter/$name:$tag runs as root ('$user')" >&2; exit 1 ;; esac
  found="$(docker run --rm --network none --entrypoint bash "arbiter/$name:$tag" -c \
      'for t in cc gcc g++ clang ld as make cargo rustc; do command -v $t || true; done')" \
    || { echo "cannot run arbiter/$name:$tag to check it" >&2; exit 1; }
  [ -z "$found" ] || { echo "arbiter/$name:$tag holds build tools: $found" >&2; exit 1; }
  echo "arbiter/$name:$tag built in $(( $(date +%s) - start )) s (user $user, no build tools)" >&2
done
# Images replaced by these builds: on vfs each holds a full copy of its file system.
docker image prune -f >/dev/null
echo "images ($profile binaries, revision $revision) built in $(( $(date +%s) - total_start )) s:" >&2
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' | grep -E "^arbiter/.*:$tag\b|^debian:bookworm-slim" >&2

# The release images of a full build (make images): their sizes into BENCHMARKS.md, section
# `images` (replaced at each such build).
if [ "$profile" = release ] && [ -z "$only" ] && [ -z "$bin_dir" ]; then
  rows=""
  for spec in "${images[@]}"; do
    name="${spec%% *}"
    bytes="$(docker image inspect -f '{{.Size}}' "arbiter/$name:$tag")"
    rows+="| arbiter/$name:$tag | $(( (bytes + 500000) / 1000000 )) MB |"$'\n'
  done
  base_bytes="$(docker image inspect -f '{{.Size}}' debian:bookworm-slim)"
  cpu="$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  mem="$(awk '/^MemTotal/ {printf "%d GiB", int($2 / 1048576)}' /proc/meminfo)"
  ROWS="$rows" BASE_MB="$(( (base_bytes + 500000) / 1000000 ))" WHEN="$(date -u +%Y-%m-%d)" \
  MACHINE="${cpu:-unknown CPU}, $(nproc) cores, $mem" REVISION="$revision" \
  python3 - "$root/BENCHMARKS.md" <<'PY'
import os, sys
path = sys.argv[1]
body = (
    "<!-- bench:images -->\n## Container images (deploy/images)\n\n"
    f"Measured {os.environ['WHEN']} on {os.environ['MACHINE']} (`make images`, release binaries, "
    f"revision {os.environ['REVISION']}).\n\n"
    "Each image is `debian:bookworm-slim` "
    f"({os.environ['BASE_MB']} MB here) with what the binary needs at run time, a non-root user and "
    "a health check; no compiler, linker, make or cargo (checked by the build).\n\n"
    "| image | size |\n|---|---|\n" + os.environ["ROWS"] + "<!-- /bench:images -->\n"
)
old = open(path).read() if os.path.exists(path) else "# Benchmarks\n"
start, end = "<!-- bench:images -->", "<!-- /bench:images -->\n"
a, b = old.find(start), old.find(end)
new = old[:a] + body + old[b + len(end):] if 0 <= a < b else old.rstrip("\n") + "\n\n" + body
open(path, "w").write(new)
PY
  echo "image sizes written to BENCHMARKS.md (section images)" >&2
fi
