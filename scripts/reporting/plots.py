"""The PNG plots of one run, written into its folder. Each names the run (commit, date,
machine, and whether it was quiet and clean) at the bottom; none holds another run's data."""
import math
import os
import textwrap
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402

from . import conditions, fmt  # noqa: E402
from .load import family  # noqa: E402

# Distinct colour and marker pairs: a plot shows at most this many series.
STYLES = list(zip(plt.get_cmap("tab10").colors, "os^Dv<>PX*"))


def footer(fig, run):
    """The run of the plot: its folder, commit, start, machine, and its marks."""
    marks = [m for m, on in (("UNCOMMITTED CHANGES", run.dirty), ("NOT QUIET", conditions.quiet(run) is False)) if on]
    text = (f"run {run.id}: commit {run.commit}, {fmt.utc(run.started)} UTC, on {run.machine}"
            + (f" [{'; '.join(marks)}]" if marks else ""))
    width = int(fig.get_size_inches()[0] * 18)  # characters of 6.5 pt text per line
    lines = textwrap.wrap(text, width, subsequent_indent="    ", break_on_hyphens=False)
    fig.text(0.005, 0.005, "\n".join(lines), fontsize=6.5, color="0.3", va="bottom", ha="left")
    return 0.03 + 0.022 * len(lines) * 8 / fig.get_size_inches()[1]


def save(fig, folder, name, run):
    bottom = footer(fig, run)
    fig.tight_layout(rect=(0, bottom, 1, 1))
    with fmt.open_own(os.path.join(folder, name), binary=True) as f:  # never through a link
        fig.savefig(f, dpi=110, format="png")
    plt.close(fig)


def si(x):
    for unit, scale in fmt.SI:
        if x >= scale:
            return f"{x / scale:g}{unit}"
    return f"{x:g}"


def log_axis(axis, lo, hi, kind):
    """A log axis with labelled ticks: 1-2-5 steps over short ranges, decades otherwise;
    bytes in powers of 4 or 16 (1 KiB, 16 KiB, 256 KiB, 4 MiB ...)."""
    if kind == "bytes":
        locator = ticker.LogLocator(base=4 if hi / lo < 2**16 else 16, numticks=12)
        formatter = ticker.FuncFormatter(lambda v, _: fmt.nbytes(v))
    else:
        decades = math.log10(hi / lo) if lo > 0 else 9
        locator = ticker.LogLocator(base=10, subs=(1, 2, 5) if decades <= 3 else (1,), numticks=20)
        formatter = ticker.FuncFormatter(lambda v, _: si(v) if kind == "count" else f"{v:g}")
    axis.set_major_locator(locator)
    axis.set_major_formatter(formatter)
    axis.set_minor_formatter(ticker.NullFormatter())


def chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def bar_plot(folder, name, rows, value, kind, title, xlabel, color, run):
    rows = [r for r in rows if (value(r) or 0) > 0]
    if len(rows) < 2:
        return False
    fig, ax = plt.subplots(figsize=(8.5, 0.32 * len(rows) + 2.2))
    labels = [f"{r['engine']} / {r['encoder']}" for r in rows]
    values = [value(r) for r in rows]
    ax.barh(labels, values, color=color)
    ax.set_xscale("log")
    whiskers = kind == "ms" and all(r.get("ci_low") is not None for r in rows)
    if whiskers:
        ax.errorbar(values, labels, xerr=[[v - r["ci_low"] for v, r in zip(values, rows)],
                                          [r["ci_high"] - v for v, r in zip(values, rows)]],
                    fmt="none", ecolor="black", capsize=3, lw=1)
    log_axis(ax.xaxis, min(values), max(values), kind)
    # The value at the end of each bar (past the whisker), and room for it on the right.
    ends = [r["ci_high"] if whiskers else v for v, r in zip(values, rows)]
    for y, (v, end) in enumerate(zip(values, ends)):
        ax.text(end * 1.08, y, fmt.nbytes(v) if kind == "bytes" else f"{fmt.ms(v)} ms", va="center", fontsize=7)
    ax.set_xlim(min(values) / 1.5, max(ends) * 3)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", which="major", alpha=0.3)
    save(fig, folder, name, run)
    return True


