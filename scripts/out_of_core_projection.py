#!/usr/bin/python3
"""The wall time of an out-of-core run too long to repeat for every commit (msquare-2x7,
87,178,291,200 states), projected from per-pass costs measured in the same reproduce run.

usage: scripts/out_of_core_projection.py SCALE_JSON [LONG_RUN_JSON]

scripts/scale_runs.py calls measure_disk() and projection_row() after its msquare-2x6
out-of-core case and keeps their rows in its JSON; run alone, this prints the projection from
a scale.json that has the rows it needs.

Measured in the run (scale.json):
  * the small out-of-core run (msquare-2x6, --max-memory 64M): per-depth counts and finishing
    times, bytes written, successors generated, segments and segment size;
  * the work folder's disk: sequential write rate w (fdatasync'ed) and uncached read rate r.
Measured once (results/long/, the large space's finished run): its per-depth counts, its
layout (segments S of K keys) and the --max-memory it ran under. The per-depth seconds that run
printed are set beside the projection; they are of the commit that ran it.

Model, for a depth d of the large space with n_d states:
  * depths its seeding searches in memory (cumulative count within --max-memory / 8 keys, the
    engine's default seed budget): n_d v;
  * every other depth is a pass: F + n_d (v + b (1/w + 1/r)).
  v and F6: least-squares fit of the small run's pass depths, t6(d) = F6 + v n6_d, where t6(d)
    is the time between two depths finishing. v is the CPU side of a state's pass (expanding,
    routing, sorting, coding and applying its successors) with the small run's lists in the page
    cache; F6 its per-pass part (its cells, written and fsync'ed).
  F: one generation of the large layout's cells read and written in every pass:
    G (1/w + 1/r), G = S K / 4 bytes.
  b: the successor lists a state costs in the large layout, written once and read once:
    m (1 - 1/S) c bytes, with m moves per state and c the bytes of one routed successor measured
    on the small run, (W6 - P6 G6) / (generated6 (1 - 1/S6)), P6 its passes and G6 its generation
    (every pass counted as writing every segment: c leans low, the rest of the model long).
What it leaves out, and which way that leans:
  * a state costs what it costs on the smaller board (v). The larger board's ranks are two
    cells longer and its segments 32 times larger, and a state of its passes costs more: on
    this count the projection is a floor, not an estimate;
  * the seed budget is taken as --max-memory / 8 keys; the engine stops seeding sooner
    (where the next depth's sorted lists would not fit), so a few more depths are passes,
    each with the per-pass cost F, and seeding costs more per state than a pass;
  * nothing overlaps, though the engine reads the next segment ahead and the kernel writes
    back behind it (this leans long);
  * the disk rates are those of 1 GiB files; on a virtual machine whose host caches the disk,
    they can be several times what hundreds of GiB would see (this leans short).
So the projection says when a rerun is certainly too long (it is already over the budget),
not that one fits.

With --full, scripts/scale_runs.py also runs the large space itself to --max-depth 33 (about 10
minutes and 27 GB of disk on 2 cores): its first passes at this commit. Then the projection
also fits F and v on that run's last four full passes and adds, depth by depth, F + v n_d to the
time it took to get there: no smaller board and no disk rate stand in for the large run's own.
"""
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reporting.longruns import depth_seconds as measured_depth_seconds  # noqa: E402

SMALL_LABEL = "msquare-2x6 out of core"
PROBE_LABEL = "msquare-2x7 out of core, first passes"  # scale_runs.py --full
DISK_NAME = "disk/sequential"
DEFAULT_LONG_RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "long",
                                "long-msquare-2x7-rerun.json")
KEY_BYTES = 8  # the seed budget is --max-memory / sizeof(Key)


def parse_size(text):
    """A --max-memory argument (512M, 8G, 1048576) in bytes."""
    units = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    text = text.strip().upper().removesuffix("IB").removesuffix("B")
    return int(float(text[:-1]) * units[text[-1]]) if text and text[-1] in units else int(text)


def flag(command, name):
    words = command.split()
    return words[words.index(name) + 1] if name in words else None


def seeded_depths(counts, budget_keys):
    """How many first depths a fresh run searches in memory: their cumulative count fits the budget."""
    total, seeded = 0, 0
    for n in counts:
        total += n
        if total > budget_keys:
            break
        seeded += 1
    return seeded


