#!/usr/bin/python3
"""scripts/reproduce.sh end to end in a scratch git checkout, with stand-ins for the build
(cmake, deps.sh) and for the programs it runs (bench_search, searchbench, the classic
judges): run folders, the dirty-tree refusal and mark, the second round of repetitions,
that a filtered run leaves results/README.md alone while a complete one regenerates it, and
that after the build it waits for the load its own build added, never for others' (a stand-in
load file, SEARCHBENCH_LOADAVG).

  python3 tests/test_reproduce.py
"""
import glob
import gzip
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "scripts")
COPIED = ["reproduce.sh", "report.py", "reporting", "run_manifest.py", "machine_info.py", "scale_runs.py", "judge_speed.py",
          "process_runner.py", "peer_runs.py", "out_of_core_projection.py"]

# bench_search: three cases, the first noisy; --benchmark_filter, --benchmark_repetitions,
# --benchmark_out, --benchmark_context and --benchmark_list_tests as the library reads them.
BENCH_SEARCH = r'''#!/usr/bin/python3
import json, re, sys
opts = {"filter": "", "reps": 1, "out": None, "context": {}}
for a in sys.argv[1:]:
    if a.startswith("--benchmark_filter="): opts["filter"] = a.split("=", 1)[1]
    elif a.startswith("--benchmark_repetitions="): opts["reps"] = int(a.split("=", 1)[1])
    elif a.startswith("--benchmark_out="): opts["out"] = a.split("=", 1)[1]
    elif a.startswith("--benchmark_context="):
        k, v = a.split("=", 1)[1].split("=", 1); opts["context"][k] = v
    elif a == "--benchmark_list_tests": opts["list"] = True
cases = {"bfs/ring/cantor/msquare-2x3/threads:1": [20.0, 30.0], "bfs/parallel/cantor/msquare-2x3/threads:2/real_time": [15.0, 15.1],
         "bfs/ring/cantor/msquare-2x4/threads:1": [900.0, 901.0]}
if opts.get("list"):
    print("\n".join(name for name in cases if re.search(opts["filter"], name)))
    sys.exit(0)
out = []
for name, (a, b) in cases.items():
    if not re.search(opts["filter"], name):
        continue
    kind, engine, encoder, puzzle, param = name.split("/")[:5]
    for i in range(opts["reps"]):
        out.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": opts["reps"], "repetition_index": i,
                    "iterations": 100, "real_time": a if i % 2 else b, "cpu_time": a, "time_unit": "us", "states": 720, "radius": 12,
                    "peak_bytes": 100, "key_space": 720, "items_per_second": 720 / (a * 1e-6), "load1_before": 0.1,
                    "load1_after": 0.1, "others_cpu_seconds": 0.0, "probe_seconds": 0.01,
                    "label": f"kind={kind} engine={engine} encoder={encoder} puzzle={puzzle} param={param}"})
context = dict(opts["context"], date="2026-01-01T00:00:00+00:00", host_name="stub", num_cpus=2, library_build_type="release")
with open(opts["out"], "w") as f:
    json.dump({"context": context, "benchmarks": out}, f)
'''
# searchbench: `run ... --json` prints a whole-space answer (with every repetition's time
# when --repetitions is given); `judge X` answers from stdin;
# `list --json` a registry of two engines and one family.
SEARCHBENCH = '''#!/bin/sh
case "$1" in
  judge) cksum ;;
  list) echo '{"engines": [{"name": "ring", "threaded": false}, {"name": "parallel", "threaded": true}],
    "families": [{"name": "magic", "names": "msquare, msquare-2xK", "classic_encoder": "bitpack", "puzzles": []}]}' ;;
  run) case " $* " in
         *" --repetitions "*) echo '{"puzzle": "msquare-2x5", "states": 3628800, "radius": 27, "seconds": 0.01,
           "seconds_all": [0.02, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]}' ;;
         *) echo '{"puzzle": "msquare-2x5", "states": 3628800, "radius": 27, "seconds": 0.01}' ;;
       esac ;;
  *) exit 2 ;;
esac
'''
CLASSIC = "#!/bin/sh\ncksum\n"  # the classic programs and searchbench-judge
# cmake whose build compiles for a while and leaves the load of BUILD_LEAVES in the load file,
# which falls to LOAD_LATER (when given) shortly after.
SLOW_CMAKE = """#!/bin/sh
case " $* " in
  *" --build "*)
    sleep 6
    printf '%s\\n' "$BUILD_LEAVES" > "$SEARCHBENCH_LOADAVG"
    if [ -n "$LOAD_LATER" ]; then
      (sleep 2; printf '%s\\n' "$LOAD_LATER" > "$SEARCHBENCH_LOADAVG") >/dev/null 2>&1 &
    fi ;;
esac
exit 0
"""


