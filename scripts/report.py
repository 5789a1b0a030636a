#!/usr/bin/python3
"""Turn the raw JSON under results/raw/ into results/README.md and its PNG plots.

usage: scripts/report.py RAW_DIR OUT_MD

Which figure goes in: for every benchmark, the newest raw file (by the date in its context,
then by file name) that holds it without an error. Every table row or section names that
file, its commit and its date, and the runs table at the top names each file's machine.
An older row is left out when a newer complete run measured the same puzzle without its
engine/encoder pair (renamed or removed); runs of `reproduce.sh --filter` retire nothing.
Ratios (x naive, x classic, speedups) compare rows of the same file only. To drop a
benchmark that no longer exists, delete the raw files that hold it.

Times are the median of the repetitions with their min and max; files written with
aggregates only (older runs) give the median and the coefficient of variation instead.
The whole-process runs of scripts/scale_runs.py (scale-*.json) are picked the same way
per label; each long out-of-core run of scripts/long_run.py (long-*.json) gets its own
section, partial while it is in progress. Nothing here knows a puzzle family: tables and plots cover whatever puzzles
the raw files hold.
"""
import glob
import json
import math
import os
import re
import statistics
import sys
import textwrap
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

FIELDS = ("kind", "engine", "encoder", "puzzle", "param")  # bench/benchmark_id.hpp
# The classic single-file contest solutions' encoder per puzzle family (run with the ring
# engine): the "x classic" yardstick. Families with no classic program get no such column.
CLASSIC_ENCODER = {"msquare": "bitpack", "sicily1515": "bitpack", "checkers": "maskhole"}
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
# Rates written by runs before items_per_second was used.
OLD_RATES = ("states_per_second", "queries_per_second", "per_second")
# Distinct colour and marker pairs: a plot shows at most this many series.
STYLES = list(zip(plt.get_cmap("tab10").colors, "os^Dv<>PX*"))


def family(puzzle):
    """The puzzle name without its size: msquare-2x4 -> msquare, checkers-19 -> checkers."""
    return re.sub(r"-[0-9]+(x[0-9]+)*$", "", puzzle)


class Source:
    """One raw file and the context it carries."""

    def __init__(self, path, context, out_dir):
        self.path = path
        self.rel = os.path.relpath(path, out_dir)
        self.name = os.path.basename(path)
        self.context = context
        stamp = re.match(r"^[a-z]+-\d{8}-\d{6}-([0-9a-f]+(\+dirty)?)", self.name)
        self.commit = str(context.get("git_revision") or (stamp.group(1) if stamp else "?"))
        self.date = str(context.get("date", "?"))
        cores = context.get("cores", context.get("num_cpus", "?"))
        self.machine = context.get("machine") or f"{context.get('cpu_model', '?')}, {cores} cores"
        self.debug_library = context.get("library_build_type") == "debug"

    def cite(self):
        return f"[{self.commit}, {self.date[:16].replace('T', ' ')}]({self.rel})"

    def short(self):
        return f"{self.commit} {self.date[:10]}"

    def order(self):
        return (self.date, self.name)


def fields(entry):
    """The benchmark's fields from its label ("kind=bfs engine=ring ..."); runs recorded
    before the labels carry them only in the name, kind/engine/encoder/puzzle/param, with
    judges then named judge/<judge>/<engine>/<encoder>/<input>."""
    label = dict(item.split("=", 1) for item in entry.get("label", "").split() if "=" in item)
    if all(k in label for k in FIELDS):
        return {k: label[k] for k in FIELDS}
    parts = entry.get("run_name", entry["name"]).split("/")
    if parts[-1] == "real_time":
        parts.pop()
    if len(parts) != len(FIELDS):
        return {"kind": "other", "engine": "", "encoder": "", "puzzle": "", "param": ""}
    row = dict(zip(FIELDS, parts))
    if row["kind"] == "judge":
        row["puzzle"], row["engine"], row["encoder"] = row["engine"], row["encoder"], row["puzzle"]
    return row


def identity(row):
    return tuple(row[k] for k in FIELDS)


