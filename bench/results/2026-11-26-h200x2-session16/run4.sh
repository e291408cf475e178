#!/usr/bin/env bash
# session 16, call 4 (two GPUs): the GPU suite and the sanitizers at b28c6bf (GPU 0), then
# NCCL's point-to-point settings for the halo of CG on 3-D Poisson 200^3 (2 GPUs).
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
timeout 400 env STAGES="suite sanitize" bash bench/gpu-verify.sh .device-run $OUT/verify > /tmp/verify-console.txt 2>&1
echo "gpu-verify exit $?" >> $OUT/verify/summary.txt
tar czf $OUT/verify.tgz -C $OUT verify && rm -rf $OUT/verify/cases
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cg() { # name env...
  local name=$1; shift
  echo "== $name" >>"$L"
  env "$@" timeout 60 $MPI $(for e in "$@"; do echo "-x ${e%%=*}"; done) -np 2 $B/spira-solve --dist \
     --laplacian 3:200 --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "repeated|rror" /tmp/cg.log | head -2 >>"$L"
}
for r in 1 2; do
  cg base X=1; cg nch1 NCCL_MAX_P2P_NCHANNELS=1; cg nch2 NCCL_MAX_P2P_NCHANNELS=2
  cg ll NCCL_P2P_LL_THRESHOLD=1048576
done
echo done >>"$L"
