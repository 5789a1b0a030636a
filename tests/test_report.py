#!/usr/bin/python3
"""Tests of scripts/report.py on small synthetic raw files, and of bench_search's
Google Benchmark conventions (flags, JSON) when BENCH_SEARCH names the executable.

  python3 tests/test_report.py                      the report tests
  BENCH_SEARCH=build/release/bench/bench_search python3 tests/test_report.py BenchSearchConventions
"""
import collections
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("report", os.path.join(HERE, "..", "scripts", "report.py"))
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)


def bench(name, times_ms, states=720, radius=12, peak=1000, unit="us", label=None):
    """Google Benchmark 1.7.1 entries of one benchmark: each repetition, then the aggregates."""
    scale = {"us": 1e3, "ms": 1.0}[unit]
    common = {"run_name": name, "time_unit": unit, "states": states, "radius": radius, "peak_bytes": peak, "key_space": 720}
    if label:
        common["label"] = label
    entries = [dict(common, name=name, run_type="iteration", real_time=t * scale, cpu_time=t * scale,
                    items_per_second=states / (t / 1e3)) for t in times_ms]
    ordered = sorted(times_ms)
    median = ordered[len(ordered) // 2]
    entries.append(dict(common, name=name + "_median", run_type="aggregate", aggregate_name="median",
                        real_time=median * scale, cpu_time=median * scale, items_per_second=states / (median / 1e3)))
    return entries


def write_raw(directory, stamp, commit, date, benchmarks, build_type="release", machine="Test CPU, 4 cores, 8.0 GiB, Linux 6",
              command="scripts/reproduce.sh", **context_extra):
    path = os.path.join(directory, f"bench-{stamp}-{commit}.json")
    context = {"date": date, "git_revision": commit, "machine": machine, "library_build_type": build_type,
               "command": command, **context_extra}
    with open(path, "w") as f:
        json.dump({"context": context, "benchmarks": [e for b in benchmarks for e in b]}, f)
    return path


class ReportTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.raw = os.path.join(self.tmp.name, "raw")
        os.mkdir(self.raw)
        self.md = os.path.join(self.tmp.name, "README.md")

    def tearDown(self):
        self.tmp.cleanup()

    def run_report(self):
        report.main(self.raw, self.md)
        with open(self.md) as f:
            return f.read()

    def section(self, text, heading):
        start = text.index(heading)
        end = text.find("\n#", start + len(heading))
        return text[start:end if end >= 0 else len(text)]

    def test_each_benchmark_comes_from_the_newest_file_holding_it_and_names_it(self):
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [9.0, 9.0, 9.0]),
            bench("bfs/ring/rank/tiles-2x3/threads:1", [3.0, 3.5, 4.0], states=360, radius=21),
            bench("bfs/naive/none/tiles-2x3/threads:1", [30.0, 31.0, 32.0], states=360, radius=21),
        ])
        write_raw(self.raw, "20260202-000000", "bbbbbbb", "2026-02-02T00:00:00Z", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0, 2.0, 4.0]),
        ], build_type="debug")
        text = self.run_report()
        msquare = self.section(text, "### msquare-2x3")
        self.assertIn("bbbbbbb, 2026-02-02 00:00](raw/bench-20260202-000000-bbbbbbb.json)", msquare)
        self.assertNotIn("aaaaaaa", msquare)
        self.assertIn("| 2.00 (1.00-4.00) |", msquare)  # median with min and max of the repetitions
        tiles = self.section(text, "### tiles-2x3")  # a family the report has never heard of
        self.assertIn("aaaaaaa, 2026-01-01 00:00](raw/bench-20260101-000000-aaaaaaa.json)", tiles)
        self.assertIn("| 3.50 (3.00-4.00) |", tiles)
        self.assertIn("| 8.9 |", tiles)  # x naive: 31 / 3.5, both from the same file
        self.assertIn("debug build", text)
        self.assertTrue(os.path.getsize(os.path.join(self.tmp.name, "time-by-engine-encoder-tiles-2x3.png")) > 0)
        self.assertTrue(os.path.getsize(os.path.join(self.tmp.name, "memory-by-encoder-tiles-2x3.png")) > 0)

    def test_a_table_mixing_files_names_the_file_of_every_row_and_keeps_ratios_within_a_file(self):
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [
            bench("bfs/naive/none/msquare-2x3/threads:1", [10.0, 10.0, 10.0]),
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [5.0, 5.0, 5.0]),
        ])
        write_raw(self.raw, "20260202-000000", "bbbbbbb", "2026-02-02T00:00:00Z", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0, 1.0, 1.0]),
        ], benchmark_filter="^bfs/ring/cantor/")
        table = self.section(self.run_report(), "### msquare-2x3")
        self.assertIn("run (raw file)", table)
        ring = next(line for line in table.splitlines() if line.startswith("| ring |"))
        naive = next(line for line in table.splitlines() if line.startswith("| naive |"))
        self.assertIn("bbbbbbb", ring)
        self.assertIn("aaaaaaa", naive)
        self.assertEqual(ring.split(" | ")[7], "-")  # no x naive across files
        self.assertNotIn("debug build", self.run_report())

    def test_aggregate_only_files_show_the_coefficient_of_variation(self):
        entries = bench("bfs/ring/cantor/msquare-2x3/threads:1", [2.0])[1:]  # the median only
        entries.append(dict(entries[0], name="x_cv", aggregate_name="cv", real_time=0.05))
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [entries])
        self.assertIn("| 2.00 (cv 5.0%) |", self.run_report())

    def test_thread_series_split_by_file_and_plot_has_one_style_per_series(self):
        many = [bench(f"bfs/parallel/enc{i}/big-9/threads:{t}", [10.0 / t] * 3, states=200_000)
                for i in range(len(report.STYLES) + 2) for t in (1, 2, 4)]
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", many)
        text = self.run_report()
        scaling = self.section(text, "## Thread scaling")
        self.assertIn("| big-9 | parallel | enc0 | 4 | 2.50 (2.50-2.50) | 4.00 | 1.00 |", scaling)
        self.assertTrue(os.path.exists(os.path.join(self.tmp.name, "states-per-second-vs-threads.png")))
        self.assertEqual([len(c) for c in report.chunks(list(range(12)), len(report.STYLES))], [10, 2])

    def test_a_pipe_in_a_cell_does_not_split_the_table_row(self):
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z",
                  [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 3)], command="scripts/reproduce.sh --filter 'a|b'")
        row = next(line for line in self.run_report().splitlines() if "--filter" in line)
        self.assertIn("'a\\|b'", row)
        self.assertEqual(row.count(" | "), 7)  # eight cells

    def test_a_newer_complete_run_retires_pairs_it_no_longer_has_but_keeps_other_puzzles_and_threads(self):
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [
            bench("bfs/ring/octal/msquare-2x4/threads:1", [5.0] * 3),  # an encoder renamed since
            bench("bfs/parallel/cantor/msquare-2x4/threads:16", [0.5] * 3),  # a machine with more cores
            bench("bfs/ring/cantor/msquare-2x6/threads:1", [9.0] * 3),  # a puzzle of --full runs only
            bench("judge/sicily1151/ring/octal/all-40320", [7.0] * 3),  # judges as named before the labels
        ])
        write_raw(self.raw, "20260202-000000", "bbbbbbb", "2026-02-02T00:00:00Z", [
            bench("bfs/ring/bitpack/msquare-2x4/threads:1", [5.0] * 3),
            bench("bfs/parallel/cantor/msquare-2x4/threads:1", [4.0] * 3),
            bench("judge/ring/bitpack/sicily1151/all-40320", [6.0] * 3,
                  label="kind=judge engine=ring encoder=bitpack puzzle=sicily1151 param=all-40320"),
        ])
        write_raw(self.raw, "20260303-000000", "ccccccc", "2026-03-03T00:00:00Z", [
            bench("bfs/ring/cantor/msquare-2x4/threads:1", [3.0] * 3),
        ], benchmark_filter="^bfs/ring/cantor/")  # a partial run retires nothing
        text = self.run_report()
        msquare = self.section(text, "### msquare-2x4")
        self.assertNotIn("| octal |", msquare)
        for kept in ("| ring | bitpack | 1 |", "| ring | cantor | 1 |", "| parallel | cantor | 16 |", "| parallel | cantor | 1 |"):
            self.assertIn(kept, msquare)
        self.assertIn("### msquare-2x6", text)
        judges = self.section(text, "## Judge throughput: sicily1151")
        self.assertIn("| ring | bitpack | all-40320 |", judges)
        self.assertNotIn("octal", judges)

    def test_long_runs_show_their_kind_state_and_the_seconds_of_each_depth(self):
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [9.0, 9.0, 9.0])])
        context = {"date": "2026-01-01T00:00:00Z", "git_revision": "bbbbbbb", "machine": "Test CPU"}
        with open(os.path.join(self.raw, "long-msquare-2x3-in-memory.json"), "w") as f:
            json.dump({"puzzle": "msquare-2x3", "engine": "parallel", "context": context, "depth_counts": [1, 3, 7],
                       "known_states": 720, "note": "Stopped on purpose.",
                       "invocations": [{"start": "2026-01-01T00:00:00Z", "status": "killed", "wall_seconds": 9,
                                        "progress": [[1, 3, 2.5], [2, 7, 4.0]]}]}, f)
        with open(os.path.join(self.raw, "long-msquare-2x3.json"), "w") as f:
            json.dump({"puzzle": "msquare-2x3", "engine": "external", "context": context, "depth_counts": [1, 3],
                       "known_states": 720, "invocations": [
                           {"start": "2026-01-01T00:00:00Z", "status": "stopped", "exit_status": -15, "error": "depth 1 new 3"},
                           {"start": "2026-01-01T01:00:00Z", "status": "stopped", "exit_status": 2, "error": "searchbench: no room"},
                           {"start": "2026-01-01T02:00:00Z", "status": "running"}],
                       "sample_checks_context": {"date": "2026-01-02T00:00:00Z", "git_revision": "ccccccc", "rows_from_earlier_checks": 1},
                       "sample_checks": [{"depth": 1, "state": "x", "bidir_distance": 1, "seconds": 0.1, "agrees": True}]}, f)
        text = self.run_report()
        in_memory = self.section(text, "## msquare-2x3 in memory (stopped: 3 depths done, 11 states so far")
        self.assertIn("Stopped on purpose.", in_memory)
        self.assertIn("| 1 | 3 | 4 | 2.5 |", in_memory)
        self.assertIn("| 2 | 7 | 11 | 1.5 |", in_memory)
        self.assertIn("| 0 | 1 | 1 | - |", in_memory)
        external = self.section(text, "## msquare-2x3 out of core (in progress: 2 depths done")
        self.assertIn("| stopped: by signal 15 |", external)
        self.assertNotIn("depth 1 new 3", external)
        self.assertIn("| stopped: searchbench: no room |", external)
        self.assertIn("| running |", external)
        self.assertIn("1 of 1 states the run found at a depth were found by `--engine bidir` at that same distance "
                      "(`scripts/long_run.py --check-samples` at ccccccc, 2026-01-02 00:00 UTC; 1 of the rows are kept "
                      "from an earlier check).", external)

    def test_footer_names_commit_date_and_machine(self):
        import matplotlib.pyplot as plt
        path = write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [])
        source = report.Source(path, {"git_revision": "aaaaaaa", "date": "2026-01-01T00:00:00Z",
                                      "machine": "Test CPU, 4 cores"}, self.tmp.name)
        fig = plt.figure()
        report.footer(fig, [source])
        footer = fig.texts[0].get_text()
        plt.close(fig)
        for part in ("aaaaaaa", "2026-01-01 00:00", "Test CPU, 4 cores"):
            self.assertIn(part, footer)

    def test_fields_in_a_label_win_over_the_name(self):
        write_raw(self.raw, "20260101-000000", "aaaaaaa", "2026-01-01T00:00:00Z", [
            bench("bfs/whatever/x/y/threads:1", [1.0] * 3,
                  label="kind=bfs engine=ring encoder=cantor puzzle=msquare-2x3 param=threads:1"),
        ])
        text = self.run_report()
        self.assertIn("### msquare-2x3", text)
        self.assertIn("| ring | cantor | 1 |", text)


