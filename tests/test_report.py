#!/usr/bin/python3
"""Tests of scripts/report.py (scripts/reporting/) on small synthetic run folders, and of
bench_search's Google Benchmark conventions (flags, JSON) when BENCH_SEARCH names the executable.

  python3 tests/test_report.py                      the report tests
  BENCH_SEARCH=build/release/bench/bench_search python3 tests/test_report.py BenchSearchConventions

The commands the report gives per row are checked against the real programs where they are
built: SEARCHBENCH and BENCH_SEARCH name them, else build/release/'s (skipped without them).
"""
import collections
import csv
import glob
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from reporting import commands, document, fmt, index, plots, rounds, stats  # noqa: E402
from reporting.load import Run, RunError  # noqa: E402

MACHINE_A = {"machine": "AMD Test; 2 cores; 8.0 GiB; Linux 6", "cpu_model": "AMD Test", "cores": "2"}
MACHINE_B = {"machine": "Intel Test; 4 cores; 16.0 GiB; Linux 6", "cpu_model": "Intel Test", "cores": "4"}


def bench(name, times_ms, states=720, radius=12, peak=1000, unit="us", label=None, aggregates_only=False, **counters):
    """Google Benchmark 1.7.1 entries of one benchmark: each repetition, then the aggregates."""
    scale = {"us": 1e3, "ms": 1.0}[unit]
    common = {"run_name": name, "time_unit": unit, "states": states, "radius": radius, "peak_bytes": peak, "key_space": 720,
              "repetitions": len(times_ms), **counters}
    if label:
        common["label"] = label
    entries = [dict(common, name=name, run_type="iteration", repetition_index=i, iterations=10, real_time=t * scale,
                    cpu_time=t * scale, items_per_second=states / (t / 1e3)) for i, t in enumerate(times_ms)]
    median, mean = statistics.median(times_ms), statistics.fmean(times_ms)
    sd = statistics.stdev(times_ms) if len(times_ms) > 1 else 0.0
    for agg, value in (("mean", mean), ("median", median), ("stddev", sd), ("cv", sd / mean)):
        entries.append(dict(common, name=f"{name}_{agg}", run_type="aggregate", aggregate_name=agg,
                            real_time=value * (scale if agg != "cv" else 1), cpu_time=value, items_per_second=states / (median / 1e3)))
    return entries[len(times_ms):] if aggregates_only else entries


def make_run(results, run_id, benchmarks, machine=MACHINE_A, commit="aaaaaaa", manifest=None, scale=True, name="bench.json",
             date="2026-01-01T00:00:00Z", **context):
    """A run folder under results/runs/ with one bench file (and a scale file: a complete run)."""
    folder = os.path.join(results, "runs", run_id)
    os.makedirs(folder, exist_ok=True)
    ctx = {"run_date_utc": date, "git_revision": commit, "library_build_type": "release", "command": "scripts/reproduce.sh",
           "host_name": "test", **machine, **context}
    with open(os.path.join(folder, name), "w") as f:
        json.dump({"context": ctx, "benchmarks": [e for b in benchmarks for e in b]}, f)
    if scale:
        with open(os.path.join(folder, "scale.json"), "w") as f:
            json.dump({"context": dict(machine, date=date, git_revision=commit), "runs": []}, f)
    if manifest is not None:
        with open(os.path.join(folder, "run.json"), "w") as f:
            json.dump(dict({"started_utc": date, "complete": True, "dirty": False, "filter": ""}, **manifest), f)
    return folder


def read(path):
    with open(path) as f:
        return f.read()


def built(variable, path):
    """The program a test checks commands against: the environment's, else the build's, else
    None (the test then skips that part)."""
    exe = os.environ.get(variable) or os.path.join(HERE, "..", path)
    return exe if os.path.isfile(exe) and os.access(exe, os.X_OK) else None


# One case of every kind a report shows, by names bench_search registers (with --threads=1,2).
EVERY_KIND = {
    "bfs/ring/cantor/msquare-2x3/threads:1": 720, "bfs/parallel/cantor/msquare-2x3/threads:2/real_time": 720,
    "bfs/parallel-topdown/cantor/msquare-2x3/threads:2/real_time": 720, "bfs/naive/none/msquare-2x3/threads:1": 720,
    "bfs/parallel/cantor/msquare-2x5/threads:2/real_time": 3628800,
    "bfs/explicit-csr/cantor/msquare-2x5/threads:2/real_time": 3628800,
    "bfs/frontier/packed/pancake-8.tws/threads:2/real_time": 40320, "point/bidir/cantor/msquare-2x4/depth:4": 40320,
    "point/bidir/cantor/msquare-2x4/depth:8": 40320, "point/ring/bitpack/checkers-11/random:10": 2772,
    "judge/ring/decimal/sicily1151/all-40320": 40320, "codec/encode/cantor/msquare-2x4/vector": 4096,
    "heuristic/idastar/linear-conflict/tiles-3x3/random:1000:threads:1/real_time": 1000,
}


def section(text, heading):
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.results = self.tmp.name
        os.makedirs(os.path.join(self.results, "runs"))

    def tearDown(self):
        self.tmp.cleanup()

    def report(self, folder):
        document.write_run(folder)
        return read(os.path.join(folder, "report.md"))


