#!/usr/bin/env python3
"""tts-table.py RAW_DIR - the markdown table and the issue 13 targets from the logs that
bench/time-to-solution.sh leaves in RAW_DIR (index.txt names them in run order).

Per contender: read (Spira: bench/mmread-bench's wall time of one read, file to host CSR;
CuPy: scipy.io.mmread + .tocsr()), setup, the first solve's iterations and time, and
  total, 1 solve  = setup + iterations (issue 13's total: the read is left out)
  total, R solves = setup + the first solve + (R - 1) x the median of solves 2..R
with, for Spira, setup = auto's choice (select_ms) + the format's conversion and upload +
the solver's own setup (preconditioner; a later solve's is the median the driver reports
for its repeated solves, or the first's where it reports none), and,
for spira-pagerank, its setup (transition matrix, plan, vectors). Where a driver has no
--repeat (spira-pagerank today) the R-solve total is setup + R x the first solve, marked ~.
A contender run in several processes (time-to-solution.sh's RUNS) is shown by its run of
median one-solve total (the lower middle of an even count; failed runs count as slowest),
the spread of its totals in the note. A contender that failed, refused, timed out or did
not converge gets its message in the note column and no part in the targets."""
import os
import re
import statistics
import sys

NUM = r"([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)"


def grab(pattern, text, conv=float):
    m = re.search(pattern, text, re.M)
    return conv(m.group(1)) if m else None


def parse_spira(text):
    r = {}
    r["format"] = grab(r"SpMV format ([^\s,]+)", text, str)
    select = grab(r"\(chosen in " + NUM + " ms\\)", text) or 0.0
    fmt = grab(r"SpMV format setup " + NUM + " ms", text)
    solver = grab(r"solver setup " + NUM + " ms", text)
    pr = grab(r"^\s*time\s+setup " + NUM + " ms", text)
    if fmt is not None and solver is not None:
        r["setup"] = select + fmt + solver
        r["per_solve_setup"] = solver
    elif pr is not None:
        r["setup"] = select + pr
        r["per_solve_setup"] = 0.0
    r["iterations"] = grab(r"after (\d+) iterations", text, int)
    r["iterate"] = grab(r"iterations " + NUM + " ms \\(", text)
    r["result"] = grab(r"^\s*result\s+(.*?) after \d+ iterations", text, str)
    r["residual"] = grab(r"^\s*residual\s.*= " + NUM + r"\s*$", text)
    r["median"] = grab(r"repeated\s+\d+ more solves: median " + NUM + " ms", text)
    # what a later solve's own setup took (a plan the first solve built is A's by then);
    # drivers before session 23 did not say, and the first solve's stood for it
    later = grab(r"their setup median " + NUM + " ms", text)
    if later is not None and "per_solve_setup" in r:
        r["per_solve_setup"] = later
    r["converged"] = bool(r["result"] and r["result"].startswith("converged"))
    return r


def parse_cupy(text):
    m = re.search(r"^tts (.*)$", text, re.M)
    if not m:
        return {}
    kv = dict(x.split("=", 1) for x in m.group(1).split())
    f = lambda k: float(kv[k])
    return {"format": "cuSPARSE via CuPy", "read": f("read_ms"), "mmread": f("mmread_ms"),
            "setup": f("setup_ms"), "iterations": int(kv["iterations"]),
            "iterate": f("first_ms"), "median": f("median_ms") if int(kv["repeats"]) else None,
            "per_solve_setup": 0.0, "converged": kv["converged"] == "1",
            "result": "converged" if kv["converged"] == "1" else "not converged",
            "residual": f("rel_residual"), "backend": kv.get("backend", "cupy")}


def error_of(text):
    """The driver's own message, the script's skip or timeout, or the last line."""
    lines = [x for x in text.splitlines() if not x.startswith("tts-command")]
    for x in lines:
        if x.startswith("tts-skipped"):
            return "skipped: " + x.split(" ", 1)[1]
    t = grab(r"^tts-timeout (\d+)", text, int)
    if t is not None:
        return "timed out after %d s" % t
    msgs = [re.sub(r"^spira-\w+: ", "", x) for x in lines if re.match(r"^spira-\w+: ", x)]
    if msgs:
        return msgs[-1]
    tb = [x for x in lines if re.match(r"^\w*(Error|Exception)\b", x)]
    if tb:
        return tb[-1]
    body = [x for x in lines if not x.startswith("tts-") and x.strip()]
    return body[-1].strip() if body else "no output"


