#!/usr/bin/python3
"""scripts/out_of_core_projection.py on synthetic inputs made from known costs: the fit finds
the per-state and per-pass costs of the small run, the projection adds up what the model says
for the large one, the finished run's seconds stand beside it, what is missing is said, and
the report prints the section; the disk measurement on a temporary folder.

  python3 tests/test_out_of_core_projection.py
"""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
import out_of_core_projection as projection  # noqa: E402
from reporting import fmt, sections  # noqa: E402

PER_STATE = 50e-9  # the small run's made-up costs
PER_PASS = 0.25
WRITE, READ = 500e6, 2000e6


def small_run():
    """A small out-of-core run whose pass depths cost exactly PER_PASS + n PER_STATE."""
    counts = [1, 3, 9, 27, 81, 243, 729, 2_187, 6_561, 19_683, 59_049, 177_147, 531_441, 1_594_323, 4_782_969,
              14_348_907, 4_000_000, 100_000, 7]
    memory = 1 << 20  # seed budget: 131,072 keys, so depths 0-10 are seeded
    done, t = [], 0.0
    for d, n in enumerate(counts):
        t += 1e-4 if d <= 10 else PER_PASS + n * PER_STATE
        done.append(t)
    return {"label": "msquare-2x6 out of core, 2 threads, --max-memory 1M",
            "command": f"searchbench run --puzzle msquare-2x6 --engine external --threads 2 --max-memory {memory}",
            "depth_counts": counts, "depth_seconds": done, "segments": 4, "segment_keys": 1 << 23,
            "generated": 3 * sum(counts), "bytes_written": 8 * 2**23 + int(3 * sum(counts) * 0.75 * 1.25)}


def long_run():
    counts = [1, 5, 40, 400, 4_000, 40_000, 400_000, 4_000_000, 40_000_000, 400_000_000, 2_000_000_000, 100]
    return {"puzzle": "msquare-2x7", "finished": True, "depth_counts": counts, "segments": 21, "segment_keys": 1 << 32,
            "expanded": sum(counts), "generated": 3 * sum(counts),
            "invocations": [{"command": "searchbench run --puzzle msquare-2x7 --engine external --max-memory 8G",
                             "git_revision": "abcdef0",
                             "progress": [[9, 400_000_000, 100.0], [10, 2_000_000_000, 900.0], [11, 100, 960.0]]}]}


DISK = {"name": projection.DISK_NAME, "median_write_bytes_per_second": WRITE, "median_read_bytes_per_second": READ}


class Projection(unittest.TestCase):
    def test_fit_recovers_the_small_runs_costs(self):
        result = projection.project(small_run(), DISK, long_run())
        inputs = result["inputs"]
        self.assertAlmostEqual(inputs["per_state_seconds"], PER_STATE, delta=PER_STATE * 1e-6)
        self.assertAlmostEqual(inputs["small_per_pass_seconds"], PER_PASS, delta=1e-6)
        self.assertEqual(inputs["small_fit_depths"], [12, 18])  # the pass after the seeded ones is left out
        # 8 passes over 2^23 bytes of cells; the rest is 1.25 bytes per routed successor
        self.assertAlmostEqual(inputs["small_bytes_per_routed_successor"], 1.25, delta=1e-6)

    def test_projection_adds_up_the_model(self):
        result = projection.project(small_run(), DISK, long_run())
        counts = long_run()["depth_counts"]
        generation = 21 * (1 << 32) // 4
        per_pass = generation * (1 / WRITE + 1 / READ)
        per_state = PER_STATE + 3 * (1 - 1 / 21) * 1.25 * (1 / WRITE + 1 / READ)
        seeded = 10  # cumulative 444,444,446 <= 8 GiB / 8 keys < 2,444,444,446
        expected = sum(n * PER_STATE for n in counts[:seeded]) + sum(per_pass + n * per_state for n in counts[seeded:])
        self.assertEqual(result["seeded_depths"], seeded)
        self.assertEqual(result["passes"], len(counts) - seeded)
        self.assertAlmostEqual(result["projected_seconds"], expected, delta=expected * 1e-6)
        self.assertAlmostEqual(result["inputs"]["large_per_pass_seconds"], per_pass, delta=1e-6)
        # the finished run's seconds, depth by depth, where its processes printed them
        measured = {d["depth"]: d["measured_seconds"] for d in result["depths"]}
        self.assertEqual((measured[9], measured[10], measured[11], measured[8]), (100.0, 800.0, 60.0, None))
        self.assertEqual(result["compared_depths"], [9, 11])
        self.assertAlmostEqual(result["compared_measured_seconds"], 960.0)

    def test_missing_inputs_are_named(self):
        self.assertIn("disk", projection.project(small_run(), None, long_run()))
        self.assertIn("results/long", projection.project(small_run(), DISK, dict(long_run(), finished=False)))
        self.assertIn("msquare-2x6", projection.project(None, DISK, long_run()))
        short = dict(small_run(), depth_counts=small_run()["depth_counts"][:13], depth_seconds=small_run()["depth_seconds"][:13])
        self.assertIn("pass depths", projection.project(short, DISK, long_run()))

    def test_sizes(self):
        self.assertEqual(projection.parse_size("8G"), 8 << 30)
        self.assertEqual(projection.parse_size("64M"), 64 << 20)
        self.assertEqual(projection.parse_size("1048576"), 1 << 20)

    def test_report_section(self):
        row = dict(label="msquare-2x7 out of core, projected", name="projection/external/msquare-2x7", projection=True,
                   command="scripts/out_of_core_projection.py", **projection.project(small_run(), DISK, long_run()))

        class Run:
            scale = [row]
        w = fmt.Writer("")
        sections.projection_section(w, Run())
        text = "\n".join(w.lines)
        self.assertIn("msquare-2x7 out of core, projected from this run", text)
        self.assertIn(f"**at least {row['projected_seconds']:,.0f} s", text)
        self.assertIn("| 10 | 2,000,000,000 |", text)


