#!/usr/bin/env bash
# session 22, call 5 (one H100), the library of call 4: memcheck and racecheck on a matrix
# whose values are all 1 (the device CSR filled, not copied): spira-spmv's formats and a
# default PageRank on a pattern file.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 - <<'PY'
import random
random.seed(7)
n = 30000
e = sorted({(random.randrange(n), int(random.paretovariate(1.2)) % n) for _ in range(200000)})
with open("/tmp/m/pattern.mtx", "w") as f:
    f.write("%%%%MatrixMarket matrix coordinate pattern general\n%d %d %d\n" % (n, n, len(e)))
    for i, j in e: f.write("%d %d\n" % (i + 1, j + 1))
PY
for tool in memcheck racecheck; do
  compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv /tmp/m/pattern.mtx --reps 2 \
    --warmup 1 --formats auto,csr-vector,merge,sell,coo,hyb,cusparse >/tmp/cs.log 2>&1
  echo "$tool spira-spmv pattern: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::'); ok rows: $(grep -cE ' ok ' /tmp/cs.log); wrong: $(grep -c WRONG /tmp/cs.log)" >>"$L"
  compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-pagerank /tmp/m/pattern.mtx --top 3 >/tmp/cs.log 2>&1
  echo "$tool spira-pagerank pattern: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); $(grep -E '^  (result|time)' /tmp/cs.log | tr -s ' ' | tr '\n' ';')" >>"$L"
done
date -u >>"$L"; echo done >>"$L"
