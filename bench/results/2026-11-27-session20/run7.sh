#!/usr/bin/env bash
# session 20, call 7 (one H100), 253aaad: the GPU suite's 'reorder' case alone, verbose
# (call 6's suite stopped before it: gpu-verify.sh's outer timeout of 330 s, not the case).
. .device-run/env.sh; mkdir -p /tmp/t/tests && cp .device-run/bin/check_gpu /tmp/t/tests/ && cd /tmp/t &&
  (CK_RUN_CASE=reorder CK_VERBOSITY=verbose timeout 100 ./tests/check_gpu > $OUT/reorder.txt 2>&1; echo "rc $?" >> $OUT/reorder.txt)