def probe_run(per_pass=30.0, per_state=90e-9, depths=9):
    """The large space's first passes to --max-depth depths - 1: its last depth only counted."""
    counts = long_run()["depth_counts"][:depths]
    done, t = [], 0.0
    for d, n in enumerate(counts):
        t += 1.0 if d < 4 else (per_pass + n * per_state if d < depths - 1 else 5.0)
        done.append(t)
    return {"label": projection.PROBE_LABEL + ", 2 threads", "command": "searchbench run --puzzle msquare-2x7 --max-depth 8",
            "depth_counts": counts, "depth_seconds": done}


class FromFirstPasses(unittest.TestCase):
    def test_fit_on_the_last_full_passes_and_the_rest_projected(self):
        result = projection.project_from_probe(probe_run(), long_run())
        self.assertEqual(result["probe_fit_depths"], [4, 7])
        self.assertAlmostEqual(result["probe_per_pass_seconds"], 30.0, delta=1e-6)
        self.assertAlmostEqual(result["probe_per_state_seconds"], 90e-9, delta=1e-15)
        counts = long_run()["depth_counts"]
        expected = 4.0 + sum(30.0 + n * 90e-9 for n in counts[4:])
        self.assertAlmostEqual(result["probe_projected_seconds"], expected, delta=1e-6)
        self.assertEqual(len(result["probe_depths"]), len(counts))

    def test_counts_that_differ_or_too_few_passes_are_refused(self):
        wrong = probe_run()
        wrong["depth_counts"] = wrong["depth_counts"][:-1] + [wrong["depth_counts"][-1] + 1]
        self.assertIn("differ", projection.project_from_probe(wrong, long_run()))
        self.assertIn("too few", projection.project_from_probe(probe_run(depths=5), long_run()))

    def test_rows_and_report(self):
        rows = [small_run(), dict(DISK, label="disk"), probe_run()]
        real = projection.load_long_run
        projection.load_long_run = lambda path: long_run()
        try:
            row = projection.projection_row(rows)[0]
        finally:
            projection.load_long_run = real
        self.assertIn("probe_projected_seconds", row)
        self.assertIn("projected_seconds", row)  # the floor stays beside it

        class Run:
            scale = [row]
        w = fmt.Writer("")
        sections.projection_section(w, Run())
        text = "\n".join(w.lines)
        self.assertIn(f"**From its own first passes: {row['probe_projected_seconds']:,.0f} s", text)
        self.assertIn("| 3 | 400 |", text)
        self.assertIn("(ran)", text)


class Disk(unittest.TestCase):
    def test_rates_are_measured_and_the_file_removed(self):
        with tempfile.TemporaryDirectory() as folder:
            os.environ["SEARCHBENCH_WORKDIR"] = folder
            try:
                rows = projection.measure_disk(2, size=1 << 22, block=1 << 20)
            finally:
                del os.environ["SEARCHBENCH_WORKDIR"]
            self.assertEqual(os.listdir(folder), [])
        self.assertEqual(len(rows), 1)
        row = rows[0]
        self.assertEqual(row["name"], projection.DISK_NAME)
        self.assertEqual(len(row["write_bytes_per_second"]), 2)
        self.assertGreater(row["median_write_bytes_per_second"], 0)
        self.assertGreater(row["median_read_bytes_per_second"], 0)
        json.dumps(row)


if __name__ == "__main__":
    unittest.main()
