#!/bin/sh
# Install what the build and tests need on a fresh Debian machine: only what is missing.
set -e
need=""
command -v emcc >/dev/null 2>&1 || need="$need emscripten"
[ -f /usr/include/cglm/cglm.h ] || need="$need libcglm-dev"
[ -f /usr/include/fcl/fcl.h ] || need="$need libfcl-dev"
command -v chromium >/dev/null 2>&1 || need="$need chromium"
# clang builds the sanitizer tests and the fuzz targets (libFuzzer's runtime is in libclang-rt-14-dev)
command -v clang >/dev/null 2>&1 || need="$need clang"
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || need="$need libclang-rt-14-dev"
command -v node >/dev/null 2>&1 || need="$need nodejs npm"
if [ -n "$need" ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $need
fi
# npm ci only when the lockfile changed since the last install. A node_modules that is a symbolic link (a git
# worktree sharing another checkout's install) is left alone: npm ci would empty the linked directory for every
# checkout that shares it.
if [ -L node_modules ]; then
  cmp -s package-lock.json node_modules/.snug-lock || echo "deps: node_modules links to a shared install made from another package-lock.json; not reinstalled through the link"
elif [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.snug-lock; then
  npm ci --ignore-scripts --no-audit --no-fund
  cp package-lock.json node_modules/.snug-lock
fi
