#!/usr/bin/env bash
# time-to-solution.sh - issue 13's benchmark: read, setup, iterations and total time of one
# solve and of ten on one matrix, at default settings (no --format) against each single
# SpMV format (Spira's cusparse among them) and CuPy, on the generated problems of
# bench/gen-irregular.py --problems (3-D Poisson 100^3 and 150^3, a 27-point stencil 80^3,
# a kNN-graph Laplacian of 4*10^5 points: CG; a circuit-like matrix of 10^6 rows with dense
# rows and columns: BiCGSTAB + Jacobi; a Graph500 R-MAT graph of 2^20 vertices: PageRank).
# Run from a built tree (.device/gpu-build leaves one in /tmp/spira-build):
#   bench/time-to-solution.sh OUT_DIR
# Writes OUT_DIR/table.md (printed at the end: the table and the issue's targets) and every
# run's log under OUT_DIR/raw/; bench/tts-table.py OUT_DIR/raw remakes the table from them.
# Environment:
#   SCALE=S        rows x S (default 1; SCALE=0.001 is a smoke run of a few seconds)
#   CACHE=DIR      where the matrices are made, once (default /tmp/spira-tts)
#   PROBLEMS=LIST  gen-irregular.py's names, comma-separated (default all)
#   FORMATS=LIST   the single formats, comma-separated (default: all spira-spmv lists)
#   REPEAT=N       solves on the same matrix for the "ten solves" column (default 10)
#   RUNS=N         processes per Spira contender (default 3), in N rounds over all the
#                  contenders (each round runs each once): the table keeps each one's run
#                  of median total, so one process's noisy setup decides nothing
#   TIMEOUT=S      seconds one contender may run (default 60; CuPy's CUPY_TIMEOUT, 120,
#                  since scipy.io.mmread may be slow)
#   BUDGET=S       seconds for the whole run after the matrices are made (default 420);
#                  contenders left when it is spent are listed as skipped. Order in a
#                  round: every problem's default, cusparse and CuPy (first round only),
#                  then the other formats.
#   CUPY=0         leave CuPy out; CUPY=numpy runs bench/cupy_cg.py on NumPy/SciPy (a test
#                  of the script, labelled as such, not a contender)
#   SPIRA_COMMIT=  the commit to print (a tree made from `make dist` has no .git)
#   DEFAULT_ALSO=NAME:VAR=VALUE  one more default contender, called default-NAME, run with
#                  VAR=VALUE in its environment, right after the default in every round
#                  (e.g. nobg:SPIRA_BACKGROUND=0: the default without its plans built
#                  beside the solve); not a single format
# Tolerance 1e-8 relative and at most 10000 iterations for CG and BiCGSTAB; PageRank keeps
# spira-pagerank's tolerance (1e-6 on ||x_k+1 - x_k||_1), alpha 0.85, at most 10000.
# Spira's read time is bench/mmread-bench's wall time of spira__mm_read (file to host CSR);
# spira-solve itself reads the file again in each run, outside its timers. The Poisson
# files hold the matrix `spira-solve --laplacian 3:N` generates (same rows, same order):
# files here so that every contender reads the same input.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: time-to-solution.sh OUT_DIR (from a built tree)}
scale=${SCALE:-1}; cache=${CACHE:-/tmp/spira-tts}; repeat=${REPEAT:-10}; runs=${RUNS:-3}
timeout_s=${TIMEOUT:-60}; cupy_timeout=${CUPY_TIMEOUT:-120}; budget=${BUDGET:-420}; cupy=${CUPY:-1}
also=${DEFAULT_ALSO:-}
case $also in ''|?*:?*=*) ;; *) echo "time-to-solution.sh: DEFAULT_ALSO=NAME:VAR=VALUE" >&2; exit 2 ;; esac
for p in examples/spira-solve examples/spira-pagerank examples/spira-spmv; do
  [ -x "$p" ] || { echo "time-to-solution.sh: no $p here: run it from a built tree" >&2; exit 2; }
done
[ -x bench/mmread-bench ] || make bench/mmread-bench >/dev/null 2>&1 ||
  echo "time-to-solution.sh: bench/mmread-bench could not be built: Spira's read times will be missing" >&2
