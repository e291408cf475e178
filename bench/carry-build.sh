#!/usr/bin/env bash
# carry-build.sh - package a CUDA build made on the development machine for the GPU
# machine, instead of building there (a full nvcc build takes minutes of device time; the
# package runs in seconds). From the source root:
#   bash bench/carry-build.sh BUILD_DIR [DEST [OLD_BUILD_DIR]]
# DEST (default .device-run, ignored by git: add /.device-*/ to .git/info/exclude) gets
#   bin/      the GPU test programs (check_gpu, check_gpu_devices, check_dist if built),
#             bench/dist-costs, trisolve-bench and mmread-bench if built, and the
#             drivers (spira-spmv, spira-solve, spira-pagerank, spira-gf2), stripped,
#             and libgputrace.so (bench/gpu-trace.c) where CUPTI's header is found
#   new/lib/  libspira.so.0 of BUILD_DIR, Check's libsubunit.so.0 and METIS's libmetis.so.5
#             if linked (the GPU machine has neither)
#   old/lib/  with OLD_BUILD_DIR, that build's libspira.so.0: the drivers run against it
#             with LD_LIBRARY_PATH=DEST/old/lib for a before/after in one run (the public
#             API must be the same)
#   commit    the commit of the source tree
#   env.sh    sourced on the GPU machine: LD_LIBRARY_PATH and SPIRA_DATA
# Then: run with carry [DEST] and a command that sources DEST/env.sh, e.g.
#   . .device-run/env.sh && cd /tmp/r && mkdir -p tests && cp $D/bin/check_gpu tests/ &&
#   sh $R/tests/gpu-cases.sh logs 200 cuda
# Built here against Debian 12's glibc 2.36, which the GPU machine's 2.39 runs; the CUDA
# libraries (cuBLAS, cuSPARSE, the runtime) are the machine's own, of the same major version.
set -euo pipefail
build=${1:?usage: carry-build.sh BUILD_DIR [DEST [OLD_BUILD_DIR]]}
dest=${2:-.device-run}
old=${3:-}
lib() { # $1 build dir: its shared library's real file
  local f
  f=$(ls "$1"/.libs/libspira.so.*.*.* 2>/dev/null | head -1)
  [ -n "$f" ] || { echo "carry-build: no $1/.libs/libspira.so (configure --enable-shared?)" >&2; exit 1; }
  echo "$f"
}
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/new/lib"
cp "$(lib "$build")" "$dest/new/lib/libspira.so.0"
# libraries the GPU machine lacks: Check's libsubunit, METIS where configure found it
for name in libsubunit libmetis; do
  f=$(ldd "$build/tests/check_gpu" "$(lib "$build")" 2>/dev/null | awk -v n="$name" '$1 ~ n {print $3; exit}')
  [ -z "$f" ] || cp -L "$f" "$dest/new/lib/"
done
for p in tests/check_gpu tests/check_gpu_devices tests/check_dist bench/dist-costs \
         bench/trisolve-bench bench/mmread-bench; do
  [ -x "$build/$p" ] && cp "$build/$p" "$dest/bin/"
done
for p in spira-spmv spira-solve spira-pagerank spira-gf2; do
  [ -x "$build/examples/.libs/$p" ] && cp "$build/examples/.libs/$p" "$dest/bin/"
done
# the CUPTI timeline recorder (bench/gpu-trace.c), where CUPTI's header is found
cuda=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
if [ -f "$cuda/include/cupti.h" ]; then
  gcc -std=gnu11 -O2 -shared -fPIC -o "$dest/bin/libgputrace.so" bench/gpu-trace.c \
    -I"$cuda/include" -L"$cuda/lib64" -lcupti
fi
if [ -n "$old" ]; then
  mkdir -p "$dest/old/lib"
  cp "$(lib "$old")" "$dest/old/lib/libspira.so.0"
fi
strip "$dest"/bin/* "$dest"/*/lib/libspira.so.0
git rev-parse HEAD >"$dest/commit"
cat >"$dest/env.sh" <<'ENV'
# sourced from the source root on the GPU machine
R=$PWD
D=$R/$(basename "$(dirname "${BASH_SOURCE[0]}")")
export SPIRA_DATA=$R/data
export LD_LIBRARY_PATH=$D/new/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
ENV
du -sh "$dest"
