"""The benchmark tables of one run. Every ratio compares two rows of that run."""
import math
from collections import defaultdict

from . import fmt, stats
from .commands import cell, cell_for
from .conditions import OTHERS_LIMIT
from .load import family

# The classic single-file contest solutions ran the ring engine's search with their family's
# classic encoder (the registry's classic_encoder: reporting/registry.py): the "x classic"
# yardstick. Families with no classic program get no such column.
CLASSIC_ENGINE = "ring"
OLD_NAMES = {"bitpack": "octal"}  # the encoder's name in runs before it was renamed
# Programs other than searchbench's engines measured in the same matrix, for the summary.
PEERS = {"explicit-csr": "GAP-style BFS over the explicit graph"}
TIME_HEADER = ["median ms [95% CI]", "mean ± sd", "CV", "n"]
REPRODUCE = " *reproduce*: the command that runs the case again (the method section below says which)."


def shown(r):
    """The row's engine as the command line names it (reporting/commands.py)."""
    return r.get("shown", r["engine"])


def puzzle_order(rows):
    size = {}
    for r in rows:
        if r.get("states"):
            size.setdefault(r["puzzle"], r["states"])
    return lambda p: (family(p), size.get(p, math.inf), p)


def find(rows, **want):
    return next((r for r in rows if all(r.get(k) == v for k, v in want.items())), None)


def classic_row(rows, puzzle, registry):
    """The classic solution's row (ring + the family's classic encoder), None without one."""
    encoder = registry.classic_encoder(puzzle)
    if not encoder:
        return None
    return (find(rows, engine=CLASSIC_ENGINE, encoder=encoder)
            or find(rows, engine=CLASSIC_ENGINE, encoder=OLD_NAMES.get(encoder)))


def who(r):
    return f"`{shown(r)}` + `{r['encoder']}`" + (f", {r['threads'] or 1} thread{'s' if (r['threads'] or 1) > 1 else ''}"
                                                  if r.get("threads") is not None else "")


def time_cells(r):
    """The median with its CI, mean ± sd, CV (bold above 5%; a dagger when other processes
    kept more than OTHERS_LIMIT cores busy during the case) and n."""
    cv = fmt.cv(r, stats.NOISY_CV)
    if r.get("others_cpu") is not None and r["others_cpu"] > OTHERS_LIMIT:
        cv += " †"
    n = str(r["n"]) + (f" ({r['rounds']} rounds)" if r.get("rounds", 1) > 1 else "")
    return [fmt.median_ci(r), fmt.mean_sd(r), cv, n]


def verdict(rows, what="the fastest"):
    """One sentence: the fastest (its CI below every other's), a tie, or a smallest median."""
    best, tied, decided = stats.fastest(rows)
    if best is None:
        return ""
    if decided:
        return f"Fastest: {who(best)}, {fmt.median_ci(best)} ms; its 95% CI lies below every other's."
    if tied:
        names = "; ".join(f"{who(r)}, {fmt.median_ci(r)} ms" for r in [best] + tied)
        return f"Tie for {what} (95% CIs of the medians overlap): {names}."
    if len(rows) == 1:
        return f"Only {who(best)}: {fmt.median_ci(best)} ms."
    return f"Smallest median: {who(best)}, {fmt.ms(best['median'])} ms (no CI: the file kept only the aggregates)."


def standing(r, best, tied, decided):
    """The best row's word, or how many times its median another row's is, with the 95% CI of
    that ratio and *tie* where the two medians' CIs overlap."""
    if best is None:
        return ""
    if r is best:
        return "fastest" if decided else ("best median, tie" if tied else "best median")
    return fmt.ratio_ci(stats.ratio_ci(r, best)) + (", tie" if r in tied else "")


