"""Was the machine quiet during the run? Each check below that the run's files allow is
made; the run is "not quiet" when one fails, and every page of its report says so.

  before the run   the 1-minute load average just before the first benchmark (run.json, or
                   the load Google Benchmark put in its context) is at most LOAD_MARGIN:
                   nothing else was running
  during a case    no load sample of a case (bench_search's load1_before / load1_after of
                   each repetition) exceeds the run's largest thread count + LOAD_MARGIN.
                   The 1-minute average trails by about a minute, so the bound is what the
                   run's own threads can leave behind, not the case's own thread count
  other processes  other processes kept at most OTHERS_LIMIT cores busy during each case
                   (others_cpu_seconds / probe_seconds over its repetitions: their user time
                   and the hypervisor's steal, as bench_search counts it; no lag)
  judges           other processes kept at most OTHERS_LIMIT cores busy while
                   scripts/judge_speed.py ran (its others_cpu_seconds / probe_seconds). Files
                   from before it recorded them: the 1-minute load after it is at most
                   1 + LOAD_MARGIN, a check that mostly saw the minute before its few seconds
"""
import statistics

from . import stats

LOAD_MARGIN = 0.5
OTHERS_LIMIT = 0.5


def largest_threads(run):
    return max([r["threads"] or 1 for r in run.rows] or [1])


def load_before(run):
    """The 1-minute load before the first benchmark, or None."""
    recorded = run.manifest.get("load_before")
    if recorded:
        return float(recorded[0])
    for _, doc in run.files["bench"][:1]:
        load = doc.get("context", {}).get("load_avg")
        if load:
            return float(load[0])
    return None


def busy_rows(run):
    """Cases during which other processes kept more than OTHERS_LIMIT cores busy."""
    return [r for r in run.rows if r.get("others_cpu") is not None and r["others_cpu"] > OTHERS_LIMIT]


def loaded_rows(run):
    bound = largest_threads(run) + LOAD_MARGIN
    return [r for r in run.rows if r.get("load1_max") is not None and r["load1_max"] > bound]


def governor(run):
    return run.context("cpu_governor") or "not recorded"


def checks(run):
    """[(name, passed: True/False, what was seen)] for every check the files allow."""
    out = []
    before = load_before(run)
    if before is not None:
        out.append(("before the run", before <= LOAD_MARGIN, f"1-minute load {before:.2f} (at most {LOAD_MARGIN} expected)"))
    probed = [r for r in run.rows if r.get("load1_max") is not None]
    if probed:
        loaded, bound = loaded_rows(run), largest_threads(run) + LOAD_MARGIN
        top = max(r["load1_max"] for r in probed)
        out.append(("during the cases", not loaded,
                    f"largest 1-minute load {top:.2f} (bound {bound:g}); {len(loaded)} of {len(probed)} cases above it"))
    others = [r for r in run.rows if r.get("others_cpu") is not None]
    if others:
        busy = busy_rows(run)
        top = max(r["others_cpu"] for r in others)
        out.append(("other processes", not busy,
                    f"at most {top:.2f} cores busy with other processes during a case (limit {OTHERS_LIMIT}); "
                    f"{len(busy)} of {len(others)} cases above the limit"))
    if run.judges and run.judges.get("totals"):
        context = run.judges["context"]
        after = context.get("load_average_after")
        if context.get("probe_seconds"):
            busy = context["others_cpu_seconds"] / context["probe_seconds"]
            out.append(("judges", busy <= OTHERS_LIMIT,
                        f"{busy:.2f} cores busy with other processes while the judges ran (limit {OTHERS_LIMIT})"))
        elif after:
            out.append(("judges", after[0] <= 1 + LOAD_MARGIN,
                        f"1-minute load {after[0]:.2f} after the judges' runs (at most {1 + LOAD_MARGIN:g} expected)"))
    return out


def quiet(run):
    """True, False, or None when no check could be made."""
    made = checks(run)
    return None if not made else all(ok for _, ok, _ in made)


def spread(run):
    """(cases with a CV above stats.NOISY_CV, cases with a CV, their median CV or None)."""
    cvs = [r["cv"] for r in run.rows if r.get("cv") is not None]
    return sum(1 for cv in cvs if cv > stats.NOISY_CV), len(cvs), statistics.median(cvs) if cvs else None


def _load_figures(run):
    """The load figures the run's files hold, as short phrases."""
    out = []
    before = load_before(run)
    if before is not None:
        out.append(f"1-minute load {before:.2f} before the run")
    probed = [r["load1_max"] for r in run.rows if r.get("load1_max") is not None]
    if probed:
        out.append(f"at most {max(probed):.2f} during a case (bound {largest_threads(run) + LOAD_MARGIN:g})")
    others = [r["others_cpu"] for r in run.rows if r.get("others_cpu") is not None]
    if others:
        out.append(f"other processes kept at most {max(others):.2f} cores busy during a case "
                   f"(median {statistics.median(others):.2f}; limit {OTHERS_LIMIT})")
    return out


def claim(run):
    """What "quiet" rests on, in figures: the load checks' verdict with the loads seen, and the
    spread of the repetitions (the share of cases with a CV above the limit, the median CV)."""
    verdict = {True: "quiet by every check", False: "**not quiet**", None: "not recorded"}[quiet(run)]
    figures = _load_figures(run)
    text = f"Load: {verdict}" + (f": {'; '.join(figures)}" if figures else "") + "."
    noisy, measured, median_cv = spread(run)
    if measured:
        second = " after the second round" if any(r.get("rounds", 1) > 1 for r in run.rows) else ""
        text += (f" Spread: {noisy} of {measured} cases ({noisy / measured:.0%}) have a CV above {stats.NOISY_CV:.0%}"
                 f"{second}; median CV {median_cv:.1%}.")
    return text


def marks(run):
    """The warnings every page of the run's report opens with."""
    out = []
    if run.dirty:
        files = run.manifest.get("dirty_files") or []
        listed = f" ({len(files)} files: {', '.join(f'`{f}`' for f in files[:8])}{', ...' if len(files) > 8 else ''})" if files else ""
        out.append(f"> **Uncommitted changes.** This run measured commit `{run.commit}` with changes outside `results/`"
                   f"{listed} (`scripts/reproduce.sh --allow-dirty`, or a run from before that check): its figures "
                   "belong to no commit.")
    elif run.dirty is None:
        out.append("> **Commit state unknown.** The files of this run do not say whether the tree had uncommitted changes.")
    if quiet(run) is False:
        failed = "; ".join(f"{name}: {seen}" for name, ok, seen in checks(run) if not ok)
        out.append(f"> **Not quiet.** Other work shared the machine during this run ({failed}); "
                   "see [Run conditions](#run-conditions).")
    return out
