#!/usr/bin/env bash
# session 25, call 1 (one H200): where Spira's formats lose to cuSPARSE on the circuit-like
# matrix. bench/circuit-parts.py takes it apart (the band alone, with the dense columns,
# with the dense rows, whole); spira-spmv times the formats on each; then ncu's counters
# for sell's and cuSPARSE's kernels on the whole circuit matrix and on R-MAT 2^20.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
. .device-run/env.sh
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat-20 >/tmp/o/gen.txt 2>&1 &
wait
cat /tmp/o/parts.txt /tmp/o/gen.txt >>"$L"
F=cusparse:alg=1,cusparse:alg=2,sell,sell:sigma=32,merge,csr-vector,hyb,suraa
for m in band cols rows; do
  $B/spira-spmv /tmp/m/circuit-$m-1000000.mtx --formats $F --reps 100 >$OUT/spmv-$m.txt 2>&1
  echo "spmv $m: exit $?" >>"$L"
done
$B/spira-spmv /tmp/m/circuit-1000000.mtx --formats $F --reps 100 >$OUT/spmv-whole.txt 2>&1
echo "spmv whole: exit $?" >>"$L"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__grid_size,launch__registers_per_thread
for m in circuit-1000000 circuit-band-1000000 rmat-20; do
  timeout 200 ncu --clock-control none -k regex:"sell_kernel|csrmv|merge|spmv" --launch-count 12 \
    --metrics $M $B/spira-spmv /tmp/m/$m.mtx --formats sell,merge --reps 2 --warmup 0 \
    >/tmp/o/ncu-$m.txt 2>&1
  echo "ncu $m: exit $?" >>"$L"
done
cat /tmp/o/ncu-*.txt > $OUT/ncu.txt
date -u >>"$L"; echo done >>"$L"
