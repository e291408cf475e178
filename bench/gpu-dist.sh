#!/usr/bin/env bash
# gpu-dist.sh - the distributed solvers on one and two GPUs (issue 16), for a machine with
# two GPUs and a build configured --with-mpi --with-nccl:
#   (a) CG on 3-D Poisson 200^3 (8e6 rows) to 1e-8: one rank on one GPU against two ranks
#       on two, time per iteration and in all, and the speedup (target >= 1.8x); beside
#       them the one-process solve (spira_solve, no MPI), the single-GPU baseline users
#       have today;
#   (b) PageRank on the R-MAT graph of 2^23 vertices, edge factor 16 (Graph500's a, b, c),
#       one GPU against two (target >= 1.6x);
#   (c) CG on 3-D Poisson 700^3 (3.43e8 rows, 2.4e9 nonzeros: more than 2^31) across the
#       two GPUs to 1e-8, time per iteration against the memory floor: the bytes a rank
#       moves per iteration over the copy bandwidth measured on its GPU;
#   (d) the parts of (a)'s iteration timed apart on 1 and 2 GPUs (bench/dist-costs: the
#       SpMV, its blocks, the halo exchange, the sums and the allreduces).
# Usage:  bench/gpu-dist.sh BUILD [OUTDIR]
#   BUILD holds examples/spira-solve, -pagerank, -spmv and bench/dist-costs (make check
#   builds it), or is a package of bench/carry-build.sh (bin/ and env.sh; run from the
#   source root); OUTDIR (default
#   bench/results/DATE-h100x2-dist) gets results.md and every run's log. PARTS="a d b c"
#   picks the parts; COMMIT names the commit measured (else git's HEAD, if any); MPIRUN and
#   MPIRUN_FLAGS (default: --bind-to none, and --allow-run-as-root as root) as needed.
#   REPEAT (default 3) solves per run in (a) and (b): the median of solves 2..N is the
#   number, the first paying one-time costs. To try the script on smaller problems (or on
#   CPUs: BACKEND=cpu): A_GRID (200), B_RMAT (23:16), C_GRID (700).
# Each rank runs on device = its rank on the host (the drivers' rule), so -np 2 uses both.
# Time on two H100s at 696821d: the copy bandwidths and part a about a minute; part b's
# R-MAT graph and transition are host work, about 20 s a run on one rank before its
# iterations; part c was not run yet (generating 700^3 takes each rank's host a while and,
# estimated, some 50 GB of its memory). Give each part its own call (PARTS=b, PARTS=c)
# when time is short: results.md is written part by part.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:?usage: gpu-dist.sh BUILD [OUTDIR]}" && pwd)
out=${2:-$src/bench/results/$(date -u +%Y-%m-%d)-h100x2-dist}
mkdir -p "$out"
parts=${PARTS:-a d b c}
repeat=${REPEAT:-3}
agrid=${A_GRID:-200}; brmat=${B_RMAT:-23:16}; cgrid=${C_GRID:-700}; backend=${BACKEND:-cuda}
mpirun=${MPIRUN:-mpirun}
flags=${MPIRUN_FLAGS:---bind-to none}
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
commit=${COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)}
md=$out/results.md
solve=$build/examples/spira-solve
pagerank=$build/examples/spira-pagerank
spmv=$build/examples/spira-spmv
costs=$build/bench/dist-costs
# or a package of bench/carry-build.sh (BUILD its DEST, run from the source root)
if [ -f "$build/env.sh" ]; then
  # shellcheck disable=SC1091
  . "$build/env.sh"
  solve=$build/bin/spira-solve pagerank=$build/bin/spira-pagerank
  spmv=$build/bin/spira-spmv costs=$build/bin/dist-costs
  flags="$flags -x LD_LIBRARY_PATH -x SPIRA_DATA"
fi