class OneRunOneReport(Base):
    def two_machines(self):
        a = make_run(self.results, "20260101T000000Z-aaaaaaa-hosta", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0, 1.1, 1.2, 1.1, 1.0]),
            bench("bfs/ring/cantor/msquare-2x4/threads:1", [10.0, 10.1, 10.2, 10.1, 10.0], states=40320),
            bench("bfs/naive/none/msquare-2x3/threads:1", [30.0, 31.0, 32.0, 31.0, 30.0])], machine=MACHINE_A)
        b = make_run(self.results, "20260202T000000Z-bbbbbbb-hostb", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [7.0, 7.1, 7.2, 7.1, 7.0]),
            bench("bfs/ring/cantor/msquare-2x5/threads:1", [70.0, 70.5, 71.0, 70.5, 70.0], states=3628800)],
            machine=MACHINE_B, commit="bbbbbbb", date="2026-02-02T00:00:00Z")
        return a, b

    def test_each_run_report_holds_only_its_own_rows_and_machine(self):
        a, b = self.two_machines()
        text_a, text_b = self.report(a), self.report(b)
        self.assertIn("| ring | cantor | 1 | 1.10 [1.00, 1.20] |", text_a)
        self.assertIn("msquare-2x4", text_a)
        for foreign in ("msquare-2x5", "7.10", "Intel Test", "bbbbbbb"):
            self.assertNotIn(foreign, text_a)
        for foreign in ("msquare-2x4", "1.10 [1.00, 1.20]", "AMD Test", "aaaaaaa"):
            self.assertNotIn(foreign, text_b)
        self.assertIn("| ring | cantor | 1 | 7.10 [7.00, 7.20] |", text_b)
        with open(os.path.join(a, "benchmarks.csv")) as f:
            self.assertEqual({r["machine"] for r in csv.DictReader(f)}, {MACHINE_A["machine"]})

    def test_a_plot_draws_only_its_run(self):
        a, b = self.two_machines()
        drawn, footers = collections.defaultdict(list), {}
        original = plots.save

        def capture(fig, folder, name, run):
            # The plotted medians: along x in the engines' time panel, along y against size.
            if name.startswith("time-and-memory"):
                values = [x for line in fig.axes[0].get_lines() for x in line.get_xdata()]
            else:
                values = [y for ax in fig.axes for line in ax.get_lines() for y in line.get_ydata()]
            self.assertFalse([p for ax in fig.axes for p in ax.patches], name)  # no bars
            drawn[(run.id, name)] += [round(v, 6) for v in values]
            original(fig, folder, name, run)
            footers[(run.id, name)] = fig.texts[-1].get_text().replace("\n", " ")

        plots.save = capture
        try:
            for folder in (a, b):
                document.write_run(folder)
        finally:
            plots.save = original
        medians = {Run(f).id: {round(r["median"], 6) for r in Run(f).rows} for f in (a, b)}
        self.assertIn(("20260101T000000Z-aaaaaaa-hosta", "time-vs-size.png"), drawn)
        self.assertIn(("20260101T000000Z-aaaaaaa-hosta", "time-and-memory-msquare-2x3.png"), drawn)
        for (run_id, name), values in drawn.items():
            if name.startswith("time"):
                self.assertTrue(values and set(values) <= medians[run_id], (run_id, name, values))
        for (run_id, name), text in footers.items():  # each plot names its run, commit and machine
            machine = MACHINE_A if "aaaaaaa" in run_id else MACHINE_B
            self.assertIn(run_id, text)
            self.assertIn(machine["cpu_model"], text)
        for folder in (a, b):
            for kind in ("png", "svg", "pdf"):
                self.assertTrue(os.path.exists(os.path.join(folder, "time-vs-size." + kind)), kind)

    def test_a_folder_mixing_machines_is_refused(self):
        a, _ = self.two_machines()
        with open(os.path.join(a, "judges.json"), "w") as f:
            json.dump({"context": {"cpu_model": "Intel Test", "cores": 4, "command": "x", "runs": 1}, "totals": []}, f)
        with self.assertRaises(RunError):
            Run(a)

    def test_index_features_the_newest_complete_unfiltered_run_and_lists_every_run(self):
        a, b = self.two_machines()
        make_run(self.results, "20260303T000000Z-ccccccc-hosta", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [3.0] * 5)],
                 commit="ccccccc", date="2026-03-03T00:00:00Z", manifest={"filter": "msquare-2x3"})
        make_run(self.results, "20260304T000000Z-ddddddd-hosta.partial", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [4.0] * 5)],
                 commit="ddddddd")
        index.write(self.results)
        readme = read(os.path.join(self.results, "README.md"))
        featured = readme[:readme.index("## All runs")]
        self.assertIn("[20260202T000000Z-bbbbbbb-hostb](runs/20260202T000000Z-bbbbbbb-hostb/report.md)", featured)
        self.assertIn("7.10 [7.00, 7.20]", featured)
        self.assertNotIn("AMD Test", featured)
        self.assertIn("(runs/20260202T000000Z-bbbbbbb-hostb/time-vs-size.png)", featured)
        runs = section(readme, "## All runs")
        for run_id in ("20260101T000000Z-aaaaaaa-hosta", "20260202T000000Z-bbbbbbb-hostb", "20260303T000000Z-ccccccc-hosta"):
            self.assertIn(f"[report.md](runs/{run_id}/report.md)", runs)
        self.assertIn("| filtered |", runs)
        self.assertNotIn("ddddddd", runs)  # a run still being written


