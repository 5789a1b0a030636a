#!/usr/bin/python3
"""Whole-process wall time of the judges against the classic single-file solutions.

Three programs read each input: searchbench-judge (the judges' own searches, linked
statically without the registry or oneTBB: the executable to submit), `searchbench judge`
(the same answers from the command line that also takes --engine, which loads libstdc++ and
oneTBB as shared libraries), and the classic program. The ratios are searchbench-judge /
classic, with `searchbench judge` / classic beside them.

usage: scripts/judge_speed.py BUILD_DIR [--runs N] [--json OUT] [--write-inputs DIR] [--filter REGEX]

Inputs, generated here with fixed seeds (nothing generated is kept in the repository):
  sicily1151   all 40,320 Sicily 1151 boards in one input (limit 30, so every answer prints)
  fzu1603      twelve 35-case FZU 1603 inputs (seeds 1..12): N odd, uniform in 1..19; each
               piece '#' or '@' with probability 1/2 and the hole anywhere; B is A's pieces
               shuffled (same counts) in 9 cases of 10, else an independent random board
               (usually unreachable: -1)
  fzu1603-far  one 35-case input of the slowest kind for a search: N = 19 with 9 '#', every
               B the mirror image of its A (far apart), the first case the two extreme
               boards '#########&@@@@@@@@@' and '@@@@@@@@@&#########'
Each program reads each input RUNS times (7 by default) as a separate process, the three
alternating, so all see the same machine load; the medians per input are summed per judge
and the ratio is ours / classic. Outputs must be byte-identical (exit 1
otherwise). Both wall time and CPU time (user + system, from wait4) are kept: on a shared
machine the wall time also counts waiting for a core. --json writes the figures for
scripts/report.py; --write-inputs DIR keeps the inputs as files there. --filter REGEX keeps
the inputs whose name judge/<judge>/<input> (judge/fzu1603/fzu1603-far) matches, as
scripts/reproduce.sh --filter does: 'sicily1151' times that input alone, a filter naming
no judge times nothing (the JSON then holds no totals).
"""
import argparse
import itertools
import json
import os
import platform
import random
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import process_runner  # noqa: E402

FZU_SEEDS = range(1, 13)
FZU_CASES = 35


def sicily_input():
    blocks = ["30\n%d %d %d %d\n%d %d %d %d\n" % p for p in itertools.permutations(range(1, 9))]
    return ("".join(blocks) + "-1\n").encode()


def random_board(rng, n, pieces=None):
    """A board of n cells: the given pieces (shuffled) or random ones, the hole anywhere."""
    if pieces is None:
        pieces = [rng.choice("#@") for _ in range(n - 1)]
    pieces = list(pieces)
    rng.shuffle(pieces)
    pieces.insert(rng.randrange(n), "&")
    return "".join(pieces)


def fzu_random_input(seed):
    rng = random.Random(1603_000 + seed)
    lines = [str(FZU_CASES)]
    for case in range(FZU_CASES):
        n = rng.choice(range(1, 20, 2))
        a = random_board(rng, n)
        pieces = a.replace("&", "")
        b = random_board(rng, n, pieces) if rng.random() < 0.9 else random_board(rng, n)
        lines.append(f"{a} {b}")
    return ("\n".join(lines) + "\n").encode()


def fzu_far_input():
    rng = random.Random(1603)
    lines = [str(FZU_CASES), "#########&@@@@@@@@@ @@@@@@@@@&#########"]
    for _ in range(FZU_CASES - 1):
        a = random_board(rng, 19, "#" * 9 + "@" * 9)
        lines.append(f"{a} {a[::-1]}")
    return ("\n".join(lines) + "\n").encode()


def inputs():
    """(judge, label, input bytes, classic program) for every timed input."""
    yield "sicily1151", "sicily1151-all", sicily_input(), "sicily1151_classic"
    for seed in FZU_SEEDS:
        yield "fzu1603", f"fzu1603-random-{seed:02d}", fzu_random_input(seed), "fzu1603_classic"
    yield "fzu1603", "fzu1603-far", fzu_far_input(), "fzu1603_classic"


