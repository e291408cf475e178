#!/usr/bin/env bash
# gpu-gf2-devices.sh - GF(2) over one and two GPUs of one machine (spira_gf2_matrix_
# set_devices; issue 15's "two GPUs"), for a machine with two GPUs or more. Run from a
# built tree:
#   bash SRC/bench/gpu-gf2-devices.sh OUT_DIR [STAGE ...]
# Stages (default: all, in this order; each well under 10 minutes on an H100/H200):
#   tests     tests/check_gpu_devices (2 GPUs against 1 and the CPU reference, outputs
#             poisoned, allocation failures on either device) and check_gpu's cases
#             "cuda" and "block Wiedemann" (one GPU through the same split code, N = 1)
#   multiply  spira-gf2 --nfs N:64, W = 64, csr and sliced-coo, on 1 and 2 devices: the
#             median of 200 multiplies after 20 warm-up (CUDA events around each whole
#             spira_gf2_spmv; on 2 devices that includes sending X to the second GPU and its
#             rows of Y back)
#   sequence  the Krylov sequence a_i = X^T M^i Y, 2000 steps, W = 64, csr, 1 and 2 devices:
#             the multiply phase of block Wiedemann (multiply + X^T Z + rows exchanged
#             between the GPUs a step), median of 5 sequences, setup subtracted
#   kernel    block Wiedemann (spira-gf2 --kernel --block) at N / 4 and N rows on 1 and 2
#             devices: the split sequence / Berlekamp-Massey / evaluation (kernel-quarter,
#             kernel-full: one of the two sizes; N rows take about 3 minutes a run on an
#             H100 with 16 host cores, most of it Berlekamp-Massey on the host)
#   chunks    (not in the default list) the sequence and the multiply on 2 devices with
#             SPIRA_GF2_CHUNKS = 1, 2, 4, 8 chunks a device (default 1)
#   sanitize  (not in the default list) compute-sanitizer memcheck and racecheck over
#             spira-gf2 on 2 devices, small: multiplies, a sequence, block Wiedemann
# N = 1000000 unless GF2_N is set. Each stage writes OUT_DIR/<stage>*.{csv,log} and a
# line per result to OUT_DIR/summary.txt; exit status 1 if anything failed or was WRONG.
set -uo pipefail
out=${1:?usage: gpu-gf2-devices.sh OUT_DIR [tests|multiply|sequence|kernel|sanitize ...]}
shift
[ $# -gt 0 ] || set -- tests multiply sequence kernel
n=${GF2_N:-1000000}
src=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
rc=0
note() { echo "$*" | tee -a "$out/summary.txt"; }
{
  date -u
  git -C "$src" rev-parse HEAD 2>/dev/null
  nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv 2>/dev/null
  nvidia-smi topo -m 2>/dev/null
  nproc
} > "$out/machine.txt"

# median column of a CSV by header name, for the summary
col() { awk -F, -v name="$2" -v fmt="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
        $4 == fmt || $7 == fmt { print $c; exit }' "$1"; }

for stage in "$@"; do
  case $stage in
  tests)
    CK_VERBOSITY=verbose timeout 900 ./tests/check_gpu_devices > "$out/tests-devices.log" 2>&1
    s=$?
    note "tests: check_gpu_devices exit $s: $(grep -E '^[0-9]+%: Checks' "$out/tests-devices.log" | tail -1)"
    grep -E ':[EF]:' "$out/tests-devices.log" | head -10 | tee -a "$out/summary.txt"
    [ $s -eq 0 ] || rc=1
    sh "$src/tests/gpu-cases.sh" "$out/tests-one-gpu" 600 "cuda" "block Wiedemann" \
      | tee -a "$out/summary.txt"
    [ "${PIPESTATUS[0]}" = 0 ] || rc=1
    ;;
  multiply)
    for d in 1 2; do
      ./examples/spira-gf2 --nfs "$n:64" --width 64 --formats csr,sliced-coo --reps 200 \
        --warmup 20 --devices $d --csv > "$out/multiply-$d.csv" 2> "$out/multiply-$d.log"
      s=$?
      [ $s -eq 0 ] || rc=1
      for f in csr sliced-coo; do
        note "multiply: $d device(s), $f: exit $s, $(col "$out/multiply-$d.csv" spmv_ms $f) ms" \
             "$(col "$out/multiply-$d.csv" gnnz_s $f) Gnnz/s"
      done
    done
    ;;
  sequence)
    for d in 1 2; do
      ./examples/spira-gf2 --nfs "$n:64" --width 64 --formats csr --sequence 2000 --reps 5 \
        --warmup 2 --devices $d --csv > "$out/sequence-$d.csv" 2> "$out/sequence-$d.log"
      s=$?
      [ $s -eq 0 ] || rc=1
      note "sequence: $d device(s): exit $s, $(col "$out/sequence-$d.csv" step_ms csr) ms a step," \
           "$(col "$out/sequence-$d.csv" gnnz_s csr) Gnnz/s"
    done
    a=$(col "$out/sequence-1.csv" step_ms csr) b=$(col "$out/sequence-2.csv" step_ms csr)
    [ -n "$a" ] && [ -n "$b" ] && note "sequence: 2 devices $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')x one (a step, csr, W = 64)"
    ;;
  kernel|kernel-quarter|kernel-full)
    sizes="$((n / 4)) $n"
    [ "$stage" = kernel-quarter ] && sizes=$((n / 4))
    [ "$stage" = kernel-full ] && sizes=$n
    for size in $sizes; do
      for d in 1 2; do
        timeout 580 ./examples/spira-gf2 --nfs "$size:64" --kernel --block --formats csr \
          --devices $d --csv > "$out/kernel-$size-$d.csv" 2> "$out/kernel-$size-$d.log"
        s=$?
        [ $s -eq 0 ] || rc=1
        note "kernel: N = $size, $d device(s): exit $s: $(tail -1 "$out/kernel-$size-$d.csv")"
      done
    done
    ;;
  chunks)
    for k in 1 2 4 8; do
      SPIRA_GF2_CHUNKS=$k ./examples/spira-gf2 --nfs "$n:64" --width 64 --formats csr \
        --sequence 2000 --reps 5 --warmup 2 --devices 2 --csv > "$out/chunks-$k-sequence.csv" \
        2> "$out/chunks-$k-sequence.log"
      s1=$?
      SPIRA_GF2_CHUNKS=$k ./examples/spira-gf2 --nfs "$n:64" --width 64 --formats csr --reps 200 \
        --warmup 20 --devices 2 --csv > "$out/chunks-$k-multiply.csv" 2> "$out/chunks-$k-multiply.log"
      s2=$?
      [ $s1 -eq 0 ] && [ $s2 -eq 0 ] || rc=1
      note "chunks: $k a device: sequence exit $s1, $(col "$out/chunks-$k-sequence.csv" step_ms csr) ms a step;" \
           "multiply exit $s2, $(col "$out/chunks-$k-multiply.csv" spmv_ms csr) ms"
    done
    ;;
  sanitize)
    for tool in memcheck racecheck; do
      for args in "--reps 3 --warmup 1 --formats csr,sliced-coo --width 64,256" \
                  "--sequence 20 --reps 2 --warmup 1 --formats csr,sliced-coo" \
                  "--kernel --block --formats csr"; do
        size=20000
        case $args in --kernel*) size=3000 ;; esac
        log="$out/sanitize-$tool-$(printf '%s' "$args" | tr -c 'A-Za-z0-9' '-').log"
        # shellcheck disable=SC2086
        timeout 580 compute-sanitizer --tool $tool --error-exitcode 3 \
          ./examples/spira-gf2 --nfs "$size:30" --devices 2 $args > "$log" 2>&1
        s=$?
        [ $s -eq 0 ] || rc=1
        note "sanitize: $tool, $args: exit $s; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1)"
      done
    done
    ;;
  *) echo "gpu-gf2-devices.sh: unknown stage '$stage'" >&2; exit 2 ;;
  esac
done
exit $rc
