#!/usr/bin/env python3
"""Tests of scripts/report.py's figures: rates from the clock of the time beside them, the
measured "quiet", ratios with their CIs, the plots' formats and colours, the compressed raw
files, and the one-line message for a missing module. Small synthetic run folders, as in
tests/test_report.py.

  python3 tests/test_report_figures.py
"""
import csv
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_report import Base, bench, make_run, read, section  # noqa: E402
from reporting import document, fmt, index, plots, raw, stats  # noqa: E402
from reporting.load import Run  # noqa: E402

SCRIPT = os.path.join(HERE, "..", "scripts", "report.py")


def serial(name, real_ms, cpu_ms, states=720):
    """A serial case as Google Benchmark writes it: items_per_second from the CPU time."""
    entries = bench(name, real_ms, states=states)
    reps = [e for e in entries if e["run_type"] == "iteration"]
    for e, real, cpu in zip(reps, real_ms, cpu_ms):
        e.update(real_time=real * 1e3, cpu_time=cpu * 1e3, items_per_second=states / (cpu / 1e3))
    return reps


class Rates(Base):
    def test_a_rate_comes_from_the_wall_clock_median(self):
        # The CPU time is half the wall time (the process waited for a core half the time).
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            serial("bfs/ring/cantor/msquare-2x3/threads:1", [2.0, 2.0, 2.0, 2.0, 2.0], [1.0] * 5),
            bench("bfs/parallel/cantor/msquare-2x3/threads:2/real_time", [1.0] * 5)])
        rows = {r["engine"]: r for r in Run(folder).rows}
        self.assertAlmostEqual(rows["ring"]["rate"], 720 / 2e-3)  # states / median wall seconds
        self.assertAlmostEqual(rows["ring"]["rate_library"], 720 / 1e-3)  # the library's, from the CPU time
        self.assertAlmostEqual(rows["parallel"]["rate"], 720 / 1e-3)
        document.write_run(folder)
        table = section(read(os.path.join(folder, "report.md")), "### msquare-2x3")
        self.assertIn("states/s (wall)", table)
        self.assertRegex(table, r"\| ring \| cantor \| 1 \| 2\.00 .*\| 360k \|")
        with open(os.path.join(folder, "benchmarks.csv")) as f:
            ring = next(r for r in csv.DictReader(f) if r["engine"] == "ring")
        self.assertAlmostEqual(float(ring["items_per_wall_second"]), 360000)
        self.assertAlmostEqual(float(ring["items_per_second_gbench"]), 720000)


class Ratios(Base):
    def test_the_ratio_of_medians_has_a_seeded_bootstrap_ci(self):
        slow, fast = [2.0, 2.1, 2.2, 2.05, 2.15], [1.0, 1.02, 1.01, 0.99, 1.03]
        low, high = stats.bootstrap_ratio_of_medians(slow, fast)
        self.assertLess(low, 2.1 / 1.01)
        self.assertGreater(high, 2.1 / 1.01)
        self.assertTrue(2.0 / 1.03 <= low <= high <= 2.2 / 0.99)  # the order statistics bound it
        self.assertEqual(stats.bootstrap_ratio_of_medians(slow, fast), (low, high))  # the same every time
        self.assertEqual(stats.bootstrap_ratio_of_medians([3.0] * 5, [1.5] * 5), (2.0, 2.0))
        self.assertIsNone(stats.bootstrap_ratio_of_medians([1.0], fast))
        ratio = stats.ratio_ci({"median": 2.1, "times": slow}, {"median": 1.01, "times": fast})
        self.assertEqual(ratio, (2.1 / 1.01, low, high))
        self.assertRegex(fmt.ratio_ci(ratio), r"^2\.08 \[\d\.\d\d, \d\.\d\d\]$")

    def test_aggregate_only_rows_get_a_ratio_without_ci(self):
        self.assertEqual(stats.ratio_ci({"median": 2.0, "times": []}, {"median": 1.0, "times": [1.0, 1.1]}), (2.0, None, None))


