"""One run folder's files -> a Run: its benchmark rows, whole-process runs and judges.

A run folder (results/runs/<UTC date-time>-<commit>-<host>/) holds the raw files of one
invocation of scripts/reproduce.sh: bench*.json (Google Benchmark's JSON; a second round
of repetitions is a second file, pooled with the first per benchmark; kept gzip-compressed
as bench*.json.gz, which reads the same: reporting/raw.py), scale*.json
(scripts/scale_runs.py), judges*.json (scripts/judge_speed.py), peers*.json (scripts/peer_runs.py,
with --peers), run.json (what
reproduce.sh recorded about the run: command, commit, dirty files, load, completion) and
registry.json (`searchbench list --json`: the engines and families, reporting/registry.py).
Folders made from files written before run folders existed have no run.json; their facts
come from the raw files' contexts. Nothing here reads another folder, and a folder whose
files name different machines or commits is refused, as is one whose files are damaged (not
JSON, not the shape their writer gives them, a time that is no positive number): with one
line naming the file.
"""
import glob
import math
import os
import sys
import re
import statistics
from collections import defaultdict

from . import raw, registry, stats
from .raw import read_json  # noqa: F401  (rounds.py and longruns.py read through here)

FIELDS = ("kind", "engine", "encoder", "puzzle", "param")  # bench/benchmark_id.hpp
TO_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
OLD_RATES = ("states_per_second", "queries_per_second", "per_second")  # before items_per_second
COUNTERS = ("states", "peak_bytes", "key_space", "radius", "distance", "queries", "instances", "generated_per_second",
            "instance_seconds_median", "instance_seconds_max", "heuristic_build_seconds", "heuristic_bytes", "generated")


NAMED_INSTANCE = re.compile(r"^instance_[0-9]+_(seconds|generated)$")


class RunError(Exception):
    pass


def read_raw(path):
    """The JSON object of one of the run's raw files; RunError naming it when it is damaged."""
    if os.path.islink(path) or not os.path.isfile(path):
        raise RunError(f"{path}: not a plain file")
    try:
        doc = read_json(path)
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as e:  # gzip's errors are OSError and EOFError
        raise RunError(f"{path}: damaged ({e})")
    if not isinstance(doc, dict):
        raise RunError(f"{path}: damaged (not a JSON object)")
    return doc


def _positive(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) and x > 0


def check_bench(path, doc):
    """Google Benchmark's JSON as bench_search writes it: named benchmarks whose repetitions
    have a positive time in a known unit."""
    benchmarks = doc.get("benchmarks", [])
    if not isinstance(benchmarks, list) or not isinstance(doc.get("context", {}), dict):
        raise RunError(f"{path}: damaged (no list of benchmarks, or no context object)")
    for b in benchmarks:
        if not isinstance(b, dict) or not isinstance(b.get("name"), str):
            raise RunError(f"{path}: damaged (a benchmark entry without a name)")
        if b.get("error_occurred"):
            continue
        if b.get("time_unit") not in TO_MS:
            raise RunError(f"{path}: damaged (benchmark {b['name']}: time unit {b.get('time_unit')!r})")
        if b.get("run_type", "iteration") == "iteration" and not _positive(b.get("real_time")):
            raise RunError(f"{path}: damaged (benchmark {b['name']}: real_time {b.get('real_time')!r} is no positive time)")


def items_per_iteration(entry):
    """The items (states, queries, keys) one iteration processed. Google Benchmark divides them
    by the CPU time unless the benchmark uses the real (or a manual) time, whose names end in
    /real_time or /manual_time; multiplied back by that same clock's time, they are exact."""
    rate = next((entry[k] for k in ("items_per_second",) + OLD_RATES if k in entry), None)
    name = entry.get("run_name", entry.get("name", ""))
    clock = entry.get("real_time") if name.endswith(("/real_time", "/manual_time")) else entry.get("cpu_time")
    if not _positive(rate) or not _positive(clock):
        return None
    return rate * clock * TO_MS[entry["time_unit"]] / 1e3


def wall_rate(items, median_ms):
    """Items per second of wall time: the items of one iteration over the median wall time of
    one, so that a rate and the time beside it come from the same clock."""
    if items is None or not median_ms:
        return None
    return items / (median_ms / 1e3)


def fields(entry):
    """The benchmark's fields from its label ("kind=bfs engine=ring ..."); runs recorded before
    the labels carry them only in the name, with judges then named judge/<judge>/<engine>/<encoder>/<input>."""
    label = dict(item.split("=", 1) for item in entry.get("label", "").split() if "=" in item)
    if all(k in label for k in FIELDS):
        return {k: label[k] for k in FIELDS}
    parts = entry.get("run_name", entry["name"]).split("/")
    if parts[-1] == "real_time":
        parts.pop()
    if len(parts) != len(FIELDS):
        return {"kind": "other", "engine": "", "encoder": "", "puzzle": "", "param": ""}
    row = dict(zip(FIELDS, parts))
    if row["kind"] == "judge":
        row["puzzle"], row["engine"], row["encoder"] = row["engine"], row["encoder"], row["puzzle"]
    return row