def fmt_ms(x):
    if x is None:
        return "-"
    return "%.0f" % x if x >= 100 else "%.1f" % x if x >= 10 else "%.2f" % x if x >= 1 else "%.3f" % x


def cell(s):
    return str(s).replace("|", "\\|").replace("\n", " ")


def median_runs(rows):
    """One row per (problem, contender): its run of median total1, the spread noted."""
    groups = {}
    for r in rows:
        groups.setdefault((r["problem"], r["who"]), []).append(r)
    kept = []
    for runs in groups.values():
        if len(runs) == 1:
            kept.append(runs[0])
            continue
        ok = sorted((r for r in runs if r["ok"]), key=lambda r: r["total1"])
        order = ok + [r for r in runs if not r["ok"]]
        r = order[(len(order) - 1) // 2]
        if len(ok) > 1:
            spread = "median of %d runs (one-solve totals %s-%s)" % (
                len(runs), fmt_ms(ok[0]["total1"]), fmt_ms(ok[-1]["total1"]))
            r["note"] = "; ".join(x for x in (spread, r["note"]) if x)
        kept.append(r)
    return kept


def main():
    raw = sys.argv[1] if len(sys.argv) > 1 else "."
    env = {}
    for line in open(os.path.join(raw, "env.txt")):
        k, _, v = line.rstrip("\n").partition(" ")
        env.setdefault(k, v) if k != "note" else env.setdefault("notes", []).append(v)
    repeat = int(env.get("repeat", "10"))
    rows = []
    for line in open(os.path.join(raw, "index.txt")):
        problem, kind, who, log = line.split()
        text = open(os.path.join(raw, log), errors="replace").read()
        r = parse_cupy(text) if who.startswith("cupy") else parse_spira(text)
        r.update(problem=problem, kind=kind, who=who)
        r["exit"] = grab(r"^tts-exit (\d+)", text, int)
        if not who.startswith("cupy"):
            rt = open(os.path.join(raw, problem + ".read.log"), errors="replace").read() \
                if os.path.exists(os.path.join(raw, problem + ".read.log")) else ""
            r["read"] = grab(r"^RESULT total_ms=" + NUM, rt)
            if r["read"] is None:  # mmread-bench before the parallel reader
                r["read"] = grab(r"\(wall time of the read\)\s+" + NUM + " ms", rt)
        complete = r.get("setup") is not None and r.get("iterate") is not None
        r["ok"] = complete and r["converged"] and r["exit"] == 0
        if complete:
            r["total1"] = r["setup"] + r["iterate"]
            if r.get("median") is not None:
                r["totalR"] = (r["total1"] + (repeat - 1) * (r["per_solve_setup"] + r["median"]))
                r["approx"] = ""
            else:
                r["totalR"] = r["total1"] + (repeat - 1) * (r["per_solve_setup"] + r["iterate"])
                r["approx"] = "~"
        if r["exit"] != 0 or not complete:
            r["note"] = error_of(text)
        elif not r["converged"]:
            r["note"] = "%s, residual %s" % (r["result"], r.get("residual"))
        else:
            r["note"] = ""
        notes = [r["note"]] if r["note"] else []
        if who.startswith("cupy") and "mmread" in r:
            notes.insert(0, "scipy.io.mmread alone %s" % fmt_ms(r["mmread"]))
        if r.get("backend") == "numpy":
            notes.insert(0, "NumPy on the CPU: a test of bench/cupy_cg.py, not a contender")
        r["note"] = "; ".join(notes)
        rows.append(r)
    rows = median_runs(rows)
    # grouped by problem, in the order the problems and their contenders ran
    order = list(dict.fromkeys(r["problem"] for r in rows))
    rows.sort(key=lambda r: order.index(r["problem"]))

    print("# Time to solution (bench/time-to-solution.sh)\n")
    print("%s, commit %s, %s; scale %s, matrices made in %.1f s, the contenders ran in "
          "%.1f s." % (env.get("device") or "no GPU", env.get("commit", "?"), env.get("date", "?"),
                       env.get("scale", "?"), float(env.get("generate_ms", "0")) / 1e3,
                       float(env.get("run_ms", "0")) / 1e3))
    for n in env.get("notes", []):
        print("%s." % n.rstrip("."))
    print("Times in ms. total = setup + iterations (the read left out, as issue 13 counts "
          "it); %d solves: setup once, then the first solve and %d x the median of the "
          "others (~: %d x the first, the driver has no --repeat).\n" % (repeat, repeat - 1, repeat - 1))
    print("| problem | contender | read | setup | iterations | iterate | ms/iteration | "
          "total, 1 solve | total, %d solves | read + 1 solve | note |" % repeat)
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in rows:
        who = r["who"]
        if who.startswith("default"):
            who = "%s (%s)" % (who, r.get("format") or "?")
        elif who.startswith("cupy"):
            who = "CuPy" if r.get("backend", "cupy") == "cupy" else "NumPy stand-in"
        its = r.get("iterations")
        per = r["iterate"] / its if r.get("iterate") is not None and its else None
        total1 = r.get("total1")
        print("| %s |" % " | ".join(cell(x) for x in (
            r["problem"], who, fmt_ms(r.get("read")), fmt_ms(r.get("setup")),
            "-" if its is None else its, fmt_ms(r.get("iterate")),
            "-" if per is None else "%.4f" % per, fmt_ms(total1),
            ("%s%s" % (r["approx"], fmt_ms(r["totalR"]))) if "totalR" in r else "-",
            fmt_ms(total1 + r["read"]) if total1 is not None and r.get("read") is not None else "-",
            r["note"])))

    print("\n## Issue 13's targets (one solve, total = setup + iterations)\n")
    print("| problem | default | its total | best single format | its total | default / best "
          "(<= 1.05) | CuPy total | CuPy / default (>= 2.5) | default / best, %d solves |" % repeat)
    print("|---|---|---:|---|---:|---:|---:|---:|---:|")
    verdicts = []
    for problem in dict.fromkeys(r["problem"] for r in rows):
        mine = [r for r in rows if r["problem"] == problem]
        d = next((r for r in mine if r["who"] == "default"), None)
        # default-NAME (DEFAULT_ALSO) is the default in another environment, not a format
        singles = [r for r in mine if not r["who"].startswith(("default", "cupy")) and r["ok"]]
        cupy = next((r for r in mine if r["who"] == "cupy" and r["ok"]), None)
        best = min(singles, key=lambda r: r["total1"]) if singles else None
        bestR = min(singles, key=lambda r: r["totalR"]) if singles else None
        dok = d is not None and d["ok"]
        ratio = d["total1"] / best["total1"] if dok and best else None
        ratioR = d["totalR"] / bestR["totalR"] if dok and bestR else None
        speed = cupy["total1"] / d["total1"] if dok and cupy else None
        why = "the default run failed" if not dok else None
        verdicts.append((problem, "default <= 1.05x the best single format", ratio,
                         ratio is not None and ratio <= 1.05, why or "no single format ran"))
        verdicts.append((problem, "default >= 2.5x faster than CuPy", speed,
                         speed is not None and speed >= 2.5, why or "no CuPy result"))
        if d is not None and d["kind"] == "graph":
            per = d["iterate"] / d["iterations"] if dok and d["iterations"] else None
            verdicts.append((problem, "PageRank <= 0.3 ms an iteration", per,
                             per is not None and per <= 0.3, why))
        print("| %s |" % " | ".join(cell(x) for x in (
            problem, (d.get("format") or "?") if dok else "failed" if d else "not run",
            fmt_ms(d["total1"]) if dok else "-",
            best["who"] if best else "none ran", fmt_ms(best["total1"]) if best else "-",
            "%.2f" % ratio if ratio is not None else "-",
            fmt_ms(cupy["total1"]) if cupy else "-",
            "%.2f" % speed if speed is not None else "-",
            "%.2f (best %s)" % (ratioR, bestR["who"]) if ratioR is not None else "-")))
    print()
    for problem, what, value, met, why in verdicts:
        print("- %s: %s: %s" % (problem, what, "not measured (%s)" % why if value is None else
                                 "%s (%.3g)" % ("met" if met else "NOT met", value)))


if __name__ == "__main__":
    main()