class Statistics(Base):
    def test_bootstrap_ci_of_five_is_their_range_and_reproducible(self):
        times = [1.0, 1.3, 1.1, 1.25, 1.05]
        self.assertEqual(stats.bootstrap_median_ci(times), (1.0, 1.3))
        many = [1.0 + 0.01 * i for i in range(15)]
        low, high = stats.bootstrap_median_ci(many)
        self.assertTrue(1.0 < low < statistics.median(many) < high < 1.14)
        self.assertEqual(stats.bootstrap_median_ci(many), (low, high))
        s = stats.summarize(times)
        self.assertAlmostEqual(s["cv"], statistics.stdev(times) / statistics.fmean(times))

    def test_overlapping_cis_are_a_tie_and_separate_ones_a_fastest(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench("bfs/ring/cantor/tiles-2x3/threads:1", [1.0, 1.2, 1.1, 1.15, 1.05], states=360),
            bench("bfs/ring/nibbles/tiles-2x3/threads:1", [1.1, 1.3, 1.2, 1.25, 1.15], states=360),  # overlaps the first
            bench("bfs/parallel/cantor/tiles-2x3/threads:2", [2.0, 2.1, 2.05, 2.02, 2.08], states=360),
            bench("bfs/parallel/cantor/pancake-6/threads:1", [1.0, 1.01, 1.02, 1.01, 1.0]),
            bench("bfs/ring/cantor/pancake-6/threads:1", [2.0, 2.01, 2.02, 2.01, 2.0])])
        text = self.report(folder)
        tiles = section(text, "### tiles-2x3")
        self.assertIn("Tie for the fastest", tiles)
        self.assertNotIn("Fastest:", tiles)
        self.assertIn("| best median, tie |", tiles)
        # The others: their median / the best's, with the bootstrap CI of that ratio.
        self.assertRegex(tiles, r"\| nibbles \|.*\| 1\.09 \[0\.9\d, 1\.2\d\], tie \|")
        self.assertRegex(tiles, r"\| parallel \| cantor \|.*\| 1\.86 \[1\.\d\d, 2\.\d\d\] \|")
        pancake = section(text, "### pancake-6")
        self.assertIn("Fastest: `parallel` + `cantor`, 1 thread, 1.01 [1.00, 1.02] ms", pancake)
        summary = section(text, "## Summary")
        self.assertIn("| tiles-2x3 | 360 | tie: `ring` + `cantor`, `ring` + `nibbles` |", summary)
        self.assertIn("| pancake-6 | 720 | `parallel` + `cantor` | 1.01 [1.00, 1.02] |", summary)
        self.assertIn("| 0.54 |", summary)  # speedup 1 -> 2 threads for tiles: 1.1 / 2.05

    def test_noisy_rows_are_flagged_and_aggregate_only_rows_decide_nothing(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0, 1.5, 1.0, 1.6, 1.0]),
            bench("bfs/ring/bitpack/msquare-2x3/threads:1", [2.0, 2.0, 2.0], aggregates_only=True)])
        text = self.report(folder)
        self.assertIn("| **24.9%** |", text)
        self.assertIn("Smallest median", section(text, "### msquare-2x3"))
        self.assertIn("`ring` + `cantor` *", section(text, "## Summary"))

    def test_second_round_picks_the_noisiest_cases_that_fit_the_budget(self):
        doc = {"benchmarks": bench("a/1", [1.0, 2.0, 1.0], unit="ms") + bench("b/2", [1.0, 1.01, 1.0], unit="ms")
               + bench("c/3", [100.0, 300.0, 100.0], unit="ms", probe_seconds=0.5)}
        names, seconds = rounds.select(doc, budget_seconds=1.0, repetitions=10)
        self.assertEqual(names, ["a/1"])  # c/3 is noisier but 11 calls of 0.5 s exceed the budget
        self.assertAlmostEqual(seconds, 11 * 10 * 1.0 / 1e3)  # 11 calls of the median repetition: 10 iterations of 1 ms
        self.assertEqual(rounds.filter_regex(["bfs/x/y/z-2x3/threads:1/real_time", "p/a+b"]),
                         "^(bfs/x/y/z-2x3/threads:1/real_time|p/a\\+b)$")

    def test_repetitions_of_two_rounds_are_pooled(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5)])
        make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [2.0] * 10)],
                 name="bench-round2.json", scale=False)
        row = Run(folder).rows[0]
        self.assertEqual((row["n"], row["rounds"], row["median"]), (15, 2, 2.0))


