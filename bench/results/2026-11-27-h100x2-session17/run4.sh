#!/usr/bin/env bash
# session 17, call 4 (two GPUs), the final library: the GPU suite on one GPU (CG's graph
# kernels changed for every solve); compute-sanitizer on the one-process CG graph and on the
# distributed CG with the kernel halo; check_dist on 2 GPUs; CG on 3-D Poisson 200^3 to 1e-8
# with and without the kernel halo and one process, three rounds; a trace of the allreduce
# path's kernels (SPIRA_NCCL_IN_KERNEL=0) for the sums kernel's own time.
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
STAGES=suite bash $R/bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
pkill -f gen-irregular; cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite.txt"
echo "== sanitizers, one process, CG's graph (3-D 40^3; Jacobi 2-D 300^2)" >>"$L"
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool $B/spira-solve --laplacian 3:40 --tol 1e-8 >"$OUT/$tool.log" 2>&1; echo "$tool rc $?" >>"$L"
  timeout 200 compute-sanitizer --tool $tool $B/spira-solve --laplacian 2:300 --precond jacobi --tol 1e-8 >>"$OUT/$tool.log" 2>&1; echo "$tool jacobi rc $?" >>"$L"
  echo "-- 2 ranks, the kernel halo" >>"$OUT/$tool.log"
  timeout 200 $MPI -np 2 compute-sanitizer --tool $tool $B/spira-solve --dist --laplacian 3:40 \
     --tol 1e-8 >>"$OUT/$tool.log" 2>&1; echo "$tool np2 rc $?" >>"$L"
  timeout 200 $MPI -np 2 compute-sanitizer --tool $tool $B/spira-solve --dist --laplacian 2:300 \
     --precond jacobi --tol 1e-8 >>"$OUT/$tool.log" 2>&1; echo "$tool np2 jacobi rc $?" >>"$L"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|result|Program hit" "$OUT/$tool.log" | sed 's/ on CUDA API.*//' | sort | uniq -c | head -12 >>"$L"
done
echo "== check_dist on 2 GPUs" >>"$L"
SPIRA_DIST_GPU=1 timeout 200 $MPI -np 2 $B/check_dist >/tmp/cd.log 2>&1; echo "rc $?" >>"$L"
tail -1 /tmp/cd.log >>"$L"
cg() { # np kernel_halo
  echo "== cg np$1 SPIRA_NCCL_KERNEL_HALO=$2" >>"$L"
  SPIRA_NCCL_KERNEL_HALO=$2 timeout 100 $MPI -x SPIRA_NCCL_KERNEL_HALO -np $1 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "result|repeated|rror" /tmp/cg.log | head -3 >>"$L"
}
one() { echo "== one process" >>"$L"
  timeout 100 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"; }
for round in 1 2 3; do cg 2 1; cg 2 0; one; done
rm -f /tmp/tr-*.csv
SPIRA_NCCL_IN_KERNEL=0 CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/tr-r%r.csv timeout 100 $MPI \
  -x SPIRA_NCCL_IN_KERNEL -x CUDA_INJECTION64_PATH -x GPU_TRACE -np 2 $B/spira-solve --dist --laplacian 3:200 \
  --tol 1e-4 --repeat 2 >/tmp/tr.log 2>&1
its=$(sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' /tmp/tr.log | head -1)
python3 $R/bench/timeline-summary.py --iterations "$its" /tmp/tr-r*.csv >"$OUT/timeline-np2-allreduce.txt" 2>&1
echo done >>"$L"
