#!/usr/bin/python3
"""Whole-process runs of the large searches: wall time and peak resident memory.

usage: scripts/scale_runs.py BUILD_DIR OUT_JSON [--full | --mpi-only] [--runs N] [--threads 1,2,...]
                             [--git-revision REV] [--command TEXT] [--only REGEX] [--filter REGEX]

Google Benchmark measures the search itself; a user of `searchbench run` also pays for
start-up and page faults, and cares about the peak resident set (RSS) of the process,
which only the kernel knows (wait4's rusage). Each case runs N times (3 by default); the
JSON keeps every run and the median. Answers are checked: totals must be the known state
counts and radii, point-query paths must have the length of their distance.

Default: msquare-2x5 whole space with each thread count (default 1 and the powers of two
up to the core count), and out of core (engine external) 2x5 at --max-memory 1M and 2x6 at
64M with the largest. --full adds msquare-2x6 and checkers-25/27 whole spaces with the
largest thread count, msquare-2x7 out of core to depth 33 (once: about 10 minutes, 27 GB),
and point queries (bidir) on msquare-2x6 and checkers-25/27 to a random target and a far one
each. Out-of-core runs get a fresh work folder under $SEARCHBENCH_WORKDIR (default: the
system's temp folder), removed afterwards; their rows add bytes written and read, the work
folder's peak size and the segment count. With 2x6 out of core, the run also measures the
work folder's disk (1 GiB written with fdatasync, read back uncached) and projects the
msquare-2x7 out-of-core time (scripts/out_of_core_projection.py). --only REGEX keeps the
cases whose label matches. --filter REGEX (scripts/reproduce.sh --filter passes its own) keeps the cases
whose label or benchmark-style name matches: bfs/<engine>/<encoder>/<puzzle>/threads:<n>
(encoder "default" where the command names none) for a whole space, point/bidir/default/
<puzzle>/<target> for a point query, so a filter written for bench_search's names picks the
same searches here; the mpi comparison's names are bfs/mpi/cantor/msquare-2x6/ranks:2 and
bfs/parallel/cantor/msquare-2x6/threads:2. The JSON's context names the machine
(scripts/machine_info.py), the commit and the date.

--full also runs the mpi engine on msquare-2x6 under mpirun with 2 ranks of 1 thread,
alternating with the parallel engine's 2 threads (one run of each in turn, so load on a
shared machine falls on both alike); its row holds the ratio of the medians. Skipped with
a note when the build has no searchbench-mpi (no MPI found) or mpirun is missing. Peak RSS there is the
largest process's (a rank), as wait4 reports it for mpirun and the ranks it waited for.
--mpi-only runs that comparison alone.

Every run (not --mpi-only) also runs msquare-2x5 (largest thread count) 7 times in each of N
processes with no warm-up, and keeps the first run's time against the median of the other
six (cold against warm). It also times start-up: `searchbench --version` and the build's
bench/startup_yardstick (a minimal C++ program printing through iostream) in turn, 41 times
each (10 times --runs if more); the row keeps every wall time, the medians and their ratio.
"""
import argparse
import json
import os
import re
import shutil
import tempfile
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import out_of_core_projection  # noqa: E402
import process_runner  # noqa: E402
from machine_info import write_runs  # noqa: E402

# Published facts: states, radius.
KNOWN = {
    "msquare-2x5": (3_628_800, 27),
    "msquare-2x6": (479_001_600, 37),
    "checkers-25": (67_603_900, None),
    "checkers-27": (280_816_200, None),
}


def case_name(args):
    """The benchmark-style name of a `searchbench run` case, for --filter."""
    value = lambda flag, default: args[args.index(flag) + 1] if flag in args else default
    puzzle, engine, encoder = value("--puzzle", "?"), value("--engine", "?"), value("--encoder", "default")
    if "--target" in args:
        return f"point/{engine}/{encoder}/{puzzle}/{value('--target', '')}"
    return f"bfs/{engine}/{encoder}/{puzzle}/threads:{value('--threads', '1')}"


def engine_registry(exe):
    """searchbench's engines by name, from `searchbench list --json` ({} where it cannot say)."""
    done = process_runner.run([exe, "list", "--json"])
    try:
        return {e["name"]: e for e in json.loads(done.stdout)["engines"]} if done.status == 0 else {}
    except (ValueError, KeyError, TypeError):
        return {}


def takes_workdir(engines, args):
    """Whether the case's engine keeps a work folder on disk (its options name --workdir)."""
    engine = args[args.index("--engine") + 1] if "--engine" in args else None
    return "--workdir" in engines.get(engine, {}).get("options", [])


