#!/bin/sh
# cli-options.sh - the drivers' option parsing (make check): every bad value exits 2 with
# one line naming the option, the value and the valid range; a second positional argument
# is an error; a format option error is reported as --format's; a refused solve prints no
# report. Run from the build directory (automake does); srcdir is the source tree.
srcdir=${srcdir:-.}
bin=./examples
data=$srcdir/data/gr_30_30.mtx
fails=0 n=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# run WANT_RC TEXT PROG ARGS...: exit status WANT_RC, stderr one line containing TEXT
run() {
    want=$1 text=$2
    shift 2
    n=$((n + 1))
    "$@" >"$out" 2>"$err"
    rc=$?
    lines=$(wc -l <"$err")
    if [ "$rc" -ne "$want" ] || [ "$lines" -ne 1 ] || ! grep -qF -- "$text" "$err"; then
        echo "FAIL: $* -> exit $rc (want $want), stderr ($lines lines, want 1 with '$text'):"
        sed 's/^/    /' "$err"
        fails=$((fails + 1))
    fi
}
# bad PROG TEXT ARGS...: a bad value, exit 2
bad() { p=$1 t=$2; shift 2; run 2 "$t" "$bin/$p" "$@"; }
# stdout_lacks TEXT: the last run printed no TEXT on stdout
stdout_lacks() {
    if grep -qF -- "$1" "$out"; then
        echo "FAIL: stdout has '$1':"; sed 's/^/    /' "$out"; fails=$((fails + 1))
    fi
}

lap="--laplacian 2:4"
bad spira-solve "--tol 'inf': want a finite number >= 0" $lap --tol inf
bad spira-solve "--tol 'nan': want a finite number >= 0" $lap --tol nan
bad spira-solve "--tol '-1': want a finite number >= 0" $lap --tol -1
bad spira-solve "--tol '1e-3x'" $lap --tol 1e-3x
bad spira-solve "--tol '1e999'" $lap --tol 1e999
bad spira-solve "--tol '1?2': want a finite number" $lap --tol "$(printf '1\n2')" # still one line
bad spira-solve "--maxit '4294967301': want an integer from 1 to 2147483647" $lap --maxit 4294967301
bad spira-solve "--maxit '0': want an integer from 1" $lap --maxit 0
bad spira-solve "--maxit '-5': want an integer from 1" $lap --maxit -5
bad spira-solve "--maxit '12 '" $lap --maxit "12 "
bad spira-solve "--degree '0': want an integer from 1 to 64" $lap --precond neumann --degree 0
bad spira-solve "--damping '0': want a finite number > 0" $lap --solver jacobi --damping 0
bad spira-solve "--repeat '-1': want an integer from 1" $lap --repeat -1
bad spira-solve "--monitor '0'" $lap --monitor 0
bad spira-solve "--drop-tol '1': want a finite number in (0, 1)" $lap --drop-tol 1
bad spira-solve "--fill '0.5': want a finite number in [1, 1000]" $lap --fill 0.5
bad spira-solve "--trisolve-sweeps '-1': want an integer from 0 to 64" $lap --precond ilu0 --trisolve-sweeps -1
bad spira-solve "--trisolve-sweeps '65': want an integer from 0 to 64" $lap --precond ilu0 --trisolve-sweeps 65
bad spira-solve "--trisolve-sweeps '2x'" $lap --precond ilu0 --trisolve-sweeps 2x
bad spira-solve "--trisolve-sweeps ''" $lap --precond ilu0 --trisolve-sweeps ""
bad spira-solve "--reorder 'cm': want none, rcm or degree" $lap --reorder cm
bad spira-solve "--reorder '': want none, rcm or degree" $lap --reorder ""
bad spira-pagerank "--reorder 'RCM': want none, rcm or degree" "$data" --reorder RCM
bad spira-solve "--laplacian '2:99999999999999999999'" --laplacian 2:99999999999999999999
bad spira-solve "--laplacian '4:10'" --laplacian 4:10
bad spira-solve "unexpected argument 'second.mtx' (one matrix file)" "$data" second.mtx
bad spira-solve "unexpected argument 'A.mtx'" $lap A.mtx
bad spira-solve "no matrix"
# --tol 0 is taken: only the iteration limit stops (exit 1: not converged)
run 1 "not converged in 3 iterations" $bin/spira-solve $lap --tol 0 --maxit 3
grep -q "iteration limit reached after 3 iterations" "$out" ||
    { echo "FAIL: --tol 0 --maxit 3 did not run 3 iterations"; fails=$((fails + 1)); }
