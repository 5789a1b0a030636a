#!/usr/bin/python3
"""Whole-process runs of the large searches: wall time and peak resident memory.

usage: scripts/scale_runs.py BUILD_DIR OUT_JSON [--full] [--runs N] [--only REGEX]

Google Benchmark measures the search itself; a user of `searchbench run` also pays for
start-up and page faults, and cares about the peak resident set (RSS) of the process,
which only the kernel knows (wait4's rusage). Each case runs N times (3 by default); the
JSON keeps every run and the median. Answers are checked: totals must be the known state
counts and radii, point-query paths must have the length of their distance.

Default: msquare-2x5 whole space with 1 and 2 threads, and out of core (engine external,
--max-memory 1M). --full adds msquare-2x6 and checkers-25/27 whole spaces with 2 threads,
2x6 out of core with --max-memory 64M, and point queries (bidir) on msquare-2x6 and
checkers-25/27 to a random target and a far one each. --only keeps the cases whose label
match the regular expression TEXT. Out-of-core runs get a fresh work folder under $SEARCHBENCH_WORKDIR (default:
the system's temp folder), removed afterwards; their rows add bytes written and read, the
work folder's peak size and the segment count.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Published facts: states, radius.
KNOWN = {
    "msquare-2x5": (3_628_800, 27),
    "msquare-2x6": (479_001_600, 37),
    "checkers-25": (67_603_900, None),
    "checkers-27": (280_816_200, None),
}


def measure(exe, label, args, runs):
    walls, rss, doc = [], [], None
    for _ in range(runs):
        workdir = None
        cmd = [exe] + args + ["--json", "--quiet"]
        if "external" in args:
            workdir = tempfile.mkdtemp(prefix="searchbench-scale-", dir=os.environ.get("SEARCHBENCH_WORKDIR"))
            cmd += ["--workdir", workdir]
        # Popen + wait4 gives this child's own rusage (ru_maxrss in KiB on Linux).
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = proc.stdout.read()
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)
        if status != 0:
            sys.exit(f"failed (status {status}): {' '.join(cmd)}\n{err.decode()}")
        rss.append(usage.ru_maxrss * 1024)
        doc = json.loads(out)
    check(label, doc)
    row = {
        "label": label,
        "command": "searchbench " + " ".join(args),
        "wall_seconds": walls,
        "median_wall_seconds": statistics.median(walls),
        "peak_rss_bytes": rss,
        "median_peak_rss_bytes": statistics.median(rss),
        "search_seconds": doc["seconds"],
        "states": doc.get("states"),
        "radius": doc.get("radius"),
    }
    if "distance" in doc:
        row.update(distance=doc["distance"], path=doc["path"])
    for key in ("bytes_written", "bytes_read", "peak_disk_bytes", "segments", "peak_bytes"):
        if "bytes_written" in doc:
            row[key] = doc[key]
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


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    build, out_json = args[0], args[1]
    full = "--full" in args
    runs = int(args[args.index("--runs") + 1]) if "--runs" in args else 3
    exe = os.path.join(build, "searchbench")
    whole = lambda p, enc, t: ["run", "--puzzle", p, "--engine", "parallel", "--encoder", enc, "--threads", str(t)]
    external = lambda p, t, memory: ["run", "--puzzle", p, "--engine", "external", "--threads", str(t), "--max-memory", memory]
    cases = [(f"msquare-2x5 whole space, {t} thread(s)", whole("msquare-2x5", "cantor", t)) for t in (1, 2)]
    cases.append(("msquare-2x5 out of core, 2 threads, --max-memory 1M", external("msquare-2x5", 2, "1M")))
    if full:
        cases += [
            ("msquare-2x6 whole space, 2 threads", whole("msquare-2x6", "cantor", 2)),
            ("msquare-2x6 out of core, 2 threads, --max-memory 64M", external("msquare-2x6", 2, "64M")),
            ("checkers-25 whole space, 2 threads", whole("checkers-25", "combinatorial", 2)),
            ("checkers-27 whole space, 2 threads", whole("checkers-27", "combinatorial", 2)),
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
    if "--only" in args:
        cases = [(label, a) for label, a in cases if re.search(args[args.index("--only") + 1], label)]
    rows = [measure(exe, label, a, runs) for label, a in cases]
    context = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cpu_model": next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?"),
        "cores": os.cpu_count(),
        "load_average_at_end": os.getloadavg()[0],  # other work on the machine makes wall times noisy
        "runs": runs,
        "command": "scripts/scale_runs.py " + " ".join(args[2:]),
    }
    with open(out_json, "w") as f:
        json.dump({"context": context, "runs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
