#!/usr/bin/env python3
"""gf2-sweep-summary.py - reads spira-gf2 --csv output of the combined format's sweeps
(bench/gpu-gf2-sweep.sh) and of the formats benchmark (bench/gpu-gf2-formats.sh).

  best CSV            the band sub-formats (band1=..,band2=..,band3=..) of the fastest
                      combined run, for the second stage of the sweep
  report CSV...       every run's Gnnz/s against csr's in the same file, the fastest
                      combined setting, and its line for the defaults table in
                      spmv/gf2/gf2_combined.c
  formats CSV...      the formats benchmark's table: Gnnz/s, ratio to csr, setup ms and
                      setup in multiplies, on the GPU (built there) and on the host
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def ok(r):
    return r["status"] == "ok" and r["gnnz_s"]


def fastest_combined(rs):
    c = [r for r in rs if ok(r) and r["format"] == "combined"]
    return max(c, key=lambda r: float(r["gnnz_s"])) if c else None


def opts_dict(s):
    return dict(kv.split("=", 1) for kv in s.split(",") if "=" in kv)


def best(paths):
    r = fastest_combined([r for p in paths for r in rows(p)])
    if not r:
        sys.exit("no combined run succeeded")
    o = opts_dict(r["options"])
    if any(f"band{b}" not in o for b in (1, 2, 3)):
        sys.exit(f"the fastest combined run ({r['options']}) does not name its three bands")
    print(",".join(f"{k}={v}" for k, v in o.items() if k != "parts"))


def report(paths):
    allr = []
    for p in paths:
        rs = rows(p)
        csr = [float(r["gnnz_s"]) for r in rs if ok(r) and r["format"] == "csr"]
        base = csr[0] if csr else None
        print(f"== {p}: csr {base if base else '-'} Gnnz/s")
        for r in rs:
            if r["format"] != "combined":
                continue
            if not ok(r):
                print(f"  {r['options']:70s} {r['status']} {r['note']}")
                continue
            g = float(r["gnnz_s"])
            ratio = f"{g / base:.2f}x csr" if base else ""
            setup = float(r["setup_ms"])
            print(f"  {r['options']:70s} {g:8.1f} Gnnz/s {ratio:>10s}  setup {setup:.1f} ms")
            allr.append((g, r, base))
    if not allr:
        sys.exit("no combined run succeeded")
    g, r, base = max(allr, key=lambda t: t[0])
    o = opts_dict(r["options"])
    print(f"\nfastest: combined:{r['options']} {g:.1f} Gnnz/s"
          + (f", {g / base:.2f}x csr ({base:.1f})" if base else "")
          + f" on {r['matrix']} at W = {r['width']}")
    share = {"thread": "SPIRA__GF2_SHARE_THREAD", "warp": "SPIRA__GF2_SHARE_WARP",
             "block": "SPIRA__GF2_SHARE_BLOCK", "csr": "SPIRA__GF2_BAND_CSR"}
    keys = ("dense", "cut1", "cut2", "band1", "band2", "band3")
    o.setdefault("parts", "0")
    if any(k not in o for k in keys):
        print("(the fastest run does not name every cut-off: no defaults line)")
        return
    print("defaults line for spmv/gf2/gf2_combined.c (DEVICE: a substring of the device name "
          "spira-gf2 prints):")
    print(f'    {{"DEVICE", {{{o["dense"]}, {{{o["cut1"]}, {o["cut2"]}}}, {o["parts"]}, '
          f'{{{share[o["band1"]]}, {share[o["band2"]]}, {share[o["band3"]]}}}, "DEVICE"}}}},')


def formats(paths):
    for p in paths:
        rs = rows(p)
        print(f"== {p}")
        base = {}
        for r in rs:
            if ok(r) and r["format"] == "csr":
                base[(r["matrix"], r["width"], r["backend"])] = float(r["gnnz_s"])
        print(f"  {'matrix':18s} {'W':>4s} {'backend':7s} {'format':40s} {'Gnnz/s':>8s} "
              f"{'vs csr':>7s} {'setup ms':>9s} {'(SpMVs)':>8s}  status")
        for r in rs:
            label = r["format"] + (":" + r["options"] if r["options"] else "")
            if not ok(r):
                print(f"  {r['matrix']:18s} {r['width']:>4s} {r['backend']:7s} {label:40s} "
                      f"{'':>8s} {'':>7s} {'':>9s} {'':>8s}  {r['status']}: {r['note'][:80]}")
                continue
            g = float(r["gnnz_s"])
            b = base.get((r["matrix"], r["width"], r["backend"]))
            setup = float(r["setup_ms"])
            spmvs = setup / float(r["spmv_ms"]) if float(r["spmv_ms"]) > 0 else 0
            print(f"  {r['matrix']:18s} {r['width']:>4s} {r['backend']:7s} {label:40s} {g:8.2f} "
                  f"{(g / b if b else 0):6.2f}x {setup:9.2f} {spmvs:8.1f}  {r['status']}")


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("best", "report", "formats"):
        sys.exit(__doc__)
    {"best": best, "report": report, "formats": formats}[sys.argv[1]](sys.argv[2:])
