#!/usr/bin/env bash
# session 23, call 5 (one H100): sell's long-row chunk sums with a chunk's loads issued
# together (columns and values of all 8 steps, then the 8 gathers of x), and every row's
# original index read before its sum, against 716181a's library ("old"): the GPU suite;
# sell and auto, each alone and back to back (spira-spmv, 200 runs), on every matrix of
# ../shared/matrices and on the time-to-solution set's kNN, circuit and R-MAT matrices and
# a 3-D Laplacian 150^3, two rounds, libraries alternating; memcheck and racecheck on
# sell (block rows, tickets, float and double). The first run's parser read its own text
# (a here-document and a redirect both on stdin): the A/B part ran again with SKIP_SUITE=1
# TOOLS= (run5b).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
[ -n "${SKIP_SUITE:-}" ] || STAGES="suite" timeout 300 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite5.txt" 2>/dev/null
python3 bench/gen-irregular.py /tmp/m --problems rmat,knn,circuit --jobs 3 >/dev/null 2>&1
OLD=$R/.device-run/old/lib:$LD_LIBRARY_PATH
A=$OUT/run5-ab.txt
mkdir -p /tmp/raw
cat >/tmp/parse.py <<'PY'
import re, sys
rnd, lib, name = sys.argv[1:]
lines = sys.stdin.read().splitlines()
out = []
for i, l in enumerate(lines):
    m = re.match(r"^(sell|auto)\s+\S+\s+\S+\s+\S+\s+\S+\s+ok\s+([0-9.]+)", l)
    if m:
        b2b = "-"
        for n in lines[i + 1:i + 4]:
            mm = re.search(r"back to back: ([0-9.]+) ms", n)
            if mm: b2b = mm.group(1); break
        out.append("%s %.2f/%s" % (m.group(1), float(m.group(2)) * 1000, "%.2f" % (float(b2b) * 1000) if b2b != "-" else "-"))
print("round %s %s %-22s %s" % (rnd, lib, name, "  ".join(out) or "FAILED " + " | ".join(lines[-2:])))
PY
for round in 1 2 3; do
  for lib in new old; do
    lp=$LD_LIBRARY_PATH; [ $lib = old ] && lp=$OLD
    for f in $D/mat/*.mtx /tmp/m/knn-400000.mtx /tmp/m/circuit-1000000.mtx /tmp/m/rmat-20.mtx "--laplacian 3:150"; do
      LD_LIBRARY_PATH=$lp timeout 60 $B/spira-spmv $f --formats sell,auto --reps 200 --warmup 20 >/tmp/s.txt 2>&1
      cp /tmp/s.txt "/tmp/raw/$round-$lib-${f##*/}.txt"
      python3 /tmp/parse.py "$round" "$lib" "${f##*/}" </tmp/s.txt >>"$A"
    done
  done
done
tar czf "$OUT/run5-raw.tgz" -C /tmp raw
for tool in ${TOOLS-memcheck racecheck}; do
  for p in d s; do
    for f in $D/mat/adder_dcop_05.mtx $D/mat/arrow.mtx; do
      compute-sanitizer --tool $tool --error-exitcode 99 $B/spira-spmv $f --precision $p --reps 2 --warmup 1 \
        --formats sell >/tmp/cs.log 2>&1
      echo "$tool $p ${f##*/}: rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log); outside cuSPARSE: $(grep -E '^=+ (Error|Warning|Invalid|Race)' /tmp/cs.log | grep -vc 'cusparse::'); wrong: $(grep -c WRONG /tmp/cs.log)" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