def plot_bars(folder, run, bfs, order):
    """Per puzzle family, the puzzle with the most engine x encoder combinations at 1 thread."""
    plots = []
    one = [r for r in bfs if (r["threads"] or 1) == 1]
    for fam in sorted({family(r["puzzle"]) for r in one}):
        puzzles = {r["puzzle"] for r in one if family(r["puzzle"]) == fam}
        puzzle = max(puzzles, key=lambda p: (sum(r["puzzle"] == p for r in one), order(p)[1]))
        pr = sorted((r for r in one if r["puzzle"] == puzzle), key=lambda r: r["median"])
        n = max(r["n"] for r in pr)
        spread = "whiskers: 95% CI of the median" if all(r.get("ci_low") is not None for r in pr) else "no CI (aggregates only)"
        name = f"time-by-engine-encoder-{puzzle}.png"
        if bar_plot(folder, name, pr, lambda r: r["median"], "ms",
                    f"{puzzle}: wall time of one whole-space search, 1 thread, by engine / encoder\n"
                    f"bars: median of up to {n} repetitions; {spread}", "median wall time (ms, log scale)", "tab:blue", run):
            plots.append((name, f"{puzzle}: whole-space search time by engine and encoder"))
        name = f"memory-by-encoder-{puzzle}.png"
        if bar_plot(folder, name, sorted(pr, key=lambda r: r.get("peak_bytes", 0)), lambda r: r.get("peak_bytes"), "bytes",
                    f"{puzzle}: peak bytes of the search structures\nin one whole-space search, 1 thread, by engine / encoder",
                    "peak bytes (log scale)", "tab:green", run):
            plots.append((name, f"{puzzle}: memory of the search structures by engine and encoder"))
    return plots


def panels_figure(panels, height):
    cols = min(2, len(panels))
    rows_n = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(6 * cols, height * rows_n + 0.8), squeeze=False)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    return fig, axes.flat


def plot_threads(folder, run, bfs, order):
    """states/s against threads, one panel per puzzle, one line per engine/encoder."""
    series = defaultdict(list)
    for r in bfs:
        if r["threads"] is not None and r["rate"]:
            series[(r["puzzle"], r["engine"], r["encoder"])].append(r)
    series = {k: sorted(v, key=lambda r: r["threads"]) for k, v in series.items() if len(v) >= 2}
    puzzles = []  # the two largest puzzles of each family that have thread series
    for fam in sorted({family(k[0]) for k in series}):
        puzzles += sorted({k[0] for k in series if family(k[0]) == fam}, key=order)[-2:]
    panels = [(p, part) for p in puzzles for part in chunks(sorted(k for k in series if k[0] == p), len(STYLES))]
    if not panels:
        return []
    fig, axes = panels_figure(panels, 3.6)
    for ax, (puzzle, keys) in zip(axes, panels):
        threads = sorted({r["threads"] for k in keys for r in series[k]})
        for (color, marker), key in zip(STYLES, keys):
            ax.plot([r["threads"] for r in series[key]], [r["rate"] for r in series[key]], color=color, marker=marker,
                    label=f"{key[1]} / {key[2]}")
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
    save(fig, folder, "states-per-second-vs-threads.png", run)
    return [("states-per-second-vs-threads.png", "whole-space search rate against thread count")]


def plot_sizes(folder, run, bfs, order):
    """Time against state-space size, log-log, one panel per family (lines never cross families)."""
    one = [r for r in bfs if (r["threads"] or 1) == 1 and r.get("states")]
    panels = []
    for fam in sorted({family(r["puzzle"]) for r in one}):
        combos = defaultdict(list)
        for r in one:
            if family(r["puzzle"]) == fam:
                combos[(r["engine"], r["encoder"])].append(r)
        parts = chunks(sorted(k for k, v in combos.items() if len(v) >= 2), len(STYLES))
        for i, part in enumerate(parts):
            if part:
                panels.append((fam + (f" ({i + 1} of {len(parts)})" if len(parts) > 1 else ""), [(k, combos[k]) for k in part]))
    if not panels:
        return []
    fig, axes = panels_figure(panels, 4)
    for ax, (title, combos) in zip(axes, panels):
        xs, ys = [], []
        for (color, marker), ((engine, enc), rs) in zip(STYLES, combos):
            rs = sorted(rs, key=lambda r: r["states"])
            ax.plot([r["states"] for r in rs], [r["median"] for r in rs], color=color, marker=marker, label=f"{engine} / {enc}")
            xs += [r["states"] for r in rs]
            ys += [r["median"] for r in rs]
        ax.set_xscale("log")
        ax.set_yscale("log")
        log_axis(ax.xaxis, min(xs), max(xs), "count")
        log_axis(ax.yaxis, min(ys), max(ys), "ms")
        ax.set_xlabel("states in the component (log scale)")
        ax.set_ylabel("median wall time, ms (log scale)")
        ax.set_title(f"{title}: whole-space search time against size, 1 thread", fontsize=10)
        ax.grid(alpha=0.3, which="major")
        ax.legend(fontsize=7)
    save(fig, folder, "time-vs-size.png", run)
    return [("time-vs-size.png", "whole-space search time against state-space size, log-log")]


def draw_all(folder, run, bfs, order):
    """Every plot of the run, [(file name, title)]; PNGs of an earlier report not drawn again are removed."""
    plots = plot_bars(folder, run, bfs, order) + plot_threads(folder, run, bfs, order) + plot_sizes(folder, run, bfs, order)
    drawn = {name for name, _ in plots}
    for stale in os.listdir(folder):
        if stale.endswith(".png") and stale not in drawn:
            os.remove(os.path.join(folder, stale))
    return plots
