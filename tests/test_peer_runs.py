#!/usr/bin/python3
"""scripts/peer_runs.py with stand-ins for searchbench and the peers (no peer is built): the
rows and ratios it writes, the per-depth counts it insists agree, gapbs's trial times and the
start key it passes on, skipped peers when their mirrors are not set, and the report's
section for its file.

  python3 tests/test_peer_runs.py
"""
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "peer_runs.py")
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))

# searchbench: `run` prints per-depth counts (hanoi4-12's end with 5 as a wrong answer when
# WRONG is set); `export --output F` writes an edge list and its start key.
SEARCHBENCH = r'''#!/usr/bin/python3
import json, os, sys
args = sys.argv[1:]
if args[0] == "export":
    open(args[args.index("--output") + 1], "w").write("7 1\n1 7\n")
    print("start 7\nvertices 2\nedges 2")
    sys.exit(0)
puzzle = args[args.index("--puzzle") + 1]
counts = [1, 3, 6] if puzzle != "hanoi4-12" or not os.environ.get("WRONG") else [1, 3, 5]
reps = int(args[args.index("--repetitions") + 1]) if "--repetitions" in args else 1
print(json.dumps({"puzzle": puzzle, "states": sum(counts), "radius": len(counts) - 1, "depth_counts": counts,
                  "seconds": 0.01, "seconds_all": [0.01 * (i + 1) for i in range(reps)]}))
'''
# twsearch -g: its God's-algorithm lines, a trailing zero depth as it prints one.
TWSEARCH = ("#!/bin/sh\necho 'Dist 0 cnt 1 tot 1 in 0.01'\necho 'Dist 1 cnt 3 tot 4 in 0.01'\n"
            "echo 'Dist 2 cnt 6 tot 10 in 0.01'\necho 'Dist 3 cnt 0 tot 10 in 0.01'\n")
PEER_BFS = "#!/bin/sh\necho peer_bfs: stand-in >&2\necho 'PEER_RESULT seconds=0.1'\necho 'PEER_COUNTS 1 3 6'\n"
# gapbs: converter writes the serialized graph; bfs checks the source and prints trial times.
CONVERTER = "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = -b ] && echo graph > \"$2\"; shift; done\n"
BFS = r'''#!/bin/sh
root=""; while [ $# -gt 0 ]; do [ "$1" = -r ] && root=$2; shift; done
[ "$root" = 7 ] || { echo "wrong source $root" >&2; exit 1; }
for t in 0.040 0.020 0.030; do echo "Trial Time:          $t"; done
echo "Average Time:        0.030"
'''


