#!/usr/bin/env bash
# Installs every build and run dependency of Reward Workbench: Debian's packages first,
# then PyTorch's own libtorch from the torch wheel (pip, into the clone's .venv).
# Run as root or as a user with sudo. Installs only what is missing.
#   scripts/setup.sh                  build + GUI + tests (the default)
#   scripts/setup.sh --core           the engine and the rwb CLI only (no Qt)
#   scripts/setup.sh --debian-libtorch  also Debian's libtorch-dev 1.13, the fallback
#                                     (scripts/check-libtorch.sh builds against it)
#   scripts/setup.sh --print-libtorch print the libtorch prefix the build uses
# The wheel: torch==$RWB_TORCH_VERSION (2.13.0). pip takes it from the wheels on this disk
# where there are some; on a new machine it downloads it from PyPI, whose Linux build of
# torch is the CUDA one with NVIDIA's libraries (several GB; it runs on the CPU too). For
# the 200 MB CPU-only build set RWB_TORCH_PIP_ARGS="--index-url <PyTorch's CPU wheel
# index>" (the address PyTorch's install page gives for "CPU"). A CUDA user may point
# RWB_LIBTORCH at any torch wheel's torch/ folder (docs/gpu.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${RWB_VENV:-$root/.venv}
torch_version=${RWB_TORCH_VERSION:-2.13.0}

libtorch_prefix() {
  local d
  for d in "$venv"/lib/python3*/site-packages/torch; do
    [[ -f "$d/share/cmake/Torch/TorchConfig.cmake" ]] && { echo "$d"; return 0; }
  done
  return 1
}

if [[ "${1:-}" == --print-libtorch ]]; then
  libtorch_prefix || {
    echo "setup: no libtorch in $venv: run scripts/setup.sh first (or set RWB_LIBTORCH)" >&2
    exit 1
  }
  exit 0
fi

core_pkgs=(
  build-essential cmake ninja-build pkg-config ccache
  libgloo-dev python3 python3-venv
  nlohmann-json3-dev libsqlite3-dev libutf8proc-dev libkakasi2-dev kakasi-dic
  libonig-dev libcpp-httplib-dev libssl-dev
  jq  # the docs' rerun recipes (docs/training.md, docs/results.md) edit configs with it
)
gui_pkgs=(
  qt6-base-dev libqcustomplot-dev qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  xvfb xauth fonts-noto-cjk
  python3
)

# Debian's libtorch 1.13 and the OpenBLAS it runs on: only for the fallback build.
debian_libtorch_pkgs=(libtorch-dev libopenblas0-pthread)

pkgs=("${core_pkgs[@]}")
case "${1:-}" in
  --core) ;;
  --debian-libtorch) pkgs+=("${gui_pkgs[@]}" "${debian_libtorch_pkgs[@]}") ;;
  *) pkgs+=("${gui_pkgs[@]}") ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "setup: all ${#pkgs[@]} Debian packages are installed"
else
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
fi

# PyTorch's libtorch, from the torch wheel, in a virtual environment of the clone's own.
if prefix=$(libtorch_prefix) && grep -qx "Version: ${torch_version}\(+.*\)\?" \
    "$prefix"/../torch-*.dist-info/METADATA 2>/dev/null; then
  echo "setup: libtorch ${torch_version} is installed ($prefix)"
  exit 0
fi
echo "setup: installing torch==${torch_version} into $venv (its libtorch is the build's)"
[[ -x "$venv/bin/pip" ]] || python3 -m venv "$venv"
# shellcheck disable=SC2086
# (pip's notes about index folders that do not list a package are left out.)
{ "$venv/bin/pip" install -q ${RWB_TORCH_PIP_ARGS:-} "torch==${torch_version}" 2>&1; } |
  { grep -v 'is ignored: it is neither a file nor a directory' || true; }
prefix=$(libtorch_prefix) || { echo "setup: the torch wheel brought no libtorch" >&2; exit 1; }
echo "setup: libtorch ${torch_version} in $prefix"
