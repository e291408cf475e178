#!/usr/bin/env python3
"""timeline-summary.py - read GPU traces (bench/gpu-trace.c's, or nsys stats --report
cuda_gpu_trace --format csv), one a rank, of a run that solved twice
(bench/dist-timeline.sh) and print, rank by rank, for the second solve's steady state: the
time per iteration, each kernel's time an iteration, how busy each stream and the device
(any stream) are, and every event of three iterations with its start relative to the
first, so that waits show. gpu-trace.c's host rows (GPU_TRACE_API: device "host") are
left out: they are not the device's."""
import argparse
import csv
import statistics
import sys


def column(header, *keys):
    for i, h in enumerate(header):
        if any(k.lower() in h.lower() for k in keys):
            return i
    raise SystemExit(f"no column like {keys} in {header}")


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    cs, cd = column(head, "Start"), column(head, "Duration")
    cst, cn = column(head, "Strm", "Stream"), column(head, "Name")
    cdev = next((i for i, h in enumerate(head) if h.strip().lower() == "device"), None)
    ev = []
    for r in rows[1:]:
        if cdev is not None and cdev < len(r) and r[cdev] == "host":
            continue
        try:
            ev.append((int(float(r[cs])), int(float(r[cd])), r[cst], r[cn]))
        except (ValueError, IndexError):
            continue
    ev.sort()
    return ev


def union(intervals):
    total, end = 0, None
    for s, e in sorted(intervals):
        if end is None or s > end:
            total += e - s
            end = e
        elif e > end:
            total += e - end
            end = e
    return total


def short(name, n=60):
    name = name.split("(")[0] if "(" in name and not name.startswith("[") else name
    return name if len(name) <= n else name[: n - 3] + "..."


def summarize(path, its):
    ev = read(path)
    if not ev:
        print(f"{path}: no events")
        return
    # the iteration's clock: the kernel launched closest to once an iteration over the two
    # solves (the diagonal block's SpMV: a few more for the residuals); its last `its`
    # launches are the second solve's iterations, their spacing the time of one
    counts = {}
    for e in ev:
        counts.setdefault(e[3], []).append(e[0])
    name, starts = min(((n, t) for n, t in counts.items() if len(t) >= 2 * its),
                       key=lambda nt: len(nt[1]), default=(None, None))
    if name is None:
        print(f"{path}: no kernel runs {2 * its} times")
        return
    starts = starts[-its:]
    per_it = statistics.median(b - a for a, b in zip(starts, starts[1:]))
    # the steady state: the middle 80% of the second solve's iterations
    lo, hi = starts[its // 10], starts[its - its // 10 - 1]
    win = [e for e in ev if e[0] >= lo and e[0] + e[1] <= hi]
    span = hi - lo
    print(f"== {path}: {per_it / 1e3:.1f} us an iteration (median spacing of {short(name)}, "
          f"{len(counts[name])} launches)")
    print(f"   window (middle 80%): {span / 1e6:.3f} ms; device busy {union([(s, s + d) for s, d, _, _ in win]) / span:.1%}")
    streams = {}
    for s, d, st, _ in win:
        streams.setdefault(st, []).append((s, s + d))
    for st, iv in sorted(streams.items()):
        print(f"   stream {st}: busy {union(iv) / span:.1%}, {len(iv)} events")
    by = {}
    for s, d, st, n in win:
        by.setdefault(short(n), []).append(d)
    print("   per kernel in the window: count, us an iteration, median us")
    n_its = span / per_it
    for n, ds in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        print(f"     {len(ds):6d} {sum(ds) / n_its / 1e3:8.2f} {statistics.median(ds) / 1e3:8.2f}  {n}")
    # three iterations from the middle, every event, from a launch of the clock kernel
    mid = starts[its // 2]
    sel = [e for e in win if mid <= e[0] < mid + 3 * per_it]
    if sel:
        base = sel[0][0]
        print("   three iterations from the middle: start us, duration us, stream, name")
        for s, d, st, n in sel:
            print(f"     {(s - base) / 1e3:9.2f} {d / 1e3:8.2f} {st:>4} {short(n, 70)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, required=True)
    ap.add_argument("csv", nargs="+")
    a = ap.parse_args()
    for p in a.csv:
        summarize(p, a.iterations)
    return 0


if __name__ == "__main__":
    sys.exit(main())
