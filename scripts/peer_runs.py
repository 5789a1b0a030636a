#!/usr/bin/python3
"""searchbench beside its peers, on the same work and the same machine, in one run.

usage: scripts/peer_runs.py BUILD_DIR OUT_JSON [--full] [--runs N] [--filter REGEX]
                            [--peer-bfs PATH] [--gapbs DIR] [--twsearch PATH] [--peer-build DIR]
                            [--git-revision REV] [--command TEXT]

The peers are built outside the project from local git copies of their public repositories
(their code never enters searchbench's tree), named by the environment:
  PEER_MIRROR   lightln2/PuzzleSearch: scripts/peers/puzzlesearch/build.sh builds its CPU-only
                part with a command-line driver, peer_bfs (about two minutes on 2 cores)
  GAPBS_MIRROR  sbeamer/gapbs: scripts/peers/build_gapbs.sh builds its bfs and converter
  TWSEARCH_MIRROR  cubing/twsearch: scripts/peers/build_twsearch.sh builds its C++ program
                from the history before d7042aa, with its sample .tws files
A peer whose variable is not set is skipped, and its rows say so. --peer-bfs and --gapbs
take peers already built instead (a peer_bfs executable, a gapbs folder with bfs and
converter); --peer-build keeps the builds in DIR (reused when there) instead of a temporary
folder.

PuzzleSearch, whole processes started in turn (ours, the peer's, ours, ...) N times each (3
by default), median wall time and peak RSS: tiles-4x3 and tiles-6x2 whole spaces (239,500,800
states each) against its disk-based `frontier` (its work folder in a fresh temporary folder
under $SEARCHBENCH_WORKDIR, removed after each run), pancake-11 against `classic`, hanoi4-12
against `frontier` (hanoi4-16 with --full), all at 2 threads, searchbench's `parallel` engine.
The per-depth counts of both must agree (the script stops if they do not): every side-by-side
run is also a cross-check.

gapbs: msquare-2x5's state graph as `searchbench export` writes it (an edge list of perfect
ranks), converted to gapbs's serialized graph, then gapbs `bfs -n 9` from the start's rank
against `searchbench run --engine parallel --repetitions 9` at 1 and 2 threads: both warm
(one process each, the graph or the table already built), median of the 9 trial times
against our median of 9 repetitions. The graph is explicit for gapbs and implicit for us.

twsearch: `twsearch -g FILE` (its God's-algorithm table, a two-bit BFS that runs one thread)
against `searchbench run --puzzle FILE --engine parallel` at 1 and at 2 threads on the same
definition files, whole processes in turn, the per-depth counts checked equal: the fixed-corner
2x2x2 and the 2x2x2 of puzzles/definitions/, twsearch's own skewb sample, and with --full its
pyraminx sample.

Rows carry the ratio ours / peer's (below 1: searchbench is faster). The JSON's context names
the machine, the commit, the date and each peer's mirror commit.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import process_runner  # noqa: E402
from machine_info import write_runs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# (label, our puzzle, peer_bfs arguments after --puzzle, in --full only)
PUZZLESEARCH_CASES = [
    ("tiles-4x3 whole space, 2 threads", "tiles-4x3", ["tile", "4", "3", "--algo", "frontier", "--segbits", "24"], False),
    ("tiles-6x2 whole space, 2 threads", "tiles-6x2", ["tile", "6", "2", "--algo", "frontier", "--segbits", "24"], False),
    ("pancake-11 whole space, 2 threads", "pancake-11", ["pancake", "11", "--algo", "classic", "--segbits", "22"], False),
    ("hanoi4-12 whole space, 2 threads", "hanoi4-12", ["hanoi4", "12", "--algo", "frontier", "--segbits", "20"], False),
    ("hanoi4-16 whole space, 2 threads", "hanoi4-16", ["hanoi4", "16", "--algo", "frontier", "--segbits", "20"], True),
]
THREADS = 2

# (label, definition file, in --full only): "ours:" names a file of puzzles/definitions/,
# "sample:" one of the samples twsearch ships; both programs read the same file.
TWSEARCH_CASES = [
    ("cube2-fixed.tws (3,674,160 states)", "ours:cube2-fixed.tws", False),
    ("skewb.tws (37,791,360 states)", "sample:skewb.tws", False),
    ("2x2x2.tws (88,179,840 states)", "ours:2x2x2.tws", False),
    ("pyraminx-no-tips.tws (933,120 states)", "ours:pyraminx-no-tips.tws", False),
    ("pyraminx.tws (302,330,880 states)", "sample:pyraminx.tws", True),
    ("dino.tws (239,500,800 states)", "ours:dino.tws", True),
]


def mirror_commit(mirror):
    done = subprocess.run(["git", "-C", mirror, "rev-parse", "HEAD"], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def build_peer(script, variable, folder, product):
    """Runs a scripts/peers build script with the mirror of `variable`; the path it printed."""
    print(f"building the peer from ${variable} ({os.environ[variable]}) in {folder}", flush=True)
    done = subprocess.run([os.path.join(HERE, "peers", script), folder], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"peer_runs.py: building with {script} failed:\n{done.stdout}{done.stderr}")
    path = done.stdout.strip().splitlines()[-1]
    if not os.path.exists(os.path.join(path, product) if os.path.isdir(path) else path):
        sys.exit(f"peer_runs.py: {script} did not make {product} (it printed {path})")
    return path


def peer_program(peer, given, flag, variable, script, folder, product, peers):
    """The peer's program: the one given with `flag`, else built from $variable's mirror
    (its commit noted in peers), else None."""
    if given:
        peers[peer] = {"mirror_commit": "unknown", "given": flag}
        return given
    if not os.environ.get(variable):
        return None
    path = build_peer(script, variable, folder, product)
    peers[peer] = {"mirror_commit": mirror_commit(os.environ[variable])}
    built = os.path.join(os.path.dirname(path) if os.path.isfile(path) else path, "revision")
    if os.path.exists(built):  # a peer built from an older commit than the mirror's HEAD says which
        peers[peer]["mirror_commit"] = open(built).read().strip()
    return path


def our_counts(stdout, label):
    doc = json.loads(stdout)
    if "depth_counts" not in doc:
        sys.exit(f"peer_runs.py: {label}: searchbench printed no per-depth counts")
    return doc, doc["depth_counts"]


def peer_counts(stdout, label):
    for line in stdout.decode().splitlines():
        if line.startswith("PEER_COUNTS "):
            return [int(x) for x in line.split()[1:]]
    sys.exit(f"peer_runs.py: {label}: the peer printed no PEER_COUNTS line")


def side_by_side(exe, peer_bfs, label, puzzle, peer_args, runs):
    """Whole processes in turn: ours, the peer's, N times each; the counts must agree."""
    ours = ([exe, "run", "--puzzle", puzzle, "--engine", "parallel", "--threads", str(THREADS), "--json", "--quiet"])
    walls, rss = {"ours": [], "peer": []}, {"ours": [], "peer": []}
    counts = {}
    for _ in range(runs):
        done = process_runner.run_or_exit(ours)
        walls["ours"].append(done.wall_seconds)
        rss["ours"].append(done.peak_rss_bytes)
        doc, counts["ours"] = our_counts(done.stdout, label)
        work = tempfile.mkdtemp(prefix="searchbench-peer-", dir=os.environ.get("SEARCHBENCH_WORKDIR"))
        peer = [peer_bfs, "--puzzle", *peer_args, "--threads", str(THREADS), "--dir", work]
        try:
            done = process_runner.run_or_exit(peer)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        walls["peer"].append(done.wall_seconds)
        rss["peer"].append(done.peak_rss_bytes)
        counts["peer"] = peer_counts(done.stdout, label)
        if counts["ours"] != counts["peer"]:
            sys.exit(f"peer_runs.py: {label}: per-depth counts differ\n  searchbench {counts['ours']}\n  peer        {counts['peer']}")
    med = {side: statistics.median(v) for side, v in walls.items()}
    row = {
        "label": label, "peer": "PuzzleSearch", "peer_algorithm": peer_args[peer_args.index("--algo") + 1],
        "command": f"searchbench {' '.join(ours[1:])}", "peer_command": "peer_bfs --puzzle " + " ".join(peer_args) + f" --threads {THREADS}",
        "wall_seconds": walls["ours"], "peer_wall_seconds": walls["peer"],
        "median_wall_seconds": med["ours"], "peer_median_wall_seconds": med["peer"], "ratio": med["ours"] / med["peer"],
        "median_peak_rss_bytes": statistics.median(rss["ours"]), "peer_median_peak_rss_bytes": statistics.median(rss["peer"]),
        "states": doc["states"], "radius": doc["radius"], "counts_agree": True,
    }
    print(f"{label:48s} searchbench {med['ours']:8.2f} s   PuzzleSearch {row['peer_algorithm']} {med['peer']:8.2f} s   "
          f"{row['ratio']:.2f}x   counts agree", flush=True)
    return row


