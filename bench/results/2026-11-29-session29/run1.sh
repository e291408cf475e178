#!/usr/bin/env bash
# session 29, call 1 (one H200): where sell's R-MAT multiply goes (ncu's counters on
# sell_kernel, the hub gather and cuSPARSE's CSR kernel) and three experiments, chosen at
# run time by SPIRA_EXP in an experimental build (exp29): 1 programmatic dependent launch
# of sell_kernel after the hub gather, 2 the largest L1 carve-out, 4 x read with an L2/L1
# evict-last policy. "old" = 72c32b4's library.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp29"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat >/tmp/o/gen.txt 2>&1
M=/tmp/m/rmat-20.mtx; ls -la $M >>"$L"
row() { # $1 label; env set by caller
  $B/spira-spmv $M --formats sell --reps 200 >/tmp/o/s.txt 2>&1
  echo "$1: $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ')" >>"$L"
}
for round in 1 2 3; do
  LD_LIBRARY_PATH=$D/old/lib:$LD_LIBRARY_PATH row "round $round old"
  for e in 0 1 2 4 3 7; do SPIRA_EXP=$e row "round $round exp=$e"; done
done
tail -30 /tmp/o/s.txt >>"$L"
MET=gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,sm__throughput.avg.pct_of_peak_sustained_elapsed
for e in 0 4 2; do
  SPIRA_EXP=$e timeout 150 ncu --clock-control none --metrics $MET -k "regex:sell_kernel|hub_gather|csrmv|spmv" -c 12 \
    $B/spira-spmv $M --formats sell,cusparse:alg=1 --reps 3 --warmup 1 >/tmp/o/ncu$e.txt 2>&1
  echo "== ncu exp=$e: exit $?" >>"$L"
  grep -E '^  [a-zA-Z_].*\(|^    [a-z]' /tmp/o/ncu$e.txt | sed 's/(int, int, unsigned int.*//' | cut -c1-150 >>"$L"
done
cp /tmp/o/ncu0.txt $OUT/ncu0.txt
date -u >>"$L"; echo done >>"$L"