def load(path, out_dir):
    """A Source and its rows (one per benchmark: identity, counters, times of the repetitions)."""
    with open(path) as f:
        doc = json.load(f)
    source = Source(path, doc.get("context", {}), out_dir)
    grouped = defaultdict(list)
    for b in doc.get("benchmarks", []):
        grouped[b.get("run_name", b["name"])].append(b)
    rows = {}
    for run_name, entries in grouped.items():
        if any(e.get("error_occurred") for e in entries):
            continue
        reps = [e for e in entries if e.get("run_type", "iteration") == "iteration"]
        aggregates = {e.get("aggregate_name"): e for e in entries if e.get("run_type") == "aggregate"}
        main = aggregates.get("median") or (reps[len(reps) // 2] if reps else None)
        if main is None:
            continue
        row = fields(main)
        threads = row["param"][8:] if row["param"].startswith("threads:") else ""
        row["threads"] = int(threads) if threads.isdigit() else None
        row["name"] = run_name
        row["source"] = source
        times = [e["real_time"] * TO_MS[e["time_unit"]] for e in reps]
        if len(times) >= 2:
            row.update(ms=statistics.median(times), min_ms=min(times), max_ms=max(times), reps=len(times))
        else:
            row.update(ms=main["real_time"] * TO_MS[main["time_unit"]], reps=main.get("repetitions", 1))
            if "cv" in aggregates:
                row["cv"] = aggregates["cv"]["real_time"]
        rates = [e["items_per_second"] for e in reps if "items_per_second" in e]
        if len(rates) >= 2:
            row.update(rate=statistics.median(rates), rate_min=min(rates), rate_max=max(rates))
        else:
            row["rate"] = next((main[k] for k in ("items_per_second",) + OLD_RATES if k in main), None)
        for key in ("states", "peak_bytes", "key_space", "radius", "distance", "queries"):
            if key in main:
                row[key] = main[key]
        rows[identity(row) if row["kind"] != "other" else ("other", run_name)] = row
    return source, rows


def pick_newest(raw_dir, out_dir):
    """Per benchmark, the row of the newest file holding it; and every file used, newest first.

    A row is retired when a newer complete run (not a --filter run) measured the same kind
    on the same puzzle without its engine/encoder pair: the pair was renamed or removed.
    Thread counts and puzzles a newer run did not measure keep their older rows."""
    loaded = [load(p, out_dir) for p in glob.glob(os.path.join(raw_dir, "bench-*.json"))]
    loaded.sort(key=lambda sr: sr[0].order(), reverse=True)
    picked, newer = {}, []
    for source, rows in loaded:
        for ident, row in rows.items():
            if ident in picked:
                continue
            group, pair = (row["kind"], row["puzzle"]), (row["engine"], row["encoder"])
            if any(group in cover and pair not in cover[group] for cover in newer):
                continue
            picked[ident] = row
        if not source.context.get("benchmark_filter"):
            cover = defaultdict(set)
            for row in rows.values():
                cover[(row["kind"], row["puzzle"])].add((row["engine"], row["encoder"]))
            newer.append(cover)
    used = [source for source, _ in loaded if any(r["source"] is source for r in picked.values())]
    return list(picked.values()), used


# ---------- formatting ----------

def fmt_ms(ms):
    if ms >= 100:
        return f"{ms:,.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    if ms >= 1:
        return f"{ms:.2f}"
    return f"{ms:.3g}"


def fmt_spread(row, fmt, key, low, high):
    """row[key] formatted with its spread: '1.32 (1.30-1.35)', or '1.32 (cv 2.8%)' for files
    that kept only the aggregates."""
    if low in row:
        return f"{fmt(row[key])} ({fmt(row[low])}-{fmt(row[high])})"
    if "cv" in row:
        return f"{fmt(row[key])} (cv {row['cv'] * 100:.1f}%)"
    return fmt(row[key])


def fmt_time(row):
    """The median time in ms with its spread."""
    return fmt_spread(row, fmt_ms, "ms", "min_ms", "max_ms")


def fmt_rate(x):
    if x is None:
        return "-"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def fmt_rate_spread(row):
    """The median rate with its spread."""
    return fmt_spread(row, fmt_rate, "rate", "rate_min", "rate_max")


def fmt_bytes(b):
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return f"{b / scale:.3g} {unit}"
    return f"{b:.0f} B"


class Writer:
    def __init__(self):
        self.lines = []

    def __call__(self, line=""):
        self.lines.append(line)

    def heading(self, title, note=""):
        self(f"## {title}")
        self()
        if note:
            self(note)
            self()

    def table(self, header, align, rows):
        """rows: (cells, Source). When every row comes from one file the table is preceded by
        one line naming it; otherwise each row names its own file in a last column."""
        if not rows:
            return
        sources = {id(s): s for _, s in rows}
        if len(sources) == 1:
            s = rows[0][1]
            self(f"Run: {s.cite()} on {s.machine}.")
            self()
        else:
            header, align = header + ["run (raw file)"], align + "l"
        self.row(header)
        self("|" + "".join("---|" if a == "l" else "---:|" for a in align))
        for cells, s in rows:
            self.row(cells + ([s.cite()] if len(sources) > 1 else []))
        self()

    def row(self, cells):
        """One table row; a '|' inside a cell (a command's regular expression) is escaped."""
        self("| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |")


# ---------- tables ----------

def puzzle_order(rows):
    size = {}
    for r in rows:
        if r.get("states"):
            size.setdefault(r["puzzle"], r["states"])
    return lambda p: (family(p), size.get(p, math.inf), p)


def same_run(rows, row, **want):
    """The row of the same raw file and puzzle with the wanted fields, if any."""
    return next((r for r in rows if r["source"] is row["source"] and r["puzzle"] == row["puzzle"]
                 and all(r.get(k) == v for k, v in want.items())), None)


def whole_space_tables(w, bfs, order):
    w.heading("Whole-space search",
              "Median wall time of one search from the start over the whole component, with the min and max of the "
              "repetitions in brackets; states/s is Google Benchmark's items_per_second. *x naive* and *x classic* are "
              "how many times faster than the textbook `naive` engine and than the family's classic single-file "
              "solution (`ring` with the encoder it used), measured in the same raw file.")
    for puzzle in sorted({r["puzzle"] for r in bfs}, key=order):
        pr = sorted((r for r in bfs if r["puzzle"] == puzzle), key=lambda r: r["ms"])
        classic_enc = CLASSIC_ENCODER.get(family(puzzle))
        ref = pr[0]
        w(f"### {puzzle} ({int(ref.get('states', 0)):,} states, radius {int(ref.get('radius', 0))})")
        w()
        header = ["engine", "encoder", "threads", "median ms (min-max)", "states/s", "peak memory", "key space", "x naive"]
        if classic_enc:
            header.append("x classic")
        table = []
        for r in pr:
            naive = same_run(bfs, r, engine="naive")
            cells = [r["engine"], r["encoder"], str(r["threads"] or 1), fmt_time(r), fmt_rate(r["rate"]),
                     fmt_bytes(r.get("peak_bytes", 0)), fmt_rate(r.get("key_space") or None),
                     f"{naive['ms'] / r['ms']:.1f}" if naive else "-"]
            if classic_enc:
                classic = same_run(bfs, r, engine="ring", encoder=classic_enc)
                cells.append(f"{classic['ms'] / r['ms']:.2f}" if classic else "-")
            table.append((cells, r["source"]))
        w.table(header, "llrrrrrr" + ("r" if classic_enc else ""), table)
        best = pr[0]
        w(f"Fastest: `{best['engine']}` + `{best['encoder']}` with {best['threads'] or 1} thread(s), {fmt_ms(best['ms'])} ms.")
        w()


def scaling_table(w, bfs, order, sources):
    """Per raw file, every engine/encoder run at several thread counts on spaces of 100,000
    states or more (smaller ones finish before threads help)."""
    multi = defaultdict(list)
    for r in bfs:
        if r["threads"] is not None and r.get("states", 0) >= 100_000:
            multi[(r["source"].path, r["puzzle"], r["engine"], r["encoder"])].append(r)
    series = {k: sorted(v, key=lambda r: r["threads"]) for k, v in multi.items() if len(v) >= 2}
    if not series:
        return
    w.heading("Thread scaling",
              "Spaces of 100,000 states or more. Speedup = median time with 1 thread / median time with n threads, both "
              "from the same raw file; efficiency = speedup / n. One table per raw file, which names its machine.")
    for source in sources:
        rows = []
        for key in sorted((k for k in series if k[0] == source.path), key=lambda k: (order(k[1]), k[2], k[3])):
            base = next((r["ms"] for r in series[key] if r["threads"] == 1), None)
            for r in series[key]:
                sp = base / r["ms"] if base else None
                rows.append(([r["puzzle"], r["engine"], r["encoder"], str(r["threads"]), fmt_time(r),
                              f"{sp:.2f}" if sp else "-", f"{sp / r['threads']:.2f}" if sp else "-"], r["source"]))
        w.table(["puzzle", "engine", "encoder", "threads", "median ms (min-max)", "speedup", "efficiency"], "lllrrrr", rows)


def explicit_graph_table(w, bfs, order, sources):
    """The parallel engine against the GAP-style BFS over the same graph built explicitly
    (engine explicit-csr: the puzzle's successors stored as a CSR adjacency list, then a
    direction-optimizing BFS over it, like the GAP Benchmark Suite's bfs; building the graph
    is not timed), same encoder, thread count and raw file."""
    rows = []
    for source in sources:
        mine = [r for r in bfs if r["source"].path == source.path]
        for csr in sorted((r for r in mine if r["engine"] == "explicit-csr"), key=lambda r: (order(r["puzzle"]), r["threads"])):
            ours = next((r for r in mine if r["engine"] == "parallel" and r["puzzle"] == csr["puzzle"] and
                         r["encoder"] == csr["encoder"] and r["threads"] == csr["threads"]), None)
            if ours:
                rows.append(([csr["puzzle"], csr["encoder"], str(csr["threads"]), fmt_time(ours), fmt_time(csr),
                              f"{ours['ms'] / csr['ms']:.2f}"], source))
    if not rows:
        return
    w.heading("Against the GAP-style BFS on the same graph",
              "Engine `parallel` against `explicit-csr` (bench/explicit_graph_bfs.hpp: the graph stored as a CSR adjacency "
              "list, built before timing, then a direction-optimizing BFS over it as in the GAP Benchmark Suite), same "
              "encoder, thread count and raw file. Ratio = parallel's median time / explicit-csr's (below 1: parallel is "
              "faster, without ever holding the graph).")
    w.table(["puzzle", "encoder", "threads", "parallel ms (min-max)", "explicit-csr ms (min-max)", "ratio"], "lllrrr", rows)


def scale_section(w, raw_dir, out_dir):
    """Whole-process runs of scripts/scale_runs.py, newest file first per label."""
    files = []
    for path in glob.glob(os.path.join(raw_dir, "scale-*.json")):
        with open(path) as f:
            doc = json.load(f)
        files.append((Source(path, doc["context"], out_dir), doc["runs"]))
    files.sort(key=lambda f: f[0].order(), reverse=True)
    rows = {}
    for source, runs in files:
        for r in runs:
            rows.setdefault(r["label"], dict(r, source=source))
    if not rows:
        return
    w.heading("Large spaces: whole-process wall time and peak resident memory",
              "`scripts/scale_runs.py`: each command run several times as a separate process; medians of the wall time "
              "(start-up included) and of the peak RSS the kernel reports (wait4), min and max in brackets. Totals and "
              "radii are checked against the known facts; every path has the length of its distance.")
    table = []
    for r in sorted(rows.values(), key=lambda r: ("point" in r["label"], r["label"])):
        answer = f"{r['distance']} (`{r['path'][:24]}{'...' if len(r['path']) > 24 else ''}`)" if "distance" in r else \
            f"{r['states']:,}, radius {r['radius']}"
        walls, rss = r.get("wall_seconds", []), r.get("peak_rss_bytes", [])
        wall = f"{r['median_wall_seconds']:.3f}" + (f" ({min(walls):.3f}-{max(walls):.3f})" if len(walls) > 1 else "")
        mem = fmt_bytes(r["median_peak_rss_bytes"]) + (f" ({fmt_bytes(min(rss))}-{fmt_bytes(max(rss))})" if len(rss) > 1 else "")
        table.append(([r["label"], f"`{r['command']}`", wall, mem, answer], r["source"]))
    w.table(["run", "command", "median wall s (min-max)", "median peak RSS (min-max)", "states / distance"], "llrrr", table)


def topdown_table(w, bfs, order):
    pairs = []
    for td in bfs:
        if td["engine"] == "parallel-topdown":
            opt = same_run(bfs, td, engine="parallel", encoder=td["encoder"], threads=td["threads"])
            if opt:
                pairs.append((td, opt))
    if not pairs:
        return
    w.heading("Direction-optimizing levels: parallel engine, two bits per key",
              "`parallel` switches a level to bottom-up (every unseen state looks for a parent in the frontier) once the "
              "frontier outnumbers the unseen states; `parallel-topdown` never does. Both from the same raw file.")
    rows = [([td["puzzle"], td["encoder"], str(td["threads"]), fmt_time(opt), fmt_time(td), f"{td['ms'] / opt['ms']:.2f}"],
             td["source"]) for td, opt in sorted(pairs, key=lambda p: (order(p[0]["puzzle"]), p[0]["encoder"], p[0]["threads"]))]
    w.table(["puzzle", "encoder", "threads", "direction-optimizing ms", "top-down ms", "top-down / optimizing"], "llrrrr", rows)


def codec_table(w, codec, order):
    if not codec:
        return
    w.heading("Encoder fast paths against the textbook code",
              "Nanoseconds per key over 4,096 fixed random keys (Google Benchmark's items_per_second inverted); "
              "*x slowest* compares the variants of one operation in the same raw file.")
    rows = []
    for key in sorted({(r["puzzle"], r["engine"], r["encoder"]) for r in codec}, key=lambda k: (order(k[0]), k[1], k[2])):
        group = sorted((r for r in codec if (r["puzzle"], r["engine"], r["encoder"]) == key), key=lambda r: -r["rate"])
        for r in group:
            slowest = min((g["rate"] for g in group if g["source"] is r["source"]), default=r["rate"])
            ns = f"{1e9 / r['rate']:.2f}" + (f" ({1e9 / r['rate_max']:.2f}-{1e9 / r['rate_min']:.2f})" if "rate_min" in r else
                                              f" (cv {r['cv'] * 100:.1f}%)" if "cv" in r else "")
            rows.append(([r["puzzle"], r["engine"], r["encoder"], r["param"], ns, f"{r['rate'] / slowest:.1f}"], r["source"]))
    w.table(["puzzle", "operation", "encoder", "variant", "ns per key (min-max)", "x slowest"], "llllrr", rows)


def point_tables(w, points, order):
    by_depth = [r for r in points if r["param"].startswith("depth:")]
    for puzzle in sorted({r["puzzle"] for r in by_depth}, key=order):
        pr = [r for r in by_depth if r["puzzle"] == puzzle]
        depths = sorted({int(r["param"][6:]) for r in pr})
        w.heading(f"Point queries on {puzzle} by depth",
                  "Queries per second (items_per_second) over fixed targets at each depth, median with the min and max of "
                  "the repetitions; every path checked against bidir's after timing.")
        rows = []
        for combo in sorted({(r["engine"], r["encoder"], r["source"].path) for r in pr}):
            cells, src = [combo[0], combo[1]], None
            for d in depths:
                r = next((r for r in pr if (r["engine"], r["encoder"], r["source"].path) == combo and r["param"] == f"depth:{d}"), None)
                cells.append(fmt_rate_spread(r) if r else "-")
                src = src or (r and r["source"])
            rows.append((cells, src))
        w.table(["engine", "encoder"] + [f"depth {d}" for d in depths], "ll" + "r" * len(depths), rows)
    other = [r for r in points if not r["param"].startswith("depth:")]
    for fam in sorted({family(r["puzzle"]) for r in other}):
        fr = sorted((r for r in other if family(r["puzzle"]) == fam), key=lambda r: (order(r["puzzle"]), r["param"], r["ms"]))
        w.heading(f"Point queries on {fam}", "Fixed targets per puzzle (the last part of the name: how they were drawn); "
                  "every path checked against bidir's after timing.")
        w.table(["puzzle", "targets", "engine", "encoder", "median ms (min-max)", "queries/s"], "llllrr",
                [([r["puzzle"], r["param"], r["engine"], r["encoder"], fmt_time(r), fmt_rate(r["rate"])], r["source"]) for r in fr])


def judge_tables(w, judges):
    for judge in sorted({r["puzzle"] for r in judges}):
        jr = sorted((r for r in judges if r["puzzle"] == judge), key=lambda r: (r["param"], r["ms"]))
        w.heading(f"Judge throughput: {judge}", "Median time to answer the whole input (table built inside the timed loop); "
                  "queries/s is items_per_second.")
        w.table(["engine", "encoder", "input", "median ms (min-max)", "queries/s"], "lllrr",
                [([r["engine"], r["encoder"], r["param"], fmt_time(r), fmt_rate_spread(r)], r["source"]) for r in jr])


def other_table(w, other):
    if not other:
        return
    w.heading("Other benchmarks", "Benchmarks no section above describes, by name.")
    w.table(["benchmark", "median ms (min-max)", "items/s"], "lrr",
            [([f"`{r['name']}`", fmt_time(r), fmt_rate(r["rate"])], r["source"]) for r in sorted(other, key=lambda r: r["name"])])


# ---------- plots ----------

def footer(fig, sources):
    """Names the data of the plot: each raw file's commit, date and machine."""
    seen = {}
    for s in sources:
        seen.setdefault(s.path, s)
    width = int(fig.get_size_inches()[0] * 18)  # characters of 6.5 pt text per line
    lines = [line for s in sorted(seen.values(), key=lambda s: s.order(), reverse=True)
             for line in textwrap.wrap(f"data: {s.name} (commit {s.commit}, {s.date[:16].replace('T', ' ')} UTC) on {s.machine}",
                                       width, subsequent_indent="    ")]
    fig.text(0.005, 0.005, "\n".join(lines), fontsize=6.5, color="0.3", va="bottom", ha="left")
    return 0.03 + 0.022 * len(lines) * 8 / fig.get_size_inches()[1]


def save(fig, out_dir, name, sources):
    bottom = footer(fig, sources)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)


def si(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:g}{unit}"
    return f"{x:g}"


def log_axis(axis, lo, hi, kind):
    """A log axis with labelled ticks: 1-2-5 steps over short ranges, decades otherwise;
    bytes in powers of 16 (1 KiB, 16 KiB, 256 KiB, 4 MiB ...)."""
    if kind == "bytes":
        locator = ticker.LogLocator(base=4 if hi / lo < 2**16 else 16, numticks=12)
        formatter = ticker.FuncFormatter(lambda v, _: fmt_bytes(v))
    else:
        decades = math.log10(hi / lo) if lo > 0 else 9
        locator = ticker.LogLocator(base=10, subs=(1, 2, 5) if decades <= 3 else (1,), numticks=20)
        formatter = ticker.FuncFormatter(lambda v, _: si(v) if kind == "count" else f"{v:g}")
    axis.set_major_locator(locator)
    axis.set_major_formatter(formatter)
    axis.set_minor_formatter(ticker.NullFormatter())


def chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def bar_plot(out_dir, name, rows, value, kind, title, xlabel, color):
    rows = [r for r in rows if value(r) > 0]
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(rows) + 2.2))
    labels = [f"{r['engine']} / {r['encoder']}" for r in rows]
    values = [value(r) for r in rows]
    ax.barh(labels, values, color=color)
    ax.set_xscale("log")
    if kind == "ms" and all("min_ms" in r for r in rows):
        ax.errorbar(values, labels, xerr=[[v - r["min_ms"] for v, r in zip(values, rows)],
                                          [r["max_ms"] - v for v, r in zip(values, rows)]],
                    fmt="none", ecolor="black", capsize=3, lw=1)
    log_axis(ax.xaxis, min(values), max(values), kind)
    # The value at the end of each bar (past the whisker), and room for it on the right.
    ends = [r["max_ms"] if kind == "ms" and "max_ms" in r else v for v, r in zip(values, rows)]
    for y, (v, end) in enumerate(zip(values, ends)):
        ax.text(end * 1.08, y, fmt_bytes(v) if kind == "bytes" else f"{fmt_ms(v)} ms", va="center", fontsize=7)
    ax.set_xlim(min(values) / 1.5, max(ends) * 3)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", which="major", alpha=0.3)
    save(fig, out_dir, name, [r["source"] for r in rows])


