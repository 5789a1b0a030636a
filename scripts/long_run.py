#!/usr/bin/python3
"""A whole-space out-of-core run too long for one sitting (msquare-2x7): run, resume, record.

usage: scripts/long_run.py BUILD_DIR --puzzle P --workdir DIR [--threads N] [--max-memory SIZE]
                           [--out RAW_JSON] [--check-samples [--check-timeout S] [--recheck]] [--git-revision REV]
       scripts/long_run.py BUILD_DIR --puzzle P --in-memory [--threads N] [--out RAW_JSON] [--git-revision REV]

Runs `searchbench run --engine external` on the puzzle with the work folder DIR, adding
--resume when DIR already holds a checkpoint, so the same command continues a run that was
killed or stopped. While it runs, every completed depth is copied from DIR/manifest.json
into RAW_JSON (default results/long/long-P.json), with one record per invocation (start,
end, wall and CPU seconds, peak RSS from /proc and wait4, exit status, depths done, bytes
written and read), so a partial table can be committed as the depths land. When the run
has finished, the counts are checked against the size of the space (the sum must be
(2K)! for msquare-2xK and sicily1515-2xK).

--in-memory: the same record of one run of the in-memory parallel engine instead (`run
--engine parallel --encoder cantor`: two bits per state in memory, 20.3 GiB for msquare-2x7,
no checkpoint), its depths copied from the progress lines as they land (default raw file
results/long/long-P-in-memory.json).

--check-samples: the engine keeps a few states of every depth in the manifest; each is
looked up with the bidirectional engine (`run --engine bidir --target STATE`), which must
find it at exactly that depth. Results go into RAW_JSON's "sample_checks". States an
earlier check answered keep their rows (so checking again after more depths queries only
the new ones); --recheck queries them all. Run it when the run is stopped or done: the run
rewrites RAW_JSON as depths land.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import process_runner  # noqa: E402
from machine_info import describe  # noqa: E402


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def known_states(puzzle):
    m = re.fullmatch(r"(?:msquare|sicily1515)-2x(\d+)", puzzle)
    return math.factorial(2 * int(m.group(1))) if m else None


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def write_atomically(path, doc):
    temp = path + ".partial"
    with open(temp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(temp, path)


def update(doc, manifest):
    """Copies the completed depths of the manifest into the raw document."""
    counts = manifest.get("depth_counts", [])
    doc["depth_counts"] = counts
    doc["depths_done"] = len(counts)
    doc["states_so_far"] = sum(counts)
    doc["finished"] = bool(manifest.get("finished"))
    doc["samples"] = manifest.get("samples", {})
    for key in ("segments", "segment_keys", "bytes_written", "bytes_read", "peak_disk_bytes", "expanded", "generated"):
        if key in manifest:
            doc[key] = manifest[key]


PROGRESS = re.compile(r"depth\s+(\d+)\s+new\s+(\d+).*elapsed\s+([0-9.]+)\s+s")


def run(opts, doc, out):
    exe = os.path.join(opts.build, "searchbench")
    if opts.in_memory:
        manifest_path = None
        resume = False
        args = ["run", "--puzzle", opts.puzzle, "--engine", "parallel", "--encoder", "cantor", "--threads", str(opts.threads),
                "--json", "--progress"]
    else:
        manifest_path = os.path.join(opts.workdir, "manifest.json")
        resume = os.path.exists(manifest_path)
        args = ["run", "--puzzle", opts.puzzle, "--engine", "external", "--threads", str(opts.threads),
                "--max-memory", opts.max_memory, "--workdir", opts.workdir, "--json", "--progress"] + (["--resume"] if resume else [])
    for earlier in doc.get("invocations", []):  # a process whose recorder was killed with it
        if earlier.get("status") == "running":
            earlier["status"] = "killed"
    before = (read_json(manifest_path) if manifest_path else None) or {}
    landed = [1] if opts.in_memory else None  # depth 0, then one count per progress line
    record = {"start": now(), "command": "searchbench " + " ".join(args), "git_revision": opts.git_revision,
              "from_depth": len(before.get("depth_counts", [])), "status": "running"}
    doc.setdefault("invocations", []).append(record)
    write_atomically(out, doc)
    started = time.perf_counter()

    def pass_stderr(line):  # progress lines, shown as they come and kept for the record
        sys.stderr.write(line)
        m = PROGRESS.match(line.strip())
        if m:  # the process's own clock at each depth: [depth, new states, elapsed seconds]
            record.setdefault("progress", []).append([int(m.group(1)), int(m.group(2)), float(m.group(3))])
        if landed is not None and m and int(m.group(1)) == len(landed):
            landed.append(int(m.group(2)))

    seen = [record["from_depth"]]

    def copy_depths(peak):  # after each poll: the depths that landed since, into RAW_JSON
        manifest = {"depth_counts": list(landed)} if landed is not None else read_json(manifest_path)
        if manifest and len(manifest.get("depth_counts", [])) != seen[0]:
            seen[0] = len(manifest["depth_counts"])
            update(doc, manifest)
            record.update(peak_rss_bytes=peak, wall_seconds=round(time.perf_counter() - started, 1), to_depth=seen[0])
            write_atomically(out, doc)

    done = process_runner.run([exe] + args, text=True, on_stderr_line=pass_stderr, poll_seconds=opts.poll, on_poll=copy_depths)
    status, stderr_lines, out_text = done.status, done.stderr_lines, done.stdout
    if opts.in_memory:
        try:
            final = json.loads(out_text)
            manifest = {"depth_counts": final["depth_counts"], "finished": status == 0}
        except (ValueError, KeyError):
            manifest = {"depth_counts": list(landed)}
    else:
        manifest = read_json(manifest_path) or {}
    update(doc, manifest)
    record.update(end=now(), wall_seconds=round(time.perf_counter() - started, 1),
                  cpu_seconds=round(done.cpu_seconds, 1), peak_rss_bytes=done.peak_rss_bytes,
                  exit_status=status, to_depth=len(manifest.get("depth_counts", [])),
                  status="finished" if doc["finished"] else "stopped")
    if status > 0:  # its one-line reason; a signal (status < 0) is told by exit_status alone
        record["error"] = stderr_lines[-1] if stderr_lines else ""
    elif status == 0:
        try:
            result = json.loads(out_text)
            record.update({k: result[k] for k in ("bytes_written", "bytes_read", "peak_disk_bytes", "seconds", "peak_bytes") if k in result})
        except ValueError:
            pass
    write_atomically(out, doc)
    return status


def check_samples(opts, doc, out):
    """Looks up every sample state with bidir. A state already answered by an earlier check
    (same depth, a distance found) keeps its row, so the check of a run that has gone on
    queries only the new depths' samples; --recheck queries every one again."""
    exe = os.path.join(opts.build, "searchbench")
    earlier = {} if opts.recheck else {(c["depth"], c["state"]): c for c in doc.get("sample_checks", [])
                                        if c.get("bidir_distance") is not None}
    checks = []
    reused = 0
    for depth, states in sorted(doc.get("samples", {}).items(), key=lambda kv: int(kv[0])):
        for state in states:
            if (int(depth), state) in earlier:
                checks.append(earlier[(int(depth), state)])
                reused += 1
                continue
            cmd = [exe, "run", "--puzzle", opts.puzzle, "--engine", "bidir", "--target", state, "--json", "--quiet"]
            started = time.perf_counter()
            done = process_runner.run(cmd, text=True, timeout=opts.check_timeout)
            if done.timed_out:
                answer, error = None, f"timed out after {opts.check_timeout} s"
            else:
                answer = json.loads(done.stdout)["distance"] if done.status == 0 else None
                error = None if done.status == 0 else done.stderr.strip()
            row = {"depth": int(depth), "state": state, "bidir_distance": answer,
                   "seconds": round(time.perf_counter() - started, 3), "agrees": answer == int(depth)}
            if error:
                row["error"] = error
            checks.append(row)
            print(f"depth {depth:>3}  bidir {answer}  {row['seconds']:.2f} s  {state}", flush=True)
    doc["sample_checks"] = checks
    doc["sample_checks_context"]["rows_from_earlier_checks"] = reused
    write_atomically(out, doc)
    return all(c["agrees"] for c in checks if c.get("bidir_distance") is not None)


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip().removeprefix("usage: "))
    parser.add_argument("build")
    parser.add_argument("--puzzle", required=True)
    parser.add_argument("--workdir")
    parser.add_argument("--in-memory", action="store_true")
    parser.add_argument("--threads", type=int, default=len(os.sched_getaffinity(0)))
    parser.add_argument("--max-memory", default="8G")
    parser.add_argument("--out")
    parser.add_argument("--poll", type=float, default=10.0)
    parser.add_argument("--check-samples", action="store_true")
    parser.add_argument("--check-timeout", type=float, default=600.0)
    parser.add_argument("--recheck", action="store_true")
    parser.add_argument("--git-revision", default=None)
    opts = parser.parse_args()
    if not opts.in_memory and not opts.workdir and not opts.check_samples:
        parser.error("--workdir is required (or --in-memory)")
    if opts.git_revision is None:
        opts.git_revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = opts.out or os.path.join("results", "long", f"long-{opts.puzzle}{'-in-memory' if opts.in_memory else ''}.json")
    doc = read_json(out) or {"puzzle": opts.puzzle, "engine": "parallel" if opts.in_memory else "external", "context": describe()}
    doc["known_states"] = known_states(opts.puzzle)
    if opts.check_samples:  # the run's context stays; the checks get their own
        doc["sample_checks_context"] = {"date": now(), "git_revision": opts.git_revision}
        sys.exit(0 if check_samples(opts, doc, out) else 1)
    doc["context"].update(date=now(), git_revision=opts.git_revision)  # of the newest process
    status = run(opts, doc, out)
    if status != 0:
        sys.exit(f"long_run.py: searchbench stopped with status {status}; rerun the same command to resume")
    if doc["finished"] and doc["known_states"] is not None and doc["states_so_far"] != doc["known_states"]:
        sys.exit(f"long_run.py: {doc['states_so_far']} states, expected {doc['known_states']}")
    print(f"{opts.puzzle}: {doc['states_so_far']:,} states over {doc['depths_done']} depths"
          f"{' (finished)' if doc['finished'] else ''}; raw file {out}")


if __name__ == "__main__":
    main()