def whole_space_tables(w, bfs, order, registry):
    w.heading("Whole-space search",
              "One search from the start over the whole component. Times: median of the repetitions with the 95% "
              "bootstrap CI of the median, mean ± standard deviation, CV = sd / mean (**bold** above 5%; † other "
              "processes kept more than half a core busy during the case), n repetitions. states/s (wall): the "
              "states over the median wall time, the clock of the time beside it. *x naive* and *x classic*: how many "
              "times faster than the textbook `naive` engine and than the family's classic single-file solution (`ring` "
              "with the encoder it used), in this run. *vs fastest*: the row's median / the best median, with the 95% "
              "bootstrap CI of that ratio (each row's repetitions resampled on their own); *tie* where the two "
              "medians' CIs overlap." + REPRODUCE)
    for puzzle in sorted({r["puzzle"] for r in bfs}, key=order):
        pr = sorted((r for r in bfs if r["puzzle"] == puzzle), key=lambda r: r["median"])
        classic_enc = registry.classic_encoder(puzzle)
        naive = find(pr, engine="naive")
        classic = classic_row(pr, puzzle, registry)
        ref = pr[0]
        w.heading(f"{puzzle} ({int(ref.get('states', 0)):,} states, radius {int(ref.get('radius', 0))})", level=3)
        best, tied, decided = stats.fastest(pr)
        header = ["engine", "encoder", "threads"] + TIME_HEADER + ["states/s (wall)", "peak memory", "key space", "x naive"]
        header += ["x classic"] if classic_enc else []
        table = []
        for r in pr:
            cells = [shown(r), r["encoder"], str(r["threads"] or 1)] + time_cells(r)
            cells += [fmt.rate(r["rate"]), fmt.nbytes(r.get("peak_bytes")), fmt.count(r.get("key_space") or None),
                      fmt.ratio(stats.ratio(naive and naive["median"], r["median"]))]
            if classic_enc:
                cells.append(fmt.ratio(stats.ratio(classic and classic["median"], r["median"])))
            table.append(cells + [standing(r, best, tied, decided), cell(r)])
        w.table(f"whole-space-{puzzle}", header + ["vs fastest [95% CI]", "reproduce"], "lll" + "r" * (len(header) - 3) + "ll",
                table)
        w(verdict(pr))
        w()


def scaling_table(w, bfs, order):
    """Every engine/encoder run at several thread counts on spaces of 100,000 states or more
    (smaller ones finish before threads help)."""
    multi = defaultdict(list)
    for r in bfs:
        if r["threads"] is not None and r.get("states", 0) >= 100_000:
            multi[(r["puzzle"], r["engine"], r["encoder"])].append(r)
    series = {k: sorted(v, key=lambda r: r["threads"]) for k, v in multi.items() if len(v) >= 2}
    if not series:
        return
    w.heading("Thread scaling",
              "Spaces of 100,000 states or more. Speedup = median time with 1 thread / median time with n threads, "
              "with the 95% bootstrap CI of that ratio; efficiency = speedup / n. *vs 1 thread*: *tie* where the two "
              "medians' CIs overlap (no measurable change)." + REPRODUCE)
    rows = []
    for key in sorted(series, key=lambda k: (order(k[0]), k[1], k[2])):
        base = next((r for r in series[key] if r["threads"] == 1), None)
        for r in series[key]:
            sp = stats.ratio(base and base["median"], r["median"])
            same = base is not None and r is not base and stats.has_ci(r) and stats.has_ci(base) and stats.overlap(r, base)
            speedup = fmt.ratio(sp) if r is base else fmt.ratio_ci(stats.ratio_ci(base, r))
            rows.append([r["puzzle"], shown(r), r["encoder"], str(r["threads"])] + time_cells(r)[:3] +
                        [speedup, fmt.ratio(sp / r["threads"]) if sp else "-", "tie" if same else "", cell(r)])
    w.table("thread-scaling", ["puzzle", "engine", "encoder", "threads"] + TIME_HEADER[:3] +
            ["speedup [95% CI]", "efficiency", "vs 1 thread", "reproduce"],
            "llll" + "rrrrr" + "ll", rows)


