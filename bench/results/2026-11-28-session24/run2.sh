#!/usr/bin/env bash
# session 24, call 2 (one H200): plans built beside a staged solve, switched to once built, builders made with the context. The GPU
# suite's "cuda" case (which holds the new test), compute-sanitizer memcheck and racecheck
# on staged CG/BiCGSTAB solves that build beside, then the time-to-solution table with the
# default run both ways (default: built beside; default-nobg: SPIRA_BACKGROUND=0) in the
# same rounds, five processes a contender, no CuPy (measured in session 23).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
( python3 $R/bench/gen-irregular.py /tmp/spira-tts --problems all --jobs 4 >/tmp/o/gen.txt 2>&1 ) &
cp $B/check_gpu /tmp/v/tests/
(cd /tmp/v && CK_RUN_CASE=cuda CK_VERBOSITY=verbose timeout 200 ./tests/check_gpu >$OUT/suite2.txt 2>&1)
echo "suite cuda: exit $?" >>"$L"; grep -E "Checks|:[EF]:" $OUT/suite2.txt | head -20 >>"$L"
for tool in memcheck racecheck; do
  for args in "--laplacian 2:60" "--laplacian 3:40 --solver bicgstab"; do
    SPIRA_SANITIZE=1 timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-solve \
      $args --backend cuda >/tmp/o/san.txt 2>&1
    echo "sanitize $tool staged $args: exit $?; $(grep -cE '^=+ (Error|Invalid)' /tmp/o/san.txt) reports" >>"$L"
    grep -E "beside|SUMMARY" /tmp/o/san.txt | cut -c1-400 | head -4 >>"$L"
  done
done
wait
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) RUNS=5 BUDGET=330 CUPY=0 \
   DEFAULT_ALSO=nobg:SPIRA_BACKGROUND=0 FORMATS=cusparse,dia,merge,coo,sell \
   timeout 380 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/run2-tts.md" 2>/dev/null
tail -12 /tmp/o/tts-console.txt >>"$L"
tar czf "$OUT/tts2-raw.tgz" -C /tmp/o tts/raw 2>/dev/null
date -u >>"$L"; echo done >>"$L"
