#!/usr/bin/env python3
"""circuit-parts.py OUT_DIR [ROWS] - the time-to-solution suite's circuit-like matrix
(gen-irregular.py's circuit) taken apart, to see which part a format loses on:
    circuit-ROWS.mtx          the whole matrix
    circuit-band-ROWS.mtx     the entries near the diagonal only
    circuit-cols-ROWS.mtx     the band and the dense columns (no dense rows)
    circuit-rows-ROWS.mtx     the band and the dense rows (no dense columns)
Same draws as the whole matrix: each part holds exactly those entries of it (the diagonal
recomputed from what the row keeps)."""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("gen", os.path.join(here, "gen-irregular.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000
os.makedirs(out, exist_ok=True)
for name, rows, cols in (("", True, True), ("-band", False, False), ("-cols", False, True),
                         ("-rows", True, False)):
    path = os.path.join(out, "circuit%s-%d.mtx" % (name, n))
    if not os.path.exists(path):
        gen.circuit(path, n, dense_rows=rows, dense_cols=cols)
    print(path)
