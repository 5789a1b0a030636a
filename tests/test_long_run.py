#!/usr/bin/python3
"""Tests of scripts/long_run.py --check-samples against a stand-in `searchbench` that answers
each bidir query from a table and logs the states it was asked about."""
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LONG_RUN = os.path.join(HERE, "..", "scripts", "long_run.py")

FAKE = textwrap.dedent("""\
    #!/usr/bin/python3
    import json, os, sys
    state = sys.argv[sys.argv.index("--target") + 1]
    with open(os.environ["FAKE_LOG"], "a") as log:
        log.write(state + "\\n")
    print(json.dumps({"distance": json.load(open(os.environ["FAKE_ANSWERS"]))[state]}))
    """)


class CheckSamples(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.exe = os.path.join(d, "searchbench")
        with open(self.exe, "w") as f:
            f.write(FAKE)
        os.chmod(self.exe, 0o755)
        self.log, self.answers, self.raw = (os.path.join(d, n) for n in ("log", "answers.json", "raw.json"))
        self.env = dict(os.environ, FAKE_LOG=self.log, FAKE_ANSWERS=self.answers)

    def tearDown(self):
        self.dir.cleanup()

    def check(self, doc, answers, *extra):
        with open(self.raw, "w") as f:
            json.dump(doc, f)
        with open(self.answers, "w") as f:
            json.dump(answers, f)
        if os.path.exists(self.log):
            os.remove(self.log)
        proc = subprocess.run([sys.executable, LONG_RUN, self.dir.name, "--puzzle", "msquare-2x4", "--check-samples", "--out", self.raw,
                               "--git-revision", "abc1234", *extra], env=self.env, capture_output=True, text=True)
        asked = open(self.log).read().split("\n")[:-1] if os.path.exists(self.log) else []
        with open(self.raw) as f:
            return proc.returncode, asked, json.load(f)

    def test_earlier_answers_are_kept_and_only_new_states_are_asked(self):
        earlier = [{"depth": 0, "state": "a", "bidir_distance": 0, "seconds": 0.5, "agrees": True},
                   {"depth": 1, "state": "b", "bidir_distance": None, "seconds": 600.0, "agrees": False, "error": "timed out"}]
        doc = {"puzzle": "msquare-2x4", "context": {"git_revision": "run0001"},
               "samples": {"0": ["a"], "1": ["b", "c"], "2": ["d"]}, "sample_checks": earlier}
        status, asked, out = self.check(doc, {"a": 0, "b": 1, "c": 1, "d": 2})
        self.assertEqual(status, 0)
        self.assertEqual(asked, ["b", "c", "d"])  # the timed-out state is asked again
        self.assertEqual([(c["depth"], c["state"], c["agrees"]) for c in out["sample_checks"]],
                         [(0, "a", True), (1, "b", True), (1, "c", True), (2, "d", True)])
        self.assertEqual(out["sample_checks"][0]["seconds"], 0.5)
        self.assertEqual(out["sample_checks_context"]["rows_from_earlier_checks"], 1)
        self.assertEqual(out["sample_checks_context"]["git_revision"], "abc1234")
        self.assertEqual(out["context"]["git_revision"], "run0001")

    def test_recheck_asks_every_state_and_a_wrong_depth_fails(self):
        earlier = [{"depth": 0, "state": "a", "bidir_distance": 0, "seconds": 0.5, "agrees": True}]
        doc = {"puzzle": "msquare-2x4", "context": {}, "samples": {"0": ["a"], "3": ["e"]}, "sample_checks": earlier}
        status, asked, out = self.check(doc, {"a": 0, "e": 2}, "--recheck")
        self.assertEqual(status, 1)
        self.assertEqual(asked, ["a", "e"])
        self.assertEqual([c["agrees"] for c in out["sample_checks"]], [True, False])
        self.assertEqual(out["sample_checks_context"]["rows_from_earlier_checks"], 0)


if __name__ == "__main__":
    unittest.main()
