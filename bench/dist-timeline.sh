#!/usr/bin/env bash
# dist-timeline.sh - a GPU timeline of the distributed CG iteration (issue 16): where each
# rank's GPU waits. On a machine with NP GPUs, Open MPI and a build configured --with-mpi
# --with-nccl, with bench/gpu-trace.c built as a shared library (bench/carry-build.sh does):
#   bash bench/dist-timeline.sh SPIRA_SOLVE LIBGPUTRACE OUTDIR [NP]
# solves the 3-D Laplacian A_GRID^3 (default 200) by CG to TOL (default 1e-4) twice
# (--repeat 2: the second solve is the steady state), every rank's kernels, copies and
# NCCL kernels recorded by the CUPTI tracer, then writes OUTDIR/trace-npNP-rR.csv (one a
# rank), OUTDIR/solve-npNP.log and OUTDIR/timeline-npNP.txt (bench/timeline-summary.py:
# time per kernel, busy share of each stream, and the events of three iterations of the
# second solve, rank by rank). The tracer adds little to kernels' device times but
# something to the host's launches; compare its per-iteration time with the log's.
set -uo pipefail
usage="usage: dist-timeline.sh SPIRA_SOLVE LIBGPUTRACE OUTDIR [NP]"
solve=${1:?$usage}; tracer=${2:?$usage}; out=${3:?$usage}; np=${4:-2}
grid=${A_GRID:-200}; tol=${TOL:-1e-4}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
rm -f "$out"/trace-np"$np"-r*.csv
# CUPTI sits beside the CUDA runtime
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64:/usr/local/cuda/extras/CUPTI/lib64
export CUDA_INJECTION64_PATH=$tracer GPU_TRACE=$out/trace-np$np-r%r.csv
flags=(--bind-to none -x LD_LIBRARY_PATH -x CUDA_INJECTION64_PATH -x GPU_TRACE)
[ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
mpirun "${flags[@]}" -np "$np" "$solve" --dist --laplacian "3:$grid" --tol "$tol" --repeat 2 \
  >"$out/solve-np$np.log" 2>&1
echo "exit status $?" >>"$out/solve-np$np.log"
its=$(sed -n 's/.*after \([0-9]*\) iterations.*/\1/p' "$out/solve-np$np.log" | head -1)
python3 "$here/timeline-summary.py" --iterations "${its:?no iteration count in $out/solve-np$np.log}" \
  "$out"/trace-np"$np"-r*.csv >"$out/timeline-np$np.txt"
