#!/usr/bin/env bash
# setup-bench.sh - every format's setup on the GPU in SpMV-equivalents (issue 13: at most 5
# multiplies for the CSR family, csr-vector, lightspmv, suraa, cmrs; at most 20 for ell,
# dia, hyb, coo, sell and the rest; pkt's partitioning measured), excluding the matrix's
# one CSR upload, on the 2-D and 3-D Laplacians and bench/gen-irregular.py's matrices.
#
#   bench/setup-bench.sh OUT_DIR [SCALE]
#
# Run from a built tree on the GPU machine. SCALE scales the generated problems' rows
# (default 1; 0.01 for a quick try). Each matrix runs in its own spira-spmv process, every
# format but pkt converted CONVERT_REPS times (default 4): convert_ms is the first conversion of the
# process (what a program's first matrix pays, loading the kernels it runs included),
# convert_warm_ms the median of the others (what every further matrix pays). The formats
# built on the GPU run once more with CUDA_MODULE_LOADING=EAGER (every kernel loaded when
# the process starts), which shows how much of the first conversion is that loading. pkt,
# whose partition takes seconds on the host, runs last and once a matrix (PKT=0: not at all),
# its stats splitting the partition from the packing.
# Writes OUT_DIR/setup.csv and setup-eager.csv (spira-spmv's columns, the matrix in the
# first), setup.log (stderr, the commands, the machine) and summary.txt (per matrix and
# format: cold and warm setup in multiples of the format's SpMV against the target).
# Environment: GEN_DIR (default /tmp/spira-irregular) keeps the generated matrices between
# runs; FORMATS (default every registered format but pkt); REPS (timed multiplies, default 30); LAPLACIANS (default
# "2:2000 3:100 3:150"); GENERATED=0 leaves out the generated matrices (needs no numpy);
# EAGER=0 leaves out the eager runs.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: setup-bench.sh OUT_DIR [SCALE]}
scale=${2:-1}
gen=${GEN_DIR:-/tmp/spira-irregular}
formats=${FORMATS:-$(./examples/spira-spmv --list-formats 2>/dev/null |
                     awk '$1 != "auto" && $1 != "pkt" { print $1 }' | paste -sd, -)}
reps=${REPS:-30}
creps=${CONVERT_REPS:-4}
laps=${LAPLACIANS-"2:2000 3:100 3:150"}
gpu_built=coo,ell,dia,hyb,sell,cmrs,suraa
spmv=./examples/spira-spmv
[ -x "$spmv" ] || { echo "setup-bench.sh: run from a built tree ($spmv missing)" >&2; exit 2; }
mkdir -p "$out" "$gen"
log=$out/setup.log
{
    echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -n)"
    echo "# commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed 's/^/# gpu: /'
} > "$log"

# the generated matrices: the time-to-solution set's irregular ones, and the power-law and
# uniform pattern matrices of gen-irregular.py's first form
mats=()
if [ "${GENERATED:-1}" != 0 ]; then
    rows=$(python3 -c "print(max(1000, int(1000000 * $scale)))")
    while read -r kind name path rest; do
        [ "$kind" = problem ] && mats+=("$path")
    done < <(python3 "$src/bench/gen-irregular.py" "$gen" --scale "$scale" \
                 --problems knn,circuit,rmat 2>>"$log")
    [ -f "$gen/powerlaw-$rows.mtx" ] ||
        python3 "$src/bench/gen-irregular.py" "$gen" "$rows" >>"$log" 2>&1
    mats+=("$gen/powerlaw-$rows.mtx" "$gen/uniform-$rows.mtx")
fi

