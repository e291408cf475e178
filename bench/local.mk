EXTRA_DIST += bench/cupy_cg.py
# bench/: the SpMV benchmark scripts (run on the GPU machine; results go under bench/results/)
EXTRA_DIST += bench/run-spmv.sh bench/plot-spmv.py
