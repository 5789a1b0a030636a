"""results/long-runs.md: the long out-of-core runs of scripts/long_run.py (results/long/*.json).

Each puzzle's finished run gets its section: every process (a run resumed after each stop
is several), the states of each depth with the seconds it took, and the point-query checks.
A run still in progress gets the same section, marked so. A stopped attempt is one line:
its file keeps everything it recorded.
"""
import glob
import os
import re

from . import fmt
from .load import read_json


# A quoted absolute path in a recorded error line (the machine's work folder): shown as DIR,
# since the page names no folder of the machine that ran it.
QUOTED_PATH = re.compile(r"'/[^']*'")


def process_status(record):
    """How one long-run process ended: a signal says so (its last stderr line was only progress)."""
    status = record.get("status", "?")
    if record.get("exit_status", 0) < 0:
        return f"{status}: by signal {-record['exit_status']}"
    error = QUOTED_PATH.sub("'DIR'", record.get("error") or "")
    return status + (f": {error}" if error else "")


def state(doc):
    counts, known = doc.get("depth_counts", []), doc.get("known_states")
    done = sum(counts)
    if doc.get("finished"):
        text = f"finished: {done:,} states, radius {len(counts) - 1}"
        if known:
            text += " = " + ("the size of the space" if done == known else f"NOT the size of the space ({known:,})")
        return text
    running = (doc.get("invocations") or [{}])[-1].get("status") == "running"
    return (f"{'in progress' if running else 'stopped'}: {len(counts)} depths done, {done:,} states so far"
            + (f" ({done / known:.2%} of {known:,})" if known else ""))


def kind(doc):
    return "in memory" if doc.get("engine") == "parallel" else "out of core"


def depth_seconds(doc):
    """Seconds each depth took, from the progress lines a process printed (its own clock);
    the first depth a process reports also holds its start-up (or a seeded start)."""
    took = {}
    for r in doc.get("invocations", []):
        before = 0.0
        for depth, _, elapsed in r.get("progress", []):
            took[depth] = elapsed - before
            before = elapsed
    return took


def processes_table(w, doc, slug):
    rows = [[r.get("start", "?")[:16].replace("T", " "), r.get("git_revision", "?"), r.get("from_depth", "?"), r.get("to_depth", "?"),
             f"{r.get('wall_seconds', 0):,.0f}", f"{r['cpu_seconds']:,.0f}" if "cpu_seconds" in r else "-",
             fmt.nbytes(r.get("peak_rss_bytes", 0)), fmt.nbytes(r["bytes_written"]) if "bytes_written" in r else "-",
             process_status(r)] for r in doc.get("invocations", [])]
    w.table(f"{slug}-processes", ["started (UTC)", "commit", "from depth", "to depth", "wall s", "CPU s", "peak RSS",
                                  "bytes written", "status"], "llrrrrrrl", rows)


def depths_table(w, doc, slug):
    took, cumulative, rows = depth_seconds(doc), 0, []
    for depth, count in enumerate(doc.get("depth_counts", [])):
        cumulative += count
        rows.append([depth, f"{count:,}", f"{cumulative:,}", f"{took[depth]:,.1f}" if depth in took else "-"])
    w.table(f"{slug}-depths", ["depth", "states", "cumulative", "seconds"], "rrrr", rows)


def checks_table(w, doc, slug):
    checks = doc.get("sample_checks", [])
    if not checks:
        return
    agree = sum(1 for c in checks if c.get("agrees"))
    when = doc.get("sample_checks_context", {})
    kept = (f"; {when['rows_from_earlier_checks']} of the rows are kept from an earlier check"
            if when.get("rows_from_earlier_checks") else "")
    at = (f" (`scripts/long_run.py --check-samples` at {when['git_revision']}, {fmt.utc(when['date'])} UTC{kept})" if when else "")
    w(f"Point queries: {agree} of {len(checks)} states the run found at a depth were found by `--engine bidir` at "
      f"that same distance{at}.")
    w()
    w.table(f"{slug}-checks", ["depth", "state", "bidir distance", "seconds"], "lllr",
            [[c["depth"], f"`{c['state']}`", c.get("bidir_distance") if c.get("bidir_distance") is not None else c.get("error", "-"),
              c["seconds"]] for c in checks])


def section(w, name, doc):
    context = doc.get("context", {})
    how = ("`searchbench run --engine parallel --encoder cantor`: two bits per state in memory, no checkpoint"
           if doc.get("engine") == "parallel" else
           "`searchbench run --engine external` with its work folder on disk, resumed from its checkpoint after every stop")
    w.heading(f"{doc['puzzle']} {kind(doc)} ({state(doc)})",
              f"`scripts/long_run.py`: {how}; raw file [{name}]({w.link(name)}) on {context.get('machine', '?')}. "
              "Each row of the first table is one process." + (f" {doc['note']}" if doc.get("note") else ""))
    slug = os.path.splitext(name)[0]
    processes_table(w, doc, slug)
    totals = [f"work folder peak {fmt.nbytes(doc['peak_disk_bytes'])}" if "peak_disk_bytes" in doc else "",
              f"{fmt.nbytes(doc['bytes_written'])} written and {fmt.nbytes(doc['bytes_read'])} read in all" if "bytes_written" in doc else "",
              f"{doc['segments']} segments of {doc['segment_keys']:,} keys" if "segments" in doc else ""]
    if any(totals):
        w("; ".join(t for t in totals if t) + ".")
        w()
    depths_table(w, doc, slug)
    checks_table(w, doc, slug)


def write(results_dir):
    """results_dir/long-runs.md from results_dir/long/*.json; False when there are none."""
    docs = [(os.path.basename(p), read_json(p)) for p in sorted(glob.glob(os.path.join(results_dir, "long", "*.json")))]
    if not docs:
        return False
    w = fmt.Writer(base="long/")  # the page's links into long/: raw files and tables/
    w("# searchbench long runs")
    w()
    w("Generated by `scripts/report.py index` from `long/*.json`, which `scripts/long_run.py` writes as each depth lands. "
      "Each puzzle's finished run (or a run still in progress) has its section; stopped attempts are listed below, each "
      "file keeping everything it recorded.")
    w()
    stopped = []
    for name, doc in docs:
        if doc.get("finished") or state(doc).startswith("in progress"):
            section(w, name, doc)
        else:
            stopped.append((name, doc))
    if stopped:
        w.heading("Stopped attempts")
        for name, doc in stopped:
            context = doc.get("context", {})
            w(f"- [{name}]({w.link(name)}): {doc['puzzle']} {kind(doc)}, {state(doc)}; last process at commit "
              f"{context.get('git_revision', '?')}, {fmt.utc(context.get('date'))} UTC." + (f" {doc['note']}" if doc.get("note") else ""))
        w()
    with fmt.open_own(os.path.join(results_dir, "long-runs.md")) as f:
        f.write("\n".join(w.lines).rstrip("\n") + "\n")
    fmt.write_tables(os.path.join(results_dir, "long"), w.tables)
    return True