def explicit_graph_table(w, bfs, order):
    """The parallel engine against the GAP-style BFS over the same graph built explicitly
    (engine explicit-csr: a CSR adjacency list built before timing, then a direction-optimizing
    BFS over it), same encoder and thread count."""
    rows = []
    for csr in sorted((r for r in bfs if r["engine"] == "explicit-csr"), key=lambda r: (order(r["puzzle"]), r["threads"] or 1)):
        par = find(bfs, engine="parallel", encoder=csr["encoder"], puzzle=csr["puzzle"], threads=csr["threads"])
        if par:
            rows.append([csr["puzzle"], csr["encoder"], str(csr["threads"] or 1), fmt.median_ci(par), fmt.median_ci(csr),
                         fmt.ratio_ci(stats.ratio_ci(par, csr)), "tie" if stats.has_ci(par) and stats.has_ci(csr)
                         and stats.overlap(par, csr) else "", cell(par), cell(csr)])
    if not rows:
        return
    w.heading("Against the GAP-style BFS on the same graph",
              "Engine `parallel` against `explicit-csr`, a yardstick of bench_search's and no engine of `searchbench run` (bench/explicit_graph_bfs.hpp: the graph stored as a CSR adjacency "
              "list, built before timing, then a direction-optimizing BFS over it as in the GAP Benchmark Suite), same "
              "encoder and thread count. Ratio = parallel's median / explicit-csr's, with its 95% bootstrap CI (below 1: "
              "parallel is faster, without ever holding the graph). *reproduce*: the command that runs each case again.")
    w.table("explicit-graph", ["puzzle", "encoder", "threads", "parallel ms [95% CI]", "explicit-csr ms [95% CI]", "ratio [95% CI]",
                               "CIs", "reproduce parallel", "reproduce explicit-csr"], "lllrrrlll", rows)


def topdown_table(w, bfs, order):
    pairs = []
    for td in bfs:
        if td["engine"] == "parallel-topdown":
            opt = find(bfs, engine="parallel", encoder=td["encoder"], puzzle=td["puzzle"], threads=td["threads"])
            if opt:
                pairs.append((td, opt))
    if not pairs:
        return
    w.heading("Direction-optimizing levels: parallel engine, two bits per key",
              "`parallel` switches a level to bottom-up (every unseen state looks for a parent in the frontier) once the "
              "frontier outnumbers the unseen states; `parallel --top-down` never does (bench_search names it parallel-topdown). "
              "*reproduce*: the command that runs each case again.")
    rows = [[td["puzzle"], td["encoder"], str(td["threads"]), fmt.median_ci(opt), fmt.median_ci(td),
             fmt.ratio_ci(stats.ratio_ci(td, opt)), "tie" if stats.has_ci(td) and stats.has_ci(opt) and stats.overlap(td, opt) else "",
             cell(opt), cell(td)]
            for td, opt in sorted(pairs, key=lambda p: (order(p[0]["puzzle"]), p[0]["encoder"], p[0]["threads"]))]
    w.table("direction-optimizing", ["puzzle", "encoder", "threads", "direction-optimizing ms [95% CI]", "top-down ms [95% CI]",
                                     "top-down / optimizing [95% CI]", "CIs", "reproduce direction-optimizing", "reproduce top-down"],
            "lllrrrlll", rows)


def codec_table(w, codec, order):
    if not codec:
        return
    w.heading("Encoder fast paths against the textbook code",
              "Nanoseconds per key over 4,096 fixed random keys (the median repetition time / 4,096, with its 95% CI); "
              "*x slowest* compares the variants of one operation." + REPRODUCE)
    rows = []
    for key in sorted({(r["puzzle"], r["engine"], r["encoder"]) for r in codec}, key=lambda k: (order(k[0]), k[1], k[2])):
        group = sorted((r for r in codec if (r["puzzle"], r["engine"], r["encoder"]) == key), key=lambda r: -r["rate"])
        slowest = min(g["rate"] for g in group)
        for r in group:
            keys = r["items"]
            ns = lambda t: f"{t * 1e6 / keys:.2f}" if t is not None else "-"
            per_key = ns(r["median"]) + (f" [{ns(r['ci_low'])}, {ns(r['ci_high'])}]" if stats.has_ci(r) else "")
            rows.append([r["puzzle"], r["engine"], r["encoder"], r["param"], per_key, fmt.cv(r, stats.NOISY_CV),
                         fmt.ratio(r["rate"] / slowest), cell(r)])
    w.table("encoder-fast-paths", ["puzzle", "operation", "encoder", "variant", "ns per key [95% CI]", "CV", "x slowest", "reproduce"],
            "llllrrrl", rows)