class Quiet(Base):
    def test_quiet_is_a_claim_in_figures_and_noisy_cases_fold_per_puzzle(self):
        noisy = [1.0, 1.5, 1.0, 1.6, 1.0]
        load = dict(load1_before=0.2, load1_after=0.3, others_cpu_seconds=0.001, probe_seconds=0.1)
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [
            bench(f"bfs/ring/enc{i}/msquare-2x3/threads:1", noisy, **load) for i in range(30)] + [
            bench("bfs/ring/cantor/pancake-6/threads:1", [1.0] * 5, **load)], manifest={"load_before": [0.1, 0.1, 0.1]})
        document.write_run(folder)
        text = read(os.path.join(folder, "report.md"))
        top = text[:text.index("## Summary")]
        self.assertIn("Load: quiet by every check: 1-minute load 0.10 before the run; at most 0.30 during a case", top)
        self.assertIn("Spread: 30 of 31 cases (97%) have a CV above 5%; median CV 24.9%.", top)
        conditions = section(text, "## Run conditions")
        self.assertIn("| msquare-2x3 | 30 | 30 | 24.9% | 24.9% | 0 |", conditions)
        self.assertNotIn("pancake-6 |", conditions)
        self.assertNotIn("bfs/ring/enc0", conditions)  # the list is in the CSV, not on the page
        with open(os.path.join(folder, "tables", "flagged-cases.csv")) as f:
            self.assertEqual(len(list(csv.DictReader(f))), 30)
        index.write(self.results)
        self.assertIn("| yes | 97% |", read(os.path.join(self.results, "README.md")))


class Plots(Base):
    def test_every_plot_in_three_formats_one_colour_per_engine_error_bars_no_bars(self):
        cases = [bench(f"bfs/{engine}/{enc}/{p}/threads:{t}", [m * s * (1 + 0.02 * i) / t for i in range(5)], states=s)
                 for engine, m in (("ring", 1e-4), ("parallel", 5e-5), ("naive", 1e-3))
                 for enc in ("cantor", "bitpack") for p, s in (("msquare-2x4", 40320), ("msquare-2x5", 3628800))
                 for t in (1, 2) if engine == "parallel" or t == 1]
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", cases)
        seen, original = [], plots.save

        def capture(fig, folder_, name, run):
            for ax in fig.axes:
                self.assertFalse(ax.patches, name)  # dots and lines, no bars
                for series in ax.containers:
                    engine, encoder = series.get_label().split(" / ")
                    seen.append((name, engine, series.lines[0].get_color(), series.lines[0].get_marker()))
            self.assertTrue(fig.axes[0].collections, name)  # the medians' error bars
            original(fig, folder_, name, run)

        plots.save = capture
        try:
            _, drawn = document.write_run(folder)
        finally:
            plots.save = original
        self.assertEqual({n for n, _ in drawn}, {"time-and-memory-msquare-2x5.png", "states-per-second-vs-threads.png",
                                                 "time-vs-size.png"})
        colours = {}
        for name, engine, colour, _ in seen:
            colours.setdefault(engine, set()).add(colour)
        self.assertEqual({e: len(c) for e, c in colours.items()}, {"ring": 1, "parallel": 1, "naive": 1})
        self.assertEqual(colours["ring"], {plots.ENGINE_COLOURS["ring"]})
        report = read(os.path.join(folder, "report.md"))
        for name, _ in drawn:
            stem = name[:-4]
            for kind in plots.FORMATS:
                self.assertTrue(os.path.exists(os.path.join(folder, f"{stem}.{kind}")), (stem, kind))
            self.assertIn(f"[SVG]({stem}.svg), [PDF]({stem}.pdf)", report)
        before = {k: read(os.path.join(folder, "time-vs-size." + k)) for k in ("svg",)}
        document.write_run(folder)
        self.assertEqual(before["svg"], read(os.path.join(folder, "time-vs-size.svg")))  # no date, no random ids

    def test_the_featured_run_alone_keeps_its_plots(self):
        older = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5),
                                                                      bench("bfs/ring/bitpack/msquare-2x3/threads:1", [2.0] * 5)])
        newer = make_run(self.results, "20260202T000000Z-bbbbbbb-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [1.0] * 5),
                                                                      bench("bfs/ring/bitpack/msquare-2x3/threads:1", [2.0] * 5)],
                         commit="bbbbbbb", date="2026-02-02T00:00:00Z")
        document.write_run(older)
        self.assertTrue(plots.has_plots(older))
        index.write(self.results)
        self.assertFalse(plots.has_plots(older))
        self.assertIn("draws this run's from its raw files", read(os.path.join(older, "report.md")))
        self.assertTrue(os.path.exists(os.path.join(newer, "time-and-memory-msquare-2x3.svg")))

    def test_new_engines_and_encoders_get_a_stable_colour_and_marker(self):
        self.assertEqual(plots.colour("someday"), plots.colour("someday"))
        self.assertIn(plots.colour("someday"), plots.SPARE_COLOURS)
        self.assertIn(plots.marker("newenc"), plots.SPARE_MARKERS)