# the number after "PATTERN" on the first line that has it
num() { sed -n "s/.*$1 *\([0-9.e+-]*\).*/\1/p" | head -1; }
# a run's log, its report kept
run() { local log=$out/$1.log; shift; echo "\$ $*" >"$log"; "$@" >>"$log" 2>&1; local rc=$?
        echo "exit status $rc" >>"$log"; cat "$log"; return $rc; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b; else print "n/a" }'; }

{
  echo "# Distributed solvers on GPUs: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit"
  echo
  echo "Produced by bench/gpu-dist.sh (parts: $parts). Devices:"
  echo
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader | sed 's/^/    /'
  echo
  echo "MPI: $($mpirun --version 2>&1 | head -1); OMP_NUM_THREADS=$OMP_NUM_THREADS"
  echo
} >"$md"
cat "$md"

# copy bandwidth on each GPU: the floor's denominator
bw=()
for d in 0 1; do
  line=$(CUDA_VISIBLE_DEVICES=$d "$spmv" --backend "$backend" --copy-bandwidth=2048 2>&1)
  echo "$line" >"$out/copy-bandwidth-$d.log"
  bw[$d]=$(echo "$line" | num "copy bandwidth")
  echo "- GPU $d: $line" >>"$md"
done
echo >>"$md"

# ms per iteration of a solve's log: the repeated median if there, else the first solve's
per_it() { local m; m=$(grep repeated "$1" | num "(")
           [ -n "$m" ] || m=$(grep -E '^  time' "$1" | num "ms (" ); echo "$m"; }

if [[ " $parts " == *" a "* ]]; then
  args=(--laplacian 3:$agrid --tol 1e-8 --repeat "$repeat" --backend "$backend")
  run a-one-process "$solve" "${args[@]}"
  run a-1gpu $mpirun $flags -np 1 "$solve" --dist "${args[@]}"
  run a-2gpu $mpirun $flags -np 2 "$solve" --dist "${args[@]}"
  # the same with NCCL's send and receive for the halo instead of CG's kernels' stores
  SPIRA_NCCL_KERNEL_HALO=0 run a-2gpu-nccl-halo $mpirun $flags -x SPIRA_NCCL_KERNEL_HALO -np 2 \
    "$solve" --dist "${args[@]}"
  p0=$(per_it "$out/a-one-process.log"); p1=$(per_it "$out/a-1gpu.log"); p2=$(per_it "$out/a-2gpu.log")
  pn=$(per_it "$out/a-2gpu-nccl-halo.log")
  it1=$(grep result "$out/a-1gpu.log" | num "after"); it2=$(grep result "$out/a-2gpu.log" | num "after")
  it0=$(grep result "$out/a-one-process.log" | num "after")
  {
    echo "## (a) CG, 3-D Poisson $agrid^3 ($((agrid * agrid * agrid)) rows), double, to 1e-8"
    echo
    echo "| run | iterations | ms / iteration (median of solves 2..$repeat) | solve ms (x iterations) |"
    echo "|---|---|---|---|"
    for k in one-process:$it0:$p0 1gpu:$it1:$p1 2gpu:$it2:$p2; do
      IFS=: read -r name it p <<<"$k"
      echo "| $name | $it | $p | $(awk -v a="$it" -v b="$p" 'BEGIN { if (a > 0 && b > 0) printf "%.1f", a * b }') |"
    done
    echo
    echo "Speedup, 2 GPUs over 1 (both distributed, ms per iteration): **$(ratio "$p1" "$p2")x** (target 1.8x);"
    echo "over the one-process single-GPU solve: **$(ratio "$p0" "$p2")x**. With NCCL's halo"
    echo "(SPIRA_NCCL_KERNEL_HALO=0) two GPUs take $pn ms: $(ratio "$p0" "$pn")x the one-process solve."
    echo
  } >>"$md"
fi

