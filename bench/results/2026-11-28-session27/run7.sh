#!/usr/bin/env bash
# session 27, call 7 (one H200): the column tiles on a stream of their own beside
# sell_kernel (fork and join by events; exp-tiles-side.diff on e99dd48, "exp"; the last
# range's end mended; long_chunks' code as on main) against e99dd48 ("new", main): exp's
# GPU case cuda (the tiles' test); memcheck and racecheck on the tile kernels (a 600,000-row
# circuit matrix); sell alone, back to back and in a graph, alternating processes, three
# rounds.
set -u
R=$PWD; B=$R/.device-run/bin
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/o /tmp/v/tests /tmp/m6
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit) + exp-tiles-side.diff"; date -u; } >"$L" 2>&1
python3 $R/bench/gen-irregular.py /tmp/m --problems rmat,circuit --jobs 2 >/tmp/o/gen.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m >/tmp/o/gen2.txt 2>&1 &
python3 $R/bench/gen-irregular.py /tmp/m6 --problems circuit --scale 0.6 >/tmp/o/gen3.txt 2>&1 &
python3 $R/bench/circuit-parts.py /tmp/m >/tmp/o/parts.txt 2>&1 &
cp $B/check_gpu_exp /tmp/v/tests/check_gpu
(cd /tmp/v && LD_LIBRARY_PATH=$D/exp/lib:$LD_LIBRARY_PATH sh $R/tests/gpu-cases.sh /tmp/v/cases 300 cuda) >>"$L" 2>&1
echo "exp suite case cuda: exit $?" >>"$L"
wait
for tool in memcheck racecheck; do
  LD_LIBRARY_PATH=$D/exp/lib:$LD_LIBRARY_PATH timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 --kernel-name kns=tile \
    $B/spira-spmv /tmp/m6/circuit-600000.mtx --formats sell --reps 3 --warmup 1 >/tmp/o/san.txt 2>&1
  echo "$tool exp sell circuit 600,000 (kernels named *tile*): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/o/san.txt) $(grep -E '^sell ' /tmp/o/san.txt | awk '{print $6}') $(grep -o '[0-9]* of them by column tiles[^;]*' /tmp/o/san.txt | head -1)" >>"$L"
done
for round in 1 2 3; do
  for lib in new exp; do
    for m in /tmp/m/circuit-1000000.mtx $(ls /tmp/m/circuit-rows* 2>/dev/null | head -1) /tmp/m/rmat-20.mtx /tmp/m/powerlaw-1000000.mtx; do
      LD_LIBRARY_PATH=$D/$lib/lib:$LD_LIBRARY_PATH $B/spira-spmv $m --formats sell --reps 200 >/tmp/o/s.txt 2>&1
      echo "round $round $lib $(basename $m): $(grep -E '^(cusparse|sell) ' /tmp/o/s.txt | awk '{print $1, $6, $7}' | tr '\n' ' ') b2b $(grep 'back to back:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') graph $(grep 'in a graph:' /tmp/o/s.txt | awk '{print $4}' | tr '\n' ' ') $(grep -o '[0-9]* of them by column tiles' /tmp/o/s.txt)" >>"$L"
    done
  done
done
date -u >>"$L"; echo done >>"$L"
