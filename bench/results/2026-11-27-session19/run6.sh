#!/usr/bin/env bash
# session 19, call 6 (one GPU), after the preload change (9f05829): where the GPU conversions of suraa (R-MAT 2^20, kNN) and cmrs
# (kNN) spend their time: spira-spmv with one format, a GPU timeline (bench/gpu-trace.c) of
# everything after cuSPARSE's multiplies, gaps (host waits) marked.
set -u
R=$PWD; D=$R/.device-run; B=$D/bin
. $D/env.sh
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/usr/local/cuda/extras/CUPTI/lib64
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m /tmp/o
L=$OUT/run6.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >/dev/null 2>&1
tl() { # $1 label, rest: spira-spmv args
  local lab=$1; shift
  echo "== $lab: spira-spmv $*" >>"$L"
  CUDA_INJECTION64_PATH=$B/libgputrace.so GPU_TRACE=/tmp/o/$lab.csv $B/spira-spmv "$@" --reps 1 --warmup 0 2>&1 | grep -E "^(suraa|cmrs|sell|format) " >>"$L"
  python3 - /tmp/o/$lab.csv >>"$L" 2>&1 <<'PY'
import sys, csv
rows = []
for r in csv.reader(open(sys.argv[1])):
    try: rows.append((int(r[0]), int(r[1]), r[4]))
    except (ValueError, IndexError): pass
rows.sort()
# skip to the first event after the last cuSPARSE kernel
last = max((i for i, r in enumerate(rows) if 'csrmv' in r[2].lower() or 'cusparse' in r[2].lower()), default=-1)
rows = rows[last + 1:]
t0 = rows[0][0]; prev = t0
for s, d, n in rows[:70]:
    gap = (s - prev) / 1e3
    print(f"{(s - t0) / 1e6:9.3f} ms  dur {d / 1e3:9.1f} us  gap {gap:8.1f} us  {n[:90]}")
    prev = max(prev, s + d)
print(f"total span {(rows[-1][0] + rows[-1][1] - t0) / 1e6:.3f} ms over {len(rows)} events")
PY
}
tl suraa-rmat --rmat 20:16 --formats suraa
tl suraa-knn /tmp/m/knn-400000.mtx --formats suraa
tl cmrs-knn /tmp/m/knn-400000.mtx --formats cmrs


date -u >>"$L"; echo done >>"$L"
