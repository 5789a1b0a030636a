"""The plots of one run, written into its folder: PNG for the page, SVG and PDF beside it for
print. Each names the run (commit, date, machine, and whether it was quiet and clean) at the
bottom; none holds another run's data. Engines are named as the command line names them
(reporting/commands.py: bench_search's parallel-topdown is "parallel --top-down").

Every plotted median carries its 95% CI as an error bar. Log axes hold dots and lines, never
bars: a bar's length on a log axis depends on where the axis starts and means nothing. Each
engine has one colour and each encoder one marker, the same in every plot and panel of every
run, so a colour can be read without its legend.
"""
import io
import math
import os
import textwrap
import zlib
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402
from PIL import Image  # noqa: E402  (matplotlib's own dependency)

from . import commands, conditions, fmt  # noqa: E402
from .load import family  # noqa: E402

FORMATS = ("png", "svg", "pdf")
# No dates or random ids in the files: the same data gives the same bytes, so a report made
# again changes no plot in the repository.
matplotlib.rcParams["svg.hashsalt"] = "searchbench"
# SVG text as text (the viewer's sans-serif), not as drawn glyphs: a fifth of the size.
matplotlib.rcParams["svg.fonttype"] = "none"
matplotlib.rcParams["font.sans-serif"] = ["DejaVu Sans", "Arial", "Helvetica"]  # named in every SVG text
METADATA = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}
PNG_DPI = 110
PNG_COLOURS = 256  # a palette PNG: the plots have few colours, and it is a third of the size

# Keyed by bench_search's engine names: a variant of an engine (parallel-topdown, shown as
# "parallel --top-down") keeps a colour of its own, since it shares panels with the engine.
ENGINE_COLOURS = {"ring": "#1f77b4", "parallel": "#ff7f0e", "parallel-topdown": "#d62728", "naive": "#7f7f7f",
                  "frontier": "#2ca02c", "external": "#9467bd", "explicit-csr": "#e377c2", "bidir": "#8c564b",
                  "iddfs": "#17becf", "idastar": "#bcbd22", "astar": "#393b79", "mpi": "#000000"}
ENCODER_MARKERS = {"cantor": "o", "bitpack": "s", "octal": "s", "bitpack-implied": "D", "decimal": "^", "combinatorial": "v",
                   "maskhole": "P", "blank-low": "X", "nibbles": "<", "pegs": ">", "masks": "h", "coordinate": "*",
                   "packed": "p", "none": "d"}
# Engines and encoders added later: a colour or marker from their name, stable across runs.
SPARE_COLOURS = ("#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1")
SPARE_MARKERS = "H8d<>^v"
MAX_LINES = 16  # lines in one panel before it is split, by engine


def _pick(name, spare):
    return spare[zlib.crc32(name.encode()) % len(spare)]


def colour(engine):
    return ENGINE_COLOURS.get(engine) or _pick(engine, SPARE_COLOURS)


def marker(encoder):
    return ENCODER_MARKERS.get(encoder) or _pick(encoder, SPARE_MARKERS)


def footer(fig, run):
    """The run of the plot: its folder, commit, start, machine, and its marks."""
    marks = [m for m, on in (("UNCOMMITTED CHANGES", run.dirty), ("NOT QUIET", conditions.quiet(run) is False)) if on]
    text = (f"run {run.id}: commit {run.commit}, {fmt.utc(run.started)} UTC, on {run.machine}"
            + (f" [{'; '.join(marks)}]" if marks else ""))
    width = int(fig.get_size_inches()[0] * 18)  # characters of 6.5 pt text per line
    lines = textwrap.wrap(text, width, subsequent_indent="    ", break_on_hyphens=False)
    fig.text(0.005, 0.005, "\n".join(lines), fontsize=6.5, color="0.3", va="bottom", ha="left")
    return 0.03 + 0.022 * len(lines) * 8 / fig.get_size_inches()[1]


