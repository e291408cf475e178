#!/usr/bin/env bash
# ad hoc (session 14): distributed CG, NCCL CTA settings, step prefetch; CG graph GPU tests
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/dist.log
{ nvidia-smi -L; echo "commit $(cat $D/commit)"; } >"$L" 2>&1
echo "== check_gpu: CG's graph on the GPU" >>"$L"
CK_RUN_CASE="CG's graph on the GPU" timeout 200 $B/check_gpu >"$OUT/check-gpu-cg.log" 2>&1; echo "rc $?" >>"$L"
tail -2 "$OUT/check-gpu-cg.log" >>"$L"
NEW=$LD_LIBRARY_PATH; OLD=$D/old/lib:$D/new/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib
cg() { # name lib np [env...]
  local name=$1 lib=$2 np=$3; shift 3
  echo "== $name np$np $*" >>"$L"
  env LD_LIBRARY_PATH=$lib timeout 120 $MPI "$@" -np $np $B/spira-solve --dist --laplacian 3:${GRID:-200} \
     --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "repeated|error" /tmp/cg.log | head -3 >>"$L"
}
for round in 1 2; do
  cg new $NEW 2; cg old $OLD 2
  cg new-cs $NEW 2 -x SPIRA_X_OFFDIAG=csr-scalar
  cg new-eff $NEW 2 -x NCCL_CTA_POLICY=1
  cg new-p2p1 $NEW 2 -x NCCL_MAX_P2P_NCHANNELS=1
  cg new-p2p4 $NEW 2 -x NCCL_MAX_P2P_NCHANNELS=4
  cg new-cs-p2p1 $NEW 2 -x SPIRA_X_OFFDIAG=csr-scalar -x NCCL_MAX_P2P_NCHANNELS=1
done
cg new $NEW 1; cg old $OLD 1
echo "== one process new / old" >>"$L"
timeout 120 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "repeated" >>"$L"
LD_LIBRARY_PATH=$OLD timeout 120 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "repeated" >>"$L"
echo "== check_dist on 2 GPUs" >>"$L"
SPIRA_DIST_GPU=1 timeout 240 $MPI -np 2 $B/check_dist >"$OUT/check-dist-gpu.log" 2>&1; echo "rc $?" >>"$L"
tail -1 "$OUT/check-dist-gpu.log" >>"$L"
echo done >>"$L"