def plot_bars(out_dir, bfs, order):
    """Per puzzle family, the puzzle with the most engine x encoder combinations at 1 thread."""
    plots = []
    one = [r for r in bfs if (r["threads"] or 1) == 1]
    for fam in sorted({family(r["puzzle"]) for r in one}):
        puzzles = {r["puzzle"] for r in one if family(r["puzzle"]) == fam}
        puzzle = max(puzzles, key=lambda p: (sum(r["puzzle"] == p for r in one), order(p)[1]))
        pr = sorted((r for r in one if r["puzzle"] == puzzle), key=lambda r: r["ms"])
        if len(pr) < 2:
            continue
        name = f"time-by-engine-encoder-{puzzle}.png"
        reps = max(r["reps"] for r in pr)
        spread = "whiskers: min to max" if all("min_ms" in r for r in pr) else "spread in the table"
        bar_plot(out_dir, name, pr, lambda r: r["ms"], "ms",
                 f"{puzzle}: wall time of one whole-space search, 1 thread, by engine / encoder\n"
                 f"bars: median of {reps} repetitions; {spread}", "median wall time (ms, log scale)", "tab:blue")
        plots.append((name, f"{puzzle}: whole-space search time by engine and encoder"))
        pm = sorted(pr, key=lambda r: r.get("peak_bytes", 0))
        name = f"memory-by-encoder-{puzzle}.png"
        bar_plot(out_dir, name, pm, lambda r: r.get("peak_bytes", 0), "bytes",
                 f"{puzzle}: peak bytes of the search structures\nin one whole-space search, 1 thread, by engine / encoder",
                 "peak bytes (log scale)", "tab:green")
        plots.append((name, f"{puzzle}: memory of the search structures by engine and encoder"))
    return plots