def point_tables(w, points, order):
    by_depth = [r for r in points if r["param"].startswith("depth:")]
    for puzzle in sorted({r["puzzle"] for r in by_depth}, key=order):
        pr = [r for r in by_depth if r["puzzle"] == puzzle]
        depths = sorted({int(r["param"][6:]) for r in pr})
        w.heading(f"Point queries on {puzzle} by depth",
                  "Median time to answer the fixed targets of each depth, ms, with its 95% CI; every path checked "
                  "against bidir's after timing. *reproduce*: the command that runs the line's cases again (bench_search: "
                  "the targets are drawn there).")
        rows = []
        for combo in sorted({(r["engine"], r["encoder"]) for r in pr}):
            found = [find(pr, engine=combo[0], encoder=combo[1], param=f"depth:{d}") for d in depths]
            cells = [shown(next(r for r in found if r)), combo[1]] + [fmt.median_ci(r) if r else "-" for r in found]
            rows.append(cells + [cell_for([r for r in found if r])])
        w.table(f"point-queries-{puzzle}", ["engine", "encoder"] + [f"depth {d}" for d in depths] + ["reproduce"],
                "ll" + "r" * len(depths) + "l", rows)
    other = [r for r in points if not r["param"].startswith("depth:")]
    for fam in sorted({family(r["puzzle"]) for r in other}):
        fr = sorted((r for r in other if family(r["puzzle"]) == fam), key=lambda r: (order(r["puzzle"]), r["param"], r["median"]))
        w.heading(f"Point queries on {fam}", "Fixed targets per puzzle (the last part of the name: how they were drawn); "
                  "every path checked against bidir's after timing." + REPRODUCE)
        w.table(f"point-queries-{fam}", ["puzzle", "targets", "engine", "encoder"] + TIME_HEADER + ["queries/s (wall)", "reproduce"],
                "llll" + "rrrrr" + "l",
                [[r["puzzle"], r["param"], shown(r), r["encoder"]] + time_cells(r) + [fmt.rate(r["rate"]), cell(r)] for r in fr])


def judge_tables(w, judges):
    for judge in sorted({r["puzzle"] for r in judges}):
        jr = sorted((r for r in judges if r["puzzle"] == judge), key=lambda r: (r["param"], r["median"]))
        w.heading(f"Judge throughput: {judge}", "Median time to answer the whole input (table built inside the timed loop); "
                  "queries/s (wall): the queries over the median wall time." + REPRODUCE)
        w.table(f"judge-throughput-{judge}", ["engine", "encoder", "input"] + TIME_HEADER + ["queries/s (wall)", "reproduce"],
                "lll" + "rrrrr" + "l",
                [[shown(r), r["encoder"], r["param"]] + time_cells(r) + [fmt.rate(r["rate"]), cell(r)] for r in jr])
        w(verdict(jr))
        w()


def other_table(w, other):
    if not other:
        return
    w.heading("Other benchmarks", "Benchmarks no section above describes, by name; items/s (wall): the items "
              "over the median wall time." + REPRODUCE)
    w.table("other-benchmarks", ["benchmark"] + TIME_HEADER + ["items/s (wall)", "reproduce"], "l" + "rrrrr" + "l",
            [[f"`{r['name']}`"] + time_cells(r) + [fmt.rate(r["rate"]), cell(r)] for r in sorted(other, key=lambda r: r["name"])])