class Outputs(Base):
    def test_csv_has_one_row_per_benchmark_matching_the_json(self):
        times = {"bfs/ring/cantor/msquare-2x3/threads:1": [1.0, 1.1, 1.3, 1.2, 1.0],
                 "bfs/parallel/cantor/msquare-2x3/threads:2/real_time": [0.5, 0.6, 0.55, 0.5, 0.52],
                 "point/bidir/cantor/msquare-2x4/depth:4": [0.01, 0.011, 0.012, 0.01, 0.011]}
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench(n, t, peak=4096) for n, t in times.items()])
        document.write_run(folder)
        with open(os.path.join(folder, "benchmarks.csv")) as f:
            reader = csv.DictReader(f)
            rows = list(reader)
        self.assertEqual(reader.fieldnames[:14], ["kind", "engine", "encoder", "puzzle", "threads", "param", "name", "n", "median_ms",
                                                  "mean_ms", "sd_ms", "ci_low_ms", "ci_high_ms", "cv"])
        for column in ("peak_bytes", "commit", "machine"):
            self.assertIn(column, reader.fieldnames)
        self.assertEqual(sorted(r["name"] for r in rows), sorted(times))
        for r in rows:
            t = times[r["name"]]
            self.assertAlmostEqual(float(r["median_ms"]), statistics.median(t), places=9)
            self.assertAlmostEqual(float(r["mean_ms"]), statistics.fmean(t), places=9)
            self.assertAlmostEqual(float(r["sd_ms"]), statistics.stdev(t), places=9)
            self.assertAlmostEqual(float(r["ci_low_ms"]), min(t), places=9)
            self.assertAlmostEqual(float(r["ci_high_ms"]), max(t), places=9)
            self.assertEqual((r["n"], r["peak_bytes"], r["commit"], r["machine"]), ("5", "4096", "aaaaaaa", MACHINE_A["machine"]))
        self.assertEqual({r["threads"] for r in rows}, {"1", "2", ""})
        table = read(os.path.join(folder, "tables", "whole-space-msquare-2x3.csv"))
        self.assertTrue(table.startswith("engine,encoder,threads,median ms [95% CI]"))

    def test_dirty_and_unquiet_runs_say_so_at_the_top_of_every_page(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa+dirty-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5)],
                          commit="aaaaaaa+dirty", manifest={"dirty": True, "dirty_files": ["core/x.hpp"], "load_before": [1.7, 1, 1]})
        text = self.report(folder)
        top = text[:text.index("## Summary")]
        self.assertIn("**Uncommitted changes.**", top)
        self.assertIn("`core/x.hpp`", top)
        self.assertIn("**Not quiet.**", top)
        index.write(self.results)
        readme = read(os.path.join(self.results, "README.md"))
        self.assertIn("**Uncommitted changes.**", readme[:readme.index("## Summary")])
        clean = make_run(self.results, "20260202T000000Z-bbbbbbb-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5,
                                                                             load1_before=0.1, load1_after=0.2,
                                                                             others_cpu_seconds=0.001, probe_seconds=0.1)],
                         commit="bbbbbbb", manifest={"load_before": [0.1, 0.1, 0.1]})
        text = self.report(clean)
        self.assertNotIn("Uncommitted", text)
        self.assertNotIn("Not quiet", text)
        self.assertIn("Load: quiet by every check: 1-minute load 0.10 before the run", text)
        self.assertIn("Spread: 0 of 1 cases (0%) have a CV above 5%; median CV 0.0%.", text)

    def test_the_judges_check_counts_other_processes_not_the_trailing_load(self):
        """The judges' few seconds of runs leave the 1-minute load showing the benchmarks before
        them: a file with others_cpu_seconds is judged by those, an older one by the load."""
        def judged(run_id, **context):
            folder = make_run(self.results, run_id, [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5, load1_before=0.1,
                                                           load1_after=0.2, others_cpu_seconds=0.001, probe_seconds=0.1)],
                              manifest={"load_before": [0.1, 0.1, 0.1]})
            pair = [{"wall_seconds": [0.01] * 3, "cpu_seconds": [0.01] * 3, "median_wall": 0.01, "median_cpu": 0.01}]
            inputs = [{"judge": "fzu1603", "input": "fzu1603-far", "ours": pair[0], "classic": pair[0], "identical": True}]
            totals = [{"group": "fzu1603: far input", "judge": "fzu1603", "classic": "fzu1603_classic", "inputs": 1,
                       "input_labels": ["fzu1603-far"], "identical": True, "ours_wall": 0.01, "classic_wall": 0.01,
                       "ratio_wall": 1.0, "ours_cpu": 0.01, "classic_cpu": 0.01, "ratio_cpu": 1.0}]
            with open(os.path.join(folder, "judges.json"), "w") as f:
                json.dump({"context": dict(MACHINE_A, command="scripts/judge_speed.py build/release", runs=3,
                                           load_average_before=[0.1, 0.1, 0.1], **context), "totals": totals, "inputs": inputs}, f)
            return self.report(folder)
        trailing = judged("20260101T000000Z-aaaaaaa-h", load_average_after=[1.7, 1, 1], others_cpu_seconds=0.3, probe_seconds=3.0)
        self.assertNotIn("Not quiet", trailing)
        self.assertIn("0.10 cores busy with other processes while the judges ran (limit 0.5)", trailing)
        busy = judged("20260102T000000Z-aaaaaaa-h", load_average_after=[0.2, 1, 1], others_cpu_seconds=2.4, probe_seconds=3.0)
        self.assertIn("**Not quiet.**", busy)
        self.assertIn("0.80 cores busy with other processes while the judges ran", busy)
        older = judged("20260103T000000Z-aaaaaaa-h", load_average_after=[1.7, 1, 1])
        self.assertIn("1-minute load 1.70 after the judges' runs (at most 1.5 expected)", older)

    def test_busy_cases_are_marked(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5,
                                                                              load1_before=0.2, load1_after=0.3,
                                                                              others_cpu_seconds=0.08, probe_seconds=0.1)])
        text = self.report(folder)
        self.assertIn("0.0% †", text)
        conditions = section(text, "## Run conditions")
        self.assertIn("| msquare-2x3 | 1 | 0 | 0.0% | 0.0% | 1 |", conditions)  # one line per puzzle
        self.assertIn("[flagged-cases.csv](tables/flagged-cases.csv)", conditions)
        self.assertIn("bfs/ring/cantor/msquare-2x3/threads:1,busy,", read(os.path.join(folder, "tables", "flagged-cases.csv")))
        self.assertIn("**Not quiet.**", text)

    def test_numbers_are_formatted_for_reading(self):
        self.assertEqual(fmt.count(4.4e12), "4.4T")
        self.assertEqual(fmt.count(2772), "2,772")
        self.assertEqual(fmt.ratio(0.0042), "0.0042")
        self.assertEqual(fmt.ratio(31 / 3.5), "8.86")
        self.assertEqual(fmt.ratio(1234.5), "1,234")
        self.assertEqual(fmt.sd(0.00052), "0.00052")
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench("bfs/ring/bitpack/cube2-htm/threads:1", [1.0] * 5, key_space=4.4e12),
            bench("bfs/naive/none/cube2-htm/threads:1", [0.001] * 5)])
        text = self.report(folder)
        self.assertNotIn("e+", text)
        self.assertIn("| 4.4T |", text)
        self.assertIn("| 0.001 |", text)  # x naive of a row 1,000 times slower than naive: never 0.0

    def test_heuristic_search_has_its_own_section_with_the_build_apart(self):
        name = "heuristic/idastar/pdb/tiles-4x4/korf100:threads:2"
        label = "kind=heuristic engine=idastar encoder=pdb puzzle=tiles-4x4 param=korf100:threads:2"
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench(name, [6000.0, 6100.0, 6050.0, 5990.0, 6020.0], unit="ms", label=label, generated_per_second=1.9e7,
                  instance_seconds_median=0.02, instance_seconds_max=0.91, heuristic_build_seconds=14.5,
                  generated=1.182e8, instances=100)])
        text = section(self.report(folder), "## Heuristic search")
        row = next(line for line in text.splitlines() if line.startswith("| tiles-4x4"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        self.assertEqual(cells[:5], ["tiles-4x4", "korf100", "idastar", "pdb", "2"])
        self.assertEqual(cells[-6:-1], ["20.0 ms", "910 ms", "1,182,000", "19M", "14,500 ms"])
        self.assertEqual(cells[-1], f"`bench_search --benchmark_filter='^{name}$'`")  # its starts are bench_search's
        self.assertIn("not measured here", text)
        self.assertNotIn(name, section(self.report(folder), "## Other benchmarks") if "## Other benchmarks" in
                         self.report(folder) else "")

    def test_parallel_speedup_stands_beside_its_side_by_side_ceiling(self):
        rows = []
        for param, times in [("korf100:7-8:threads:1", [320.0, 322.0, 318.0, 321.0, 319.0]),
                             ("korf100:7-8:threads:2", [200.0, 201.0, 199.0, 202.0, 198.0]),
                             ("korf100:7-8:side-by-side:threads:2", [160.0, 161.0, 159.0, 162.0, 158.0])]:
            rows.append(bench(f"heuristic/idastar/pdb/tiles-4x4/{param}/real_time", times, unit="ms",
                              label=f"kind=heuristic engine=idastar encoder=pdb puzzle=tiles-4x4 param={param}",
                              generated=3.8e6, instances=100))
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", rows)
        text = section(self.report(folder), "## Heuristic search")
        row = next(line for line in text.splitlines() if line.startswith("| tiles-4x4 | korf100:7-8 | idastar | pdb | 2 | 320"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        self.assertEqual(cells[5:7], ["320", "200"])
        self.assertTrue(cells[7].startswith("1.60 ["), cells[7])  # 320 / 200, with its interval
        self.assertEqual(cells[8], "160")
        self.assertTrue(cells[9].startswith("2.00 ["), cells[9])  # 320 / 160
        self.assertEqual(cells[10], "80.0%")
        # The side-by-side row is in the main table too, under its own set name.
        self.assertIn("| tiles-4x4 | korf100:7-8:side-by-side | idastar | pdb | 2 |", text)

    def test_a_pipe_in_a_cell_does_not_split_the_table_row(self):
        make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5)],
                 command="scripts/reproduce.sh --filter 'a|b'")
        index.write(self.results)
        row = next(line for line in read(os.path.join(self.results, "README.md")).splitlines() if "--filter" in line and "| [report" in line)
        self.assertIn("'a\\|b'", row)

    def test_fields_in_a_label_win_over_the_name_and_old_judge_names_are_read(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench("bfs/whatever/x/y/threads:1", [1.0] * 5, label="kind=bfs engine=ring encoder=cantor puzzle=msquare-2x3 param=threads:1"),
            bench("judge/sicily1151/ring/octal/all-40320", [7.0] * 5)])
        text = self.report(folder)
        self.assertIn("### msquare-2x3", text)
        self.assertIn("| ring | cantor | 1 |", text)
        self.assertIn("| ring | octal | all-40320 |", section(text, "## Judge throughput: sicily1151"))

    def test_thread_scaling_within_the_run(self):
        many = [bench(f"bfs/parallel/enc{i}/big-9/threads:{t}", [10.0 / t] * 5, states=200_000)
                for i in range(12) for t in (1, 2, 4)]
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", many)
        scaling = section(self.report(folder), "## Thread scaling")
        self.assertIn("| big-9 | parallel | enc0 | 4 | 2.50 [2.50, 2.50] | 2.50 ± 0 | 0.0% | 4.00 [4.00, 4.00] | 1.00 |", scaling)
        self.assertTrue(os.path.exists(os.path.join(folder, "states-per-second-vs-threads.png")))
        # A panel too full is split by engine, evenly: never a last panel with the one line left over.
        keys = [("p", "ring", f"e{i}") for i in range(6)] + [("p", "parallel", f"e{i}") for i in range(5)]
        self.assertEqual(sorted(len(c) for c in plots.split_by_engine(keys, 10)), [5, 6])
        self.assertEqual([len(c) for c in plots.split_by_engine(keys, 16)], [11])

    def every_kind(self, run_id="20260101T000000Z-aaaaaaa-h", **kwargs):
        label = lambda name: "kind={} engine={} encoder={} puzzle={} param={}".format(*name.split("/")[:5])  # as bench_search labels
        folder = make_run(self.results, run_id, [bench(n, [1.0, 1.1, 1.2, 1.1, 1.0], states=s, label=label(n))
                                                 for n, s in EVERY_KIND.items()], **kwargs)
        return folder, self.report(folder)

    def test_every_row_carries_the_command_that_runs_it_again(self):
        folder, text = self.every_kind()
        rows = {line for line in text.splitlines() if line.startswith("| ")}
        run = "`searchbench run --puzzle msquare-2x3 --engine "
        whole = section(text, "### msquare-2x3")
        for shown, command in (("ring | cantor | 1", run + "ring --encoder cantor`"),
                               ("parallel | cantor | 2", run + "parallel --encoder cantor --threads 2`"),
                               ("parallel --top-down | cantor | 2", run + "parallel --top-down --encoder cantor --threads 2`"),
                               ("naive | none | 1", run + "naive`")):  # naive keeps whole states: no encoder
            self.assertTrue(any(r.startswith(f"| {shown} |") and r.endswith(f"| {command} |") for r in rows), (shown, whole))
        self.assertIn("| `searchbench run --puzzle pancake-8.tws --engine frontier --encoder packed --threads 2` |", text)
        # A yardstick that is no engine: named so, and bench_search's filter selecting it alone.
        self.assertIn("| explicit-csr (bench_search yardstick) | cantor | 2 |", text)
        csr = "`bench_search --threads=2 --benchmark_filter='^bfs/explicit-csr/cantor/msquare-2x5/threads:2/real_time$'`"
        self.assertIn(f"| {csr} |", section(text, "### msquare-2x5"))
        self.assertIn(f"| `searchbench run --puzzle msquare-2x5 --engine parallel --encoder cantor --threads 2` | {csr} |",
                      section(text, "## Against the GAP-style BFS"))
        self.assertIn(f"| {run}parallel --encoder cantor --threads 2` | {run}parallel --top-down --encoder cantor --threads 2` |",
                      section(text, "## Direction-optimizing levels"))
        # Point queries and judges: their targets are bench_search's; a line of depths is one filter.
        self.assertIn("| bidir | cantor | 1.10 [1.00, 1.20] | 1.10 [1.00, 1.20] | "
                      "`bench_search --benchmark_filter='^point/bidir/cantor/msquare-2x4/depth:(4\\|8)$'` |", text)
        with open(os.path.join(folder, "tables", "point-queries-msquare-2x4.csv")) as f:
            self.assertEqual(list(csv.reader(f))[1][-1], "bench_search --benchmark_filter='^point/bidir/cantor/msquare-2x4/depth:(4|8)$'")
        self.assertIn("| `bench_search --benchmark_filter='^point/ring/bitpack/checkers-11/random:10$'` |", text)
        self.assertIn("| `bench_search --benchmark_filter='^judge/ring/decimal/sicily1151/all-40320$'` |",
                      section(text, "## Judge throughput: sicily1151"))
        self.assertIn("| `bench_search --benchmark_filter='^codec/encode/cantor/msquare-2x4/vector$'` |", text)
        heuristic = "`bench_search --benchmark_filter='^heuristic/idastar/linear-conflict/tiles-3x3/random:1000:threads:1/real_time$'`"
        self.assertIn(f"| {heuristic} |", section(text, "## Heuristic search"))
        # No row names an engine the command line refuses.
        self.assertFalse([r for r in rows if "| parallel-topdown |" in r or "--engine parallel-topdown" in r or
                          re.match(r"\| explicit-csr \|", r)])
        with open(os.path.join(folder, "benchmarks.csv")) as f:
            by_name = {r["name"]: r["reproduce"] for r in csv.DictReader(f)}
        self.assertEqual(by_name["bfs/naive/none/msquare-2x3/threads:1"], "searchbench run --puzzle msquare-2x3 --engine naive")
        self.assertEqual(set(by_name), set(EVERY_KIND))

    def test_bench_search_commands_register_their_case_and_escape_its_name(self):
        self.assertEqual(commands.name_filter(["bfs/ring/packed/pancake-8.tws/threads:1"]), r"^bfs/ring/packed/pancake-8\.tws/threads:1$")
        self.assertEqual(commands.name_filter(["bfs/a/b/c-2x3/threads:1/real_time", "bfs/a/b/c-2x3/threads:2/real_time"]),
                         "^bfs/a/b/c-2x3/threads:(1|2)/real_time$")
        self.assertEqual(commands.name_filter(["x/a+b", "x/a+c"]), r"^x/(a\+b|a\+c)$")
        # A run made with --full: its cases may exist only there. Encoders since renamed get today's name.
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench("heuristic/idastar/pdb/tiles-4x4/korf100:7-8:threads:2/real_time", [1.0] * 5),
            bench("bfs/ring/octal/msquare-2x3/threads:1", [1.0] * 5)], manifest={"command": "scripts/reproduce.sh --full"})
        text = self.report(folder)
        self.assertIn("| `bench_search --full --benchmark_filter='^heuristic/idastar/pdb/tiles-4x4/korf100:7-8:threads:2/real_time$'` |",
                      text)
        self.assertIn("| `searchbench run --puzzle msquare-2x3 --engine ring --encoder bitpack` |", text)

    def test_every_searchbench_command_names_an_engine_of_the_command_line_and_parses(self):
        exe = built("SEARCHBENCH", "build/release/searchbench")
        if not exe:
            self.skipTest("no searchbench built (SEARCHBENCH names it)")
        listed = json.loads(subprocess.run([exe, "list", "--json"], capture_output=True, text=True, check=True, timeout=60).stdout)
        engines = {e["name"]: e for e in listed["engines"]}
        encoders = {enc for fam in listed["families"] for enc in fam.get("encoders", [])}
        folder, text = self.every_kind()
        made = re.findall(r"`(searchbench run [^`]*)`", text)
        self.assertEqual(len(made), 6 + 3)  # the whole-space rows, and the GAP and direction tables' again
        pages = [os.path.join(HERE, "..", "results", "README.md")] + glob.glob(os.path.join(HERE, "..", "results", "runs", "*", "report.md"))
        kept = [c for page in pages if os.path.exists(page) for c in re.findall(r"`(searchbench run [^`]*)`", read(page))]
        for command in set(made + kept):
            with self.subTest(command=command):
                words = shlex.split(command)
                self.assertEqual(words[:2], ["searchbench", "run"])
                given, i = {}, 2
                while i < len(words):
                    self.assertTrue(words[i].startswith("--"), words[i])
                    has_value = i + 1 < len(words) and not words[i + 1].startswith("--")
                    given[words[i]] = words[i + 1] if has_value else True
                    i += 2 if has_value else 1
                self.assertIn(given.get("--engine"), engines)
                allowed = set(engines[given["--engine"]]["options"])
                self.assertEqual(set(given) - allowed, set(), f"options engine {given['--engine']} does not take")
                if "--encoder" in given:
                    self.assertIn(given["--encoder"], encoders)
        for command in dict.fromkeys(made):  # the small spaces of the synthetic run: the command line takes them as printed
            with self.subTest(runs=command):
                proc = subprocess.run([exe] + shlex.split(command)[1:] + ["--max-depth", "1", "--quiet"], capture_output=True, text=True,
                                      timeout=120)
                self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_every_bench_search_command_selects_its_cases_alone(self):
        exe = built("BENCH_SEARCH", "build/release/bench/bench_search")
        if not exe:
            self.skipTest("no bench_search built (BENCH_SEARCH names it)")
        _, text = self.every_kind()
        made = [fmt.plain(c) for c in re.findall(r"`(bench_search [^`]*)`", text)]
        self.assertEqual(len(made), 7)  # explicit-csr (twice), the depths, random targets, judge, codec, heuristic
        listing = subprocess.run([exe, "--threads=1,2", "--benchmark_list_tests"], capture_output=True, text=True, timeout=300)
        self.assertEqual(listing.returncode, 0, listing.stderr)
        registered = listing.stdout.split()
        for command in made:
            with self.subTest(command=command):
                words = shlex.split(command)
                self.assertEqual(words[0], "bench_search")
                self.assertTrue(set(words[1:-1]) <= {"--threads=2"}, words)
                pattern = words[-1].split("=", 1)[1]
                chosen = {n for n in registered if re.search(pattern, n)}
                self.assertTrue(chosen and chosen <= set(EVERY_KIND), chosen)
        # The library reads the filter of a line of depths as Python does.
        depths = next(c for c in made if "depth:" in c)
        proc = subprocess.run([exe] + shlex.split(depths)[1:] + ["--benchmark_list_tests"], capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.stdout.split(), ["point/bidir/cantor/msquare-2x4/depth:4", "point/bidir/cantor/msquare-2x4/depth:8"])

    def test_long_runs_page_shows_the_finished_run_and_one_line_per_stopped_attempt(self):
        os.makedirs(os.path.join(self.results, "long"))
        context = {"date": "2026-01-01T00:00:00Z", "git_revision": "bbbbbbb", "machine": "Test CPU"}
        docs = {"long-msquare-2x3-in-memory.json": {"puzzle": "msquare-2x3", "engine": "parallel", "context": context,
                                                    "depth_counts": [1, 3, 7], "known_states": 720, "note": "Stopped on purpose.",
                                                    "invocations": [{"start": "2026-01-01T00:00:00Z", "status": "killed"}]},
                "long-msquare-2x3-rerun.json": {
                    "puzzle": "msquare-2x3", "engine": "external", "context": context, "depth_counts": [1, 3], "known_states": 4,
                    "finished": True, "invocations": [
                        {"start": "2026-01-01T00:00:00Z", "status": "stopped", "exit_status": -15, "progress": [[1, 3, 2.5]]},
                        {"start": "2026-01-01T01:00:00Z", "status": "finished", "exit_status": 0}],
                    "sample_checks_context": {"date": "2026-01-02T00:00:00Z", "git_revision": "ccccccc", "rows_from_earlier_checks": 1},
                    "sample_checks": [{"depth": 1, "state": "x", "bidir_distance": 1, "seconds": 0.1, "agrees": True}]}}
        for name, doc in docs.items():
            with open(os.path.join(self.results, "long", name), "w") as f:
                json.dump(doc, f)
        index.write(self.results)
        text = read(os.path.join(self.results, "long-runs.md"))
        finished = section(text, "## msquare-2x3 out of core (finished: 4 states, radius 1 = the size of the space)")
        self.assertIn("| stopped: by signal 15 |", finished)
        self.assertIn("| 1 | 3 | 4 | 2.5 |", finished)
        self.assertIn("1 of 1 states the run found at a depth were found by `--engine bidir`", finished)
        stopped = section(text, "## Stopped attempts")
        self.assertIn("- [long-msquare-2x3-in-memory.json](long/long-msquare-2x3-in-memory.json): msquare-2x3 in memory, "
                      "stopped: 3 depths done, 11 states so far", stopped)
        self.assertEqual(text.count("## msquare-2x3"), 1)
        self.assertIn("[long-runs.md](long-runs.md)", read(os.path.join(self.results, "README.md")))


