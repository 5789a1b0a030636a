#!/usr/bin/env python3
"""A puzzle family and an engine that exist only in the test tree (tests/plugins/: the
`dial-N` family with its encoder `position`, and the engine `keymap` with its option
--reserve), each added by one line in a list of its own, reach every front end: list,
help, run, compare, export, the benchmark registration and the cross-engine matrix.

usage: test_plugins.py SEARCHBENCH BENCH_SEARCH CROSS_ENGINE_TESTS
"""
import json
import subprocess
import sys
import unittest

SEARCHBENCH, BENCH_SEARCH, MATRIX = sys.argv[1:4]


def run(*args, check=True):
    done = subprocess.run(list(args), capture_output=True, text=True, timeout=120)
    if check and done.returncode != 0:
        raise AssertionError(f"{args} exited {done.returncode}: {done.stderr}")
    return done


class PluginsReachEveryFrontEnd(unittest.TestCase):
    def test_list_names_the_family_the_engine_and_its_option(self):
        doc = json.loads(run(SEARCHBENCH, "list", "--json").stdout)
        engine = next(e for e in doc["engines"] if e["name"] == "keymap")
        self.assertIn("--reserve", engine["options"])
        self.assertTrue(engine["whole_space"] and engine["point_queries"])
        family = next(f for f in doc["families"] if f["name"] == "dial")
        self.assertEqual(family["encoders"], ["position"])
        dial12 = next(p for p in family["puzzles"] if p["name"] == "dial-12")
        self.assertEqual(dial12["states"], 12)
        self.assertEqual(dial12["combinations"]["keymap"], ["position"])
        self.assertEqual(dial12["combinations"]["ring"], ["position"])
        text = run(SEARCHBENCH, "list").stdout
        self.assertIn("keymap", text)
        self.assertIn("dial-1000", text)

    def test_help_shows_the_declared_option_under_its_engine(self):
        text = run(SEARCHBENCH, "help", "run").stdout
        self.assertIn("--reserve", text)
        self.assertIn("keymap: keys the map makes room for", text)
        self.assertIn("dial-N N=2..100000", text)

    def test_run_takes_the_option_and_other_engines_refuse_it(self):
        doc = json.loads(run(SEARCHBENCH, "run", "--puzzle", "dial-12", "--engine", "keymap", "--reserve", "16",
                             "--json", "--quiet").stdout)
        self.assertEqual(doc["states"], 12)
        self.assertEqual(doc["depth_counts"], [1, 2, 2, 2, 2, 2, 1])
        query = json.loads(run(SEARCHBENCH, "run", "--puzzle", "dial-12", "--engine", "keymap", "--target", "9",
                               "--json", "--quiet").stdout)
        self.assertEqual((query["distance"], query["path"]), (3, "bbb"))
        refused = run(SEARCHBENCH, "run", "--puzzle", "dial-12", "--engine", "ring", "--reserve", "16", check=False)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("--reserve applies to engine 'keymap' only", refused.stderr)
        bad = run(SEARCHBENCH, "run", "--puzzle", "dial-12", "--engine", "keymap", "--reserve", "-1", check=False)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("--reserve", bad.stderr)

    def test_compare_runs_the_engine_and_every_engine_agrees(self):
        doc = json.loads(run(SEARCHBENCH, "compare", "--puzzle", "dial-12", "--json").stdout)
        self.assertTrue(doc["all_agree"])
        engines = {r["engine"] for r in doc["rows"]}
        self.assertIn("keymap", engines)
        self.assertIn("ring", engines)

    def test_export_writes_the_family_s_graph(self):
        done = run(SEARCHBENCH, "export", "--puzzle", "dial-12")
        edges = [line.split() for line in done.stdout.splitlines()]
        self.assertEqual(len(edges), 24)  # two moves from each of 12 positions
        self.assertIn(["0", "1"], edges)
        self.assertIn(["0", "11"], edges)
        self.assertIn("vertices 12", done.stderr)

    def test_the_benchmarks_register_both(self):
        names = run(BENCH_SEARCH, "--benchmark_list_tests=true").stdout.split()
        self.assertIn("bfs/keymap/position/dial-1000/threads:1", names)
        self.assertIn("bfs/ring/position/dial-1000/threads:1", names)

    def test_the_matrix_has_the_family_and_the_engine(self):
        cases = run(MATRIX, "--gtest_list_tests").stdout
        self.assertIn("dial_12", cases.replace("-", "_"))
        self.assertIn("keymap", cases)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
