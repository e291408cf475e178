#!/usr/bin/env python3
"""plot-spmv.py - plot a CSV written by bench/run-spmv.sh (or spira-spmv --csv).

Two panels: GFLOP/s of each format on each matrix (grouped bars), and the speedup over
cuSPARSE measured in the same run (t_cusparse / t_format; 1 is parity). Formats that refused
a matrix, or failed, leave a gap. The title carries the GPU, commit and date of the header.

    bench/plot-spmv.py results.csv [-o results.png] [--precision d|s]
"""
import argparse
import csv
import sys


def read(path):
    meta, rows = {}, []
    with open(path, newline="") as f:
        lines = []
        for line in f:
            if line.startswith("#"):
                key, _, val = line[1:].partition(":")
                meta[key.strip()] = val.strip()
            elif line.strip():
                lines.append(line)
    for r in csv.DictReader(lines):
        rows.append(r)
    return meta, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("-o", "--output", help="PNG to write (default: the CSV's name, .png)")
    ap.add_argument("--precision", choices=["s", "d"], help="plot only this precision")
    a = ap.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    meta, rows = read(a.csv)
    if a.precision:
        rows = [r for r in rows if r["precision"] == a.precision]
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        sys.exit("plot-spmv.py: no measured rows in %s" % a.csv)
    multi_prec = len({r["precision"] for r in ok}) > 1

    def fmt(r):
        name = r["format"] + (":" + r["options"] if r["options"] else "")
        return name + ("/" + r["precision"] if multi_prec else "")

    matrices = list(dict.fromkeys(r["matrix"] for r in ok))
    formats = list(dict.fromkeys(fmt(r) for r in ok))
    gf = {(r["matrix"], fmt(r)): float(r["gflops"]) for r in ok}
    sp = {(r["matrix"], fmt(r)): float(r["speedup_vs_cusparse"] or 0) for r in ok}

    width = 0.8 / len(formats)
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 1.2 * len(matrices) + 4), 9), sharex=True)
    for k, f in enumerate(formats):
        xs = [i + (k - (len(formats) - 1) / 2) * width for i in range(len(matrices))]
        axes[0].bar(xs, [gf.get((m, f), 0) for m in matrices], width, label=f)
        axes[1].bar(xs, [sp.get((m, f), 0) for m in matrices], width, label=f)
    axes[0].set_ylabel("GFLOP/s (2 nnz / t)")
    axes[1].set_ylabel("speedup over cuSPARSE")
    axes[1].axhline(1.0, color="black", linewidth=0.8)
    axes[1].set_xticks(range(len(matrices)))
    axes[1].set_xticklabels(matrices, rotation=40, ha="right")
    axes[0].legend(fontsize="small", ncol=min(4, len(formats)))
    title = "Spira SpMV: %s, commit %s, %s" % (
        meta.get("gpu", "?"), meta.get("commit", "?"), meta.get("date", "?"))
    if meta.get("copy_bandwidth_gbs"):
        title += "\ncopy bandwidth %s GB/s" % meta["copy_bandwidth_gbs"]
    fig.suptitle(title, fontsize="medium")
    fig.tight_layout()
    out = a.output or (a.csv[:-4] if a.csv.endswith(".csv") else a.csv) + ".png"
    fig.savefig(out, dpi=120)
    print("plot-spmv.py: wrote %s" % out)


if __name__ == "__main__":
    main()
