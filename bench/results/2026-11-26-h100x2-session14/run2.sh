#!/usr/bin/env bash
# ad hoc (session 14): distributed CG, variants of the off-diagonal block's format, before/after
set -u
. .device-run/env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=$D/bin
MPI="mpirun --allow-run-as-root --bind-to none -x LD_LIBRARY_PATH -x SPIRA_DATA"
L=$OUT/dist.log
{ nvidia-smi -L; echo "commit $(cat $D/commit)"; } >"$L" 2>&1
NEW=$LD_LIBRARY_PATH; OLD=$D/old/lib:$D/new/lib:/usr/local/cuda/lib64:/usr/local/cuda/lib
cg() { # name lib np [env...]
  local name=$1 lib=$2 np=$3; shift 3
  echo "== $name np$np $*" >>"$L"
  env LD_LIBRARY_PATH=$lib timeout 120 $MPI "$@" -np $np $B/spira-solve --dist --laplacian 3:${GRID:-200} \
     --tol 1e-8 --repeat 6 >/tmp/cg.log 2>&1; echo "rc $?" >>"$L"
  grep -E "result|repeated|error|format" /tmp/cg.log | head -4 >>"$L"
}
for round in 1 2; do
  cg new $NEW 2; cg old $OLD 2
  for f in csr-scalar ell coo; do cg new-$f $NEW 2 -x SPIRA_X_OFFDIAG=$f; done
done
cg new $NEW 1; cg old $OLD 1
echo "== one process" >>"$L"
timeout 120 $B/spira-solve --laplacian 3:200 --tol 1e-8 --repeat 6 2>&1 | grep -E "result|repeated" >>"$L"
echo "== check_dist on 2 GPUs" >>"$L"
SPIRA_DIST_GPU=1 timeout 240 $MPI -np 2 $B/check_dist >"$OUT/check-dist-gpu.log" 2>&1; echo "rc $?" >>"$L"
tail -2 "$OUT/check-dist-gpu.log" >>"$L"
mkdir -p /tmp/tl
bash $R/bench/dist-timeline.sh $B/spira-solve $B/libgputrace.so /tmp/tl 2 >>"$L" 2>&1
cp /tmp/tl/timeline-np2.txt "$OUT/" 2>/dev/null
echo done >>"$L"