def plot_threads(out_dir, bfs, order):
    """states/s against threads, one panel per puzzle, one line per engine/encoder and raw file."""
    series = defaultdict(list)
    for r in bfs:
        if r["threads"] is not None and r["rate"]:
            series[(r["puzzle"], r["engine"], r["encoder"], r["source"].path)].append(r)
    series = {k: sorted(v, key=lambda r: r["threads"]) for k, v in series.items() if len(v) >= 2}
    # The two largest puzzles of each family that have thread series.
    puzzles = []
    for fam in sorted({family(k[0]) for k in series}):
        fam_puzzles = sorted({k[0] for k in series if family(k[0]) == fam}, key=order)
        puzzles += fam_puzzles[-2:]
    panels = []
    for puzzle in puzzles:
        keys = sorted(k for k in series if k[0] == puzzle)
        for part in chunks(keys, len(STYLES)):
            panels.append((puzzle, part))
    if not panels:
        return []
    cols = min(2, len(panels))
    rows_n = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, 3.6 * rows_n + 0.8), squeeze=False)
    sources = []
    for ax, (puzzle, keys) in zip(axes.flat, panels):
        threads = sorted({r["threads"] for k in keys for r in series[k]})
        multi_source = len({k[3] for k in keys}) > 1
        for (color, marker), key in zip(STYLES, keys):
            s = series[key]
            label = f"{key[1]} / {key[2]}" + (f" ({s[0]['source'].short()})" if multi_source else "")
            ax.plot([r["threads"] for r in s], [r["rate"] for r in s], color=color, marker=marker, label=label)
            sources += [r["source"] for r in s]
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(ticker.FixedLocator(threads))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:.0f}"))
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ax.set_ylim(bottom=0)
        ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: si(v)))
        ax.set_xlabel("threads")
        ax.set_ylabel("states per second (median)")
        ax.set_title(f"{puzzle}: whole-space search rate by thread count", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    save(fig, out_dir, "states-per-second-vs-threads.png", sources)
    return [("states-per-second-vs-threads.png", "whole-space search rate against thread count")]


def plot_sizes(out_dir, bfs, order):
    """Time against state-space size, log-log, one panel per family (lines never cross families)."""
    one = [r for r in bfs if (r["threads"] or 1) == 1 and r.get("states")]
    panels = []
    for fam in sorted({family(r["puzzle"]) for r in one}):
        combos = defaultdict(list)
        for r in one:
            if family(r["puzzle"]) == fam:
                combos[(r["engine"], r["encoder"])].append(r)
        keys = sorted(k for k, v in combos.items() if len(v) >= 2)
        parts = chunks(keys, len(STYLES))
        for i, part in enumerate(parts):
            if part:
                panels.append((fam + (f" ({i + 1} of {len(parts)})" if len(parts) > 1 else ""), [(k, combos[k]) for k in part]))
    if not panels:
        return []
    cols = min(2, len(panels))
    rows_n = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, 4 * rows_n + 0.8), squeeze=False)
    sources = []
    for ax, (title, combos) in zip(axes.flat, panels):
        xs, ys = [], []
        for (color, marker), ((engine, enc), rs) in zip(STYLES, combos):
            rs = sorted(rs, key=lambda r: r["states"])
            ax.plot([r["states"] for r in rs], [r["ms"] for r in rs], color=color, marker=marker, label=f"{engine} / {enc}")
            xs += [r["states"] for r in rs]
            ys += [r["ms"] for r in rs]
            sources += [r["source"] for r in rs]
        ax.set_xscale("log")
        ax.set_yscale("log")
        log_axis(ax.xaxis, min(xs), max(xs), "count")
        log_axis(ax.yaxis, min(ys), max(ys), "ms")
        ax.set_xlabel("states in the component (log scale)")
        ax.set_ylabel("median wall time, ms (log scale)")
        ax.set_title(f"{title}: whole-space search time against size, 1 thread", fontsize=10)
        ax.grid(alpha=0.3, which="major")
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    save(fig, out_dir, "time-vs-size.png", sources)
    return [("time-vs-size.png", "whole-space search time against state-space size, log-log")]