class DamagedFolders(Base):
    """A damaged run folder gets one line naming the file (never a traceback); the index skips
    it, and folders with no run record, with a line each; the report never writes through a
    link."""
    SCRIPT = os.path.join(HERE, "..", "scripts", "report.py")

    def report_py(self, *args):
        return subprocess.run(["/usr/bin/python3", self.SCRIPT, *args], capture_output=True, text=True, timeout=120)

    def good(self, run_id="20260101T000000Z-aaaaaaa-hosta"):
        return make_run(self.results, run_id, [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0, 1.1, 1.2, 1.1, 1.0])],
                        manifest={})

    def test_each_damage_is_one_line_naming_the_file(self):
        good = self.good()
        damages = {
            "bench.json": ['{"benchmarks": [', '[1, 2]', '{"benchmarks": "x"}',
                           json.dumps({"benchmarks": [{"name": "a", "real_time": 0, "time_unit": "ms"}]}),
                           json.dumps({"benchmarks": [{"name": "a", "real_time": 1, "time_unit": "weeks"}]}),
                           json.dumps({"benchmarks": [{"real_time": 1, "time_unit": "ms"}]})],
            "run.json": ["garbage", "[]"],
            "scale.json": ['{"runs": 5}', "\x00"],
        }
        for name, texts in damages.items():
            for text in texts:
                with self.subTest(file=name, text=text[:30]):
                    folder = make_run(self.results, "20260102T000000Z-bbbbbbb-hostb", [], manifest={})
                    with open(os.path.join(folder, name), "w") as f:
                        f.write(text)
                    proc = self.report_py("run", folder)
                    self.assertEqual(proc.returncode, 1)
                    self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
                    self.assertIn(os.path.join(folder, name), proc.stderr)
                    self.assertNotIn("Traceback", proc.stderr)
                    # The index skips it with a line and indexes the good run.
                    proc = self.report_py("index", self.results)
                    self.assertEqual(proc.returncode, 0, proc.stderr)
                    self.assertIn("skipping a damaged run folder", proc.stderr)
                    self.assertIn(os.path.basename(good), read(os.path.join(self.results, "README.md")))

    def test_a_folder_without_a_run_record_is_not_indexed(self):
        self.good()
        os.makedirs(os.path.join(self.results, "runs", "junk"))
        proc = self.report_py("index", self.results)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("skipping", proc.stderr)
        self.assertNotIn("junk", read(os.path.join(self.results, "README.md")))

    def test_links_are_never_written_through(self):
        folder = self.good()
        outside = os.path.join(self.tmp.name, "outside")
        with open(outside, "w") as f:
            f.write("precious")
        for name in ("report.md", "benchmarks.csv", "tables"):
            with self.subTest(name=name):
                target = os.path.join(folder, name)
                if os.path.isdir(target) and not os.path.islink(target):
                    subprocess.run(["rm", "-rf", target], check=True)
                elif os.path.lexists(target):
                    os.unlink(target)
                os.symlink(outside if name != "tables" else self.tmp.name, target)
                proc = self.report_py("run", folder)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn("left as it is", proc.stderr)
                self.assertEqual(read(outside), "precious")
                os.unlink(target)


