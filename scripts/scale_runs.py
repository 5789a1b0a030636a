#!/usr/bin/python3
"""Whole-process runs of the large searches: wall time and peak resident memory.

usage: scripts/scale_runs.py BUILD_DIR OUT_JSON [--full] [--runs N] [--threads 1,2,...]
                             [--git-revision REV] [--command TEXT]

Google Benchmark measures the search itself; a user of `searchbench run` also pays for
start-up and page faults, and cares about the peak resident set (RSS) of the process,
which only the kernel knows (wait4's rusage). Each case runs N times (3 by default); the
JSON keeps every run and the median. Answers are checked: totals must be the known state
counts and radii, point-query paths must have the length of their distance.

Default: msquare-2x5 whole space with each thread count (default 1 and the powers of two
up to the core count). --full adds msquare-2x6 and checkers-25/27 whole spaces with the
largest thread count, and point queries (bidir) on msquare-2x6 and checkers-25/27 to a
random target and a far one each. The JSON's context names the machine
(scripts/machine_info.py), the commit and the date.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine_info import describe  # noqa: E402

# Published facts: states, radius.
KNOWN = {
    "msquare-2x5": (3_628_800, 27),
    "msquare-2x6": (479_001_600, 37),
    "checkers-25": (67_603_900, None),
    "checkers-27": (280_816_200, None),
}


def measure(exe, label, args, runs):
    cmd = [exe] + args + ["--json", "--quiet"]
    walls, rss, doc = [], [], None
    for _ in range(runs):
        # Popen + wait4 gives this child's own rusage (ru_maxrss in KiB on Linux).
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out = proc.stdout.read()
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
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
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=thread_list)
    parser.add_argument("--git-revision", default="unknown")
    parser.add_argument("--command", default=None)
    opts = parser.parse_args()
    runs = opts.runs
    threads = opts.threads or [1] + [t for t in (2 ** k for k in range(1, 11)) if t <= len(os.sched_getaffinity(0))]
    exe = os.path.join(opts.build, "searchbench")
    whole = lambda p, enc, t: ["run", "--puzzle", p, "--engine", "parallel", "--encoder", enc, "--threads", str(t)]
    most = max(threads)
    most_label = f"{most} thread{'s' if most > 1 else ''}"
    cases = [(f"msquare-2x5 whole space, {t} thread(s)", whole("msquare-2x5", "cantor", t)) for t in threads]
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
    rows = [measure(exe, label, a, runs) for label, a in cases]
    context = dict(describe(), date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), runs=runs,
                   git_revision=opts.git_revision, command=opts.command or "scripts/scale_runs.py " + " ".join(sys.argv[3:]))
    with open(opts.out_json, "w") as f:
        json.dump({"context": context, "runs": rows}, f, indent=1)


if __name__ == "__main__":
    main()