def headline(fig, text, size=9):
    """A figure's title, with room kept for it above the panels at any figure height."""
    height = fig.get_size_inches()[1]
    fig.suptitle(text, y=1 - 0.06 / height, va="top", fontsize=size)
    fig.title_room = (0.02 + 0.16 * (text.count("\n") + 1)) / height


def save(fig, folder, name, run):
    """name.png and, beside it, the same figure as SVG and PDF."""
    bottom = footer(fig, run)
    fig.tight_layout(rect=(0, bottom, 1, 1 - getattr(fig, "title_room", 0)))
    stem = os.path.splitext(name)[0]
    for kind in FORMATS:
        with fmt.open_own(os.path.join(folder, f"{stem}.{kind}"), binary=True) as f:  # never through a link
            if kind == "png":
                buffer = io.BytesIO()
                fig.savefig(buffer, dpi=PNG_DPI, format="png")
                image = Image.open(buffer).convert("RGB").quantize(colors=PNG_COLOURS)
                image.save(f, format="png", optimize=True)
            else:
                fig.savefig(f, format=kind, metadata=METADATA[kind])
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


def split_by_engine(keys, limit=MAX_LINES):
    """keys ((..., engine, encoder) tuples) in as few panels of at most `limit` lines as an
    engine's lines kept together allow, the panels as even as they go: never a last panel
    holding the one line left over."""
    if len(keys) <= limit:
        return [list(keys)]
    by_engine = defaultdict(list)
    for key in keys:
        by_engine[key[-2]].append(key)
    panels = [[] for _ in range(math.ceil(len(keys) / limit))]
    for engine in sorted(by_engine, key=lambda e: (-len(by_engine[e]), e)):
        min(panels, key=len).extend(by_engine[engine])
    return [sorted(p) for p in panels if p]


def ci_of_rate(r):
    """(rate, low, high) of a row's items per second of wall time; the CI from its time's."""
    if not r.get("items") or r.get("ci_low") is None:
        return r.get("rate"), None, None
    return r["rate"], r["items"] / (r["ci_high"] / 1e3), r["items"] / (r["ci_low"] / 1e3)


def engine_label(engine, registry):
    return commands.engine_name(engine, registry, short=True)


def errorbar(ax, xs, ys, key, registry, lows=None, highs=None, horizontal=False, line=True):
    """One series: dots (and a line) in the engine's colour and the encoder's marker, with the
    95% CI as error bars where known; labelled with the engine as the command line names it."""
    values = xs if horizontal else ys
    err = None
    if lows is not None and all(v is not None for v in lows):
        err = [[v - lo for v, lo in zip(values, lows)], [hi - v for v, hi in zip(values, highs)]]
    ax.errorbar(xs, ys, **({"xerr": err} if horizontal else {"yerr": err}), fmt=("-" if line else "") + marker(key[-1]),
                color=colour(key[-2]), elinewidth=1, capsize=0, markersize=5, lw=1.2,
                label=f"{engine_label(key[-2], registry)} / {key[-1]}")


