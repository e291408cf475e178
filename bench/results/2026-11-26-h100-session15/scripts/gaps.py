#!/usr/bin/env python3
"""For each gpu-trace CSV: the distinct kernel names with counts (cuSPARSE's marked), and
every idle gap of the device over 0.3 ms with the event after it."""
import csv, sys, collections
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path)))
    ev = []
    for r in rows[1:]:
        try: ev.append((int(float(r[0])), int(float(r[1])), r[3], r[4]))
        except (ValueError, IndexError): pass
    ev.sort()
    print("==", path, len(ev), "events")
    names = collections.Counter(e[3][:110] for e in ev)
    for n, c in names.most_common():
        if 'cusparse' in n.lower() or 'csrmv' in n.lower() or c < 3:
            print(f"  {c:6d} {n}")
    t0 = ev[0][0] if ev else 0
    end = t0
    for s, d, st, n in ev:
        if s - end > 300000:
            print(f"  gap {(s-end)/1e6:8.3f} ms at {(s-t0)/1e6:9.3f} before {n[:100]}")
        end = max(end, s + d)