def fit_line(xs, ys):
    """Least-squares y = a + b x: (a, b), with a and b kept >= 0 (a per-pass and a per-state cost)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    a = my - b * mx
    if a < 0:  # through the origin
        a, b = 0.0, sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs)
    return a, max(b, 0.0)


def project(small, disk, long_run):
    """The projection as a dict (inputs, per-depth seconds, total), or a string saying what is missing."""
    if not small or "depth_seconds" not in small:
        return f"no '{SMALL_LABEL}' row with per-depth times in this run"
    if not disk:
        return "no disk-rate row in this run"
    if not long_run or not long_run.get("finished"):
        return "no finished record of the large run in results/long"
    w, r = disk["median_write_bytes_per_second"], disk["median_read_bytes_per_second"]
    # The small run: its pass depths and what a pass costs.
    counts6, done6 = small["depth_counts"], small["depth_seconds"]
    memory6 = parse_size(flag(small["command"], "--max-memory"))
    seeded6 = seeded_depths(counts6, memory6 // KEY_BYTES)
    # The first pass also writes the seeded generation: fitted from the one after it.
    passes6 = list(range(seeded6 + 1, len(counts6)))
    if len(passes6) < 3:
        return f"the small run has only {len(passes6)} pass depths to fit"
    per_pass6, per_state = fit_line([counts6[d] for d in passes6], [done6[d] - done6[d - 1] for d in passes6])
    generation6 = small["segments"] * small["segment_keys"] // 4
    pass_count6 = len(counts6) - seeded6
    segments6 = small["segments"]
    routed6 = small["generated"] * (1 - 1 / segments6)
    bytes_per_routed = max(0.0, (small["bytes_written"] - pass_count6 * generation6) / routed6) if routed6 else 0.0
    # The large layout and its counts.
    counts = long_run["depth_counts"]
    states = sum(counts)
    command = long_run["invocations"][0]["command"]
    memory = parse_size(flag(command, "--max-memory") or "1G")
    segments, segment_keys = long_run["segments"], long_run["segment_keys"]
    generation = segments * segment_keys // 4
    moves = long_run["generated"] / long_run["expanded"]
    per_pass = generation * (1 / w + 1 / r)
    routed_per_state = moves * (1 - 1 / segments) * bytes_per_routed
    per_state_large = per_state + routed_per_state * (1 / w + 1 / r)
    seeded = seeded_depths(counts, memory // KEY_BYTES)
    measured = measured_depth_seconds(long_run)
    depths = []
    for d, n in enumerate(counts):
        t = n * per_state if d < seeded else per_pass + n * per_state_large
        depths.append({"depth": d, "states": n, "projected_seconds": t,
                       "measured_seconds": measured.get(d), "seeded": d < seeded})
    total = sum(x["projected_seconds"] for x in depths)
    compared = [x for x in depths if x["measured_seconds"] is not None]
    commits = sorted({i.get("git_revision", "?") for i in long_run["invocations"]})
    return {
        "puzzle": long_run["puzzle"],
        "states": states,
        "projected_seconds": total,
        "passes": len(counts) - seeded,
        "seeded_depths": seeded,
        "inputs": {
            "small_run": small["command"],
            "small_fit_depths": [passes6[0], passes6[-1]],
            "small_per_pass_seconds": per_pass6,
            "per_state_seconds": per_state,
            "small_bytes_per_routed_successor": bytes_per_routed,
            "write_bytes_per_second": w,
            "read_bytes_per_second": r,
            "large_run_record": os.path.basename(long_run.get("_path", "")) or None,
            "large_run_commits": commits,
            "large_max_memory_bytes": memory,
            "large_segments": segments,
            "large_segment_keys": segment_keys,
            "large_generation_bytes": generation,
            "large_moves_per_state": moves,
            "large_per_pass_seconds": per_pass,
            "large_routed_bytes_per_state": routed_per_state,
            "large_per_state_seconds": per_state_large,
        },
        "depths": depths,
        "compared_depths": [compared[0]["depth"], compared[-1]["depth"]] if compared else None,
        "compared_projected_seconds": sum(x["projected_seconds"] for x in compared),
        "compared_measured_seconds": sum(x["measured_seconds"] for x in compared),
    }


def project_from_probe(probe, long_run, fit_depths=4):
    """The large run projected from its own first passes (a run of it to --max-depth at this
    commit): the time it took through the depth before the fitted ones, then F + v n_d per
    depth with F and v fitted on its last `fit_depths` full passes (the last depth only
    counted). A string when the probe does not fit the finished run's counts."""
    counts, done = probe["depth_counts"], probe["depth_seconds"]
    known = long_run["depth_counts"]
    if counts != known[:len(counts)]:
        return "the first passes' per-depth counts differ from the finished run's"
    last_full = len(counts) - 2  # the last depth of a --max-depth run is only counted
    first = last_full - fit_depths + 1
    if first < 2:
        return "the first passes are too few to fit"
    fitted = list(range(first, last_full + 1))
    per_pass, per_state = fit_line([counts[d] for d in fitted], [done[d] - done[d - 1] for d in fitted])
    measured = measured_depth_seconds(long_run)
    depths = [{"depth": d, "states": n, "projected_seconds": (done[d] - (done[d - 1] if d else 0.0)) if d < first else per_pass + n * per_state,
               "measured_seconds": measured.get(d), "seeded": False}
              for d, n in enumerate(known)]
    return {"probe_command": probe["command"], "probe_fit_depths": [first, last_full], "probe_per_pass_seconds": per_pass,
            "probe_per_state_seconds": per_state, "probe_projected_seconds": sum(x["projected_seconds"] for x in depths),
            "probe_depths": depths}