def engine_panels(folder, run, puzzle, pr):
    """One puzzle at 1 thread, a row per engine / encoder: the median time with its CI, and the
    peak bytes of the search structures (one figure per repetition set; no spread)."""
    n = max(r["n"] for r in pr)
    memory = all((r.get("peak_bytes") or 0) > 0 for r in pr)
    fig, axes = plt.subplots(1, 2 if memory else 1, figsize=(11 if memory else 8, 0.3 * len(pr) + 2.2), squeeze=False,
                             sharey=True)
    labels = [f"{engine_label(r['engine'], run.registry)} / {r['encoder']}" for r in pr]
    panels = [("ms", [r["median"] for r in pr], "median wall time, ms (log scale)")]
    if memory:
        panels.append(("bytes", [r["peak_bytes"] for r in pr], "peak bytes of the search structures (log scale)"))
    for ax, (kind, values, xlabel) in zip(axes.flat, panels):
        whiskers = kind == "ms" and all(r.get("ci_low") is not None for r in pr)
        for y, (r, v) in enumerate(zip(pr, values)):
            errorbar(ax, [v], [y], (r["engine"], r["encoder"]), run.registry, [r["ci_low"]] if whiskers else None,
                     [r["ci_high"]] if whiskers else None, horizontal=True, line=False)
        ends = [r["ci_high"] for r in pr] if whiskers else values
        for y, (v, end) in enumerate(zip(values, ends)):
            ax.text(end * 1.1, y, fmt.nbytes(v) if kind == "bytes" else f"{fmt.ms(v)} ms", va="center", fontsize=7)
        ax.set_xscale("log")
        log_axis(ax.xaxis, min(values), max(values), kind)
        ax.set_xlim(min(values) / 1.5, max(ends) * 3)
        ax.set_xlabel(xlabel)
        ax.grid(axis="both", which="major", alpha=0.3)
    ax0 = axes.flat[0]
    ax0.set_yticks(range(len(pr)), labels)
    ax0.set_ylim(len(pr) - 0.5, -0.5)
    spread = "error bars: 95% CI of the median" if all(r.get("ci_low") is not None for r in pr) else "no CI (aggregates only)"
    headline(fig, f"{puzzle}: one whole-space search at 1 thread, by engine / encoder (colour: engine, marker: encoder)\n"
               f"time: median of up to {n} repetitions, {spread}" + ("; memory: the search structures' peak" if memory else ""), 10)
    name = f"time-and-memory-{puzzle}.png"
    save(fig, folder, name, run)
    return name


def plot_engines(folder, run, bfs, order):
    """Per puzzle family, the puzzle with the most engine x encoder combinations at 1 thread."""
    plots = []
    one = [r for r in bfs if (r["threads"] or 1) == 1]
    for fam in sorted({family(r["puzzle"]) for r in one}):
        puzzles = {r["puzzle"] for r in one if family(r["puzzle"]) == fam}
        puzzle = max(puzzles, key=lambda p: (sum(r["puzzle"] == p for r in one), order(p)[1]))
        pr = sorted((r for r in one if r["puzzle"] == puzzle and (r["median"] or 0) > 0), key=lambda r: r["median"])
        if len(pr) >= 2:
            plots.append((engine_panels(folder, run, puzzle, pr), f"{puzzle}: whole-space search time and memory by engine and encoder"))
    return plots


def panels_figure(panels, height):
    cols = min(2, len(panels))
    rows_n = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows_n, cols, figsize=(6.5 * cols, height * rows_n + 0.8), squeeze=False)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    return fig, axes.flat


def engines_named(keys, registry):
    return ", ".join(sorted({engine_label(k[-2], registry) for k in keys}))


def plot_threads(folder, run, bfs, order):
    """states/s (wall) against threads on log axes, one panel per puzzle, one line per engine / encoder."""
    series = defaultdict(list)
    for r in bfs:
        if r["threads"] is not None and r["rate"]:
            series[(r["puzzle"], r["engine"], r["encoder"])].append(r)
    series = {k: sorted(v, key=lambda r: r["threads"]) for k, v in series.items() if len(v) >= 2}
    puzzles = []  # the two largest puzzles of each family that have thread series
    for fam in sorted({family(k[0]) for k in series}):
        puzzles += sorted({k[0] for k in series if family(k[0]) == fam}, key=order)[-2:]
    panels = []
    for p in puzzles:
        parts = split_by_engine(sorted(k for k in series if k[0] == p))
        panels += [(p + (f" ({engines_named(part, run.registry)})" if len(parts) > 1 else ""), part) for part in parts]
    if not panels:
        return []
    fig, axes = panels_figure(panels, 3.6)
    for ax, (title, keys) in zip(axes, panels):
        threads = sorted({r["threads"] for k in keys for r in series[k]})
        rates = []
        for key in keys:
            rs = series[key]
            rate, low, high = zip(*(ci_of_rate(r) for r in rs))
            errorbar(ax, [r["threads"] for r in rs], list(rate), key, run.registry, list(low), list(high))
            rates += [v for v in rate + low + high if v]
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(ticker.FixedLocator(threads))
        ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:.0f}"))
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ax.set_yscale("log")
        log_axis(ax.yaxis, min(rates), max(rates), "count")
        ax.set_xlabel("threads")
        ax.set_ylabel("states / median wall s (log scale)")
        ax.set_title(f"{title}: whole-space search rate by thread count", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6.5, ncol=2 if len(keys) > 8 else 1)
    headline(fig, "error bars: the 95% CI of the median time, as a rate; colour: engine, marker: encoder")
    save(fig, folder, "states-per-second-vs-threads.png", run)
    return [("states-per-second-vs-threads.png", "whole-space search rate (wall clock) against thread count")]


