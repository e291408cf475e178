#!/usr/bin/env bash
# session 17, call 5 (two GPUs), the final library (the stores described on every backend,
# the 64-entry row limit, every run's counts reset): check_dist on 2 GPUs (with its new
# CPU-side test of the stores on GPU ranks); CG on 3-D Poisson 200^3 to 1e-8 with and
# without the kernel halo and one process.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
echo "== check_dist on 2 GPUs" >>"$L"
SPIRA_DIST_GPU=1 timeout 150 $MPI -np 2 $B/check_dist >/tmp/cd.log 2>&1; echo "rc $?" >>"$L"
tail -1 /tmp/cd.log >>"$L"; grep -E "F:|E:" /tmp/cd.log | head -5 >>"$L"
cg() { # np kernel_halo
  echo "== cg np$1 SPIRA_NCCL_KERNEL_HALO=$2" >>"$L"
  SPIRA_NCCL_KERNEL_HALO=$2 timeout 60 $MPI -x SPIRA_NCCL_KERNEL_HALO -np $1 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "solver|result|repeated|rror" /tmp/cg.log | head -4 >>"$L"
}
cg 2 1; cg 2 0
echo "== one process" >>"$L"
timeout 60 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"
echo done >>"$L"