def measure(exe, label, args, runs, engines):
    walls, rss, doc = [], [], None
    for _ in range(runs):
        workdir = None
        cmd = [exe] + args + ["--json", "--quiet"]
        if takes_workdir(engines, args):
            workdir = tempfile.mkdtemp(prefix="searchbench-scale-", dir=os.environ.get("SEARCHBENCH_WORKDIR"))
            cmd += ["--workdir", workdir]
        done = process_runner.run(cmd)  # wait4: this child's own rusage
        walls.append(done.wall_seconds)
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        if done.wait_status != 0:
            sys.exit(f"failed (status {done.wait_status}): {' '.join(cmd)}\n{done.stderr.decode()}")
        rss.append(done.peak_rss_bytes)
        doc = json.loads(done.stdout)
    check(label, doc)
    # Out of core: its traffic and layout, and the last run's per-depth counts and finishing
    # times (scripts/out_of_core_projection.py fits its per-pass costs to them).
    extra = {key: doc[key] for key in ("bytes_written", "bytes_read", "peak_disk_bytes", "segments", "segment_keys", "peak_bytes",
                                       "generated", "depth_counts", "depth_seconds")
             if "bytes_written" in doc}
    row = {
        "label": label,
        "name": case_name(args),
        "command": "searchbench " + " ".join(args),
        "wall_seconds": walls,
        "median_wall_seconds": statistics.median(walls),
        "peak_rss_bytes": rss,
        "median_peak_rss_bytes": statistics.median(rss),
        "search_seconds": doc["seconds"],
        "states": doc.get("states"),
        "radius": doc.get("radius"),
        **extra,
    }
    if "distance" in doc:
        row.update(distance=doc["distance"], path=doc["path"])
    print(f"{label:55s} {row['median_wall_seconds']:8.2f} s  {row['median_peak_rss_bytes'] / 2**20:8.1f} MiB", flush=True)
    return row


def check(label, doc):
    if "distance" in doc:
        if doc["distance"] < 0 or len(doc["path"]) != doc["distance"]:
            sys.exit(f"{label}: bad answer {doc['distance']} {doc['path']}")
        return
    states, radius = KNOWN.get(doc["puzzle"], (None, None))
    if states is not None and doc["states"] != states:
        sys.exit(f"{label}: {doc['states']} states, expected {states}")
    if radius is not None and doc["radius"] != radius:
        sys.exit(f"{label}: radius {doc['radius']}, expected {radius}")


def run_once(cmd, env=None):
    """One whole-process run: (wall seconds, peak RSS bytes, parsed JSON, CPU seconds)."""
    done = process_runner.run_or_exit(cmd, env=env)
    return done.wall_seconds, done.peak_rss_bytes, json.loads(done.stdout), done.cpu_seconds


def measure_mpi_against_parallel(exe, runs, puzzle="msquare-2x6", ranks=2, keep=lambda label, name: True):
    """The mpi engine under mpirun (ranks x 1 thread) and parallel with `ranks` threads, in turn."""
    mpirun = shutil.which("mpirun")
    mpi_exe = os.path.join(os.path.dirname(exe), "searchbench-mpi")  # built when CMake finds MPI
    if not mpirun or not os.access(mpi_exe, os.X_OK):
        print("mpi engine: skipped (no searchbench-mpi in the build: built without MPI; or no mpirun)", flush=True)
        return []
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    # A rank waiting in a collective yields its core instead of spinning on it, as idle
    # TBB workers do: on a machine shared with other work the spin takes time from the
    # rank being waited for.
    env.setdefault("OMPI_MCA_mpi_yield_when_idle", "1")
    common = ["run", "--puzzle", puzzle, "--encoder", "cantor", "--json", "--quiet"]
    parallel_args = common + ["--engine", "parallel", "--threads", str(ranks)]
    mpi_args = common + ["--engine", "mpi", "--threads", "1"]
    cases = [
        (f"{puzzle} whole space, parallel, {ranks} threads (alternating with mpi)", [exe] + parallel_args,
         "searchbench " + " ".join(a for a in parallel_args if a not in ("--json", "--quiet"))),
        (f"{puzzle} whole space, mpi, {ranks} ranks x 1 thread", [mpirun, "-np", str(ranks), mpi_exe] + mpi_args,
         f"mpirun -np {ranks} searchbench-mpi " + " ".join(a for a in mpi_args if a not in ("--json", "--quiet"))),
    ]
    names = [f"bfs/parallel/cantor/{puzzle}/threads:{ranks}", f"bfs/mpi/cantor/{puzzle}/ranks:{ranks}"]
    if not any(keep(label, name) for (label, _, _), name in zip(cases, names)):
        return []
    samples = {label: [] for label, _, _ in cases}
    for _ in range(runs):
        for label, cmd, _ in cases:
            samples[label].append(run_once(cmd, env))
    rows = []
    for (label, _, command), name in zip(cases, names):
        walls = [w for w, _, _, _ in samples[label]]
        rss = [r for _, r, _, _ in samples[label]]
        cpu = [c for _, _, _, c in samples[label]]
        doc = samples[label][-1][2]
        check(label, doc)
        row = {
            "label": label,
            "name": name,
            "command": command,
            "wall_seconds": walls,
            "median_wall_seconds": statistics.median(walls),
            "peak_rss_bytes": rss,
            "median_peak_rss_bytes": statistics.median(rss),
            "search_seconds": doc["seconds"],
            "search_seconds_all": [d["seconds"] for _, _, d, _ in samples[label]],
            # user + system time of every process: what the run cost in cores, whatever the
            # load from others on the machine
            "cpu_seconds": cpu,
            "median_cpu_seconds": statistics.median(cpu),
            "states": doc.get("states"),
            "radius": doc.get("radius"),
        }
        if "ranks" in doc:
            row.update(ranks=doc["ranks"], bytes_exchanged=doc["bytes_exchanged"])
        rows.append(row)
    rows[1]["wall_ratio_to_parallel"] = rows[1]["median_wall_seconds"] / rows[0]["median_wall_seconds"]
    for row in rows:
        print(f"{row['label']:55s} {row['median_wall_seconds']:8.2f} s  {row['median_peak_rss_bytes'] / 2**20:8.1f} MiB", flush=True)
    rows[1]["cpu_ratio_to_parallel"] = rows[1]["median_cpu_seconds"] / rows[0]["median_cpu_seconds"]
    print(f"mpi / parallel, median wall time: {rows[1]['wall_ratio_to_parallel']:.2f}, "
          f"median CPU time: {rows[1]['cpu_ratio_to_parallel']:.2f}", flush=True)
    return rows