def executable(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class Reproduce(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.repo = os.path.join(self.tmp.name, "repo")
        for name in COPIED:
            source, target = os.path.join(SCRIPTS, name), os.path.join(self.repo, "scripts", name)
            if os.path.isdir(source):
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(source, target)
        executable(os.path.join(self.repo, "scripts", "deps.sh"), "#!/bin/sh\nexit 0\n")
        executable(os.path.join(self.tmp.name, "bin", "cmake"), "#!/bin/sh\nexit 0\n")
        executable(os.path.join(self.repo, "build", "release", "bench", "bench_search"), BENCH_SEARCH)
        executable(os.path.join(self.repo, "build", "release", "searchbench"), SEARCHBENCH)
        for classic in ("sicily1151_classic", "fzu1603_classic"):
            executable(os.path.join(self.repo, "build", "release", "bench", classic), CLASSIC)
        executable(os.path.join(self.repo, "build", "release", "searchbench-judge"), CLASSIC)
        os.makedirs(os.path.join(self.repo, "results"))
        self.readme = os.path.join(self.repo, "results", "README.md")
        with open(self.readme, "w") as f:
            f.write("an earlier page\n")
        with open(os.path.join(self.repo, ".gitignore"), "w") as f:
            f.write("build/\n__pycache__/\n")
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "start")

    def tearDown(self):
        self.tmp.cleanup()

    def git(self, *args):
        subprocess.run(["git", *args], cwd=self.repo, check=True, capture_output=True)

    def reproduce(self, *args, **extra_env):
        env = dict(os.environ, PATH=os.path.join(self.tmp.name, "bin") + os.pathsep + os.environ["PATH"], **extra_env)
        env.pop("SEARCHBENCH_BUILD_LOCK", None)
        return subprocess.run(["bash", "scripts/reproduce.sh", *args], cwd=self.repo, env=env, capture_output=True, text=True,
                              timeout=300)

    def runs(self):
        return sorted(glob.glob(os.path.join(self.repo, "results", "runs", "*")))

    def test_a_filtered_run_gets_its_own_folder_and_report_and_leaves_the_readme(self):
        proc = self.reproduce("--filter", "msquare-2x3")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        (folder,) = self.runs()
        self.assertRegex(os.path.basename(folder), r"^\d{8}T\d{6}Z-[0-9a-f]{7,}-[A-Za-z0-9._-]+$")
        for name in ("bench.json.gz", "bench-round2.json.gz", "scale.json", "judges.json", "run.json", "registry.json", "report.md",
                     "benchmarks.csv"):
            self.assertTrue(os.path.exists(os.path.join(folder, name)), name)
        with open(self.readme) as f:
            self.assertEqual(f.read(), "an earlier page\n")
        with open(os.path.join(folder, "run.json")) as f:
            manifest = json.load(f)
        self.assertEqual((manifest["complete"], manifest["dirty"], manifest["filter"]), (True, False, "msquare-2x3"))
        self.assertEqual([r["cases"] for r in manifest["rounds"]], [2, 1])  # the noisy case got a second round
        with gzip.open(os.path.join(folder, "bench.json.gz"), "rt") as f:
            context = json.load(f)["context"]
        self.assertIn("run_date_utc", context)
        self.assertEqual(context["run_id"], os.path.basename(folder))
        with open(os.path.join(folder, "report.md")) as f:
            report = f.read()
        self.assertIn("| ring | cantor | 1 |", report)
        self.assertIn("15 (2 rounds)", report)
        self.assertNotIn("msquare-2x4", report)
        self.assertNotIn("Uncommitted", report)

    def test_a_filter_that_selects_no_benchmark_runs_the_other_parts_alone(self):
        proc = self.reproduce("--filter", "msquare-2x5 first run")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        self.assertIn("no benchmark matches the filter", proc.stdout)
        (folder,) = self.runs()
        self.assertFalse(glob.glob(os.path.join(folder, "bench*.json")))
        for name in ("scale.json", "judges.json", "run.json", "report.md"):
            self.assertTrue(os.path.exists(os.path.join(folder, name)), name)
        with open(os.path.join(folder, "run.json")) as f:
            self.assertTrue(json.load(f)["complete"])
        with open(os.path.join(folder, "report.md")) as f:
            self.assertIn("whole-process only", f.read())
        with open(self.readme) as f:
            self.assertEqual(f.read(), "an earlier page\n")

    def test_a_dirty_tree_is_refused_unless_allowed_and_then_marked(self):
        with open(os.path.join(self.repo, "scripts", "deps.sh"), "a") as f:
            f.write("# changed\n")
        proc = self.reproduce("--filter", "msquare-2x3")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--allow-dirty", proc.stderr)
        self.assertIn("scripts/deps.sh", proc.stderr)
        self.assertEqual(self.runs(), [])
        proc = self.reproduce("--filter", "msquare-2x3", "--allow-dirty")
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        (folder,) = self.runs()
        self.assertIn("+dirty-", os.path.basename(folder))
        with open(os.path.join(folder, "report.md")) as f:
            top = f.read().split("## Summary")[0]
        self.assertIn("**Uncommitted changes.**", top)
        self.assertIn("`scripts/deps.sh`", top)

    def test_a_complete_run_regenerates_the_readme_around_itself(self):
        proc = self.reproduce()
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        (folder,) = self.runs()
        with open(self.readme) as f:
            readme = f.read()
        run_id = os.path.basename(folder)
        self.assertIn(f"This page is the report of run [{run_id}](runs/{run_id}/report.md)", readme)
        self.assertIn("msquare-2x4", readme)
        self.assertIn("## Judges against the classic single-file programs", readme)
        # searchbench-judge is the judged program; the command line's judge stands beside it.
        self.assertIn("| judge | inputs | searchbench-judge wall ms | classic wall ms |", readme)
        self.assertIn("| searchbench judge wall ms | its ratio (wall) [95% CI] | outputs identical |", readme)
        self.assertIn("(`scripts/judge_speed.py`, searchbench-judge / classic)", readme)
        self.assertIn("## Large spaces: whole-process wall time", readme)
        self.assertIn("msquare-2x5 first run against warm repetitions, 2 threads", readme)
        self.assertIn("first / warm 2.00x", readme)
        self.assertTrue(re.search(r"\| \*\*" + re.escape(run_id) + r"\*\* \|", readme))

    def test_after_the_build_it_waits_for_its_own_load_only(self):
        executable(os.path.join(self.tmp.name, "bin", "cmake"), SLOW_CMAKE)
        load = os.path.join(self.tmp.name, "loadavg")
        cases = {  # load before the build, after it, a moment later -> whether the run waits
            "others' load, the build added none": ("3.00 3.00 3.00 3/100 1", "3.20 3.05 3.00 3/100 1", "", False),
            "the build's own load, falling": ("0.20 0.20 0.20 1/100 1", "2.50 1.00 0.50 1/100 1", "0.30 0.90 0.50 1/100 1", True),
        }
        for what, (before, after, later, waits) in cases.items():
            with self.subTest(what):
                with open(load, "w") as f:
                    f.write(before + "\n")
                proc = self.reproduce("--filter", "msquare-2x3", SEARCHBENCH_LOADAVG=load, BUILD_LEAVES=after, LOAD_LATER=later)
                self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
                self.assertEqual("waiting up to 60 s" in proc.stdout, waits, proc.stdout)
                self.assertEqual("within half a core of the 3.00 before it: no wait" in proc.stdout, not waits, proc.stdout)
                self.assertNotIn("still", proc.stdout)  # the build's load fell, so the wait ended early
                folder = max(self.runs())
                with open(os.path.join(folder, "run.json")) as f:
                    recorded = json.load(f)["load_before"]
                self.assertEqual(recorded, [float(x) for x in (later or after).split()[:3]])  # others' load is recorded

    def test_peers_without_their_mirrors_are_skipped_and_the_report_says_so(self):
        env_before = {k: os.environ.pop(k) for k in ("PEER_MIRROR", "GAPBS_MIRROR") if k in os.environ}
        try:
            proc = self.reproduce("--peers", "--filter", "msquare-2x3|pancake-11")
        finally:
            os.environ.update(env_before)
        self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
        (folder,) = self.runs()
        with open(os.path.join(folder, "peers.json")) as f:
            rows = json.load(f)["runs"]
        self.assertEqual([r["peer"] for r in rows], ["PuzzleSearch"])  # the filter leaves no gapbs case
        with open(os.path.join(folder, "run.json")) as f:
            self.assertIn("--peers", json.load(f)["command"])
        with open(os.path.join(folder, "report.md")) as f:
            report = f.read()
        self.assertIn("## Beside the peers, on the same work", report)
        self.assertIn("skipped: PEER_MIRROR not set", report)


if __name__ == "__main__":
    unittest.main()