class Compressed(Base):
    def test_a_folder_reads_the_same_compressed_and_the_index_compresses_it(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1",
                                                                             [1.0, 1.1, 1.2, 1.1, 1.0])], manifest={})
        make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("bfs/ring/cantor/msquare-2x3/threads:1", [2.0] * 10)],
                 name="bench-round2.json", scale=False)
        plain = Run(folder).rows
        document.write_run(folder)
        index.write(self.results)
        self.assertEqual(sorted(os.listdir(folder))[:2], ["bench-round2.json.gz", "bench.json.gz"])
        self.assertFalse(os.path.exists(os.path.join(folder, "bench.json")))
        self.assertEqual([r["median"] for r in Run(folder).rows], [r["median"] for r in plain])
        self.assertEqual(Run(folder).rows[0]["n"], 15)
        report = read(os.path.join(folder, "report.md"))  # made again: its links name the files there now
        self.assertIn("[bench.json.gz](bench.json.gz)", report)
        with gzip.open(os.path.join(folder, "bench.json.gz"), "rt") as f:
            self.assertIn("benchmarks", json.load(f))
        first = read_bytes(os.path.join(folder, "bench.json.gz"))
        with gzip.open(os.path.join(folder, "bench.json.gz"), "rb") as f:
            data = f.read()
        with open(os.path.join(folder, "bench.json"), "wb") as f:  # both forms (a compression cut short)
            f.write(data)
        self.assertEqual(len(Run(folder).files["bench"]), 2)  # one per name, not three
        self.assertEqual(raw.compress(folder), ["bench.json.gz"])
        self.assertEqual(read_bytes(os.path.join(folder, "bench.json.gz")), first)  # the same bytes again

    def test_the_second_round_reads_a_compressed_first_round(self):
        folder = make_run(self.results, "20260101T000000Z-aaaaaaa-h", [bench("a/1", [1.0, 2.0, 1.0], unit="ms")])
        raw.compress(folder)
        proc = subprocess.run([sys.executable, SCRIPT, "noisy", os.path.join(folder, "bench.json.gz"), "60", "10"],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.strip(), "^(a/1)$")


class MissingModule(unittest.TestCase):
    def test_a_missing_module_is_one_line_saying_how_to_install_it(self):
        with tempfile.TemporaryDirectory() as fake:
            os.makedirs(os.path.join(fake, "numpy"))
            with open(os.path.join(fake, "numpy", "__init__.py"), "w") as f:
                f.write("raise ModuleNotFoundError(\"No module named 'numpy'\", name='numpy')\n")
            env = dict(os.environ, PYTHONPATH=fake)
            proc = subprocess.run([sys.executable, SCRIPT, "index", fake], capture_output=True, text=True, env=env, timeout=60)
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        for words in ("'numpy' is missing", "pip install -r scripts/requirements.txt", "apt install python3-numpy"):
            self.assertIn(words, proc.stderr)
        with open(SCRIPT) as f:
            self.assertEqual(f.readline().strip(), "#!/usr/bin/env python3")
        requirements = read(os.path.join(HERE, "..", "scripts", "requirements.txt"))
        for module in ("numpy", "scipy", "matplotlib"):
            self.assertIn(module, requirements)


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


if __name__ == "__main__":
    unittest.main()
