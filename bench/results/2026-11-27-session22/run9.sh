#!/usr/bin/env bash
# session 22, call 9 (one H100): sell's long-row helpers shared by both paths (a refactor:
# the same operations in the same order) against 870a4e4's library ("old"): the whole GPU
# suite; memcheck and racecheck on sell with block rows and ticket rows; BiCGSTAB with sell
# on adder_dcop_05 and arrow-like inputs, x written by each library and compared byte for
# byte (adder_dcop_05 and wiki-Vote wrote no x: a second run, SKIP_SUITE=1 TOOLS=
# SOLVE_FILES=/tmp/m/dense-row.mtx, solved the 2,000-row matrix with a row of 2,000: a block
# row).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
[ -n "${SKIP_SUITE:-}" ] || STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run9.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite9.txt" 2>/dev/null
for tool in ${TOOLS-memcheck racecheck}; do
  for f in $R/data/adder_dcop_05.mtx $D/mat/arrow.mtx; do
    compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $f --reps 2 --warmup 1 \
      --formats sell >/tmp/cs.log 2>&1
    echo "$tool $(basename $f): rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::'); wrong: $(grep -c WRONG /tmp/cs.log)" >>"$L"
  done
done
python3 - <<'PY'
n = 2000
e = [(i, (i + k) % n) for i in range(n) for k in range(n if i == 7 else 2)]
with open("/tmp/m/dense-row.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (n, n, len(e)))
    for i, j in e: f.write("%d %d %.2f\n" % (i + 1, j + 1, 1 + (i + 3 * j) % 7 / 4))
PY
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
for f in ${SOLVE_FILES:-$R/data/adder_dcop_05.mtx $D/mat/arrow.mtx $D/mat/wiki-Vote.mtx}; do
  rm -f /tmp/m/x-new.mtx /tmp/m/x-old.mtx
  for lib in new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    LD_LIBRARY_PATH=$lp $B/spira-solve $f --solver bicgstab --precond jacobi --format sell --backend cuda --tol 1e-6 \
      --output /tmp/m/x-$lib.mtx >/tmp/m/solve-$lib.txt 2>&1
  done
  echo "$(basename $f): x new vs old: $( [ -s /tmp/m/x-new.mtx ] || echo "no x:"; cmp -s /tmp/m/x-new.mtx /tmp/m/x-old.mtx && echo identical || echo DIFFERENT) ($(grep -E '^  result' /tmp/m/solve-new.txt | tr -s ' '))" >>"$L"
done
date -u >>"$L"; echo done >>"$L"