def measure_startup(build, runs):
    """`searchbench --version` and the minimal C++ program, started in turn: median wall times."""
    exe, yardstick = os.path.join(build, "searchbench"), os.path.join(build, "bench", "startup_yardstick")
    if not os.access(yardstick, os.X_OK):
        print("start-up: skipped (no bench/startup_yardstick in the build: benchmarks not built)", flush=True)
        return []
    walls = {exe: [], yardstick: []}
    for _ in range(runs):
        for cmd in (exe, yardstick):
            done = process_runner.run_or_exit([cmd] + (["--version"] if cmd == exe else []))
            walls[cmd].append(done.wall_seconds)
    ours, minimal = statistics.median(walls[exe]), statistics.median(walls[yardstick])
    row = {
        "label": "start-up, searchbench --version",
        "name": "startup/searchbench/--version",
        "command": "searchbench --version",
        "startup": True,
        "wall_seconds": walls[exe],
        "median_wall_seconds": ours,
        "yardstick_command": "bench/startup_yardstick (prints one line through iostream)",
        "yardstick_wall_seconds": walls[yardstick],
        "yardstick_median_wall_seconds": minimal,
        "ratio_to_yardstick": ours / minimal,
    }
    print(f"{row['label']:55s} {ours * 1e3:8.2f} ms  (minimal C++ program {minimal * 1e3:.2f} ms: {ours / minimal:.2f}x)",
          flush=True)
    return [row]


def measure_cold_warm(exe, runs, threads, repetitions=7):
    """msquare-2x5 whole space, each process running it `repetitions` times with no warm-up:
    the first (cold: arena and threads started, pages first touched) against the median of
    the rest (warm), per process; the row keeps both and the median of the per-process ratios."""
    args = ["run", "--puzzle", "msquare-2x5", "--engine", "parallel", "--encoder", "cantor", "--threads", str(threads),
            "--repetitions", str(repetitions), "--warmup", "0"]
    cold, warm, ratios = [], [], []
    for _ in range(runs):
        doc = run_once([exe] + args + ["--json", "--quiet"])[2]
        check("cold and warm", doc)
        first, rest = doc["seconds_all"][0], statistics.median(doc["seconds_all"][1:])
        cold.append(first)
        warm.append(rest)
        ratios.append(first / rest)
    row = {
        "label": f"msquare-2x5 first run against warm repetitions, {threads} thread{'s' if threads > 1 else ''}",
        "name": f"cold/parallel/cantor/msquare-2x5/threads:{threads}",
        "command": "searchbench " + " ".join(args),
        "cold_warm": True,
        "cold_seconds": cold,
        "warm_seconds": warm,
        "cold_to_warm": ratios,
        "median_cold_to_warm": statistics.median(ratios),
    }
    print(f"{row['label']:55s} {statistics.median(cold):8.3f} s cold, {statistics.median(warm):.3f} s warm: "
          f"{row['median_cold_to_warm']:.2f}x", flush=True)
    return [row]