def timed(cmd, path):
    """Wall seconds, CPU seconds (user + system, from wait4) and stdout of one run."""
    done = process_runner.run_or_exit(cmd, stdin_path=path, capture_stderr=False)
    return done.wall_seconds, done.cpu_seconds, done.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build_dir")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--json")
    ap.add_argument("--write-inputs")
    ap.add_argument("--filter")
    args = ap.parse_args()
    judge_exe = os.path.join(args.build_dir, "searchbench-judge")
    cli_exe = os.path.join(args.build_dir, "searchbench")
    rows, ok = [], True
    others = process_runner.OthersProbe()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.write_inputs or tmp
        os.makedirs(folder, exist_ok=True)
        for judge, label, data, classic in inputs():
            if args.filter and not re.search(args.filter, f"judge/{judge}/{label}"):
                continue
            path = os.path.join(folder, label + ".in")
            with open(path, "wb") as f:
                f.write(data)
            cmds = {"ours": [judge_exe, judge], "cli": [cli_exe, "judge", judge],
                    "classic": [os.path.join(args.build_dir, "bench", classic)]}
            wall, cpu, outs = {k: [] for k in cmds}, {k: [] for k in cmds}, {}
            for _ in range(args.runs):
                for who, cmd in cmds.items():  # alternating: ours, cli, classic, ours, ...
                    w, c, outs[who] = timed(cmd, path)
                    wall[who].append(w)
                    cpu[who].append(c)
            same = outs["ours"] == outs["classic"] == outs["cli"]
            ok = ok and same
            row = {"judge": judge, "input": label, "classic": classic, "runs": args.runs, "identical": same}
            for who in cmds:
                row[who] = {"wall_seconds": wall[who], "cpu_seconds": cpu[who],
                            "median_wall": statistics.median(wall[who]), "median_cpu": statistics.median(cpu[who])}
            rows.append(row)
            print(f"{label:20s} wall: ours {row['ours']['median_wall'] * 1000:7.1f} ms classic {row['classic']['median_wall'] * 1000:7.1f} ms"
                  f" ({row['ours']['median_wall'] / row['classic']['median_wall']:.3f}x)   cpu: ours {row['ours']['median_cpu'] * 1000:7.1f} ms"
                  f" classic {row['classic']['median_cpu'] * 1000:7.1f} ms ({row['ours']['median_cpu'] / row['classic']['median_cpu']:.3f}x)"
                  f"   searchbench judge: {row['cli']['median_wall'] * 1000:7.1f} ms wall ({row['cli']['median_wall'] / row['classic']['median_wall']:.3f}x)"
                  f"   identical: {'yes' if same else 'NO'}", flush=True)
    totals = []
    for group, pick in (("sicily1151: all 40,320 boards", lambda r: r["judge"] == "sicily1151"),
                        ("fzu1603: twelve random inputs", lambda r: r["input"].startswith("fzu1603-random")),
                        ("fzu1603: far input", lambda r: r["input"] == "fzu1603-far")):
        sel = [r for r in rows if pick(r)]
        if not sel:  # every input of the group left out by --filter
            continue
        t = {"group": group, "judge": sel[0]["judge"], "classic": sel[0]["classic"], "inputs": len(sel),
             "input_labels": [r["input"] for r in sel], "identical": all(r["identical"] for r in sel)}
        for kind in ("wall", "cpu"):
            ours, cli, theirs = (sum(r[who]["median_" + kind] for r in sel) for who in ("ours", "cli", "classic"))
            t.update({f"ours_{kind}": ours, f"cli_{kind}": cli, f"classic_{kind}": theirs, f"ratio_{kind}": ours / theirs,
                      f"cli_ratio_{kind}": cli / theirs})
        totals.append(t)
        print(f"{group}: wall ours {t['ours_wall'] * 1000:.1f} ms / classic {t['classic_wall'] * 1000:.1f} ms = {t['ratio_wall']:.3f}x; "
              f"cpu {t['ours_cpu'] * 1000:.1f} / {t['classic_cpu'] * 1000:.1f} ms = {t['ratio_cpu']:.3f}x; "
              f"searchbench judge {t['cli_wall'] * 1000:.1f} ms wall = {t['cli_ratio_wall']:.3f}x "
              f"(sums of per-input medians, {args.runs} alternating whole-process runs each)")
    if args.json:
        cpu_model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.machine())
        context = {"runs": args.runs, "cpu_model": cpu_model, "cores": os.cpu_count(),
                   "ours_command": "searchbench-judge NAME", "cli_command": "searchbench judge NAME",
                   "load_average_before": LOAD_BEFORE, "load_average_after": process_runner.load_average(),
                   **others.figures(),
                   "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                   "command": f"scripts/judge_speed.py {args.build_dir} --runs {args.runs}"
                              + (f" --filter '{args.filter}'" if args.filter else "")}
        with open(args.json, "w") as f:
            json.dump({"context": context, "totals": totals, "inputs": rows}, f, indent=1)
    sys.exit(0 if ok else 1)


LOAD_BEFORE = process_runner.load_average()


if __name__ == "__main__":
    main()
