#!/usr/bin/env bash
# gpu-gf2-formats.sh - the GF(2) formats on the GPU machine (issue 15): their GPU tests, the
# formats benchmark and the combined format's cut-off sweep, each a step of its own (each
# fits the GPU machine's 10-minute limit on a command). Run from a built CUDA tree:
#   bench/gpu-gf2-formats.sh OUT_DIR [STEP] [N]
# STEP: tests, bench, sweep, or all (default); N: the sieve-shaped matrix's rows (default
# 1000000, 64 entries a row).
#   tests  check_gpu's GF(2) cases one by one (tests/gpu-cases.sh): "cuda" (every GF(2)
#          format and width against the triplets with Y poisoned, allocation failures, the
#          kernel search), "GF(2) conversion on the GPU" (device-built layouts against the
#          host's, array for array) and "block Wiedemann"; with SANITIZE=1 the conversion
#          case again under compute-sanitizer memcheck and racecheck (the atomic XORs). A
#          case that crashes is run again under gdb (if there is one) with the same seed, its
#          backtrace beside the case's log. Logs in OUT_DIR/tests*/.
#   bench  spira-gf2 --nfs N:64 at W = 64, 128, 256: csr, the three sliced sub-formats,
#          dense (refused at this size: its bitmap would be N^2/8 bytes) and combined (its
#          defaults, and the chapter's warp/block/block bands), built
#          on the GPU (OUT_DIR/formats-gpu.csv); the same formats converted on the host, on
#          the CPU backend at W = 64 (formats-host.csv: setup_ms is the host conversion);
#          dense where it is allowed, on 20000 rows (formats-dense.csv); the table with
#          Gnnz/s, the ratio to csr and setup in multiplies in OUT_DIR/formats.txt.
#   sweep  bench/gpu-gf2-sweep.sh: combined's sub-formats and cut-offs, the fastest and its
#          line for the defaults table (OUT_DIR/sweep/sweep.txt).
# Exit status 1 if a step failed (a test, a WRONG result, a run that errored).
set -uo pipefail
out=${1:?usage: gpu-gf2-formats.sh OUT_DIR [tests|bench|sweep|all] [N]}
step=${2:-all}
n=${3:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
mkdir -p "$out"
rc=0
fmts="csr,sliced-coo:share=thread,sliced-coo:share=warp,sliced-coo:share=block,dense,combined"
fmts="$fmts,combined:band1=warp,band2=block,band3=block" # the chapter's order of sub-formats

if [ "$step" = tests ] || [ "$step" = all ]; then
  sh "$src/tests/gpu-cases.sh" "$out/tests" 540 "cuda" "GF(2) conversion on the GPU" \
    "block Wiedemann" | tee "$out/tests.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
  # a case that crashed (SIGSEGV, SIGABRT): again under gdb with its seed, for the backtrace
  for c in cuda "GF(2) conversion on the GPU" "block Wiedemann"; do
    grep -q "^case '$c': exit 13[49] " "$out/tests.txt" || continue
    log="$out/tests/gpu-case-$(printf '%s' "$c" | tr -c 'A-Za-z0-9' '-').log"
    if ! command -v gdb >/dev/null; then echo "$c: crashed; no gdb here for a backtrace"; continue; fi
    seed=$(sed -n 's/^test seed: \([0-9]*\).*/\1/p' "$log" | head -1)
    CK_RUN_CASE="$c" SPIRA_TEST_SEED="$seed" timeout 540 gdb -q -batch -ex run -ex bt \
      ./tests/check_gpu > "${log%.log}-gdb.log" 2>&1
    echo "$c: crashed; gdb's backtrace in ${log%.log}-gdb.log"
  done
  if [ "${SANITIZE:-0}" = 1 ]; then
    for tool in memcheck racecheck; do
      WRAP="compute-sanitizer --tool $tool --error-exitcode 1" \
        sh "$src/tests/gpu-cases.sh" "$out/tests-$tool" 540 "GF(2) conversion on the GPU" \
        | tee "$out/tests-$tool.txt"
      [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    done
  fi
fi

if [ "$step" = bench ] || [ "$step" = all ]; then
  ./examples/spira-gf2 --nfs "$n:64" --width 64,128,256 --formats "$fmts" --csv \
    > "$out/formats-gpu.csv" || rc=1
  ./examples/spira-gf2 --backend cpu --nfs "$n:64" --width 64 --formats "$fmts" --reps 1 \
    --warmup 0 --csv > "$out/formats-host.csv" || rc=1
  ./examples/spira-gf2 --nfs 20000:64 --width 64,128,256 \
    --formats "csr,dense:max_fill=16,combined" --csv > "$out/formats-dense.csv" || rc=1
  ./examples/spira-gf2 --list-formats > "$out/formats-list.txt" 2>&1
  python3 "$here/gf2-sweep-summary.py" formats "$out/formats-gpu.csv" "$out/formats-host.csv" \
    "$out/formats-dense.csv" | tee "$out/formats.txt" || rc=1
fi

if [ "$step" = sweep ] || [ "$step" = all ]; then
  "$here/gpu-gf2-sweep.sh" "$out/sweep" "$n" || rc=1
fi
exit $rc
