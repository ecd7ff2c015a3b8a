#!/usr/bin/env bash
# Installs every build and run dependency of Reward Workbench from Debian's packages.
# Run as root or as a user with sudo. Installs only what is missing.
#   scripts/setup.sh          build + GUI + tests (the default)
#   scripts/setup.sh --core   the engine and the rwb CLI only (no Qt)
set -euo pipefail

core_pkgs=(
  build-essential cmake ninja-build pkg-config ccache
  libtorch-dev libopenblas0-pthread libgloo-dev
  nlohmann-json3-dev libsqlite3-dev libutf8proc-dev libkakasi2-dev kakasi-dic
  libonig-dev libcpp-httplib-dev libssl-dev
)
gui_pkgs=(
  qt6-base-dev libqcustomplot-dev qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  xvfb xauth fonts-noto-cjk
  python3
)

pkgs=("${core_pkgs[@]}")
[[ "${1:-}" == "--core" ]] || pkgs+=("${gui_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#pkgs[@]} packages are installed"
  exit 0
fi

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null; then
  sudo=(sudo)
else
  echo "setup: missing packages: ${missing[*]}" >&2
  echo "setup: run this script as root, or install sudo" >&2
  exit 1
fi

echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
