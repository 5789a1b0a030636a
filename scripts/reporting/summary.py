"""The first screen of a run's report: per puzzle, the fastest engine + encoder at 1 thread
and at the run's largest thread count, with the 95% CIs, and how it compares."""
from . import fmt, stats
from .sections import judge_rows, judged_program
from .tables import PEERS, classic_row, find, shown

MAX_NAMES = 3


def pick(rows):
    """The cell naming the fastest of rows (or the tie), and the best-median row."""
    best, tied, decided = stats.fastest(rows)
    if best is None:
        return "-", None
    name = lambda r: f"`{shown(r)}` + `{r['encoder']}`"
    if decided or len(rows) == 1:
        return name(best), best
    if tied:
        names = [name(r) for r in [best] + tied]
        more = f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else ""
        return "tie: " + ", ".join(names[:MAX_NAMES]) + more, best
    return name(best) + " *", best


def puzzle_row(pr, peers, registry):
    ours = [r for r in pr if r["engine"] not in PEERS]
    most = max(r["threads"] or 1 for r in pr)
    one_cell, one = pick([r for r in ours if (r["threads"] or 1) == 1])
    if most > 1:
        all_cell, every = pick([r for r in ours if r["threads"] == most])
    else:
        all_cell, every = "-", None
    naive = find(pr, engine="naive")
    classic = classic_row(pr, pr[0]["puzzle"], registry)
    best1 = one["median"] if one else None
    cells = [pr[0]["puzzle"], fmt.count(pr[0].get("states")), one_cell, fmt.median_ci(one) if one else "-", all_cell,
             fmt.median_ci(every) if every else "-", fmt.ratio(stats.ratio(best1, every and every["median"])),
             fmt.ratio(stats.ratio(naive and naive["median"], best1)), fmt.ratio(stats.ratio(classic and classic["median"], best1))]
    for peer in peers:
        at = every if every is not None else one
        theirs = find(pr, engine=peer, threads=at["threads"]) if at else None
        cells.append(fmt.ratio(stats.ratio(theirs and theirs["median"], at and at["median"])))
    return cells, most


def summary_section(w, run, bfs, order):
    w.heading("Summary")
    if not bfs:
        w("This run holds no whole-space benchmarks.")
        w()
    else:
        peers = [p for p in PEERS if any(r["engine"] == p for r in bfs)]
        rows, most = [], 1
        for puzzle in sorted({r["puzzle"] for r in bfs}, key=order):
            cells, n = puzzle_row([r for r in bfs if r["puzzle"] == puzzle], peers, run.registry)
            rows.append(cells)
            most = max(most, n)
        cores = (f"All cores = {most} threads (the run's largest thread count). Speedup = fastest at 1 thread / fastest "
                 "at all cores. " if most > 1 else "")
        w(f"Whole-space search, median ms with its 95% CI. *Fastest* only where that CI lies below every other's at the "
          f"same thread count; *tie* names those whose CIs overlap the best median's. {cores}x naive, x classic: "
          "the `naive` engine's and the classic solution's (`ring` with its encoder) median / the fastest at 1 thread's."
          + "".join(f" x {p}: the {PEERS[p]}'s median / the fastest's at the same thread count." for p in peers))
        w()
        header = ["puzzle", "states", "fastest, 1 thread", "ms [95% CI]", f"fastest, {most} threads", "ms [95% CI]",
                  f"speedup 1->{most}", "x naive", "x classic"] + [f"x {p}" for p in peers]
        align = "lrlrlrrrr" + "r" * len(peers)
        if most == 1:  # no thread count but 1: no all-cores columns
            keep = [i for i in range(len(header)) if i not in (4, 5, 6)]
            header, align, rows = [header[i] for i in keep], "".join(align[i] for i in keep), [[c[i] for i in keep] for c in rows]
        w.table("summary", header, align, rows)
        if any(not stats.has_ci(r) for r in bfs):
            w("\\* The smallest median; no CI, so neither fastest nor tie (the file kept only the aggregates).")
            w()
    judges_summary(w, run)


def judges_summary(w, run):
    if not run.judges or not run.judges.get("totals"):
        return
    parts = []
    for t, wall_ci, *_ in judge_rows(run.judges):
        ci = f" [95% CI {wall_ci[0]:.3f}, {wall_ci[1]:.3f}]" if wall_ci else ""
        faster = f", {1 / t['ratio_wall']:.1f}x faster" if t["ratio_wall"] < 1 else ""
        parts.append(f"{t['group']}: {t['ratio_wall']:.3f}{ci} of the classic program's wall time{faster}"
                     + ("" if t["identical"] else " (outputs DIFFER)"))
    w(f"Whole processes against the classic single-file programs (`scripts/judge_speed.py`, {judged_program(run.judges)} / classic): "
      + "; ".join(parts) + ".")
    w()
