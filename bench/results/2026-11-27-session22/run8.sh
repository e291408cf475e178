#!/usr/bin/env bash
# session 22, call 8 (one H100): sell with a block a long row of 2 to 8 chunks in matrices
# of few slices, against 7d4d029's library ("old", the ticket path for every long row):
# the whole GPU suite; memcheck and racecheck on sell with such rows; sell alone and back to
# back, new and old alternating, on adder_dcop_05, wiki-Vote, arrow and a 2,000-row matrix
# with one row of 2,000. (A second run, SKIP_SUITE=1 TOOLS= and five rounds, read the back
# to back column the first run's awk missed.)
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
[ -n "${SKIP_SUITE:-}" ] || STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run8.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite8.txt" 2>/dev/null
python3 - <<'PY'
n = 2000
e = [(i, (i + k) % n) for i in range(n) for k in range(n if i == 7 else 2)]
with open("/tmp/m/dense-row.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n" % (n, n, len(e)))
    for i, j in e: f.write("%d %d %.2f\n" % (i + 1, j + 1, 1 + (i + 3 * j) % 7 / 4))
PY
for tool in ${TOOLS-memcheck racecheck}; do
  for f in $R/data/adder_dcop_05.mtx /tmp/m/dense-row.mtx $D/mat/wiki-Vote.mtx; do
    compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $f --reps 2 --warmup 1 \
      --formats sell,sell:sigma=4096 --precision s >/tmp/cs.log 2>&1
    echo "$tool $(basename $f) float: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::'); wrong: $(grep -c WRONG /tmp/cs.log)" >>"$L"
  done
done
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
for f in $R/data/adder_dcop_05.mtx $D/mat/wiki-Vote.mtx $D/mat/arrow.mtx /tmp/m/dense-row.mtx; do
  for lib in new old new old new old new old new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    r=$(LD_LIBRARY_PATH=$lp $B/spira-spmv $f --formats sell --reps 200 2>&1 | awk '$1 == "sell" {a = $7; s = 1; next} s && /back to back:/ {print a, $4; exit}')
    echo "$(basename $f) $lib sell ms alone / back to back: $r" >>"$L"
  done
done
date -u >>"$L"; echo done >>"$L"