@unittest.skipUnless(os.environ.get("BENCH_SEARCH"), "BENCH_SEARCH names the bench_search executable")
class BenchSearchConventions(unittest.TestCase):
    def run_bench(self, *args):
        return subprocess.run([os.environ["BENCH_SEARCH"], *args], capture_output=True, text=True, timeout=120)

    def test_unknown_flags_are_refused_with_one_line(self):
        for bad in ("--benchmark_fliter=x", "--fulll", "extra", "--threads=0", "--threads=1,,2", "--threads=two",
                    "--benchmark_format=xml", "--benchmark_out_format=yaml"):
            with self.subTest(bad=bad):
                proc = self.run_bench(bad)
                self.assertEqual(proc.returncode, 2)
                self.assertEqual(proc.stdout, "")
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
                self.assertIn("bench_search:", proc.stderr)

    def test_a_filter_that_selects_nothing_is_refused(self):
        for bad in ("zzz_matches_nothing", "["):
            with self.subTest(bad=bad):
                for listing in ((), ("--benchmark_list_tests",)):
                    proc = self.run_bench("--benchmark_filter=" + bad, *listing)
                    self.assertEqual(proc.returncode, 2, proc.stderr)
                    self.assertIn("bench_search: --benchmark_filter selects no benchmark", proc.stderr)

    def test_thread_list_names_the_parallel_benchmarks(self):
        proc = self.run_bench("--threads=1,3", "--benchmark_list_tests", "--benchmark_filter=^bfs/parallel/cantor/msquare-2x3/")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.split(), ["bfs/parallel/cantor/msquare-2x3/threads:1/real_time",
                                               "bfs/parallel/cantor/msquare-2x3/threads:3/real_time"])

    def test_json_keeps_repetitions_load_counters_and_the_library_conventions(self):
        proc = self.run_bench("--threads=2", "--benchmark_filter=^bfs/(ring|parallel)/cantor/msquare-2x3/",
                              "--benchmark_repetitions=2", "--benchmark_min_time=0.01", "--benchmark_format=json",
                              "--benchmark_enable_random_interleaving=true", "--benchmark_context=run_date_utc=x")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        duplicates = []

        def no_duplicate_keys(pairs):
            counts = collections.Counter(k for k, _ in pairs)
            duplicates.extend(k for k, n in counts.items() if n > 1)
            return dict(pairs)

        doc = json.loads(proc.stdout, object_pairs_hook=no_duplicate_keys)
        self.assertEqual(duplicates, [])  # no counter shadows a key of the library (threads), no context key twice
        iterations = [b for b in doc["benchmarks"] if b["run_type"] == "iteration"]
        names = collections.Counter(b["run_name"] for b in iterations)
        self.assertEqual(sorted(names.values()), [2, 2])  # every repetition kept
        for b in iterations:
            self.assertEqual(b["time_unit"], "us")  # a 720-state space in microseconds, not 0 ms
            self.assertEqual(b["threads"], 1)  # the library's own key: its threads, not the engine's
            seconds = (b["real_time"] if b["run_name"].endswith("/real_time") else b["cpu_time"]) * 1e-6
            self.assertAlmostEqual(b["items_per_second"] * seconds / 720, 1.0, places=3)  # states per second
            self.assertNotIn("states_per_second", b)
            self.assertGreaterEqual(b["load1_before"], 0)  # the load around the repetition
            self.assertGreaterEqual(b["load1_after"], 0)
            self.assertGreater(b["probe_seconds"], 0)
            self.assertIn("others_cpu_seconds", b)


if __name__ == "__main__":
    unittest.main()