# ---------- the document ----------

def judge_speed_section(w, raw_dir, out_dir):
    """The newest scripts/judge_speed.py run: searchbench's judges against the classic programs."""
    files = sorted(glob.glob(os.path.join(raw_dir, "judges-*.json")), key=os.path.basename)
    if not files:
        return
    with open(files[-1]) as f:
        doc = json.load(f)
    ctx = doc["context"]
    source = Source(files[-1], ctx, out_dir)
    w.heading("Judges against the classic single-file programs",
              f"`{ctx['command']}`: whole processes (start-up, I/O and every table included) on seeded inputs; each input "
              f"read {ctx['runs']} times by each program, `searchbench judge` and the `bench/classic` program alternating, and "
              "the medians per input summed. Ratio = searchbench / classic (below 1: searchbench is faster). CPU time (user + "
              "system) stands beside wall time because on a shared machine the wall time also counts waiting for a core "
              f"(load average {ctx['load_average_before'][0]:.1f} before the run, {ctx['load_average_after'][0]:.1f} after).")
    table = []
    for t in doc["totals"]:
        table.append(([t["group"], t["inputs"], f"{t['ours_wall'] * 1000:.1f}", f"{t['classic_wall'] * 1000:.1f}", f"{t['ratio_wall']:.3f}",
                       f"{t['ours_cpu'] * 1000:.1f}", f"{t['classic_cpu'] * 1000:.1f}", f"{t['ratio_cpu']:.3f}",
                       "yes" if t["identical"] else "NO"], source))
    w.table(["judge", "inputs", "searchbench wall ms", "classic wall ms", "ratio (wall)", "searchbench CPU ms", "classic CPU ms",
             "ratio (CPU)", "outputs identical"], "lrrrrrrrl", table)


