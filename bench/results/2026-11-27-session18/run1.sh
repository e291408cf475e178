#!/usr/bin/env bash
# session 18, call 1 (asked as nvidia-h200-x2): the owed checks at 35b834b (the review's
# refactor of the kernel halo's lookups, compiled only in session 17): check_dist on 2 GPUs
# with and without the kernel halo, memcheck on the kernel halo, the GPU suite; then, where
# the cards are H200s, issue 16's verdict (bench/gpu-dist.sh part a).
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run1.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
for kh in 1 0; do
  echo "== check_dist on 2 GPUs, SPIRA_NCCL_KERNEL_HALO=$kh" >>"$L"
  SPIRA_NCCL_KERNEL_HALO=$kh SPIRA_DIST_GPU=1 timeout 200 $MPI -x SPIRA_NCCL_KERNEL_HALO -np 2 $B/check_dist >/tmp/cd.log 2>&1
  echo "rc $?" >>"$L"; tail -1 /tmp/cd.log >>"$L"
done
echo "== memcheck, 2 ranks, kernel halo (3-D 40^3)" >>"$L"
timeout 200 $MPI -np 2 compute-sanitizer --tool memcheck $B/spira-solve --dist --laplacian 3:40 \
   --tol 1e-8 >"$OUT/memcheck.log" 2>&1; echo "rc $?" >>"$L"
grep -E "ERROR SUMMARY|result|halo" "$OUT/memcheck.log" | sort | uniq -c | head >>"$L"
if nvidia-smi -L | grep -q H200; then
  echo "== H200s: gpu-dist part a" >>"$L"
  PARTS=a timeout 300 bash bench/gpu-dist.sh .device-run /tmp/dist >/tmp/gd.log 2>&1; echo "rc $?" >>"$L"
  tail -5 /tmp/gd.log >>"$L"; cp /tmp/dist/results.md "$OUT/dist-results.md"; tar czf "$OUT/dist.tgz" -C /tmp dist
fi
STAGES=suite timeout 400 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
pkill -f gen-irregular; cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite.txt"
date -u >>"$L"; echo done >>"$L"
