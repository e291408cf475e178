#!/usr/bin/env bash
# session 17, call 1 (two GPUs): the halo written by CG's kernels (dist/nccl_cg.cu).
# check_dist on 2 GPUs with it (default) and without (SPIRA_NCCL_KERNEL_HALO=0); CG on 3-D
# Poisson 200^3 to 1e-8: two GPUs with and without it, one process, three rounds; a trace.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
for k in 1 0; do
  echo "== check_dist on 2 GPUs, SPIRA_NCCL_KERNEL_HALO=$k" >>"$L"
  SPIRA_DIST_GPU=1 SPIRA_NCCL_KERNEL_HALO=$k timeout 200 $MPI -x SPIRA_NCCL_KERNEL_HALO -np 2 $B/check_dist >"$OUT/check-dist-$k.log" 2>&1; echo "rc $?" >>"$L"
  tail -3 "$OUT/check-dist-$k.log" >>"$L"
done
cg() { # np kernel_halo
  echo "== cg np$1 SPIRA_NCCL_KERNEL_HALO=$2" >>"$L"
  SPIRA_NCCL_KERNEL_HALO=$2 timeout 100 $MPI -x SPIRA_NCCL_KERNEL_HALO -np $1 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "solver|result|residual|repeated|rror" /tmp/cg.log | head -5 >>"$L"
}
one() { echo "== one process" >>"$L"
  timeout 100 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"; }
cg 2 1
for round in 1 2 3; do cg 2 1; cg 2 0; one; done
rm -f /tmp/tr-*.csv
CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r%r.csv timeout 100 $MPI \
  -x CUDA_INJECTION64_PATH -x GPU_TRACE -np 2 $B/spira-solve --dist --laplacian 3:200 \
  --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
its=$(sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' /tmp/tr.log | head -1)
python3 $R/bench/timeline-summary.py --iterations "$its" /tmp/tr-r*.csv >"$OUT/timeline-np2-kh.txt" 2>&1
echo done >>"$L"
