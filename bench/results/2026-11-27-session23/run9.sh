#!/usr/bin/env bash
# session 23, call 9 (two GPUs of one host): the library left on main (one device allocation
# a layout) on the multi-GPU paths: check_dist under mpirun on two GPUs (SPIRA_DIST_GPU=1),
# check_gpu_devices (GF(2) over two devices against one and the CPU), and the GF(2) Krylov
# sequence on 1 and 2 devices (gpu-verify's devices stage).
set -u
R=$PWD
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
STAGES="devices" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/devices.txt "$OUT/devices9.txt" 2>/dev/null
echo "== check_dist on 2 GPUs" >>"$L"
SPIRA_DIST_GPU=1 timeout 240 $MPI -np 2 $B/check_dist >"$OUT/check-dist9.log" 2>&1; echo "rc $?" >>"$L"
tail -3 "$OUT/check-dist9.log" >>"$L"
date -u >>"$L"; echo done >>"$L"
