#!/usr/bin/env bash
# gpu-gf2-sweep.sh - finds the combined GF(2) format's cut-offs by measurement on this GPU:
# spira-gf2 times `combined` on the sieve-shaped N x N matrix of 64 entries a row (--nfs
# N:64) at W = 64, first over the 64 choices of sub-format for its three bands (default
# cut-offs), then, with the fastest choice, over a grid of cut-offs (dense, cut1, cut2), then
# over the blocks that share a slice (parts).
# Every run is checked bit for bit by spira-gf2. Prints the fastest setting and the line for
# the defaults table in spmv/gf2/gf2_combined.c, keyed by this device's name.
# Run from a built tree:  bench/gpu-gf2-sweep.sh OUT_DIR [N]   (N defaults to 1000000)
# Writes OUT_DIR/sweep-shares.csv, sweep-cuts.csv, sweep-parts.csv and sweep.txt.
set -uo pipefail
out=${1:?usage: gpu-gf2-sweep.sh OUT_DIR [N]}
n=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
rc=0
# 64 choices: two runs (spira-gf2 takes at most 64 formats a run), one CSV
k=0
for half in "thread warp" "block csr"; do
  items=
  for b1 in $half; do
    for b2 in thread warp block csr; do
      for b3 in thread warp block csr; do
        items="${items:+$items,}combined:dense=32,cut1=256,cut2=8192,band1=$b1,band2=$b2,band3=$b3"
      done
    done
  done
  k=$((k + 1))
  ./examples/spira-gf2 --nfs "$n:64" --width 64 --formats "csr,$items" --csv \
    > "$out/sweep-shares-$k.csv" || rc=1
done
{ cat "$out/sweep-shares-1.csv"; tail -n +2 "$out/sweep-shares-2.csv"; } > "$out/sweep-shares.csv"
best=$(python3 "$here/gf2-sweep-summary.py" best "$out/sweep-shares.csv") || exit 1
items=
for dense in 0 8 32 128 512; do
  for cut1 in 64 256 1024; do
    for cut2 in 2048 8192 65536 1073741824; do
      items="${items:+$items,}combined:$best,dense=$dense,cut1=$cut1,cut2=$cut2"
    done
  done
done
./examples/spira-gf2 --nfs "$n:64" --width 64 --formats "csr,$items" --csv \
  > "$out/sweep-cuts.csv" || rc=1
# then the blocks a slice shares (0: as many as fill the GPU; 1: the paper's one)
best=$(python3 "$here/gf2-sweep-summary.py" best "$out/sweep-shares.csv" "$out/sweep-cuts.csv") \
  || exit 1
items=
for parts in 0 1 2 4 8 16 32; do
  items="${items:+$items,}combined:$best,parts=$parts"
done
./examples/spira-gf2 --nfs "$n:64" --width 64 --formats "csr,$items" --csv \
  > "$out/sweep-parts.csv" || rc=1
python3 "$here/gf2-sweep-summary.py" report "$out/sweep-shares.csv" "$out/sweep-cuts.csv" \
  "$out/sweep-parts.csv" | tee "$out/sweep.txt" || rc=1
exit $rc