def executable(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


class PeerRuns(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        t = self.tmp.name
        executable(os.path.join(t, "build", "searchbench"), SEARCHBENCH)
        executable(os.path.join(t, "peer_bfs"), PEER_BFS)
        executable(os.path.join(t, "tw", "twsearch"), TWSEARCH)
        executable(os.path.join(t, "gapbs", "converter"), CONVERTER)
        executable(os.path.join(t, "gapbs", "bfs"), BFS)
        self.out = os.path.join(t, "peers.json")

    def tearDown(self):
        self.tmp.cleanup()

    def peer_runs(self, *args, **env):
        full_env = {k: v for k, v in os.environ.items() if k not in ("PEER_MIRROR", "GAPBS_MIRROR", "TWSEARCH_MIRROR")}
        full_env.update(env)
        return subprocess.run([sys.executable, SCRIPT, os.path.join(self.tmp.name, "build"), self.out, "--runs", "2", *args],
                              capture_output=True, text=True, env=full_env, timeout=120)

    def test_side_by_side_rows_with_their_ratios(self):
        done = self.peer_runs("--peer-bfs", os.path.join(self.tmp.name, "peer_bfs"), "--gapbs", os.path.join(self.tmp.name, "gapbs"))
        self.assertEqual(done.returncode, 0, done.stderr)
        doc = json.load(open(self.out))
        labels = [r.get("label") for r in doc["runs"]]  # a skipped peer (twsearch here) has none
        self.assertIn("tiles-4x3 whole space, 2 threads", labels)
        self.assertNotIn("hanoi4-16 whole space, 2 threads", labels)  # --full only
        tiles = doc["runs"][labels.index("tiles-4x3 whole space, 2 threads")]
        self.assertEqual(len(tiles["wall_seconds"]), 2)
        self.assertEqual(len(tiles["peer_wall_seconds"]), 2)
        self.assertAlmostEqual(tiles["ratio"], tiles["median_wall_seconds"] / tiles["peer_median_wall_seconds"])
        self.assertEqual((tiles["states"], tiles["radius"], tiles["counts_agree"]), (10, 2, True))
        gap = [r for r in doc["runs"] if r["peer"] == "gapbs"]
        self.assertEqual([r["label"].split(", ")[-1] for r in gap], ["1 thread", "2 threads"])
        self.assertEqual(gap[0]["peer_median_search_seconds"], 0.03)   # median of the trial times, not their mean
        self.assertAlmostEqual(gap[0]["median_search_seconds"], 0.05)  # median of our 9 repetitions
        self.assertAlmostEqual(gap[0]["ratio"], 0.05 / 0.03)
        self.assertEqual(doc["context"]["peers"]["gapbs"]["given"], "--gapbs")
        self.assertNotIn(self.tmp.name, json.dumps(doc))  # no path of this machine in the file

    def test_twsearch_on_the_same_files_at_one_and_two_threads(self):
        done = self.peer_runs("--twsearch", os.path.join(self.tmp.name, "tw", "twsearch"), "--filter", r"tws \(")
        self.assertEqual(done.returncode, 0, done.stderr)
        doc = json.load(open(self.out))
        rows = doc["runs"]
        self.assertEqual([r["label"] for r in rows[:2]], ["cube2-fixed.tws (3,674,160 states) whole space, 1 thread",
                                                          "cube2-fixed.tws (3,674,160 states) whole space, 2 threads"])
        self.assertTrue(all(r["peer"] == "twsearch" and r["counts_agree"] for r in rows))
        self.assertFalse(any(r["label"].startswith(("pyraminx.tws", "dino.tws")) for r in rows))  # --full only
        self.assertAlmostEqual(rows[0]["ratio"], rows[0]["median_wall_seconds"] / rows[0]["peer_median_wall_seconds"])
        self.assertEqual(rows[1]["command"], "searchbench run --puzzle cube2-fixed.tws --engine parallel --threads 2 --json --quiet")
        self.assertEqual(rows[0]["peer_command"], "twsearch -g cube2-fixed.tws")
        self.assertNotIn(self.tmp.name, json.dumps(doc))

    def test_counts_that_differ_stop_the_run(self):
        done = self.peer_runs("--peer-bfs", os.path.join(self.tmp.name, "peer_bfs"), "--filter", "hanoi4-12", WRONG="1")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("hanoi4-12 whole space, 2 threads: per-depth counts differ", done.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_peers_without_mirrors_are_skipped_and_say_so(self):
        done = self.peer_runs()
        self.assertEqual(done.returncode, 0, done.stderr)
        rows = json.load(open(self.out))["runs"]
        self.assertEqual([r["peer"] for r in rows], ["PuzzleSearch", "twsearch", "gapbs"])
        self.assertIn("PEER_MIRROR not set", rows[0]["skipped"])
        self.assertIn("TWSEARCH_MIRROR not set", rows[1]["skipped"])
        self.assertIn("GAPBS_MIRROR not set", rows[2]["skipped"])
        self.assertIn("skipped", done.stdout)

    def test_the_report_section(self):
        done = self.peer_runs("--peer-bfs", os.path.join(self.tmp.name, "peer_bfs"), "--filter", "pancake|msquare")
        self.assertEqual(done.returncode, 0, done.stderr)
        from reporting import fmt, sections

        class Run:
            peers = json.load(open(self.out))
        w = fmt.Writer("")
        sections.peers_section(w, Run())
        text = "\n".join(w.lines)
        self.assertIn("## Beside the peers, on the same work", text)
        self.assertIn("| PuzzleSearch `classic` | pancake-11 whole space, 2 threads | 2 |", text)
        self.assertIn("skipped: GAPBS_MIRROR not set", text)


if __name__ == "__main__":
    unittest.main()
