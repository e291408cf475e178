#!/usr/bin/env bash
# session 17, call 2 (two GPUs): the update's storing blocks first (its shift); check_dist;
# compute-sanitizer on the distributed CG with the kernel halo; CG on 3-D Poisson 200^3 to
# 1e-8 with and without it and one process, three rounds; traces of both.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
echo "== check_dist on 2 GPUs" >>"$L"
SPIRA_DIST_GPU=1 timeout 200 $MPI -np 2 $B/check_dist >"$OUT/check-dist.log" 2>&1; echo "rc $?" >>"$L"
tail -1 "$OUT/check-dist.log" >>"$L"
echo "== sanitizers, 2 ranks, the kernel halo, 3-D 40^3 and Jacobi on 2-D 300^2" >>"$L"
for tool in memcheck racecheck; do
  timeout 200 $MPI -np 2 compute-sanitizer --tool $tool $B/spira-solve --dist --laplacian 3:40 \
     --tol 1e-8 >"$OUT/$tool.log" 2>&1; echo "$tool rc $?" >>"$L"
  timeout 200 $MPI -np 2 compute-sanitizer --tool $tool $B/spira-solve --dist --laplacian 2:300 \
     --precond jacobi --tol 1e-8 >>"$OUT/$tool.log" 2>&1; echo "$tool jacobi rc $?" >>"$L"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result|off-diag" "$OUT/$tool.log" | sed 's/.*off-diagonal/off-diagonal/' | sort | uniq -c | head -8 >>"$L"
done
cg() { # np kernel_halo
  echo "== cg np$1 SPIRA_NCCL_KERNEL_HALO=$2" >>"$L"
  SPIRA_NCCL_KERNEL_HALO=$2 timeout 100 $MPI -x SPIRA_NCCL_KERNEL_HALO -np $1 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "result|repeated|rror" /tmp/cg.log | head -3 >>"$L"
}
one() { echo "== one process" >>"$L"
  timeout 100 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"; }
for round in 1 2 3; do cg 2 1; cg 2 0; one; done
trace() { # name np
  rm -f /tmp/tr-*.csv
  if [ "$2" = 0 ]; then
    CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r0.csv timeout 100 $B/spira-solve \
      --laplacian 3:200 --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
  else
    CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r%r.csv timeout 100 $MPI \
      -x CUDA_INJECTION64_PATH -x GPU_TRACE -np $2 $B/spira-solve --dist --laplacian 3:200 \
      --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
  fi
  its=$(sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' /tmp/tr.log | head -1)
  python3 $R/bench/timeline-summary.py --iterations "$its" /tmp/tr-r*.csv >"$OUT/timeline-$1.txt" 2>&1
}
trace np2-kh 2; trace one-process 0
echo done >>"$L"
