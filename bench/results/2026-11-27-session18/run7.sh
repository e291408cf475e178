#!/usr/bin/env bash
# session 18, call 7 (one GPU): where PageRank's setup goes on the host: 6a6274b's library
# with timing prints in transition_build and the GPU transpose (a build not committed), on
# R-MAT 2^20, three processes.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems rmat >/dev/null 2>&1
for i in 1 2 3; do $B/spira-pagerank /tmp/m/rmat-20.mtx --top 0 2>&1 | grep -E "^TT|^  time" >>"$L"; done
date -u >>"$L"
