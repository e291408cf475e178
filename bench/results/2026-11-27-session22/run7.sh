#!/usr/bin/env bash
# session 22, call 7 (one H100), the library to be left on main (16f640c: the staged
# choice's second look moved into common.c): the whole GPU suite and gpu-verify's
# sanitizers.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
STAGES="suite sanitize" timeout 500 bash bench/gpu-verify.sh .device-run /tmp/vout >/tmp/verify.log 2>&1
. .device-run/env.sh
L=$OUT/run7.txt
{ nvidia-smi -L; echo "library of commit $(cat $D/commit)"; date -u; cat /tmp/verify.log; date -u; echo done; } >"$L" 2>&1
cp /tmp/vout/suite.txt "$OUT/suite7.txt" 2>/dev/null
