#!/usr/bin/env bash
# session 18, call 4 (asked as nvidia-h200-x2): at 2fee0a2 (the transpose keeps G's device
# CSR, gathers through the entries' rows): the GPU suite and gpu-verify's PageRank stage on
# GPU 0; the old library (35b834b, host transpose) against the new on R-MAT 2^20 in
# alternating processes and a device timeline of one setup; then, where the cards are H200s,
# issue 16's part a again with six solves a run (bench/gpu-dist.sh, REPEAT=6).
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
L=$OUT/run4.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
STAGES="suite pagerank" timeout 330 bash bench/gpu-verify.sh .device-run /tmp/vout >/dev/null 2>&1
cat /tmp/vout/summary.txt >>"$L"; cp /tmp/vout/suite.txt "$OUT/suite.txt"
pkill -f gen-irregular
M=/tmp/verify/m/rmat-20.mtx
echo "== R-MAT 2^20 at defaults, new and old (35b834b) libraries alternating" >>"$L"
for round in 1 2 3; do
  echo "-- new" >>"$L"; $B/spira-pagerank $M --top 0 --repeat 3 2>&1 | grep -E "^  time|repeated" >>"$L"
  echo "-- old" >>"$L"; LD_LIBRARY_PATH=$D/old/lib:$LD_LIBRARY_PATH $B/spira-pagerank $M --top 0 --repeat 3 2>&1 | grep -E "^  time|repeated" >>"$L"
done
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
if nvidia-smi -L | grep -q H200; then
  echo "== H200s: gpu-dist part a, REPEAT=6" >>"$L"
  PARTS=a REPEAT=6 timeout 280 bash bench/gpu-dist.sh .device-run /tmp/dist >/tmp/gd.log 2>&1; echo "rc $?" >>"$L"
  cp /tmp/dist/results.md "$OUT/dist-results.md"; tar czf "$OUT/dist.tgz" -C /tmp dist
fi
date -u >>"$L"; echo done >>"$L"