def family(puzzle):
    """The puzzle name without its size: msquare-2x4 -> msquare, checkers-19 -> checkers."""
    return re.sub(r"-[0-9]+(x[0-9]+)*$", "", puzzle)


def _load_counters(reps):
    """The load counters of bench_search's repetitions: every load1 sample, and the cores
    other processes kept busy (their CPU seconds over the probed seconds, all repetitions)."""
    samples = [e[k] for e in reps for k in ("load1_before", "load1_after") if e.get(k, -1) >= 0]
    out = {"load1_max": max(samples) if samples else None, "others_cpu": None}
    probed = sum(e.get("probe_seconds", 0) for e in reps if "others_cpu_seconds" in e)
    if probed > 0:
        out["others_cpu"] = sum(e["others_cpu_seconds"] for e in reps if "others_cpu_seconds" in e) / probed
    return out


def _row(run_name, entries):
    """One benchmark's row from its entries in every bench file of the run."""
    reps = [e for _, e in entries if e.get("run_type", "iteration") == "iteration"]
    aggregates = {e.get("aggregate_name"): e for _, e in entries if e.get("run_type") == "aggregate"}
    main = reps[0] if reps else aggregates.get("median")
    if main is None:
        return None
    row = fields(main)
    # "threads:2", or a heuristic set's "korf100:threads:2"
    threads = re.search(r"(?:^|:)threads:([0-9]+)$", row["param"])
    row.update(name=run_name, threads=int(threads.group(1)) if threads else None)
    if reps:
        row["times"] = [e["real_time"] * TO_MS[e["time_unit"]] for e in reps]
        row.update(stats.summarize(row["times"]))
        row["rounds"] = len({i for i, e in entries if e.get("run_type", "iteration") == "iteration"})
        rates = sorted(e["items_per_second"] for e in reps if "items_per_second" in e)
        row["rate_library"] = statistics.median(rates) if rates else None
        items = [n for n in map(items_per_iteration, reps) if n is not None]
        row["items"] = statistics.median(items) if items else None
    else:  # files that kept only the aggregates: no repetitions, so no CI
        scale = TO_MS[main["time_unit"]]
        get = lambda name: aggregates[name]["real_time"] * scale if name in aggregates else None
        row.update(times=[], n=int(main.get("repetitions", 1)), median=get("median"), mean=get("mean"), sd=get("stddev"),
                   cv=aggregates["cv"]["real_time"] if "cv" in aggregates else None, ci_low=None, ci_high=None, rounds=1)
        row["rate_library"] = next((main[k] for k in ("items_per_second",) + OLD_RATES if k in main), None)
        row["items"] = items_per_iteration(main)
    row["rate"] = wall_rate(row["items"], row["median"])
    for key in COUNTERS:
        if key in main:
            row[key] = main[key]
    # Named instances' own figures (instance_<number>_seconds, _generated), from the first
    # repetition as the per-instance median and slowest are.
    row["instances_named"] = {key: value for key, value in main.items() if NAMED_INSTANCE.match(key)}
    row.update(_load_counters(reps))
    return row


def bench_rows(docs):
    """Rows of every benchmark in the run's bench files (repetitions pooled), and the errors."""
    grouped = defaultdict(list)
    for i, doc in enumerate(docs):
        for b in doc.get("benchmarks", []):
            grouped[b.get("run_name", b["name"])].append((i, b))
    rows, errors = [], []
    for run_name, entries in grouped.items():
        failed = next((e for _, e in entries if e.get("error_occurred")), None)
        if failed:
            errors.append((run_name, failed.get("error_message", "error")))
            continue
        row = _row(run_name, entries)
        if row:
            rows.append(row)
    return rows, errors


def _machine_key(context):
    cores = context.get("cores", context.get("num_cpus"))
    return (context.get("cpu_model"), str(cores) if cores is not None else None)


