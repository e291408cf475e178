EXTRA_DIST += bench/cupy_cg.py
