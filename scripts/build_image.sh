#!/usr/bin/env bash
# `make image`: build the lease-parser container image with buildah, from a Debian base
# made here by mmdebstrap (no container registry needed).
#
#   IMAGE       image name (default lease-parser; tagged :VERSION from pyproject.toml)
#   BASE_IMAGE  use this base instead of building one (e.g. docker.io/library/debian:bookworm-slim)
#   REFRESH_BASE=1  rebuild the cached base now
#
# The base (a `mmdebstrap --variant=minbase` root filesystem, like debian:bookworm-slim) is
# cached as a tarball under ${XDG_CACHE_HOME:-~/.cache}/lease-parser/image/ and imported
# into podman's store as localhost/lease-parser-base:<key>. The key is a hash of the recipe
# below and the ISO week, so the base is rebuilt when the recipe changes and at least weekly
# (Debian security updates); older tarballs are deleted then.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

IMAGE=${IMAGE:-lease-parser}
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' pyproject.toml)
SUITE=bookworm
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
PY=${PY:-.venv/bin/python}
say() { printf '== %s\n' "$*" >&2; }

for tool in buildah podman mmdebstrap; do
  command -v "$tool" >/dev/null || {
    echo "error: $tool is missing: apt-get install -y buildah podman mmdebstrap" >&2
    exit 3
  }
done

base_image() {
  if [[ -n ${BASE_IMAGE:-} ]]; then echo "$BASE_IMAGE"; return; fi
  local recipe="mmdebstrap --variant=minbase --components=main $SUITE $MIRROR $MIRROR-security:$SUITE-security"
  local key
  key=$(printf '%s %s' "$recipe" "$(date -u +%G-W%V)" | sha256sum | cut -c1-16)
  local cache="${XDG_CACHE_HOME:-$HOME/.cache}/lease-parser/image"
  local tarball="$cache/debian-$SUITE-minbase-$key.tar"
  local name="localhost/lease-parser-base:$key"
  mkdir -p "$cache"
  if [[ ${REFRESH_BASE:-} == 1 ]]; then rm -f "$tarball"; podman rmi -f "$name" >/dev/null 2>&1 || true; fi
  if ! podman image exists "$name"; then
    if [[ ! -s $tarball ]]; then
      say "base: $recipe (cached as $tarball)"
      find "$cache" -name "debian-$SUITE-minbase-*.tar" ! -name "$(basename "$tarball")" -delete
      mmdebstrap --variant=minbase --components=main --format=tar --quiet \
        "$SUITE" "$tarball.part" "deb $MIRROR $SUITE main" \
        "deb $MIRROR $SUITE-updates main" "deb $MIRROR-security $SUITE-security main" >&2
      mv "$tarball.part" "$tarball"
    fi
    say "base: podman import $tarball $name"
    podman import --quiet "$tarball" "$name" >/dev/null
  fi
  echo "$name"
}

say "wheels: the project and its dependencies (build/image/wheels)"
rm -rf build/image && mkdir -p build/image/wheels
# Resolved by this Python (3.11.x); the image runs Debian's 3.11.2, for which redis also
# needs async-timeout (a python_full_version < "3.11.3" marker this resolver skips).
"$PY" -m pip wheel --quiet --wheel-dir build/image/wheels '.[postgres]' 'async-timeout>=4.0.3' >&2

BASE=$(base_image)
# A base made here is only in the local store: never ask a registry for it.
PULL=never; [[ -n ${BASE_IMAGE:-} ]] && PULL=false
say "image: buildah bud --build-arg BASE=$BASE -> $IMAGE:$VERSION"
# --format docker keeps HEALTHCHECK (the OCI format has no field for it); --layers reuses
# unchanged steps (the apt installs) on the next build.
buildah bud --isolation chroot --format docker --layers --quiet --pull="$PULL" \
  --build-arg "BASE=$BASE" -f Dockerfile -t "$IMAGE:$VERSION" build/image >&2
echo "localhost/$IMAGE:$VERSION"
