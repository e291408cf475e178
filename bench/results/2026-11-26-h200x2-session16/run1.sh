#!/usr/bin/env bash
# session 16, call 1 (two GPUs): the distributed CG's sums over the ranks inside the sums
# kernel (NCCL's device API) against ncclAllReduce between kernels (SPIRA_NCCL_IN_KERNEL=0),
# same library, same run. From the source root with .device-run carried (bench/carry-build.sh).
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) (+ the working tree)"; date -u; } >"$L" 2>&1
echo "== check_dist on 2 GPUs, sums in kernels" >>"$L"
SPIRA_DIST_GPU=1 timeout 300 $MPI -np 2 $B/check_dist >"$OUT/check-dist-in-kernel.log" 2>&1; echo "rc $?" >>"$L"
tail -2 "$OUT/check-dist-in-kernel.log" >>"$L"
echo "== check_dist on 2 GPUs, SPIRA_NCCL_IN_KERNEL=0" >>"$L"
SPIRA_DIST_GPU=1 SPIRA_NCCL_IN_KERNEL=0 timeout 300 $MPI -x SPIRA_NCCL_IN_KERNEL -np 2 $B/check_dist >"$OUT/check-dist-allreduce.log" 2>&1; echo "rc $?" >>"$L"
tail -2 "$OUT/check-dist-allreduce.log" >>"$L"
cg() { # name np in_kernel
  echo "== $1 np$2 SPIRA_NCCL_IN_KERNEL=$3" >>"$L"
  SPIRA_NCCL_IN_KERNEL=$3 timeout 120 $MPI -x SPIRA_NCCL_IN_KERNEL -np $2 $B/spira-solve --dist \
     --laplacian 3:${GRID:-200} --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "ranks|result|repeated|rror" /tmp/cg.log | head -5 >>"$L"
}
for round in 1 2 3; do
  cg cg 2 1; cg cg 2 0
done
cg cg 1 1; cg cg 1 0
echo "== one process" >>"$L"
timeout 120 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"
cg cg 1 1
echo "== sanitizers, 2 ranks, sums in kernels, 3-D 40^3" >>"$L"
for tool in memcheck racecheck; do
  timeout 200 $MPI -np 2 compute-sanitizer --tool $tool $B/spira-solve --dist --laplacian 3:40 \
     --tol 1e-8 >"$OUT/$tool.log" 2>&1; echo "$tool rc $?" >>"$L"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Error|result" "$OUT/$tool.log" | sort | uniq -c | head -8 >>"$L"
done
mkdir -p /tmp/tl
bash $R/bench/dist-timeline.sh $B/spira-solve $B/libgputrace.so /tmp/tl 2 >>"$L" 2>&1
cp /tmp/tl/timeline-np2.txt "$OUT/timeline-in-kernel-np2.txt" 2>/dev/null
echo "== PageRank R-MAT 2^23 np2 / np1 (sums in kernels)" >>"$L"
for np in 2 1; do
  timeout 150 $MPI -np $np $B/spira-pagerank --rmat 23:16 --top 0 --repeat 3 >/tmp/pr.log 2>&1; echo "rc $?" >>"$L"
  grep -E "ranks|result|time|again|rror" /tmp/pr.log | head -6 >>"$L"
done
echo done >>"$L"