def twsearch_counts(stdout, label):
    """The per-depth counts of `twsearch -g`: its "Dist d cnt N tot T in S" lines."""
    counts = [int(m) for m in re.findall(r"^Dist \d+ cnt (\d+) tot", stdout.decode(), re.M)]
    while counts and counts[-1] == 0:
        counts.pop()
    if not counts:
        sys.exit(f"peer_runs.py: {label}: twsearch -g printed no per-depth counts")
    return counts


def against_twsearch(exe, twsearch, label, file, runs):
    """twsearch -g (one thread) against `run --engine parallel` at 1 and 2 threads on the same
    definition file, whole processes in turn; the per-depth counts must agree."""
    walls, rss = {"peer": [], 1: [], 2: []}, {"peer": [], 1: [], 2: []}
    ours = {t: [exe, "run", "--puzzle", file, "--engine", "parallel", "--threads", str(t), "--json", "--quiet"] for t in (1, 2)}
    for _ in range(runs):
        done = process_runner.run_or_exit([twsearch, "-g", file])
        walls["peer"].append(done.wall_seconds)
        rss["peer"].append(done.peak_rss_bytes)
        peer = twsearch_counts(done.stdout, label)
        for t in (1, 2):
            done = process_runner.run_or_exit(ours[t])
            walls[t].append(done.wall_seconds)
            rss[t].append(done.peak_rss_bytes)
            doc, counts = our_counts(done.stdout, label)
            if counts != peer:
                sys.exit(f"peer_runs.py: {label}: per-depth counts differ\n  searchbench {counts}\n  twsearch    {peer}")
    theirs = statistics.median(walls["peer"])
    rows = []
    for t in (1, 2):
        mine = statistics.median(walls[t])
        rows.append({
            "label": f"{label} whole space, {t} thread{'s' if t > 1 else ''}", "peer": "twsearch", "peer_algorithm": "-g (one thread)",
            "command": "searchbench " + " ".join(ours[t][1:]).replace(file, os.path.basename(file)),
            "peer_command": f"twsearch -g {os.path.basename(file)}",
            "wall_seconds": walls[t], "peer_wall_seconds": walls["peer"],
            "median_wall_seconds": mine, "peer_median_wall_seconds": theirs, "ratio": mine / theirs,
            "median_peak_rss_bytes": statistics.median(rss[t]), "peer_median_peak_rss_bytes": statistics.median(rss["peer"]),
            "states": doc["states"], "radius": doc["radius"], "counts_agree": True,
        })
        print(f"{rows[-1]['label']:48s} searchbench {mine:8.2f} s   twsearch -g {theirs:8.2f} s   {mine / theirs:.2f}x   counts agree",
              flush=True)
    return rows


