#!/usr/bin/env bash
# session 20, call 8 (one H100), 253aaad: the whole GPU suite (tests/gpu-cases.sh, nine
# cases, 200 s each at most) -> suite8.txt.
. .device-run/env.sh; mkdir -p /tmp/t/tests && cp .device-run/bin/check_gpu /tmp/t/tests/ && cd /tmp/t &&
  (timeout 230 sh /work/main/tests/gpu-cases.sh /tmp/t/cases 200 > $OUT/suite8.txt 2>&1; echo "rc $?" >> $OUT/suite8.txt)
