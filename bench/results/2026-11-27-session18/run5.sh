#!/usr/bin/env bash
# session 18, call 5 (one GPU): the scratch pool keeping what it maps (no release at each
# wait) and the radix sort in CUB's double-buffer form (12 bytes an item of scratch, not
# 20): the GPU suite (sell's and suraa's layouts sort too), compute-sanitizer on PageRank
# and on spira-spmv's sorting formats, then 2fee0a2's library against this one on R-MAT
# 2^20 in alternating processes and a timeline of one setup.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
L=$OUT/run5.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
cs() { compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 99 "${@:2}" >/tmp/cs.log 2>&1
  echo "$1 rc $? $(grep -m1 -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/cs.log) | ${*:2}" | sed "s|$B/||; s|$R/||" >>"$L"
  cat /tmp/cs.log >>"$OUT/sanitize.log"; }
for tool in memcheck racecheck; do
  for p in d s; do cs $tool $B/spira-pagerank $R/data/email-Eu-core.mtx --top 3 --precision $p; done
  cs $tool $B/spira-spmv $R/data/email-Eu-core.mtx --reps 2 --warmup 1 --formats sell,sell:sigma=32,suraa
done
STAGES="suite pagerank" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite.txt"
pkill -f gen-irregular
M=/tmp/verify/m/rmat-20.mtx
echo "== R-MAT 2^20 at defaults, this library (new) and 2fee0a2's (old) alternating" >>"$L"
for round in 1 2 3; do
  echo "-- new" >>"$L"; $B/spira-pagerank $M --top 0 --repeat 3 2>&1 | grep -E "^  time|repeated" >>"$L"
  echo "-- old" >>"$L"; LD_LIBRARY_PATH=$D/old/lib:$LD_LIBRARY_PATH $B/spira-pagerank $M --top 0 --repeat 3 2>&1 | grep -E "^  time|repeated" >>"$L"
done
echo "== spira-spmv setup, sell and suraa (conversion ms), new then old" >>"$L"
for lib in new old; do
  [ $lib = old ] && export LD_LIBRARY_PATH=$D/old/lib:$LD_LIBRARY_PATH
  $B/spira-spmv $M --formats sell,suraa,hyb --reps 20 2>&1 | grep -E "^(format|sell|suraa|hyb) " | sed "s/^/$lib /" >>"$L"
done
. $D/env.sh; export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/o/setup.csv $B/spira-pagerank $M --top 0 2>&1 | grep -E "^  time" >>"$L"
python3 - /tmp/o/setup.csv >"$OUT/setup-timeline.txt" 2>&1 <<'PY'
import sys, csv
rows = []
for r in csv.reader(open(sys.argv[1])):
    try: rows.append((int(r[0]), int(r[1]), r[4]))
    except (ValueError, IndexError): pass
rows.sort(); t0 = rows[0][0]; runs = []
for s, d, n in rows:
    key = n[:60]
    if runs and runs[-1][0] == key: runs[-1][2] = s + d; runs[-1][3] += 1; runs[-1][4] += d
    else: runs.append([key, s, s + d, 1, d])
for key, s, e, c, busy in runs[:40]:
    print(f"{(s - t0) / 1e6:9.3f} ms  span {(e - s) / 1e6:8.3f}  busy {busy / 1e6:8.3f}  x{c:<5d} {key}")
PY
date -u >>"$L"; echo done >>"$L"