@unittest.skipUnless(os.environ.get("BENCH_SEARCH"), "BENCH_SEARCH names the bench_search executable")
class BenchSearchConventions(unittest.TestCase):
    def run_bench(self, *args):
        return subprocess.run([os.environ["BENCH_SEARCH"], *args], capture_output=True, text=True, timeout=120)

    def test_unknown_flags_are_refused_with_one_line(self):
        for bad in ("--benchmark_fliter=x", "--fulll", "extra", "--threads=0", "--threads=1,,2", "--threads=two"):
            with self.subTest(bad=bad):
                proc = self.run_bench(bad)
                self.assertEqual(proc.returncode, 2)
                self.assertEqual(proc.stdout, "")
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
                self.assertIn("bench_search:", proc.stderr)

    def test_thread_list_names_the_parallel_benchmarks(self):
        proc = self.run_bench("--threads=1,3", "--benchmark_list_tests", "--benchmark_filter=^bfs/parallel/cantor/msquare-2x3/")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.split(), ["bfs/parallel/cantor/msquare-2x3/threads:1/real_time",
                                               "bfs/parallel/cantor/msquare-2x3/threads:3/real_time"])

    def test_json_keeps_repetitions_and_uses_the_library_conventions(self):
        proc = self.run_bench("--threads=2", "--benchmark_filter=^bfs/(ring|parallel)/cantor/msquare-2x3/",
                              "--benchmark_repetitions=2", "--benchmark_min_time=0.01", "--benchmark_format=json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        duplicates = []

        def no_duplicate_keys(pairs):
            counts = collections.Counter(k for k, _ in pairs)
            duplicates.extend(k for k, n in counts.items() if n > 1)
            return dict(pairs)

        doc = json.loads(proc.stdout, object_pairs_hook=no_duplicate_keys)
        self.assertEqual(duplicates, [])  # no counter shadows a key of the library (threads)
        iterations = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        names = collections.Counter(b["run_name"] for b in iterations)
        self.assertEqual(sorted(names.values()), [2, 2])  # every repetition kept
        for b in iterations:
            self.assertEqual(b["time_unit"], "us")  # a 720-state space in microseconds, not 0 ms
            self.assertEqual(b["threads"], 1)  # the library's own key: its threads, not the engine's
            seconds = (b["real_time"] if b["run_name"].endswith("/real_time") else b["cpu_time"]) * 1e-6
            self.assertAlmostEqual(b["items_per_second"] * seconds / 720, 1.0, places=3)  # states per second
            self.assertNotIn("states_per_second", b)


if __name__ == "__main__":
    unittest.main()