status=0
run() { # run CSV LABEL ARGS...: spira-spmv's rows for one matrix appended to CSV
    local csv=$1 label=$2
    shift 2
    echo "setup-bench.sh: $label $*" | tee -a "$log" >&2
    local tmp
    tmp=$(mktemp)
    "$spmv" --csv --precision d --reps "$reps" "$@" > "$tmp" 2>>"$log" || status=1
    [ -s "$csv" ] || grep '^matrix,' "$tmp" > "$csv"
    grep -v '^#' "$tmp" | tail -n +2 >> "$csv"
    rm -f "$tmp"
}
rm -f "$out/setup.csv" "$out/setup-eager.csv"
for l in $laps; do
    run "$out/setup.csv" "laplacian $l" --formats "$formats" --convert-reps "$creps" \
        --laplacian "$l"
done
for m in "${mats[@]}"; do
    run "$out/setup.csv" "$m" --formats "$formats" --convert-reps "$creps" "$m"
done
if [ "${EAGER:-1}" != 0 ]; then
    export CUDA_MODULE_LOADING=EAGER
    for l in $laps; do
        run "$out/setup-eager.csv" "laplacian $l (eager)" --formats "$gpu_built" --laplacian "$l"
    done
    for m in "${mats[@]}"; do
        run "$out/setup-eager.csv" "$m (eager)" --formats "$gpu_built" "$m"
    done
    unset CUDA_MODULE_LOADING
fi
if [ "${PKT:-1}" != 0 ]; then
    for l in $laps; do
        run "$out/setup.csv" "laplacian $l (pkt)" --formats pkt --reps 5 --laplacian "$l"
    done
    for m in "${mats[@]}"; do
        run "$out/setup.csv" "$m (pkt)" --formats pkt --reps 5 "$m"
    done
fi

python3 - "$out/setup.csv" "$out/setup-eager.csv" > "$out/summary.txt" <<'EOF'
import csv, sys
csr_family = {"csr-scalar", "csr-vector", "lightspmv", "cusparse", "suraa", "cmrs"}
def rows(path):
    try:
        with open(path) as f:
            return list(csv.DictReader(f))
    except OSError:
        return []
eager = {(r["matrix"], r["format"]): r for r in rows(sys.argv[2]) if r["status"] == "ok"}
def num(r, k):
    try:
        return float(r.get(k) or "nan")
    except ValueError:
        return float("nan")
print("setup in multiples of the format's SpMV, the CSR upload excluded: cold = the process's "
      "first conversion, warm = the median of the conversions after it, eager = the first with "
      "every kernel loaded at start; target 5 (CSR family) or 20. A plan converted on the "
      "host counts its upload, which for the first CSR-sharing format of a run (cusparse) is "
      "the matrix's CSR upload: read cusparse's cold figure as that upload.")
print(f"{'matrix':28} {'format':11} {'on':4} {'SpMV ms':>9} {'cold ms':>9} {'warm ms':>9} "
      f"{'cold':>7} {'warm':>7} {'eager':>7} {'target':>6}  met (warm)")
for r in rows(sys.argv[1]):
    fmt, mat = r["format"], r["matrix"]
    if r["status"] != "ok":
        print(f"{mat[-28:]:28} {fmt:11} {r['status']}")
        continue
    t = num(r, "spmv_ms")
    gpu = r["converted_on"] == "gpu"
    upload = 0.0 if gpu else num(r, "upload_ms")
    sel = num(r, "select_ms")
    cold = (sel + num(r, "convert_ms") + upload) / t
    warm = num(r, "setup_warm_spmv_equiv")
    e = eager.get((mat, fmt))
    eq = (num(e, "select_ms") + num(e, "convert_ms")) / num(e, "spmv_ms") if e else float("nan")
    target = None if fmt == "pkt" else 5 if fmt in csr_family else 20
    met = "-" if target is None else "yes" if warm <= target else "NO"
    print(f"{mat[-28:]:28} {fmt:11} {r['converted_on']:4} {t:9.4f} {num(r, 'convert_ms'):9.3f} "
          f"{num(r, 'convert_warm_ms'):9.3f} {cold:7.1f} {warm:7.1f} {eq:7.1f} "
          f"{'-' if target is None else target:>6}  {met}")
EOF
echo "setup-bench.sh: wrote $out/setup.csv, setup-eager.csv, summary.txt, setup.log" >&2
exit $status
