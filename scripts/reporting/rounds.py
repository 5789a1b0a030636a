"""The second round of repetitions: the cases of the first round whose CV was above the
limit, most spread first, as many as fit a time budget.

A case's cost per repetition is what one call of it took in the first round (the median of
its calls): probe_seconds (bench_search's load probe spans the set-up, the timed loop and the
checks), or the timed iterations where the counter is absent. Google Benchmark sizes the iteration count again in
a new process, which costs about one more call per case.
"""
import statistics
from collections import defaultdict

from . import stats
from .load import TO_MS, read_json

ERE_SPECIAL = set(".[]()*+?{}|^$\\")  # POSIX extended regular expressions (the library's filter)


def costs(doc):
    """{run_name: (cv, seconds per repetition)} of the first round's cases with repetitions."""
    reps = defaultdict(list)
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") == "iteration" and not b.get("error_occurred"):
            reps[b.get("run_name", b["name"])].append(b)
    out = {}
    for name, entries in reps.items():
        times = [e["real_time"] for e in entries]
        if len(times) < 2 or not statistics.fmean(times):
            continue
        cv = statistics.stdev(times) / statistics.fmean(times)
        per_call = [e.get("probe_seconds") or e["iterations"] * e["real_time"] * TO_MS[e["time_unit"]] / 1e3 for e in entries]
        out[name] = (cv, statistics.median(per_call))  # the median: a first call may fill a cache
    return out


def select(doc, budget_seconds, repetitions, cv_limit=stats.NOISY_CV):
    """(names, estimated seconds): the noisy cases, highest CV first, skipping those that no
    longer fit the budget."""
    chosen, total = [], 0.0
    for name, (cv, per_call) in sorted(costs(doc).items(), key=lambda kv: -kv[1][0]):
        if cv <= cv_limit:
            break
        cost = per_call * (repetitions + 1)
        if total + cost <= budget_seconds:
            chosen.append(name)
            total += cost
    return chosen, total


def ere_escape(text):
    return "".join("\\" + c if c in ERE_SPECIAL else c for c in text)


def filter_regex(names):
    """A --benchmark_filter matching exactly these benchmark names."""
    return "^(" + "|".join(ere_escape(n) for n in names) + ")$" if names else ""


def main(bench_json, budget_seconds, repetitions):
    """Prints the filter of the second round (nothing when no case qualifies) and, on stderr, why."""
    import sys
    doc = read_json(bench_json)
    all_costs = costs(doc)
    noisy = sum(1 for cv, _ in all_costs.values() if cv > stats.NOISY_CV)
    names, seconds = select(doc, budget_seconds, repetitions)
    print(f"round 2: {len(names)} of the {noisy} cases with a CV above {stats.NOISY_CV:.0%} "
          f"(of {len(all_costs)}), {repetitions} more repetitions each, about {seconds:.0f} s "
          f"(budget {budget_seconds:.0f} s)", file=sys.stderr)
    print(filter_regex(names))