def process_status(record):
    """How one long-run process ended: a signal says so (its last stderr line was only progress)."""
    status = record.get("status", "?")
    if record.get("exit_status", 0) < 0:
        return f"{status}: by signal {-record['exit_status']}"
    return status + (f": {record['error']}" if record.get("error") else "")


def long_run_section(w, raw_dir, out_dir):
    """Out-of-core runs of scripts/long_run.py (long-*.json): per-depth counts as they land,
    every invocation (a run resumed after a stop is several), and the point-query checks."""
    for path in sorted(glob.glob(os.path.join(raw_dir, "long-*.json"))):
        with open(path) as f:
            doc = json.load(f)
        source = Source(path, doc["context"], out_dir)
        counts = doc.get("depth_counts", [])
        known = doc.get("known_states")
        done = sum(counts)
        state = (f"finished: {done:,} states, radius {len(counts) - 1}" if doc.get("finished") else
                 f"{'in progress' if (doc.get('invocations') or [{}])[-1].get('status') == 'running' else 'stopped'}: {len(counts)} depths done, {done:,} states so far" +
                 (f" ({done / known:.2%} of {known:,})" if known else ""))
        if doc.get("finished") and known:
            state += " = " + ("the size of the space" if done == known else f"NOT the size of the space ({known:,})")
        in_memory = doc.get("engine") == "parallel"
        how = ("`searchbench run --engine parallel --encoder cantor`: two bits per state in memory, no checkpoint" if in_memory
               else "`searchbench run --engine external` with its work folder on disk, resumed from its checkpoint after "
                    "every stop")
        w.heading(f"{doc['puzzle']} {'in memory' if in_memory else 'out of core'} ({state})",
                  f"`scripts/long_run.py`: {how}; raw file [{source.name}]({source.rel}) on {source.machine}. Each row of the "
                  "first table is one process." + (f" {doc['note']}" if doc.get("note") else ""))
        table = []
        for r in doc.get("invocations", []):
            table.append(([r.get("start", "?")[:16].replace("T", " "), r.get("git_revision", "?"), r.get("from_depth", "?"),
                           r.get("to_depth", "?"), f"{r.get('wall_seconds', 0):,.0f}", f"{r['cpu_seconds']:,.0f}" if "cpu_seconds" in r else "-",
                           fmt_bytes(r.get("peak_rss_bytes", 0)), fmt_bytes(r["bytes_written"]) if "bytes_written" in r else "-",
                           process_status(r)], source))
        w.table(["started (UTC)", "commit", "from depth", "to depth", "wall s", "CPU s", "peak RSS", "bytes written", "status"],
                "llrrrrrrl", table)
        totals = [f"work folder peak {fmt_bytes(doc['peak_disk_bytes'])}" if "peak_disk_bytes" in doc else "",
                  f"{fmt_bytes(doc['bytes_written'])} written and {fmt_bytes(doc['bytes_read'])} read in all"
                  if "bytes_written" in doc else "",
                  f"{doc['segments']} segments of {doc['segment_keys']:,} keys" if "segments" in doc else ""]
        w("; ".join(t for t in totals if t) + ".")
        w()
        # Seconds each depth took, from the progress lines a process printed (its own clock);
        # the first depth a process reports also holds its start-up (or a seeded start).
        took = {}
        for r in doc.get("invocations", []):
            before = 0.0
            for depth, _, elapsed in r.get("progress", []):
                took[depth] = elapsed - before
                before = elapsed
        cumulative = 0
        rows = []
        for depth, count in enumerate(counts):
            cumulative += count
            rows.append(([depth, f"{count:,}", f"{cumulative:,}", f"{took[depth]:,.1f}" if depth in took else "-"], source))
        w.row(["depth", "states", "cumulative", "seconds"])
        w("|---:|---:|---:|---:|")
        for cells, _ in rows:
            w.row(cells)
        w()
        checks = doc.get("sample_checks", [])
        if checks:
            agree = sum(1 for c in checks if c.get("agrees"))
            when = doc.get("sample_checks_context", {})
            w(f"Point queries: {agree} of {len(checks)} states the run found at a depth were found by `--engine bidir` at "
              "that same distance" + (f" (`scripts/long_run.py --check-samples` at {when['git_revision']}, "
                                       f"{when['date'][:16].replace('T', ' ')} UTC"
                                       + (f"; {when['rows_from_earlier_checks']} of the rows are kept from an earlier check"
                                          if when.get("rows_from_earlier_checks") else "") + ")" if when else "") + ".")
            w()
            w.table(["depth", "state", "bidir distance", "seconds"], "lllr",
                    [([c["depth"], f"`{c['state']}`", c.get("bidir_distance") if c.get("bidir_distance") is not None else
                       c.get("error", "-"), c["seconds"]], source) for c in checks])


