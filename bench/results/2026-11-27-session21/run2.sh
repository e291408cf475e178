#!/usr/bin/env bash
# session 21, call 2 (one H100): call 1 found the kNN setup's spread in the CSR upload
# (6-31 ms for 61.6 MB): the copy engine is busy 1.5-1.7 ms of it, the rest is the host
# filling the pinned staging buffers (lib/alloc.c spira__memcpy_parallel, OpenMP). Is the
# host throttled (the cgroup's CPU quota) or are the OpenMP threads slow to wake? The upload
# time under OpenMP's wait policies and thread counts, five rounds alternating, and the
# cgroup's throttling counters around each (the default format: auto, which reports the
# upload apart).
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/m
. .device-run/env.sh
L=$OUT/run2.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; nproc; 
  cat /sys/fs/cgroup/cpu.max 2>&1; cat /proc/cpuinfo | grep -m1 "model name"; 
  grep -c ^processor /proc/cpuinfo; cat /sys/fs/cgroup/cpuset.cpus.effective 2>&1;
  env | grep -E "^OMP|^GOMP" ; free -g; cat /sys/kernel/mm/transparent_hugepage/enabled; } >"$L" 2>&1
python3 bench/gen-irregular.py /tmp/m --problems knn --jobs 1 >>"$L" 2>&1
K=/tmp/m/knn-400000.mtx
$B/spira-solve $K --maxit 10 >/dev/null 2>&1
thr() { grep -E "nr_throttled|throttled_usec" /sys/fs/cgroup/cpu.stat 2>/dev/null | tr '\n' ' '; }
solve() { # $1 label, then env assignments
  local label=$1; shift
  local t0; t0=$(thr)
  env "$@" "$B/spira-solve" "$K" --solver cg --tol 1e-8 --maxit 10000 2>&1 |
    grep -oE "realized: setup [^;)]*\)" | sed "s/^/$label: /" >>"$L"
  echo "$label: cgroup before: $t0 after: $(thr)" >>"$L"
}
for round in 1 2 3 4 5; do
  solve "round $round default" X=1
  solve "round $round passive" OMP_WAIT_POLICY=passive
  solve "round $round active" OMP_WAIT_POLICY=active
  solve "round $round threads8" OMP_NUM_THREADS=8
  solve "round $round threads4" OMP_NUM_THREADS=4
  solve "round $round threads1" OMP_NUM_THREADS=1
done
# a plain host memcpy of 64 MB into fresh and into touched memory, one and 16 threads
python3 - >>"$L" 2>&1 <<'PY'
import numpy as np, time
a = np.ones(8 << 20)
b = np.empty_like(a)
for k in range(4):
    t = time.perf_counter(); np.copyto(b, a); dt = time.perf_counter() - t
    print(f"numpy copy 64 MB, pass {k}: {dt*1e3:.2f} ms ({a.nbytes/dt/1e9:.1f} GB/s)")
PY
date -u >>"$L"; echo done >>"$L"
