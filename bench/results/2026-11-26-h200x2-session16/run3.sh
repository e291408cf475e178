#!/usr/bin/env bash
# session 16, call 3 (two GPUs), the committed b28c6bf: check_dist both ways, CG on 3-D
# Poisson 200^3 to 1e-8 on 2 GPUs / 1 GPU / one process, traced at 1e-4 (two GPUs and one
# process), PageRank on R-MAT 2^23 with the sums in kernels and by ncclAllReduce.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
for k in 1 0; do
  echo "== check_dist on 2 GPUs, SPIRA_NCCL_IN_KERNEL=$k" >>"$L"
  SPIRA_DIST_GPU=1 SPIRA_NCCL_IN_KERNEL=$k timeout 300 $MPI -x SPIRA_NCCL_IN_KERNEL -np 2 $B/check_dist >"$OUT/check-dist-$k.log" 2>&1; echo "rc $?" >>"$L"
  tail -1 "$OUT/check-dist-$k.log" >>"$L"
done
cg() { # np in_kernel
  echo "== cg np$1 SPIRA_NCCL_IN_KERNEL=$2" >>"$L"
  SPIRA_NCCL_IN_KERNEL=$2 timeout 120 $MPI -x SPIRA_NCCL_IN_KERNEL -np $1 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "sums over|result|repeated|rror" /tmp/cg.log | sed 's/.*sums over/  sums over/' | head -4 >>"$L"
}
one() { echo "== one process" >>"$L"
  timeout 120 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"; }
for round in 1 2 3; do cg 2 1; one; done
cg 2 0; cg 1 1
trace() { # name np
  rm -f /tmp/tr-*.csv
  if [ "$2" = 0 ]; then
    CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r0.csv timeout 120 $B/spira-solve \
      --laplacian 3:200 --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
  else
    CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r%r.csv timeout 120 $MPI \
      -x CUDA_INJECTION64_PATH -x GPU_TRACE -np $2 $B/spira-solve --dist --laplacian 3:200 \
      --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
  fi
  its=$(sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' /tmp/tr.log | head -1)
  python3 $R/bench/timeline-summary.py --iterations "$its" /tmp/tr-r*.csv >"$OUT/timeline-$1.txt" 2>&1
}
trace np2 2; trace one-process 0
for k in 1 0; do
  echo "== PageRank R-MAT 2^23 np2 SPIRA_NCCL_IN_KERNEL=$k" >>"$L"
  SPIRA_NCCL_IN_KERNEL=$k timeout 150 $MPI -x SPIRA_NCCL_IN_KERNEL -np 2 $B/spira-pagerank --rmat 23:16 --top 0 --repeat 3 >/tmp/pr.log 2>&1; echo "rc $?" >>"$L"
  grep -E "sums over|format|result|time|again|rror" /tmp/pr.log | sed 's/.*sums over/  sums over/' | head -7 >>"$L"
done
echo done >>"$L"