raw=$out/raw; mkdir -p "$raw"; rm -f "$raw"/*.log "$raw/index.txt"
now() { date +%s%N | cut -c1-13; }   # ms

{
  echo "date $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "device $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)"
  c=${SPIRA_COMMIT:-$(cat "$src/.device/commit" 2>/dev/null || git -C "$src" rev-parse --short HEAD 2>/dev/null)}
  echo "commit ${c:-unknown}"
  echo "scale $scale"; echo "repeat $repeat"; echo "runs $runs"; echo "host $(nproc) cores"
} > "$raw/env.txt"

echo "== making the matrices in $cache (scale $scale; kept for later runs)"
t0=$(now)
python3 "$src/bench/gen-irregular.py" "$cache" --problems "${PROBLEMS:-all}" --scale "$scale" \
  > "$raw/problems.txt" || { echo "time-to-solution.sh: the generator failed" >&2; exit 1; }
t1=$(now); echo "generate_ms $(( t1 - t0 ))" >> "$raw/env.txt"
grep '^problem ' "$raw/problems.txt" | sed 's/^/  /'

formats=${FORMATS:-$(./examples/spira-spmv --list-formats | awk '$1 != "auto" { print $1 }' | paste -sd,)}
if [ "$cupy" = 1 ] && ! python3 -c 'import cupy' 2>/dev/null; then
  echo "note CuPy is not installed here: its rows are left out" >> "$raw/env.txt"
  echo "  CuPy is not installed here: its rows are left out"
  cupy=0
fi
# --repeat where the driver has it (spira-pagerank has none today)
solve_repeat=; ./examples/spira-solve --help | grep -q -- '--repeat' && solve_repeat=1
pagerank_repeat=; ./examples/spira-pagerank --help | grep -q -- '--repeat' && pagerank_repeat=1

# run_once PROBLEM KIND FILE CONTENDER K: one contender on one problem, its K-th run, the
# process's log in raw/ and a line in raw/index.txt; never fails the script.
deadline=$(( $(now) + budget * 1000 ))
run_once() {
  local problem=$1 kind=$2 file=$3 who=$4 k=$5 log cmd left
  log=$raw/$problem.$(echo "$who" | tr -c 'A-Za-z0-9._\n-' _).$k.log
  echo "$problem $kind $who $(basename "$log")" >> "$raw/index.txt"
  left=$(( (deadline - $(now)) / 1000 ))
  if [ "$left" -le 0 ]; then
    echo "tts-skipped the run's time budget (BUDGET=$budget s) was spent" > "$log"; return
  fi
  case $who in
    cupy*)
      [ "$left" -gt "$cupy_timeout" ] && left=$cupy_timeout
      local solver=cg backend=cupy
      [ "$kind" = nonsymmetric ] && solver=bicgstab-jacobi
      [ "$kind" = graph ] && solver=pagerank
      [ "$who" = cupy-numpy ] && backend=numpy
      cmd=(python3 "$src/bench/cupy_cg.py" --matrix "$file" --solver $solver --backend $backend
           --maxit 10000 --repeat "$repeat")
      [ "$kind" = graph ] || cmd+=(--tol 1e-8) ;;
    *)
      [ "$left" -gt "$timeout_s" ] && left=$timeout_s
      case $kind in
        graph) cmd=(./examples/spira-pagerank "$file" --top 0 --maxit 10000
                    ${pagerank_repeat:+--repeat "$repeat"}) ;;
        nonsymmetric) cmd=(./examples/spira-solve "$file" --solver bicgstab --precond jacobi
                           --tol 1e-8 --maxit 10000 ${solve_repeat:+--repeat "$repeat"}) ;;
        *) cmd=(./examples/spira-solve "$file" --solver cg --tol 1e-8 --maxit 10000
                ${solve_repeat:+--repeat "$repeat"}) ;;
      esac
      case $who in
        default) ;;
        default-*) cmd=(env "${also#*:}" "${cmd[@]}") ;;
        *) cmd+=(--format "$who") ;;
      esac ;;
  esac
  local t=$(now) rc
  { echo "tts-command ${cmd[*]}"; timeout -k 5 "$left" "${cmd[@]}" 2>&1; } > "$log"
  rc=$?
  echo "tts-exit $rc" >> "$log"
  echo "tts-wall-ms $(( $(now) - t ))" >> "$log"
  [ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "tts-timeout $left" >> "$log"
  printf '  %-18s %-16s run %d: exit %3d, %6d ms wall\n' "$problem" "$who" "$k" "$rc" $(( $(now) - t ))
}

mapfile -t probs < <(grep '^problem ' "$raw/problems.txt")
echo "== read times (bench/mmread-bench, one read)"
for line in "${probs[@]}"; do
  read -r _ name file kind <<< "$line"
  bench/mmread-bench "$file" 1 > "$raw/$name.read.log" 2>&1
  grep -m1 -E '^RESULT|\(wall time of the read\)' "$raw/$name.read.log" | sed "s/^ */  $name: /"
done
# One untimed solve first: the first process after the matrices are made finds the GPU
# idle, and its uploads ran up to 1.8x slower (bench/results/2026-11-26-h100-session13).
read -r _ _ wfile wkind <<< "${probs[0]}"
if [ "$wkind" = graph ]; then ./examples/spira-pagerank "$wfile" --top 0 >/dev/null 2>&1
else ./examples/spira-solve "$wfile" --maxit 10 >/dev/null 2>&1; fi
# RUNS rounds, each running every contender once, so that whatever drifts over the run (the
# host's memory, the GPU's clocks) falls on all of them alike, not on the contenders that
# happen to run first; CuPy in the first round only. A round: the default, cusparse and CuPy
# on every problem, then each single format over all problems.
for k in $(seq 1 "$runs"); do
  echo "== round $k of $runs: default, cusparse and CuPy on every problem"
  for line in "${probs[@]}"; do
    read -r _ name file kind <<< "$line"
    run_once "$name" "$kind" "$file" default "$k"
    [ -n "$also" ] && run_once "$name" "$kind" "$file" "default-${also%%:*}" "$k"
    case ",$formats," in *,cusparse,*) run_once "$name" "$kind" "$file" cusparse "$k" ;; esac
    [ "$k" = 1 ] && [ "$cupy" = 1 ] && run_once "$name" "$kind" "$file" cupy "$k"
    [ "$k" = 1 ] && [ "$cupy" = numpy ] && run_once "$name" "$kind" "$file" cupy-numpy "$k"
  done
  echo "== round $k of $runs: each single format"
  for f in ${formats//,/ }; do
    [ "$f" = cusparse ] && continue
    for line in "${probs[@]}"; do
      read -r _ name file kind <<< "$line"
      run_once "$name" "$kind" "$file" "$f" "$k"
    done
  done
done
echo "run_ms $(( $(now) - t1 ))" >> "$raw/env.txt"
python3 "$src/bench/tts-table.py" "$raw" > "$out/table.md"
cat "$out/table.md"
