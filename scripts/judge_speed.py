#!/usr/bin/python3
"""Side-by-side wall time of `searchbench judge` and the classic single-file solutions.

usage: scripts/judge_speed.py BUILD_DIR [RUNS]

Inputs (generated with fixed seeds): all 40,320 Sicily 1151 boards in one input, and a
35-case FZU 1603 file of random 19- and 20-cell boards. Each command runs RUNS times (7 by
default), whole process included; the medians and their ratio are printed, and the outputs
must be byte-identical (exit 1 otherwise).
"""
import itertools
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def median_seconds(cmd, data, runs):
    times, out = [], None
    for _ in range(runs):
        t = time.perf_counter()
        res = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True)
        times.append(time.perf_counter() - t)
        out = res.stdout
    return statistics.median(times), out


def sicily_input():
    blocks = []
    for p in itertools.permutations(range(1, 9)):
        blocks.append("30\n%d %d %d %d\n%d %d %d %d\n" % p)
    return ("".join(blocks) + "-1\n").encode()


def fzu_input():
    rng = random.Random(1603)
    lines = ["35"]
    for case in range(35):
        n = 19 if case % 2 else 20
        k = (n - 1) // 2
        def board():
            cells = list("#" * k + "@" * (n - 1 - k))
            rng.shuffle(cells)
            cells.insert(rng.randrange(n), "&")
            return "".join(cells)
        lines.append(board() + " " + board())
    return ("\n".join(lines) + "\n").encode()


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    exe = os.path.join(build, "searchbench")
    ok = True
    for name, data, classic in (("sicily1151", sicily_input(), "sicily1151_classic"), ("fzu1603", fzu_input(), "fzu1603_classic")):
        ours, out_ours = median_seconds([exe, "judge", name], data, runs)
        theirs, out_theirs = median_seconds([os.path.join(build, "bench", classic)], data, runs)
        same = out_ours == out_theirs
        ok = ok and same
        print(f"{name}: searchbench judge {ours * 1000:.1f} ms, classic {theirs * 1000:.1f} ms, "
              f"ratio {ours / theirs:.2f}x (median of {runs} runs, whole process), outputs identical: {'yes' if same else 'NO'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
