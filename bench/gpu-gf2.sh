#!/usr/bin/env bash
# gpu-gf2.sh - SpMV over GF(2) (block Wiedemann's multiply) on two generated matrices
# shaped like number-field-sieve ones (spira-gf2 --nfs: dense first columns): N x N with 64
# entries a row, and N/4 x N/4 with 150; every format at block widths 64, 128 and 256.
# Run from a built tree (.device/gpu-build leaves one in /tmp/spira-build):
#   bench/gpu-gf2.sh OUT_DIR [N] [FORMATS]
# N defaults to 1000000, FORMATS to all (the chapter's three sliced sub-formats too:
# all,sliced-coo:share=thread,sliced-coo:share=warp,sliced-coo:share=block).
# Writes OUT_DIR/gf2.csv (one header line). Exit status 1 if any run failed or was WRONG.
set -uo pipefail
out=${1:?usage: gpu-gf2.sh OUT_DIR [N] [FORMATS]}
n=${2:-1000000}
formats=${3:-all}
mkdir -p "$out"
rc=0
first=1
for spec in "$n:64" "$((n / 4)):150"; do
  # one header line per file
  ./examples/spira-gf2 --nfs "$spec" --width 64,128,256 --formats "$formats" --csv |
    { if [ $first = 1 ]; then cat; else tail -n +2; fi; }
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
  first=0
done > "$out/gf2.csv"
exit $rc