def main(raw_dir, out_md):
    out_dir = os.path.dirname(out_md) or "."
    rows, sources = pick_newest(raw_dir, out_dir)
    if not rows:
        sys.exit(f"report.py: no benchmark results in {raw_dir}/bench-*.json")
    order = puzzle_order(rows)
    w = Writer()
    w("# searchbench results")
    w()
    w("Generated by `scripts/report.py` from the raw JSON under `raw/` that `scripts/reproduce.sh` wrote. Do not edit by "
      "hand: rerun `scripts/reproduce.sh`. Each figure comes from the newest raw file that holds its benchmark; each "
      "table or row names that file, its commit and date.")
    w()
    w("| raw file | commit | date (UTC) | machine | command | compiler | oneTBB | Google Benchmark |")
    w("|---|---|---|---|---|---|---|---|")
    for s in sources:
        c = s.context
        lib = c.get("google_benchmark", "?") + (" (debug build)" if s.debug_library else "")
        w.row([f"[{s.name}]({s.rel})", s.commit, s.date, s.machine, f"`{c.get('command', '?')}`", c.get("compiler", "?"),
               c.get("onetbb", "?"), lib])
    w()
    if any(s.debug_library for s in sources):
        w("The Google Benchmark library linked by the runs marked *debug build* was itself compiled without optimisation "
          "(`library_build_type` in the raw file's context; Debian's `libbenchmark-dev` is such a build, and the library "
          "prints a warning). The code measured is searchbench's own, built Release; the library's debug code runs "
          "around the timed loop (timers, statistics), which adds a constant per iteration, largest relative to the "
          "shortest cases.")
        w()
    bfs = [r for r in rows if r["kind"] == "bfs"]
    whole_space_tables(w, bfs, order)
    scaling_table(w, bfs, order, sources)
    explicit_graph_table(w, bfs, order, sources)
    scale_section(w, raw_dir, out_dir)
    judge_speed_section(w, raw_dir, out_dir)
    long_run_section(w, raw_dir, out_dir)
    topdown_table(w, bfs, order)
    codec_table(w, [r for r in rows if r["kind"] == "codec" and r["rate"]], order)
    point_tables(w, [r for r in rows if r["kind"] == "point"], order)
    judge_tables(w, [r for r in rows if r["kind"] == "judge"])
    other_table(w, [r for r in rows if r["kind"] not in ("bfs", "codec", "point", "judge")])

    w.heading("Plots", "Each plot names its raw files, commits, dates and machine at the bottom.")
    plots = plot_bars(out_dir, bfs, order) + plot_threads(out_dir, bfs, order) + plot_sizes(out_dir, bfs, order)
    for name, title in plots:
        w(f"![{title}]({name})")
        w()
    # Plots of an earlier report that this one did not draw (a puzzle no longer picked).
    drawn = {name for name, _ in plots}
    for pattern in ("time-by-engine-encoder-*.png", "memory-by-encoder-*.png"):
        for stale in glob.glob(os.path.join(out_dir, pattern)):
            if os.path.basename(stale) not in drawn:
                os.remove(stale)
    with open(out_md, "w") as f:
        f.write("\n".join(w.lines))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
