#!/usr/bin/env bash
# session 22, call 6 (one H100), the library of call 4: where the upload's rare 30-40 ms
# outliers come from. The circuit matrix's CSR upload (spira-spmv's cusparse row, the first
# plan built, claims it; a first try read the merge row's, 0.1 ms: its own) in 15 rounds of
# four variants, one process each: as is, without the
# preload thread (SPIRA_PRELOAD=0), OMP_WAIT_POLICY=passive, OMP_WAIT_POLICY=active.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
. .device-run/env.sh
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; nproc; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems circuit >/dev/null 2>&1
for k in $(seq 1 15); do
  for v in asis nopreload passive active; do
    case $v in
      asis) e="X=1";; nopreload) e="SPIRA_PRELOAD=0";; passive) e="OMP_WAIT_POLICY=passive";; active) e="OMP_WAIT_POLICY=active";;
    esac
    u=$(env $e $B/spira-spmv /tmp/m/circuit-1000000.mtx --formats merge --reps 3 --warmup 1 2>&1 | awk '$1 == "cusparse" {print $3}')
    echo "round $k $v upload_ms $u" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
