#!/usr/bin/python3
"""Turn Google Benchmark JSON under results/raw/ into results/README.md and PNG plots.

usage: scripts/report.py RAW_DIR OUT_MD

Uses the newest default run and the newest --full run (which repeats the default set and
adds the large puzzles); where both hold a benchmark, the newer file's figure is used. The
whole-process runs of scripts/scale_runs.py come from the newest scale-*.json per run.
Every number in the output comes from the JSON: medians of the repetitions.
"""
import glob
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FIELDS = ("kind", "engine", "encoder", "puzzle", "param")  # bench/benchmark_id.hpp
CLASSIC = {"msquare": "octal", "sicily1515": "octal", "checkers": "maskhole"}  # the classic single-file solution's encoder


def load(path):
    with open(path) as f:
        doc = json.load(f)
    rows = []
    for b in doc["benchmarks"]:
        if b.get("aggregate_name", "median") != "median" or b.get("error_occurred"):
            continue
        row = fields(b)
        if row is None:
            continue
        row["ms"] = b["real_time"] * {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        for key in ("states_per_second", "peak_bytes", "key_space", "radius", "states", "threads", "queries_per_second", "distance",
                    "per_second"):
            if key in b:
                row[key] = b[key]
        rows.append(row)
    return doc["context"], rows


def fields(b):
    """The benchmark's fields from its label ("kind=bfs engine=ring ..."); runs recorded
    before the labels carry them only in the name, kind/engine/encoder/puzzle/param."""
    if "label" in b:
        row = dict(item.split("=", 1) for item in b["label"].split())
        return row if all(k in row for k in FIELDS) else None
    parts = b["run_name"].split("/")
    if parts[-1] == "real_time":
        parts.pop()
    if len(parts) != len(FIELDS) or parts[0] not in ("bfs", "point", "judge", "codec"):
        return None
    row = dict(zip(FIELDS, parts))
    if row["kind"] == "judge":  # judge/<judge>/<engine>/<encoder>/...
        row["puzzle"], row["engine"], row["encoder"] = row["engine"], row["encoder"], row["puzzle"]
    return row


def family(puzzle):
    return puzzle.split("-")[0]


def fmt_ms(ms):
    return f"{ms:.3f}" if ms < 10 else f"{ms:.1f}" if ms < 1000 else f"{ms:.0f}"


def fmt_rate(x):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= scale:
            return f"{x / scale:.2f}{unit}"
    return f"{x:.0f}"


def fmt_bytes(b):
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if b >= scale:
            return f"{b / scale:.1f} {unit}"
    return f"{b:.0f} B"


def section(w, title, note, header, align):
    """Writes a heading, a note and a table header (align: one of 'l'/'r' per column)."""
    w(f"## {title}")
    w("")
    if note:
        w(note)
        w("")
    w("| " + " | ".join(header) + " |")
    w("|" + "".join("---|" if a == "l" else "---:|" for a in align))


def barh(out_dir, name, labels, values, xlabel, title, color, log=False):
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.barh(labels, values, color=color)
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, name), dpi=110)
    plt.close(fig)


def newest_scale_runs(raw_dir):
    """Rows of scripts/scale_runs.py, newest file first per label (names sort by time)."""
    files = sorted(glob.glob(os.path.join(raw_dir, "scale-*.json")), key=os.path.basename)
    rows, sources = {}, []
    for path in reversed(files):
        with open(path) as f:
            doc = json.load(f)
        fresh = [r for r in doc["runs"] if r["label"] not in rows]
        if fresh:
            sources.append(path)
        for r in fresh:
            rows[r["label"]] = dict(r, context=doc["context"])
    return list(rows.values()), sources


def scale_section(w, raw_dir, out_dir):
    rows, sources = newest_scale_runs(raw_dir)
    if not rows:
        return
    order = lambda r: (("point" in r["label"]), r["label"])
    ctx = rows[0]["context"]
    section(w, "Large spaces: whole-process wall time and peak resident memory",
            f"`scripts/scale_runs.py` ({', '.join(f'`{os.path.relpath(s, out_dir)}`' for s in sources)}): "
            f"each command run {ctx['runs']} times as a separate process on {ctx['cpu_model']} ({ctx['cores']} cores); "
            "medians of the wall time (start-up included) and of the peak RSS the kernel reports (wait4). "
            "Totals and radii are checked against the known facts; every path has the length of its distance.",
            ["run", "command", "median wall s", "median peak RSS", "states / distance"], "llrrr")
    for r in sorted(rows, key=order):
        answer = f"{r['distance']} (`{r['path'][:24]}{'...' if len(r['path']) > 24 else ''}`)" if "distance" in r else \
            f"{r['states']:,}, radius {r['radius']}"
        w(f"| {r['label']} | `{r['command']}` | {r['median_wall_seconds']:.3f} | {fmt_bytes(r['median_peak_rss_bytes'])} | {answer} |")
    w("")