# --trisolve-sweeps is taken and reported; 0 is the exact solves
n=$((n + 1))
$bin/spira-solve $lap --precond ilu0 --trisolve-sweeps 3 >"$out" 2>"$err" &&
    grep -q "preconditioner ilu0 (3 Jacobi sweeps a triangular solve)" "$out" ||
    { echo "FAIL: --trisolve-sweeps 3 not taken:"; sed 's/^/    /' "$out" "$err"; fails=$((fails + 1)); }
n=$((n + 1))
$bin/spira-solve $lap --precond ilu0 --trisolve-sweeps 0 >"$out" 2>"$err" &&
    grep -q "preconditioner ilu0 (exact triangular solves)" "$out" ||
    { echo "FAIL: --trisolve-sweeps 0 not exact:"; sed 's/^/    /' "$out" "$err"; fails=$((fails + 1)); }
# --trisolve isai is taken and reported; an unknown value and isai with sweeps are refused
n=$((n + 1))
$bin/spira-solve $lap --precond ilu0 --trisolve isai >"$out" 2>"$err" &&
    grep -q "preconditioner ilu0 (approximate inverses of L and U, ISAI)" "$out" ||
    { echo "FAIL: --trisolve isai not taken:"; sed 's/^/    /' "$out" "$err"; fails=$((fails + 1)); }
bad spira-solve "--trisolve 'lu': want exact or isai" $lap --precond ilu0 --trisolve lu
bad spira-solve "approximate inverses or Jacobi sweeps, not both" $lap --precond ilu0 --trisolve isai --trisolve-sweeps 2
# --dtol: > 1 or inf; a small one stops a solve whose residual grows (Jacobi on a matrix
# that is not diagonally dominant)
bad spira-solve "--dtol '1': want a finite number > 1 (or inf)" $lap --dtol 1
bad spira-solve "--dtol 'nan'" $lap --dtol nan
bad spira-solve "--dtol '-inf'" $lap --dtol -inf
$bin/spira-solve $lap --dtol inf >/dev/null 2>&1 || { echo "FAIL: --dtol inf refused"; fails=$((fails + 1)); }
nd=$(mktemp)
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1\n1 2 3\n2 1 3\n2 2 1\n' >"$nd"
run 1 "diverged" $bin/spira-solve "$nd" --solver jacobi --dtol 10
rm -f "$nd"
# a format option's error is --format's, and no report follows an error
run 1 "spira-solve: --format ell:max_fill=zz: SPIRA_ERR_INVALID_ARG" \
    $bin/spira-solve $lap --format ell:max_fill=zz
stdout_lacks "b = A * ones"
stdout_lacks "residual"
if grep -qF "b = A * ones" "$err"; then echo "FAIL: 'b = A * ones' in the error"; fails=$((fails + 1)); fi
single=$(mktemp)
printf '%%%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n3 3 1\n' >"$single"
run 1 "A is structurally singular: its row 1 (0-based)" $bin/spira-solve "$single"
stdout_lacks "SpMV format ?"
stdout_lacks "residual"
rm -f "$single"

