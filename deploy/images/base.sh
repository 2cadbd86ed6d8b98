#!/usr/bin/env bash
# The base of every Arbiter image: `debian:bookworm-slim`.
#  - already in the engine: used as it is;
#  - else pulled from the registry (`docker pull`), where one can be reached;
#  - else made here: `debootstrap --variant=minbase bookworm` from Debian's mirror
#    ($DEBIAN_MIRROR, default deb.debian.org), trimmed like the slim image (no docs,
#    man pages, locales, apt lists or caches; dpkg told to leave them out later too),
#    and `docker import`ed under the same name. ~1.5 min on 2 cores; needs root.
# Whichever happens is said on stderr. Every Dockerfile starts FROM this name, so the
# same files build on a registry's base and on the local one.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
image="debian:bookworm-slim"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if docker image inspect "$image" >/dev/null 2>&1; then
  echo "base image: $image (already in the engine, $(docker image inspect -f '{{.Comment}}' "$image" | head -c 80))" >&2
  exit 0
fi
if [ "${ARBITER_BASE:-auto}" != local ]; then
  if out="$(docker pull "$image" 2>&1)"; then
    echo "base image: $image pulled from the registry" >&2
    exit 0
  fi
  echo "base image: cannot pull $image ($(printf '%s' "$out" | tail -1)); making it with debootstrap" >&2
  [ "${ARBITER_BASE:-auto}" = registry ] && { echo "ARBITER_BASE=registry: not making it locally" >&2; exit 1; }
fi
[ "$(id -u)" -eq 0 ] || { echo "making $image with debootstrap needs root (or: docker pull $image)" >&2; exit 1; }
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "installing debootstrap (Debian)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi
work="$(mktemp -d "$root/.tools/base.XXXXXX" 2>/dev/null || { mkdir -p "$root/.tools"; mktemp -d "$root/.tools/base.XXXXXX"; })"
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
echo "base image: debootstrap --variant=minbase bookworm from $mirror" >&2
if ! debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log" >&2
  echo "debootstrap failed (log above)" >&2
  exit 1
fi
r="$work/rootfs"
# What the slim image leaves out, now and for packages installed later.
cat >"$r/etc/dpkg/dpkg.cfg.d/docker-slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
path-exclude /usr/share/lintian/*
CFG
cat >"$r/etc/apt/apt.conf.d/docker-clean" <<'CFG'
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
Acquire::Languages "none";
APT::Install-Recommends "false";
CFG
find "$r/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
find "$r/usr/share/doc" -mindepth 1 -type d -empty -delete
rm -rf "$r/usr/share/man/"* "$r/usr/share/info/"* "$r/usr/share/lintian" \
  "$r/var/cache/apt/"*.bin "$r/var/cache/apt/archives/"*.deb "$r/var/lib/apt/lists/"* \
  "$r/var/log/"*.log "$r/var/log/apt/"* "$r/tmp/"* "$r/root/".bash_history
find "$r/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$mirror" "$mirror" >"$r/etc/apt/sources.list"
printf 'deb http://deb.debian.org/debian-security bookworm-security main\n' >>"$r/etc/apt/sources.list"
tar -C "$r" --numeric-owner -c . | docker import \
  --change 'CMD ["bash"]' \
  -m "debootstrap --variant=minbase bookworm, trimmed (deploy/images/base.sh)" - "$image" >/dev/null
echo "base image: $image made locally in $(( $(date +%s) - start )) s ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1e6}'))" >&2