class Run:
    """One run folder, read whole."""

    def __init__(self, folder):
        self.folder = os.path.normpath(folder)
        self.id = os.path.basename(self.folder)
        manifest = os.path.join(self.folder, "run.json")
        self.manifest = read_raw(manifest) if os.path.lexists(manifest) else {}
        try:
            self.registry = registry.load(self.folder)
        except (OSError, UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError) as e:
            raise RunError(f"{os.path.join(self.folder, registry.FILE)}: damaged ({e})")
        self.files = {kind: [(os.path.basename(p), read_raw(p)) for p in raw.pick(self.folder, kind)]
                      for kind in ("bench", "scale", "judges", "peers")}
        for name, doc in self.files["bench"]:
            check_bench(os.path.join(self.folder, name), doc)
        for name, doc in self.files["scale"]:
            if not isinstance(doc.get("runs", []), list) or not all(isinstance(r, dict) for r in doc.get("runs", [])):
                raise RunError(f"{os.path.join(self.folder, name)}: damaged (runs is no list of objects)")
        try:
            self.rows, self.errors = bench_rows([doc for _, doc in self.files["bench"]])
        except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as e:
            raise RunError(f"{self.folder}: a bench file is damaged ({type(e).__name__}: {e})")
        self.scale = [dict(r, file=name) for name, doc in self.files["scale"] for r in doc.get("runs", [])]
        self.judges = self.files["judges"][-1][1] if self.files["judges"] else None
        self.peers = self.files["peers"][-1][1] if self.files["peers"] else None
        self._check_one_machine_and_commit()

    def contexts(self):
        return [(name, doc.get("context", {})) for kind in ("bench", "scale", "judges", "peers") for name, doc in self.files[kind]]

    def _check_one_machine_and_commit(self):
        machines = {_machine_key(c) for _, c in self.contexts() if c.get("cpu_model")}
        if self.manifest.get("machine_info"):
            machines.add(_machine_key(self.manifest["machine_info"]))
        if len(machines) > 1:
            raise RunError(f"{self.folder}: its files come from different machines {sorted(machines, key=str)}; "
                           "one run folder holds one run")
        commits = {c["git_revision"] for _, c in self.contexts() if c.get("git_revision")}
        if len(commits) > 1:
            raise RunError(f"{self.folder}: its files come from different commits {sorted(commits)}")

    def context(self, key, default=None):
        """A fact about the run: run.json first, then the first raw file whose context has it."""
        if key in self.manifest:
            return self.manifest[key]
        return next((c[key] for _, c in self.contexts() if key in c), default)

    @property
    def commit(self):
        revision = self.context("git_revision")
        if revision:
            return str(revision)
        stamp = re.match(r"^\d{8}T?\d{6}Z?-([0-9a-f]{7,})", self.id)
        return stamp.group(1) if stamp else "?"

    @property
    def dirty(self):
        """True (changes outside results/), False, or None where the files do not say."""
        if "dirty" in self.manifest:
            return bool(self.manifest["dirty"])
        revision = self.context("git_revision")
        return None if not revision else revision.endswith("+dirty")

    @property
    def started(self):
        """When the run began (UTC): run.json, the benchmarks' context, or the folder's name
        (the whole-process and judges files date their end, not their start)."""
        if self.manifest.get("started_utc"):
            return str(self.manifest["started_utc"])
        for _, doc in self.files["bench"][:1]:
            context = doc.get("context", {})
            if context.get("run_date_utc") or context.get("date"):
                return str(context.get("run_date_utc") or context["date"])
        stamp = re.match(r"^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z", self.id)
        if stamp:
            return "{}-{}-{}T{}:{}:{}Z".format(*stamp.groups())
        return str(self.context("date", "?"))

    @property
    def machine(self):
        m = self.context("machine")
        if m:
            return m
        info = next((c for _, c in self.contexts() if c.get("cpu_model")), {})
        return f"{info.get('cpu_model', '?')}; {info.get('cores', info.get('num_cpus', '?'))} cores"

    @property
    def command(self):
        return self.context("command", "?")

    @property
    def filtered(self):
        return bool(self.manifest.get("filter") or self.context("benchmark_filter")
                    or "--filter" in str(self.command) or "--only" in str(self.command) or "--mpi-only" in str(self.command))

    @property
    def complete(self):
        if "complete" in self.manifest:
            return bool(self.manifest["complete"])
        return bool(self.rows) and bool(self.files["scale"])  # older runs: the benchmarks and the whole-process runs

    def kind(self):
        if not self.files["bench"]:
            return "whole-process only"
        if not self.complete:
            return "incomplete"
        if self.filtered:
            return "filtered"
        return "full" if "--full" in str(self.command) else "default"

    def featured(self):
        """Whether this run may be results/README.md: complete, not filtered, with benchmarks."""
        return self.kind() in ("default", "full")

    def order(self):
        return (self.started, self.id)

    def debug_library(self):
        return self.context("library_build_type") == "debug"


RECORDS = ("run.json", "bench", "scale", "judges", "peers")


def runs(runs_dir):
    """Every run folder under runs_dir, oldest first. Folders still being written are skipped,
    and so, each with a line on stderr, are folders with no run record (no run.json and no raw
    file: not a run) and damaged ones: one bad old folder does not stop the index."""
    found = []
    for p in sorted(glob.glob(os.path.join(runs_dir, "*"))):
        if not os.path.isdir(p) or os.path.islink(p) or p.endswith(".partial"):
            continue
        if not os.path.lexists(os.path.join(p, RECORDS[0])) and not any(raw.pick(p, kind) for kind in RECORDS[1:]):
            print(f"report.py: skipping {p}: no run record in it (run.json or a raw file)", file=sys.stderr)
            continue
        try:
            found.append(Run(p))
        except RunError as e:
            print(f"report.py: skipping a damaged run folder: {e}", file=sys.stderr)
    return sorted(found, key=Run.order)
