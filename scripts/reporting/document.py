"""A run's report put together: report.md, benchmarks.csv, tables/*.csv and the plots, all
in the run's folder and all from its files alone."""
import csv
import os

from . import commands, conditions, fmt, heuristic, plots, sections, stats, summary, tables
from .load import Run

CSV_COLUMNS = ["kind", "engine", "encoder", "puzzle", "threads", "param", "name", "n", "median_ms", "mean_ms", "sd_ms",
               "ci_low_ms", "ci_high_ms", "cv", "cv_above_limit", "items_per_wall_second", "items_per_second_gbench",
               "peak_bytes", "states", "key_space", "radius", "rounds", "load1_max", "others_cpu", "commit", "machine", "run",
               "reproduce"]


def facts(w, run):
    """The paragraph under the title: what ran where, and how."""
    made = ("" if run.manifest else " Its files were written before runs had folders of their own and were grouped here "
            "by the date-time and commit in their names; the facts come from the files' contexts.")
    host = run.context("host", run.context("host_name"))
    tools = [f"{what} {run.context(key)}" for what, key in (("compiler", "compiler"), ("vector path", "simd"),
                                                             ("oneTBB", "onetbb"), ("Google Benchmark", "google_benchmark"))
             if run.context(key)]
    if run.debug_library():
        tools[-1] += " (a debug build of the library, see below)"
    w(f"Commit `{run.commit}`, started {fmt.utc(run.started)} UTC on {run.machine}" + (f" (host `{host}`)" if host else "")
      + f", by `{run.command}` (kind: {run.kind()}). " + "".join(t[0].upper() + t[1:] + "; " for t in tools[:1])
      + "".join(t + "; " for t in tools[1:]) + f"CPU frequency governor {conditions.governor(run)}. "
      + conditions.claim(run) + made)
    w()
    if run.debug_library():
        w("Debian's `libbenchmark-dev` is a debug build of Google Benchmark (`library_build_type` in the context; the "
          "library prints a warning). The code measured is searchbench's own, built Release; the library's debug code "
          "runs around the timed loop, which adds a constant per iteration, largest relative to the shortest cases.")
        w()


def body(w, run, order):
    rows = run.rows
    bfs = [r for r in rows if r["kind"] == "bfs"]
    if bfs:
        tables.whole_space_tables(w, bfs, order, run.registry)
    tables.scaling_table(w, bfs, order)
    tables.explicit_graph_table(w, bfs, order)
    tables.topdown_table(w, bfs, order)
    sections.scale_section(w, run)
    sections.projection_section(w, run)
    sections.judge_speed_section(w, run)
    sections.peers_section(w, run)
    tables.codec_table(w, [r for r in rows if r["kind"] == "codec" and r["rate"]], order)
    tables.point_tables(w, [r for r in rows if r["kind"] == "point"], order)
    tables.judge_tables(w, [r for r in rows if r["kind"] == "judge"])
    heuristic.heuristic_tables(w, [r for r in rows if r["kind"] == "heuristic"])
    tables.other_table(w, [r for r in rows if r["kind"] not in ("bfs", "codec", "point", "judge", "heuristic")])


def render(run, drawn, base="", title=None, intro=(), extra=None):
    """The report's Markdown lines with links relative to base, and the Writer's tables.
    intro: lines under the warnings; extra(w) adds sections at the end (the index's runs)."""
    commands.annotate(run)
    w = fmt.Writer(base)
    w(title or f"# searchbench run {run.id}")
    w()
    for mark in conditions.marks(run):
        w(mark)
        w()
    for line in intro:
        w(line)
    facts(w, run)
    order = tables.puzzle_order(run.rows)
    bfs = [r for r in run.rows if r["kind"] == "bfs"]
    summary.summary_section(w, run, bfs, order)
    toc_at = len(w.lines)
    first = len(w.headings)
    body(w, run, order)
    if drawn:
        w.heading("Plots", "Each plot names its run at the bottom; every median has its 95% CI as an error bar, and each "
                  "engine keeps one colour (each encoder one marker) in every plot. Each is also drawn as SVG and PDF.")
        for name, caption in drawn:
            stem = os.path.splitext(name)[0]
            w(f"![{caption}]({w.link(name)})")
            w()
            w(f"<sub>{caption}: [SVG]({w.link(stem + '.svg')}), [PDF]({w.link(stem + '.pdf')})</sub>")
            w()
    elif drawn is None and bfs:
        w.heading("Plots", "Only the featured run of results/README.md keeps its plots in the repository; "
                  f"`scripts/report.py run results/runs/{run.id}` draws this run's from its raw files.")
    sections.conditions_section(w, run)
    sections.method_section(w, run)
    sections.files_section(w, run)
    if extra:
        extra(w)
    toc = [f"{'  ' * (level - 2)}- [{t}](#{a})" for level, t, a in w.headings[first:] if level == 2]
    w.lines[toc_at:toc_at] = ["## Contents", ""] + toc + [""]
    return w


def write_csv(run, path):
    """benchmarks.csv: one row per benchmark of the run (its repetitions pooled), each with the
    command that runs it again."""
    commands.annotate(run)
    with fmt.open_own(path, newline="") as f:
        out = csv.writer(f)
        out.writerow(CSV_COLUMNS)
        for r in sorted(run.rows, key=lambda r: r["name"]):
            value = {"median_ms": r.get("median"), "mean_ms": r.get("mean"), "sd_ms": r.get("sd"), "ci_low_ms": r.get("ci_low"),
                     "ci_high_ms": r.get("ci_high"), "items_per_wall_second": r.get("rate"),
                     "items_per_second_gbench": r.get("rate_library"), "commit": run.commit,
                     "machine": run.machine, "run": run.id,
                     "cv_above_limit": "" if r.get("cv") is None else str(r["cv"] > stats.NOISY_CV).lower()}
            cell = lambda k: value[k] if k in value else r.get(k)
            out.writerow(["" if cell(k) is None else (f"{cell(k):.9g}" if isinstance(cell(k), float) else cell(k))
                          for k in CSV_COLUMNS])


def write_run(folder, draw=True):
    """Writes folder/report.md, benchmarks.csv, tables/*.csv and the plots; returns (run, plots).
    draw=False: no plots, and those of an earlier report removed (the index keeps the featured
    run's alone: every plot is made again from the raw files on demand)."""
    run = Run(folder)
    bfs = [r for r in run.rows if r["kind"] == "bfs"]
    if draw:
        drawn = plots.draw_all(run.folder, run, bfs, tables.puzzle_order(run.rows))
    else:
        plots.clear(run.folder)
        drawn = None
    w = render(run, drawn)
    with fmt.open_own(os.path.join(run.folder, "report.md")) as f:
        f.write("\n".join(w.lines).rstrip("\n") + "\n")
    fmt.write_tables(run.folder, w.tables)
    write_csv(run, os.path.join(run.folder, "benchmarks.csv"))
    return run, drawn
