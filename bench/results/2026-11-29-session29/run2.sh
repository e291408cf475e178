#!/usr/bin/env bash
# session 29, call 2 (one H200): ncu's counters on sell_kernel and the hub gather (R-MAT
# 2^20), and SPIRA_EXP 8: hub ranks in column order instead of by decreasing count (so a
# row's hub entries stay in rank order), beside 1 (programmatic dependent launch).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp29"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1
M=/tmp/m/rmat-20.mtx
row() { # $1 label; env set by caller
  $B/spira-spmv $M --formats sell --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1: $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $4, $5, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
}
for round in 1 2 3; do
  for e in 0 1 8 9; do SPIRA_EXP=$e row "round $round exp=$e"; done
done
MET=gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed
for e in 0 8; do
  SPIRA_EXP=$e timeout 150 ncu --clock-control none --metrics $MET -k "regex:sell_kernel|hub_gather" -c 6 \
    $B/spira-spmv $M --formats sell --reps 3 --warmup 1 >/tmp/o/ncu$e.txt 2>&1
  echo "== ncu exp=$e: exit $?" >>"$L"
  grep -E '^  [a-zA-Z_].*\(|^    [a-z]' /tmp/o/ncu$e.txt | sed 's/(int, int, unsigned int.*//' | cut -c1-150 >>"$L"
done
date -u >>"$L"; echo done >>"$L"
