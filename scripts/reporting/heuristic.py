"""The heuristic-search section: bench_search's heuristic/<engine>/<heuristic>/<puzzle>/<set>
benchmarks (bench/heuristic_benchmarks.cpp), beside the blind ones."""
from . import fmt
from . import stats
from .commands import cell
from .tables import TIME_HEADER, shown, time_cells

# Figures other solvers published for Korf's 100; quoted, never measured here.
PUBLISHED = ("Published elsewhere, not measured here: Kociemba's 15-puzzle solver, 0.37 s per random position on one "
             "i7-920 core with a 5-5-5 additive pattern database (25.6 s with Manhattan distance alone); Korf (1985), "
             "IDA* with Manhattan distance, 3.6e10 nodes generated over the 100; Korf and Felner (2002), additive "
             "pattern databases, nodes generated per problem on average: 6-6-3 617,555; 7-8 with the reflected lookup "
             "36,710 (0.034 s per problem on a 2002 machine); Felner et al. (2007), two compressed 7-7-1 databases with "
             "the reflection, 66,692 nodes and 0.016 s per problem. On the 24-puzzle, Korf and Felner (2002) solved "
             "their 50 instances with 6-6-6-6 databases and the reflected lookup, taking days for the hard ones; a "
             "2021 single-machine solver reports 168 s and 6.5e9 nodes for the first instance.")


def _seconds(x):
    return "-" if x is None else fmt.ms(x * 1000) + " ms"


def _threads(r):
    """The set's name and the thread count (which load.py reads from the parameter's end)."""
    return r["param"].rpartition(":threads:")[0], r.get("threads")


def _per_instance(r):
    """Nodes generated per start of the set (the measure the published figures use)."""
    generated, instances = r.get("generated"), r.get("instances")
    return "-" if not generated or not instances else f"{generated / instances:,.0f}"


def heuristic_tables(w, rows):
    if not rows:
        return
    w.heading("Heuristic search",
              "Each case solves every start of its set to the goal (the median total over the repetitions, ms, with its "
              "95% CI); every answer checked against the published optimal length (Korf's 100, Korf and Felner's 50) or a breadth-first search's distance, and "
              "its moves followed to the goal. Per instance: the median and the slowest start of the last repetition; "
              "nodes generated per second of search; the heuristic's build (a pattern database's BFS or its load from "
              "the cache) is apart, untimed. *reproduce*: the bench_search command that runs the case again (its starts are "
              "drawn or listed there); one start alone is a point query of `searchbench run` with the row's puzzle, engine, "
              "heuristic and threads, `--start` and `--target` (docs/heuristic-search.md). " + PUBLISHED)
    cells = []
    for r in sorted(rows, key=lambda r: (r["puzzle"], r["param"], r["engine"], r["median"])):
        name, threads = _threads(r)
        cells.append([r["puzzle"], name, shown(r), r["encoder"], str(threads or "")] + time_cells(r) + [
            _seconds(r.get("instance_seconds_median")), _seconds(r.get("instance_seconds_max")),
            _per_instance(r), fmt.rate(r.get("generated_per_second")), _seconds(r.get("heuristic_build_seconds")), cell(r)])
    w.table("heuristic-search", ["puzzle", "set", "engine", "heuristic", "threads"] + TIME_HEADER +
            ["per instance (median)", "slowest", "generated per instance", "generated/s", "build", "reproduce"],
            "lllll" + "rrrr" + "rrrrr" + "l", cells)
    named_instance_table(w, rows)
    speedup_table(w, rows)


SIDE_BY_SIDE = ":side-by-side"


def speedup_table(w, rows):
    """Sets timed side by side (their starts N at a time, each on one thread): the parallel
    search's speedup over its 1-thread row beside that ceiling, both with their 95% CIs."""
    by_key = {(r["puzzle"], r["engine"], r["encoder"]) + _threads(r): r for r in rows}
    cells = []
    for (puzzle, engine, heuristic, name, threads), side in sorted(by_key.items(), key=lambda kv: kv[0][:4] + (kv[0][4] or 0,)):
        if not name.endswith(SIDE_BY_SIDE):
            continue
        base = name[: -len(SIDE_BY_SIDE)]
        one = by_key.get((puzzle, engine, heuristic, base, 1))
        parallel = by_key.get((puzzle, engine, heuristic, base, threads))
        if not one or not parallel:
            continue
        speedup, ceiling = stats.ratio_ci(one, parallel), stats.ratio_ci(one, side)
        share = speedup[0] / ceiling[0] if speedup and ceiling and ceiling[0] else None
        cells.append([puzzle, base, engine, heuristic, str(threads), fmt.ms(one["median"]), fmt.ms(parallel["median"]),
                      fmt.ratio_ci(speedup), fmt.ms(side["median"]), fmt.ratio_ci(ceiling), fmt.percent(share)])
    if cells:
        w("Parallel speedup against its ceiling: the 1-thread median over the N-thread one, beside the same starts solved N "
          "at a time, each on one thread (`...:side-by-side:threads:N`): what N independent searches reach on this machine, "
          "so the last column is the share of the reachable speedup the parallel search gets (ratios of medians with their "
          "95% bootstrap CIs):")
        w()
        w.table("heuristic-speedup", ["puzzle", "set", "engine", "heuristic", "threads", "1 thread, ms", "N threads, ms",
                                      "speedup", "side by side, ms", "ceiling", "share of the ceiling"],
                "lllll" + "rrrrrr", cells)


def named_instance_table(w, rows):
    """Sets that name their instances (the 24-puzzles): each instance's search time and nodes."""
    cells = []
    for r in sorted(rows, key=lambda r: (r["puzzle"], r["param"], r["engine"])):
        named = r.get("instances_named") or {}
        numbers = sorted({int(k.split("_")[1]) for k in named})
        name, threads = _threads(r)
        for n in numbers:
            seconds, generated = named.get(f"instance_{n}_seconds"), named.get(f"instance_{n}_generated")
            rate = generated / seconds if seconds and generated else None
            cells.append([r["puzzle"], name, r["encoder"], str(threads or ""), str(n), _seconds(seconds),
                          f"{generated:,.0f}" if generated else "-", fmt.rate(rate), cell(r)])
    if cells:
        w("Named instances, one by one (the first repetition; each solved at its published optimal length); *reproduce*: "
          "the command that runs the whole set again:")
        w()
        w.table("heuristic-named-instances", ["puzzle", "set", "heuristic", "threads", "instance", "search", "generated",
                                              "generated/s", "reproduce"], "llllrrrrl", cells)
