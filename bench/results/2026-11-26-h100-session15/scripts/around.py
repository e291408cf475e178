#!/usr/bin/env python3
"""around.py TRACE.csv NAME-SUBSTRING [BEFORE AFTER]: the events around the last event whose
name contains NAME-SUBSTRING, each with its start relative to the first shown, duration and
the idle gap before it (device-wide)."""
import csv, sys
path, key = sys.argv[1], sys.argv[2]
before = int(sys.argv[3]) if len(sys.argv) > 3 else 12
after = int(sys.argv[4]) if len(sys.argv) > 4 else 16
ev = []
for r in list(csv.reader(open(path)))[1:]:
    try: ev.append((int(float(r[0])), int(float(r[1])), r[4]))
    except (ValueError, IndexError): pass
ev.sort()
idx = [i for i, e in enumerate(ev) if key in e[2]]
if not idx:
    print("no", key); sys.exit()
i = idx[-1]
lo, hi = max(0, i - before), min(len(ev), i + after)
t0 = ev[lo][0]
end = ev[lo - 1][0] + ev[lo - 1][1] if lo else t0
print(f"== {path} around the last '{key}' ({len(idx)} of them)")
for s, d, n in ev[lo:hi]:
    print(f"  {(s - t0)/1e3:9.1f} us  dur {d/1e3:8.1f}  gap {(s - end)/1e3:8.1f}  {n[:110]}")
    end = max(end, s + d)