bad spira-pagerank "--alpha '0': want a finite number in (0, 1)" --alpha 0 "$data"
bad spira-pagerank "--alpha '1'" --alpha 1 "$data"
bad spira-pagerank "--top '-3': want an integer from 0" --top -3 "$data"
bad spira-pagerank "--tol 'nan'" --tol nan "$data"
bad spira-pagerank "--maxit '4294967301'" --maxit 4294967301 "$data"
bad spira-pagerank "unexpected argument 'second.mtx' (one graph file)" "$data" second.mtx
bad spira-pagerank "unexpected argument 'g.mtx' (--rmat gives the graph)" --rmat 8:4 g.mtx
bad spira-pagerank "--rmat '8:0': want SCALE:EF" --rmat 8:0
run 1 "SPIRA_ERR_UNSUPPORTED" $bin/spira-pagerank --rmat 31:1 --backend cpu
bad spira-spmv "--reps '0': want an integer from 1 to 1000000" --reps 0 $lap
bad spira-spmv "--warmup '-1'" --warmup -1 $lap
bad spira-spmv "--convert-reps '0': want an integer from 1 to 1000" --convert-reps 0 $lap
bad spira-spmv "--copy-bandwidth '0'" --copy-bandwidth=0 $lap
bad spira-spmv "unexpected argument 'second.mtx'" "$data" second.mtx
bad spira-spmv "--laplacian or --rmat, not both" $lap --rmat 8:4
bad spira-spmv "unexpected argument 'A.mtx' (--laplacian or --rmat gives the matrix)" --rmat 8:4 A.mtx
bad spira-spmv "--seed '-1'" --rmat 8:4 --seed -1
bad spira-spmv "--reorder 'band': want none, rcm or degree" --rmat 8:4 --reorder band
bad spira-gf2 "--reps '0': want an integer from 1 to 1000000" --reps 0 --nfs 100:3
bad spira-gf2 "--nfs '100:300': want W <= N" --nfs 100:300
bad spira-gf2 "--nfs '1x:3'" --nfs 1x:3
bad spira-gf2 "unexpected argument 'second.mtx'" "$data" second.mtx
bad spira-gf2 "--devices '0': want an integer from 1 to 16" --devices 0 --nfs 100:3
bad spira-gf2 "--devices '17'" --devices 17 --nfs 100:3
bad spira-gf2 "--sequence '0'" --sequence 0 --nfs 100:3
bad spira-gf2 "--kernel or --sequence, not both" --kernel --sequence 5 --nfs 100:3
bad spira-example "unexpected argument 'extra'" "$data" extra

# spira-spmv --convert-reps: every CSV row has the header's fields (its note may hold
# commas), the warm columns filled for a format converted again (on the CPU backend)
n=$((n + 1))
if ! $bin/spira-spmv --backend cpu --csv --reps 2 --warmup 0 --convert-reps 3 \
    --formats sell,cmrs,suraa $lap >"$out" 2>"$err" ||
    ! awk -F, 'NR == 1 { h = NF; for (i = 1; i <= NF; i++) if ($i == "convert_warm_ms") w = i }
               NR > 1 { rows++; if (NF < h || $w == "") bad = 1 }
               END { exit !(w && rows == 3 && !bad) }' "$out"; then
    echo "FAIL: spira-spmv --convert-reps 3 --csv:"; sed 's/^/    /' "$out" "$err"
    fails=$((fails + 1))
fi

# spira-pagerank --rmat in one process (any build): the generated graph's ranks
n=$((n + 1))
if ! $bin/spira-pagerank --rmat 10:4 --backend cpu --top 1 >"$out" 2>"$err" ||
    ! grep -q "PageRank of rmat-10-4-seed1" "$out" ||
    ! grep -q "1024 vertices" "$out" || ! grep -q "converged" "$out"; then
    echo "FAIL: spira-pagerank --rmat 10:4:"; sed 's/^/    /' "$out" "$err"
    fails=$((fails + 1))
fi

# spira-spmv --rmat: the generated graph, labelled by its sizes and seed
n=$((n + 1))
if ! $bin/spira-spmv --rmat 10:4 --seed 7 --backend cpu --formats coo --reps 2 >"$out" 2>"$err" ||
    ! grep -q "rmat-10-4-seed7, 1024 x 1024" "$out"; then
    echo "FAIL: spira-spmv --rmat 10:4 --seed 7:"; sed 's/^/    /' "$out" "$err"
    fails=$((fails + 1))
fi

# spira-spmv --reorder: the formats timed on P A P^T, said so, every format within its bound
n=$((n + 1))
if ! $bin/spira-spmv --rmat 10:4 --reorder degree --backend cpu --formats coo,sell --reps 2 \
    >"$out" 2>"$err" ||
    ! grep -q "rmat-10-4-seed1 in degree order, 1024 x 1024" "$out" ||
    ! grep -q "^ordering degree: P A P^T made in" "$out"; then
    echo "FAIL: spira-spmv --reorder degree:"; sed 's/^/    /' "$out" "$err"
    fails=$((fails + 1))
fi

echo "$n cases, $fails failed"
[ "$fails" -eq 0 ]
