#!/bin/sh
# run-spmv.sh - run spira-spmv --csv over a folder of Matrix Market files and a few generated
# Laplacians, and write one CSV whose first lines (starting with '#') name the GPU, the
# commit, the date and the measured device copy bandwidth. Meant for the GPU machine; on a
# machine without one it measures the CPU backend and says so in the header.
#
#   bench/run-spmv.sh [-x SPIRA_SPMV] [-o OUT.csv] [-p s|d] [-r REPS] [-f FORMATS] [DIR...]
#
# SPIRA_SPMV (or -x): path to the spira-spmv binary; default ./examples/spira-spmv (run from
# a build directory), then spira-spmv on PATH. LAPLACIANS: generated problems as DIM:N
# (default "2:1000 2:2000 3:100 3:150"; empty for none). Exit status 1 if any run failed
# (its stderr goes to OUT.log), the CSV still holds every other run. FORMATS defaults to
# "all,auto": every registered format, then what `auto` picks (its note names the choice).
set -u

spmv=${SPIRA_SPMV:-}
out=spmv-$(date -u +%Y%m%d-%H%M%S).csv
prec=d
reps=100
formats=all,auto
laps=${LAPLACIANS-"2:1000 2:2000 3:100 3:150"}
while getopts x:o:p:r:f:h opt; do
    case $opt in
    x) spmv=$OPTARG ;;
    o) out=$OPTARG ;;
    p) prec=$OPTARG ;;
    r) reps=$OPTARG ;;
    f) formats=$OPTARG ;;
    h) sed -n '2,13p' "$0"; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ -z "$spmv" ]; then
    if [ -x ./examples/spira-spmv ]; then spmv=./examples/spira-spmv
    else spmv=$(command -v spira-spmv || true)
    fi
fi
if [ -z "$spmv" ] || [ ! -x "$spmv" ]; then
    echo "run-spmv.sh: no spira-spmv binary: set SPIRA_SPMV or pass -x PATH" >&2
    exit 2
fi

srcdir=$(cd "$(dirname "$0")/.." && pwd)
commit=${SPIRA_COMMIT:-$(git -C "$srcdir" rev-parse --short HEAD 2>/dev/null || echo unknown)}
if [ "$commit" != unknown ] && [ -n "$(git -C "$srcdir" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    commit="$commit-dirty"
fi
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)
[ -n "$gpu" ] || gpu="none (CPU backend)"
log=${out%.csv}.log
: > "$log"
copy=$("$spmv" --copy-bandwidth 2>>"$log" | sed -n 's/.*copy bandwidth \([0-9.]*\) GB\/s.*/\1/p')
{
    echo "# gpu: $gpu"
    echo "# commit: $commit"
    echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "# host: $(uname -n)"
    echo "# copy_bandwidth_gbs: ${copy:-unknown}"
    echo "# precision: $prec, reps: $reps, formats: $formats"
} > "$out"

status=0
header_done=0
run_one() { # run_one LABEL ARGS...: append the CSV rows, the header only once
    label=$1
    shift
    echo "run-spmv.sh: $label" >&2
    tmp=$(mktemp)
    "$spmv" --csv --precision "$prec" --reps "$reps" --formats "$formats" "$@" > "$tmp" 2>>"$log"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "run-spmv.sh: $label: spira-spmv exited $rc (see $log)" >&2
        status=1
    fi
    if [ $header_done -eq 0 ] && grep -q '^matrix,' "$tmp"; then
        grep '^matrix,' "$tmp" >> "$out"
        header_done=1
    fi
    grep -v '^#' "$tmp" | tail -n +2 >> "$out"
    rm -f "$tmp"
}

for l in $laps; do
    run_one "laplacian $l" --laplacian "$l"
done
for dir in "$@"; do
    find "$dir" -type f \( -name '*.mtx' -o -name '*.mtx.gz' \) | sort | while read -r f; do
        echo "$f"
    done > "$out.list"
    while read -r f; do
        run_one "$f" "$f"
    done < "$out.list"
    rm -f "$out.list"
done
echo "run-spmv.sh: wrote $out" >&2
exit $status
