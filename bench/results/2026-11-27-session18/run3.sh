#!/usr/bin/env bash
# session 18, call 3 (one GPU): time to solution on R-MAT 2^20 (PageRank) with the
# transition made on the GPU, default against cusparse, merge, hyb and coo; then a device
# timeline of one PageRank's setup (where its 22-33 ms go).
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o
L=$OUT/run3.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
mkdir -p /tmp/tts/examples /tmp/tts/bench
for p in spira-solve spira-pagerank spira-spmv; do ln -sf $B/$p /tmp/tts/examples/$p; done
ln -sf $B/mmread-bench /tmp/tts/bench/mmread-bench
(cd /tmp/tts && SPIRA_COMMIT=$(cut -c1-7 $D/commit) CUPY=0 RUNS=5 BUDGET=150 PROBLEMS=rmat \
   FORMATS=cusparse,merge,hyb,coo timeout 280 bash $R/bench/time-to-solution.sh /tmp/o/tts > /tmp/o/tts-console.txt 2>&1)
echo "tts rc $?" >>"$L"
cp /tmp/o/tts/table.md "$OUT/tts.md" 2>/dev/null
M=/tmp/spira-tts/rmat-20.mtx
for i in 1 2; do
  CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/o/setup-$i.csv $B/spira-pagerank $M --top 0 \
    2>&1 | grep -E "time|format " >>"$L"
done
python3 - /tmp/o/setup-1.csv /tmp/o/setup-2.csv >"$OUT/setup-timeline.txt" 2>&1 <<'PY'
import sys, csv
for f in sys.argv[1:]:
    rows = []
    for r in csv.reader(open(f)):
        try: rows.append((int(r[0]), int(r[1]), r[4]))
        except (ValueError, IndexError): pass
    rows.sort()
    t0 = rows[0][0]; print("==", f, len(rows), "events")
    # runs of equal names collapsed: first start, last end, count, busy time
    runs = []
    for s, d, n in rows:
        key = n[:60]
        if runs and runs[-1][0] == key: runs[-1][2] = s + d; runs[-1][3] += 1; runs[-1][4] += d
        else: runs.append([key, s, s + d, 1, d])
    for key, s, e, c, busy in runs[:80]:
        print(f"{(s - t0) / 1e6:9.3f} ms  span {(e - s) / 1e6:8.3f}  busy {busy / 1e6:8.3f}  x{c:<5d} {key}")
PY
tar czf "$OUT/raw.tgz" -C /tmp/o tts/raw setup-1.csv 2>/dev/null
date -u >>"$L"; echo done >>"$L"