def thread_list(text):
    try:
        out = [int(t) for t in text.split(",")]
    except ValueError:
        out = []
    if not out or min(out) < 1:
        raise argparse.ArgumentTypeError(f"needs a list of positive thread counts like 1,2,4, got '{text}'")
    return out


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip().removeprefix("usage: "))
    parser.add_argument("build")
    parser.add_argument("out_json")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--mpi-only", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=thread_list)
    parser.add_argument("--git-revision", default="unknown")
    parser.add_argument("--command", default=None)
    parser.add_argument("--only", default=None)
    parser.add_argument("--filter", default=None)
    opts = parser.parse_args()
    runs = opts.runs
    threads = opts.threads or [1] + [t for t in (2 ** k for k in range(1, 11)) if t <= len(os.sched_getaffinity(0))]
    exe = os.path.join(opts.build, "searchbench")
    whole = lambda p, enc, t: ["run", "--puzzle", p, "--engine", "parallel", "--encoder", enc, "--threads", str(t)]
    most = max(threads)
    most_label = f"{most} thread{'s' if most > 1 else ''}"
    external = lambda p, t, memory: ["run", "--puzzle", p, "--engine", "external", "--threads", str(t), "--max-memory", memory]
    cases = [(f"msquare-2x5 whole space, {t} thread(s)", whole("msquare-2x5", "cantor", t)) for t in threads]
    cases.append((f"msquare-2x5 out of core, {most_label}, --max-memory 1M", external("msquare-2x5", most, "1M")))
    # 2x6 out of core: 479M states through several segments on disk.
    cases.append((f"msquare-2x6 out of core, {most_label}, --max-memory 64M", external("msquare-2x6", most, "64M")))
    if opts.full:
        cases += [
            (f"msquare-2x6 whole space, {most_label}", whole("msquare-2x6", "cantor", most)),
            (f"checkers-25 whole space, {most_label}", whole("checkers-25", "combinatorial", most)),
            (f"checkers-27 whole space, {most_label}", whole("checkers-27", "combinatorial", most)),
        ]
        # Point queries (bidir, the default perfect encoder): a random state (fixed seed) and
        # a far one. The reversed checkers lines lie near the radius: bidir then covers most
        # of the space from both ends.
        for target, note in (("6 3 10 1 4 7 / 12 9 11 8 2 5", "a random board"),
                             ("7 8 9 10 11 12 / 1 2 3 4 5 6", "rows swapped and reversed")):
            cases.append((f"msquare-2x6 point query, bidir, {note}",
                          ["run", "--puzzle", "msquare-2x6", "--engine", "bidir", "--target", target]))
        for n, random_line in ((25, "@#@###@###@@@@@@&@##@###@"), (27, "@@####@#@@@######@@#@@@@&@#")):
            k = (n - 1) // 2
            for target, note in ((random_line, "a random line"), ("@" * k + "&" + "#" * k, "the line reversed")):
                cases.append((f"checkers-{n} point query, bidir, {note}",
                              ["run", "--puzzle", f"checkers-{n}", "--engine", "bidir", "--target", target]))
    # --full: msquare-2x7's first passes (to depth 33 of 48), run once (the projection fits
    # its per-pass costs on them).
    once = [(f"{out_of_core_projection.PROBE_LABEL}, {most_label}, --max-memory 8G --max-depth 33",
             external("msquare-2x7", most, "8G") + ["--max-depth", "33"])] if opts.full else []
    keep = lambda label, name: not opts.filter or bool(re.search(opts.filter, label) or re.search(opts.filter, name))
    chosen = lambda pairs: [] if opts.mpi_only else [(label, a) for label, a in pairs
                                                     if (not opts.only or re.search(opts.only, label)) and keep(label, case_name(a))]
    engines = engine_registry(exe)
    rows = [measure(exe, label, a, runs, engines) for label, a in chosen(cases)]
    rows += [measure(exe, label, a, 1, engines) for label, a in chosen(once)]
    if not opts.mpi_only and keep(f"msquare-2x5 first run against warm repetitions, {most_label}",
                                  f"cold/parallel/cantor/msquare-2x5/threads:{most}"):
        rows += measure_cold_warm(exe, runs, most)
    if not opts.mpi_only and keep("start-up, searchbench --version", "startup/searchbench/--version"):
        rows += measure_startup(opts.build, max(41, 10 * runs))
    # The disk's rates, and with them the 2x7 projection, whenever 2x6 out of core ran.
    if any(r["label"].startswith(out_of_core_projection.SMALL_LABEL) for r in rows):
        rows += out_of_core_projection.measure_disk(runs)
        rows += out_of_core_projection.projection_row(rows)
    if opts.full or opts.mpi_only:
        rows += measure_mpi_against_parallel(exe, runs, keep=keep)
    write_runs(opts.out_json, rows, runs=runs, git_revision=opts.git_revision, filter=opts.filter,
               command=opts.command or "scripts/scale_runs.py " + " ".join(sys.argv[3:]))


if __name__ == "__main__":
    main()