if [[ " $parts " == *" d "* ]]; then
  # the parts of an iteration timed apart (bench/dist-costs): halo, blocks, allreduces
  run d-costs-1gpu $mpirun $flags -np 1 "$costs" --laplacian 3:$agrid --backend "$backend"
  run d-costs-2gpu $mpirun $flags -np 2 "$costs" --laplacian 3:$agrid --backend "$backend"
  {
    echo "## (d) The parts of a distributed iteration, 3-D Poisson $agrid^3 (bench/dist-costs)"
    echo
    for k in 1gpu 2gpu; do
      echo "$k:"; echo; sed -n '/^3-D/,$p' "$out/d-costs-$k.log" | grep -v '^exit status' | sed 's/^/    /'; echo
    done
  } >>"$md"
fi

if [[ " $parts " == *" b "* ]]; then
  args=(--rmat "$brmat" --top 0 --repeat "$repeat" --backend "$backend")
  run b-1gpu $mpirun $flags -np 1 "$pagerank" "${args[@]}"
  run b-2gpu $mpirun $flags -np 2 "$pagerank" "${args[@]}"
  # the last repeat's ms per iteration (the transition built by the first call)
  q() { local m; m=$(grep -E '^  again' "$1" | tail -1 | num "ms (")
        [ -n "$m" ] || m=$(grep -E '^  time' "$1" | num "ms ("); echo "$m"; }
  q1=$(q "$out/b-1gpu.log"); q2=$(q "$out/b-2gpu.log")
  {
    echo "## (b) PageRank, R-MAT $brmat (scale:edge factor; Graph500 parameters), double"
    echo
    echo "| run | edges (after merging repeats) | iterations | ms / iteration (last of $repeat runs) | transition setup ms |"
    echo "|---|---|---|---|---|"
    for k in 1gpu:$q1 2gpu:$q2; do
      IFS=: read -r name p <<<"$k"
      f=$out/b-$name.log
      echo "| $name | $(grep graph "$f" | num "vertices,") | $(grep result "$f" | num "after") | $p | $(grep -E '^  time' "$f" | num "setup") |"
    done
    echo
    echo "Speedup, 2 GPUs over 1: **$(ratio "$q1" "$q2")x** (target 1.6x)."
    echo
  } >>"$md"
fi

if [[ " $parts " == *" c "* ]]; then
  run c-2gpu $mpirun $flags -np 2 "$solve" --dist --laplacian 3:$cgrid --tol 1e-8 --maxit 20000 --backend "$backend"
  f=$out/c-2gpu.log
  p=$(grep -E '^  time' "$f" | num "ms (")
  # a rank's bytes per iteration, CG without a preconditioner in double (solvers/cg.c):
  # the SpMV as CSR (8 + 4 bytes a nonzero, a 4-byte row pointer, x and y 8 bytes a row)
  # and the BLAS-1 (two sums read 2 vectors, the update reads 5 and writes 4: 11 x 8 a row)
  n=$((cgrid * cgrid * cgrid)); nnz=$((7 * n - 6 * cgrid * cgrid))
  floor=$(awk -v n="$n" -v z="$nnz" -v b0="${bw[0]:-0}" -v b1="${bw[1]:-0}" 'BEGIN {
    r = n / 2; q = z / 2; bytes = 12 * q + 20 * r + 88 * r; b = b0 < b1 ? b0 : b1
    if (b > 0) printf "%.0f %.2f", bytes, bytes / (b * 1e9) * 1e3; else printf "%.0f n/a", bytes }')
  read -r bytes fms <<<"$floor"
  {
    echo "## (c) CG, 3-D Poisson $cgrid^3 ($n rows, $nnz nonzeros), double, to 1e-8, 2 GPUs"
    echo
    grep -E '^  (matrix|ranks|solver|result|residual|time)' "$f" | sed 's/^  /    /'
    echo
    echo "Bytes a rank moves per iteration (CSR model, no preconditioner): $bytes;"
    echo "over the slower GPU's copy bandwidth that is a floor of **$fms ms** an iteration,"
    echo "against **${p:-n/a} ms** measured (ratio $(ratio "${p:-0}" "${fms:-0}"))."
    echo "The format auto chose (above) may move fewer bytes than CSR (DIA: no indices)."
    echo
  } >>"$md"
fi
echo "results in $out"
cat "$md"
