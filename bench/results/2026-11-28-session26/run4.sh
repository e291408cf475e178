#!/usr/bin/env bash
# session 26, call 4 (one H200): bench/longrow-probe.cu with the column tiles (a block a
# range of W columns, its warps every long row's entries in the range) beside the warp
# chunks, at the circuit's dense rows and at hub shapes.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
. .device-run/env.sh
L=$OUT/run4.txt
{ nvidia-smi -L; date -u; } >"$L" 2>&1
for a in "" "1000000 40 20000" "1048576 400 9000" "1048576 4000 1000"; do
  .device-run/bin/longrow-probe $a >>"$L" 2>&1
done
date -u >>"$L"; echo done >>"$L"