def main(raw_dir, out_md):
    runs = sorted(glob.glob(os.path.join(raw_dir, "bench-*.json")), key=os.path.basename)
    default = [r for r in runs if not r.endswith("-full.json")]
    full = [r for r in runs if r.endswith("-full.json")]
    if not default:
        sys.exit("report.py: no benchmark JSON in " + raw_dir)
    # The newest default run and the newest --full run; where both hold a benchmark, the
    # newer file's figure is used (a --full run repeats the default set).
    picked = sorted([default[-1]] + full[-1:], key=os.path.basename, reverse=True)
    context, rows, sources = None, [], []
    have = set()
    for path in picked:
        ctx, found = load(path)
        context = context or ctx
        fresh = [r for r in found if (r["kind"], r["engine"], r["encoder"], r["puzzle"], r["param"]) not in have]
        have |= {(r["kind"], r["engine"], r["encoder"], r["puzzle"], r["param"]) for r in fresh}
        if fresh:
            rows += fresh
            sources.append(path)
    out_dir = os.path.dirname(out_md) or "."
    lines = []
    w = lines.append
    w("# searchbench results")
    w("")
    w("Generated by `scripts/report.py` from the raw Google Benchmark JSON that `scripts/reproduce.sh` wrote")
    w("(" + ", ".join(f"`{os.path.relpath(s, out_dir)}`" for s in sources) + "). Do not edit by hand: rerun `scripts/reproduce.sh`.")
    w("")
    w("| context | value |")
    w("|---|---|")
    for key in ("date", "git_revision", "cpu_model", "cores", "compiler", "onetbb", "google_benchmark", "command"):
        if key in context:
            w(f"| {key} | {context[key]} |")
    w(f"| host | {context.get('host_name', '?')}, {context.get('num_cpus', '?')} CPUs at {context.get('mhz_per_cpu', '?')} MHz |")
    w("")
    w("Times are medians of 3 repetitions (wall clock). *x naive* and *x classic* are how many times faster")
    w("than the textbook `naive` engine and than the classic `ring` + `octal` (magic board) or `ring` + `maskhole`")
    w("(checkers) combination, measured in the same run.")
    w("")

    bfs = [r for r in rows if r["kind"] == "bfs"]
    puzzles = []
    for r in bfs:
        if r["puzzle"] not in puzzles:
            puzzles.append(r["puzzle"])

    w("## Whole-space search")
    w("")
    fastest = {}
    for puzzle in puzzles:
        pr = [r for r in bfs if r["puzzle"] == puzzle]
        naive = next((r["ms"] for r in pr if r["engine"] == "naive"), None)
        classic = next((r["ms"] for r in pr if r["engine"] == "ring" and r["encoder"] == CLASSIC[family(puzzle)]), None)
        states = int(pr[0].get("states", 0))
        w(f"### {puzzle} ({states:,} states, radius {int(pr[0].get('radius', 0))})")
        w("")
        w("| engine | encoder | threads | median ms | states/s | peak memory | key space | x naive | x classic |")
        w("|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for r in sorted(pr, key=lambda r: r["ms"]):
            xn = f"{naive / r['ms']:.1f}" if naive else "-"
            xc = f"{classic / r['ms']:.2f}" if classic else "-"
            w(f"| {r['engine']} | {r['encoder']} | {int(r.get('threads', 1))} | {fmt_ms(r['ms'])} | {fmt_rate(r.get('states_per_second', 0))} | "
              f"{fmt_bytes(r.get('peak_bytes', 0))} | {fmt_rate(r.get('key_space', 0))} | {xn} | {xc} |")
        best = min(pr, key=lambda r: r["ms"])
        fastest[puzzle] = (best, naive, classic)
        w("")
        w(f"Fastest: `{best['engine']}` + `{best['encoder']}` with {int(best.get('threads', 1))} thread(s), {fmt_ms(best['ms'])} ms"
          + (f", {naive / best['ms']:.1f}x faster than naive" if naive else "")
          + (f", {classic / best['ms']:.2f}x faster than the classic ring + {CLASSIC[family(puzzle)]}" if classic else "") + ".")
        w("")

    w("## Thread scaling of the parallel engine")
    w("")
    w("Speedup = median time with 1 thread / median time with n threads (same run); efficiency = speedup / n.")
    w("")
    w("| puzzle | encoder | threads | median ms | speedup | efficiency |")
    w("|---|---|---:|---:|---:|---:|")
    par = [r for r in bfs if r["engine"] == "parallel"]
    for puzzle in puzzles:
        for enc in sorted({r["encoder"] for r in par if r["puzzle"] == puzzle}):
            series = sorted((r for r in par if r["puzzle"] == puzzle and r["encoder"] == enc), key=lambda r: r.get("threads", 1))
            base = next((r["ms"] for r in series if int(r.get("threads", 1)) == 1), None)
            for r in series:
                t = int(r.get("threads", 1))
                sp = base / r["ms"] if base else 0
                w(f"| {puzzle} | {enc} | {t} | {fmt_ms(r['ms'])} | {sp:.2f} | {sp / t:.2f} |")
    w("")

    scale_section(w, raw_dir, out_dir)

    topdown = [r for r in bfs if r["engine"] == "parallel-topdown"]
    if topdown:
        section(w, "Direction-optimizing levels: parallel engine, two bits per key",
                "`parallel` switches a level to bottom-up (every unseen state looks for a parent in the frontier) once the "
                "frontier outnumbers the unseen states; `parallel-topdown` never does. Same run, medians.",
                ["puzzle", "encoder", "threads", "direction-optimizing ms", "top-down ms", "top-down / optimizing"], "llrrrr")
        for td in sorted(topdown, key=lambda r: (r["puzzle"], r["encoder"], r.get("threads", 1))):
            opt = next((r for r in bfs if r["engine"] == "parallel" and r["puzzle"] == td["puzzle"] and r["encoder"] == td["encoder"]
                        and r.get("threads") == td.get("threads")), None)
            if opt:
                w(f"| {td['puzzle']} | {td['encoder']} | {int(td.get('threads', 1))} | {fmt_ms(opt['ms'])} | {fmt_ms(td['ms'])} | "
                  f"{td['ms'] / opt['ms']:.2f} |")
        w("")

    codec = [r for r in rows if r["kind"] == "codec"]
    if codec:
        section(w, "Cantor ranking fast paths",
                "Nanoseconds per state over 4,096 fixed random keys: unranking by table lookups and one byte shuffle against one "
                "division per cell; ranking with all Lehmer digits in one vector against a popcount per cell. Same run, medians.",
                ["puzzle", "operation", "fast path", "ns", "textbook", "ns", "speedup"], "lllrlrr")
        for puzzle in sorted({r["puzzle"] for r in codec}):
            for op, fast, slow in (("decode", "table", "division"), ("encode", "vector", "popcount")):
                f = next((r for r in codec if r["puzzle"] == puzzle and r["engine"] == op and r["param"] == fast), None)
                t = next((r for r in codec if r["puzzle"] == puzzle and r["engine"] == op and r["param"] == slow), None)
                if f and t:
                    fns, tns = 1e9 / f["per_second"], 1e9 / t["per_second"]
                    w(f"| {puzzle} | {op} | {fast} | {fns:.2f} | {slow} | {tns:.2f} | {tns / fns:.1f}x |")
        w("")

    pts = [r for r in rows if r["kind"] == "point" and r["param"].startswith("depth:")]
    if pts:
        depths = sorted({int(r["param"].split(":")[1]) for r in pts})
        engines = sorted({r["engine"] for r in pts})
        section(w, "Point queries on msquare-2x4 by depth",
                "Queries per second over fixed targets (5 per depth, seed 42); every path checked against bidir's after timing.",
                ["engine"] + [f"depth {d}" for d in depths], "l" + "r" * len(depths))
        for e in engines:
            cells = []
            for d in depths:
                r = next((r for r in pts if r["engine"] == e and r["param"] == f"depth:{d}"), None)
                cells.append(fmt_rate(r["queries_per_second"]) if r else "-")
            w(f"| {e} | " + " | ".join(cells) + " |")
        w("")
    cpts = [r for r in rows if r["kind"] == "point" and r["param"].startswith("random:")]
    if cpts:
        section(w, "Checkers point queries (10 random targets from the default start)", "",
                ["puzzle", "engine", "encoder", "median ms for 10", "queries/s"], "lllrr")
        for r in sorted(cpts, key=lambda r: (int(r["puzzle"].split("-")[1]), r["ms"])):
            w(f"| {r['puzzle']} | {r['engine']} | {r['encoder']} | {fmt_ms(r['ms'])} | {fmt_rate(r['queries_per_second'])} |")
        w("")
    judges = [r for r in rows if r["kind"] == "judge"]
    if judges:
        section(w, "Judge throughput: all 40,320 Sicily 1151 boards in one input", "",
                ["engine", "encoder", "median ms (BFS + all answers)", "queries/s"], "llrr")
        for r in sorted(judges, key=lambda r: r["ms"]):
            w(f"| {r['engine']} | {r['encoder']} | {fmt_ms(r['ms'])} | {fmt_rate(r.get('queries_per_second', 0))} |")
        w("")

    # Plots.
    w("## Plots")
    w("")
    plots = []
    for puzzle in [p for p in ("msquare-2x4", "checkers-19") if p in puzzles]:
        pr = sorted((r for r in bfs if r["puzzle"] == puzzle and int(r.get("threads", 1)) == 1), key=lambda r: r["ms"])
        name = f"time-by-engine-encoder-{puzzle}.png"
        barh(out_dir, name, [f"{r['engine']}/{r['encoder']}" for r in pr], [r["ms"] for r in pr],
             "median wall time (ms, log scale)", f"{puzzle}: whole-space search, 1 thread", "tab:blue", log=True)
        plots.append((name, f"{puzzle}: time by engine x encoder"))
    fig, ax = plt.subplots(figsize=(7, 4))
    for puzzle in puzzles:
        for enc in sorted({r["encoder"] for r in par if r["puzzle"] == puzzle}):
            series = sorted((r for r in par if r["puzzle"] == puzzle and r["encoder"] == enc), key=lambda r: r.get("threads", 1))
            if puzzle in ("msquare-2x5", "msquare-2x6", "checkers-21", "checkers-25"):
                ax.plot([r.get("threads", 1) for r in series], [r.get("states_per_second", 0) for r in series], marker="o", label=f"{puzzle}/{enc}")
    ax.set_xlabel("threads")
    ax.set_ylabel("states per second")
    ax.set_title("parallel engine: states/s vs threads")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "states-per-second-vs-threads.png"), dpi=110)
    plt.close(fig)
    plots.append(("states-per-second-vs-threads.png", "parallel engine: states/s vs threads"))
    fig, ax = plt.subplots(figsize=(7, 4))
    combos = sorted({(r["engine"], r["encoder"]) for r in bfs if int(r.get("threads", 1)) == 1})
    for engine, enc in combos:
        series = sorted((r for r in bfs if r["engine"] == engine and r["encoder"] == enc and int(r.get("threads", 1)) == 1), key=lambda r: r.get("states", 0))
        if len(series) >= 2:
            ax.loglog([r["states"] for r in series], [r["ms"] for r in series], marker="o", label=f"{engine}/{enc}")
    ax.set_xlabel("states in the space")
    ax.set_ylabel("median wall time (ms)")
    ax.set_title("time vs state-space size (1 thread)")
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "time-vs-size.png"), dpi=110)
    plt.close(fig)
    plots.append(("time-vs-size.png", "time vs state-space size, log-log"))
    for puzzle in [p for p in ("msquare-2x4", "checkers-19") if p in puzzles]:
        pr = sorted((r for r in bfs if r["puzzle"] == puzzle and int(r.get("threads", 1)) == 1 and r["engine"] in ("ring", "parallel", "naive")), key=lambda r: r.get("peak_bytes", 0))
        name = f"memory-by-encoder-{puzzle}.png"
        barh(out_dir, name, [f"{r['engine']}/{r['encoder']}" for r in pr], [r.get("peak_bytes", 0) / 2**20 for r in pr],
             "peak bytes of the search structures (MiB)", f"{puzzle}: memory by encoder", "tab:green")
        plots.append((name, f"{puzzle}: memory by encoder"))
    for name, title in plots:
        w(f"![{title}]({name})")
        w("")
    with open(out_md, "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
