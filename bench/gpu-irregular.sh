#!/usr/bin/env bash
# gpu-irregular.sh - SpMV on large irregular matrices, which the shared SuiteSparse set
# lacks: bench/gen-irregular.py makes a power-law and a uniform random pattern matrix of
# ROWS rows (default 10^6), then spira-spmv times FORMATS (default all,auto) on each in
# double and single.
# Run from a built tree (.device/gpu-build leaves one in /tmp/spira-build):
#   bench/gpu-irregular.sh OUT_DIR [ROWS] [FORMATS]
# Writes OUT_DIR/irregular-d.csv and irregular-s.csv. Set GEN_DIR to reuse matrices.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: gpu-irregular.sh OUT_DIR [ROWS] [FORMATS]}
rows=${2:-1000000}
formats=${3:-all,auto}
gen=${GEN_DIR:-/tmp/spira-irregular}
mkdir -p "$out"
[ -f "$gen/powerlaw-$rows.mtx" ] || python3 "$src/bench/gen-irregular.py" "$gen" "$rows"
for p in d s; do
  first=1
  for m in "$gen/powerlaw-$rows.mtx" "$gen/uniform-$rows.mtx"; do
    # one header line per file
    ./examples/spira-spmv "$m" --precision $p --reps 50 --csv --formats "$formats" |
      { if [ $first = 1 ]; then cat; else tail -n +2; fi; }
    first=0
  done > "$out/irregular-$p.csv"
done
