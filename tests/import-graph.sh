#!/bin/sh
# The library's include and call graphs have no circle and no upward edge, and examples/
# use the public header alone (tests/import-graph.py says what it checks); a skip without
# python3.
command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
exec python3 "${srcdir:-.}/tests/import-graph.py" "${srcdir:-.}"