def gapbs_trials(stdout):
    times = [float(m) for m in re.findall(r"^Trial Time:\s+([0-9.]+)", stdout, re.M)]
    if not times:
        sys.exit(f"peer_runs.py: gapbs bfs printed no trial times:\n{stdout[-2000:]}")
    return times


def against_gapbs(exe, gapbs, puzzle, runs_per_process=9):
    """gapbs bfs on the exported graph against our parallel engine, warm, at 1 and 2 threads."""
    folder = tempfile.mkdtemp(prefix="searchbench-gapbs-", dir=os.environ.get("SEARCHBENCH_WORKDIR"))
    try:
        edges, graph = os.path.join(folder, "g.el"), os.path.join(folder, "g.sg")
        out = process_runner.run_or_exit([exe, "export", "--puzzle", puzzle, "--output", edges]).stdout.decode()
        start = re.search(r"^start (\d+)$", out, re.M)
        if not start:
            sys.exit(f"peer_runs.py: searchbench export printed no start key:\n{out}")
        process_runner.run_or_exit([os.path.join(gapbs, "converter"), "-f", edges, "-b", graph])
        rows = []
        for threads in (1, 2):
            env = dict(os.environ, OMP_NUM_THREADS=str(threads))
            peer = [os.path.join(gapbs, "bfs"), "-f", graph, "-r", start.group(1), "-n", str(runs_per_process)]
            trials = gapbs_trials(process_runner.run_or_exit(peer, env=env).stdout.decode())
            ours = [exe, "run", "--puzzle", puzzle, "--engine", "parallel", "--threads", str(threads),
                    "--repetitions", str(runs_per_process), "--json", "--quiet"]
            doc = json.loads(process_runner.run_or_exit(ours).stdout)
            mine, theirs = statistics.median(doc["seconds_all"]), statistics.median(trials)
            rows.append({
                "label": f"{puzzle} on its state graph, warm, {threads} thread{'s' if threads > 1 else ''}", "peer": "gapbs",
                "peer_algorithm": "bfs", "command": "searchbench " + " ".join(ours[1:]),
                "peer_command": f"OMP_NUM_THREADS={threads} bfs -f <graph> -r {start.group(1)} -n {runs_per_process}",
                "search_seconds": doc["seconds_all"], "peer_search_seconds": trials,
                "median_search_seconds": mine, "peer_median_search_seconds": theirs, "ratio": mine / theirs,
                "states": doc["states"], "radius": doc["radius"], "warm": True,
            })
            print(f"{rows[-1]['label']:48s} searchbench {mine * 1e3:8.1f} ms  gapbs bfs {theirs * 1e3:8.1f} ms   {mine / theirs:.2f}x",
                  flush=True)
        return rows
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def skipped(peer, variable):
    note = f"{variable} not set: {peer} was not run (set it to a git copy of the peer's repository)"
    print(f"{peer}: skipped, {note}", flush=True)
    return {"peer": peer, "skipped": note}


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip().removeprefix("usage: "))
    parser.add_argument("build")
    parser.add_argument("out_json")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--filter", default=None)
    parser.add_argument("--peer-bfs", default=None)
    parser.add_argument("--gapbs", default=None)
    parser.add_argument("--twsearch", default=None)
    parser.add_argument("--peer-build", default=None)
    parser.add_argument("--git-revision", default="unknown")
    parser.add_argument("--command", default=None)
    opts = parser.parse_args()
    exe = os.path.join(opts.build, "searchbench")
    keep = lambda label: not opts.filter or bool(re.search(opts.filter, label))
    build_root = opts.peer_build or tempfile.mkdtemp(prefix="searchbench-peers-")
    peers, rows = {}, []
    try:
        cases = [c for c in PUZZLESEARCH_CASES if (opts.full or not c[3]) and keep(c[0])]
        if cases:
            peer_bfs = peer_program("PuzzleSearch", opts.peer_bfs, "--peer-bfs", "PEER_MIRROR", "puzzlesearch/build.sh",
                                    os.path.join(build_root, "puzzlesearch"), "peer_bfs", peers)
            if peer_bfs:
                rows += [side_by_side(exe, peer_bfs, label, puzzle, args, opts.runs) for label, puzzle, args, _ in cases]
            else:
                rows.append(skipped("PuzzleSearch", "PEER_MIRROR"))
        cases = [c for c in TWSEARCH_CASES if (opts.full or not c[2]) and keep(c[0])]
        if cases:
            twsearch = peer_program("twsearch", opts.twsearch, "--twsearch", "TWSEARCH_MIRROR", "build_twsearch.sh",
                                    os.path.join(build_root, "twsearch"), "twsearch", peers)
            if twsearch:
                for label, where, _ in cases:
                    kind, name = where.split(":")
                    folder = os.path.join(os.path.dirname(HERE), "puzzles", "definitions") if kind == "ours" else \
                        os.path.join(os.path.dirname(twsearch), "samples")
                    rows += against_twsearch(exe, twsearch, label, os.path.join(folder, name), opts.runs)
            else:
                rows.append(skipped("twsearch", "TWSEARCH_MIRROR"))
        if keep("msquare-2x5 on its state graph"):
            gapbs = peer_program("gapbs", opts.gapbs, "--gapbs", "GAPBS_MIRROR", "build_gapbs.sh", os.path.join(build_root, "gapbs"),
                                 "bfs", peers)
            if gapbs:
                rows += against_gapbs(exe, gapbs, "msquare-2x5")
            else:
                rows.append(skipped("gapbs", "GAPBS_MIRROR"))
    finally:
        if not opts.peer_build:
            shutil.rmtree(build_root, ignore_errors=True)
    # The command as given, less the paths of this machine.
    path_flags = ("--peer-bfs", "--gapbs", "--twsearch", "--peer-build")
    given = [("<path>" if sys.argv[i - 1] in path_flags else a.split("=")[0] + "=<path>" if a.split("=")[0] in path_flags else a)
             for i, a in enumerate(sys.argv) if i >= 3]
    write_runs(opts.out_json, rows, runs=opts.runs, git_revision=opts.git_revision, filter=opts.filter, peers=peers,
               command=opts.command or " ".join(["scripts/peer_runs.py", *given]))


if __name__ == "__main__":
    main()
