#!/usr/bin/env bash
# Builds and tests against a libtorch other than the default (PyTorch's 2.13 from the torch
# wheel), in a build folder of its own, so that CI's time does not double:
#   scripts/check-libtorch.sh debian   Debian's libtorch-dev 1.13 (the fallback): installs
#                                      it, builds everything into build-debian/, runs ctest
#   scripts/check-libtorch.sh cuda     PyTorch's CUDA build (the torch==2.14.1 wheel, into
#                                      .venv-cuda) with the CUDA toolkit in /usr/local/cuda:
#                                      compiles and links core and rwb (-DRWB_GUI=OFF) into
#                                      build-cuda/ and runs what needs no GPU (rwb reward
#                                      list, rwb model check --device cpu); no GPU needed
# The last lines of each log are what docs/results.md quotes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
which=${1:-}
start=$(date +%s)
case "$which" in
  debian)
    "$root/scripts/setup.sh" --debian-libtorch
    export RWB_BUILD_DIR=${RWB_BUILD_DIR:-$root/build-debian}
    RWB_LIBTORCH=system "$root/scripts/build.sh" -DRWB_GUI=ON
    grep -q '/usr/lib/.*libtorch' "$RWB_BUILD_DIR/CMakeCache.txt" || {
      echo "check-libtorch: build-debian did not use Debian's libtorch" >&2; exit 1; }
    echo "check-libtorch: built against Debian's libtorch in $(( $(date +%s) - start )) s"
    cd "$RWB_BUILD_DIR"
    QT_QPA_PLATFORM=offscreen RWB_THREADS=${RWB_THREADS:-1} ctest --output-on-failure -j 2
    ;;
  cuda)
    "$root/scripts/setup.sh" --core
    venv=${RWB_CUDA_VENV:-$root/.venv-cuda}
    version=${RWB_CUDA_TORCH_VERSION:-2.14.1}
    [[ -x "$venv/bin/pip" ]] || python3 -m venv "$venv"
    "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('torch').split('+')[0] != '$version')" \
      2>/dev/null || "$venv/bin/pip" install -q "torch==$version"
    prefix=$(echo "$venv"/lib/python3*/site-packages/torch)
    cuda=${CUDA_HOME:-/usr/local/cuda}
    [[ -x "$cuda/bin/nvcc" ]] || { echo "check-libtorch: no nvcc in $cuda/bin (set CUDA_HOME)" >&2; exit 1; }
    # The CUDA wheel's libtorch links NVIDIA's libraries from the pip wheels beside it
    # (nvidia/*/lib): the linker and the binaries' RUNPATH find them there.
    nvlibs=$(find "$(dirname "$prefix")/nvidia" -maxdepth 3 -name lib -type d 2>/dev/null | paste -sd: -)
    # The toolkit in /usr/local/cuda may lack NVRTC, which libtorch's CMake links; the
    # wheel's copy has only its versioned name, which find_library does not look for.
    nvrtc=$(find "$(dirname "$prefix")/nvidia" -name 'libnvrtc.so.[0-9]*' ! -name '*alt*' 2>/dev/null | head -1)
    extra=()
    [[ -n "$nvrtc" && ! -e "$cuda/lib64/libnvrtc.so" ]] && extra+=(-DCUDA_nvrtc_LIBRARY="$nvrtc" -DCUDA_NVRTC_LIB="$nvrtc")
    export RWB_BUILD_DIR=${RWB_BUILD_DIR:-$root/build-cuda}
    export PATH="$cuda/bin:$PATH" CUDA_HOME="$cuda" CUDACXX="$cuda/bin/nvcc"
    RWB_LIBTORCH="$prefix" "$root/scripts/build.sh" -DRWB_GUI=OFF -DCMAKE_DISABLE_FIND_PACKAGE_Qt6=ON \
      -DCUDAToolkit_ROOT="$cuda" -DCMAKE_BUILD_RPATH="$nvlibs" "${extra[@]}"
    echo "check-libtorch: compiled and linked against $prefix in $(( $(date +%s) - start )) s"
    rwb="$RWB_BUILD_DIR/app/rwb/rwb"
    ldd "$rwb" | grep -E 'libtorch_cuda|libc10_cuda|libcudart|libnccl' || true
    "$rwb" reward list >/dev/null && echo "check-libtorch: rwb runs (no GPU here)"
    "$rwb" model check --device cpu --dtype float32 | tail -3
    ;;
  *)
    echo "usage: scripts/check-libtorch.sh debian|cuda" >&2
    exit 2
    ;;
esac
echo "check-libtorch: $which done in $(( $(date +%s) - start )) s"
