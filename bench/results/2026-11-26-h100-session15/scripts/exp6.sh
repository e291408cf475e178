#!/usr/bin/env bash
# session 15, GPU call 6: PageRank's host transpose, direct (XB=1) against column blocks (XB=0)
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
mkdir -p /tmp/m && python3 $R/bench/gen-irregular.py /tmp/m --problems rmat > /dev/null 2>&1
nproc > $OUT/transpose.txt
for r in 1 2 3 4 5; do for xb in 1 0; do
  echo "XB=$xb $(XB=$xb $B/spira-pagerank /tmp/m/rmat-20.mtx --top 0 2>&1 | grep -E 'TIMING|  time' | tr -s ' ' | tr '\n' ' ')" >> $OUT/transpose.txt
done; done