def plot_sizes(folder, run, bfs, order):
    """Time against state-space size, log-log, one panel per family (lines never cross families)."""
    one = [r for r in bfs if (r["threads"] or 1) == 1 and r.get("states")]
    panels = []
    for fam in sorted({family(r["puzzle"]) for r in one}):
        combos = defaultdict(list)
        for r in one:
            if family(r["puzzle"]) == fam:
                combos[(fam, r["engine"], r["encoder"])].append(r)
        parts = split_by_engine(sorted(k for k, v in combos.items() if len(v) >= 2))
        for part in parts:
            if part:
                panels.append((fam + (f" ({engines_named(part, run.registry)})" if len(parts) > 1 else ""),
                               [(k, combos[k]) for k in part]))
    if not panels:
        return []
    fig, axes = panels_figure(panels, 4.2)
    for ax, (title, combos) in zip(axes, panels):
        xs, ys = [], []
        for key, rs in combos:
            rs = sorted(rs, key=lambda r: r["states"])
            lows = [r.get("ci_low") for r in rs]
            errorbar(ax, [r["states"] for r in rs], [r["median"] for r in rs], key, run.registry, lows,
                     [r.get("ci_high") for r in rs])
            xs += [r["states"] for r in rs]
            ys += [r["median"] for r in rs] + [v for v in lows + [r.get("ci_high") for r in rs] if v]
        ax.set_xscale("log")
        ax.set_yscale("log")
        log_axis(ax.xaxis, min(xs), max(xs), "count")
        log_axis(ax.yaxis, min(ys), max(ys), "ms")
        ax.set_xlabel("states in the component (log scale)")
        ax.set_ylabel("median wall time, ms (log scale)")
        ax.set_title(f"{title}: whole-space search time against size, 1 thread", fontsize=9)
        ax.grid(alpha=0.3, which="major")
        ax.legend(fontsize=6.5, ncol=2 if len(combos) > 8 else 1)
    headline(fig, "error bars: 95% CI of the median; colour: engine, marker: encoder")
    save(fig, folder, "time-vs-size.png", run)
    return [("time-vs-size.png", "whole-space search time against state-space size, log-log")]


def draw_all(folder, run, bfs, order):
    """Every plot of the run, [(PNG file name, title)], each also as SVG and PDF; plots of an
    earlier report not drawn again are removed."""
    plots = plot_engines(folder, run, bfs, order) + plot_threads(folder, run, bfs, order) + plot_sizes(folder, run, bfs, order)
    clear(folder, keep={os.path.splitext(name)[0] + "." + kind for name, _ in plots for kind in FORMATS})
    return plots


def clear(folder, keep=()):
    """Removes the plot files of the folder but those in keep."""
    for stale in os.listdir(folder):
        if stale.endswith(tuple("." + kind for kind in FORMATS)) and stale not in keep:
            os.remove(os.path.join(folder, stale))


def has_plots(folder):
    return any(name.endswith(tuple("." + kind for kind in FORMATS)) for name in os.listdir(folder))