def load_long_run(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    doc["_path"] = path
    return doc


def measure_disk(runs, size=2**30, block=2**26):
    """The work folder's disk: sequential write of `size` bytes made durable (fdatasync), then
    read back after the kernel was told to drop them from its cache (posix_fadvise DONTNEED),
    `runs` times; bytes per second, every run and the medians."""
    data = os.urandom(block)
    writes, reads = [], []
    for _ in range(runs):
        fd, path = tempfile.mkstemp(prefix="searchbench-disk-", dir=os.environ.get("SEARCHBENCH_WORKDIR"))
        try:
            start = time.perf_counter()
            for _ in range(size // block):
                os.write(fd, data)
            os.fdatasync(fd)
            writes.append(size / (time.perf_counter() - start))
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.lseek(fd, 0, os.SEEK_SET)
            buffer = bytearray(block)
            start = time.perf_counter()
            while os.readv(fd, [buffer]):
                pass
            reads.append(size / (time.perf_counter() - start))
        finally:
            os.close(fd)
            os.unlink(path)
    amount = f"{size / 2**30:g} GiB" if size >= 2**30 else f"{size / 2**20:g} MiB"
    row = {
        "label": f"disk of the work folders: {amount} written (fdatasync), read back uncached",
        "name": DISK_NAME,
        "disk": True,
        "command": "scripts/out_of_core_projection.py (Python: os.write, os.fdatasync, posix_fadvise DONTNEED, os.readv; "
                   f"{block >> 20} MiB blocks)",
        "write_bytes_per_second": writes,
        "read_bytes_per_second": reads,
        "median_write_bytes_per_second": statistics.median(writes),
        "median_read_bytes_per_second": statistics.median(reads),
    }
    print(f"{row['label']:55s} write {row['median_write_bytes_per_second'] / 1e6:.0f} MB/s, "
          f"read {row['median_read_bytes_per_second'] / 1e6:.0f} MB/s", flush=True)
    return [row]


def projection_row(rows, long_run_path=DEFAULT_LONG_RUN):
    """msquare-2x7 out of core projected from a run's rows, as a list of one row (none when
    the rows or the finished run's record lack what it needs)."""
    small = next((r for r in rows if r.get("label", "").startswith(SMALL_LABEL)), None)
    disk = next((r for r in rows if r.get("name") == DISK_NAME), None)
    long_run = load_long_run(long_run_path)
    result = project(small, disk, long_run)
    label = "msquare-2x7 out of core, projected from this run's per-pass costs"
    if isinstance(result, str):
        print(f"{label}: skipped ({result})", flush=True)
        return []
    print(f"{label:55s} {result['projected_seconds']:8.0f} s ({result['projected_seconds'] / 3600:.2f} h), a floor", flush=True)
    probe = next((r for r in rows if r.get("label", "").startswith(PROBE_LABEL)), None)
    if probe:
        from_probe = project_from_probe(probe, long_run)
        if isinstance(from_probe, str):
            sys.exit(f"{probe['label']}: {from_probe}")
        result.update(from_probe)
        print(f"{'  from its own first passes':55s} {from_probe['probe_projected_seconds']:8.0f} s "
              f"({from_probe['probe_projected_seconds'] / 3600:.2f} h)", flush=True)
    return [dict(label=label, name=f"projection/external/{result['puzzle']}", projection=True,
                 command="scripts/out_of_core_projection.py", **result)]


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.split("\n\n")[1].strip())
    with open(sys.argv[1]) as f:
        rows = json.load(f).get("runs", [])
    projected = projection_row(rows, *sys.argv[2:])
    if not projected:
        sys.exit(1)
    print(json.dumps({k: v for k, v in projected[0].items() if k not in ("depths", "probe_depths")}, indent=1))


if __name__ == "__main__":
    main()
