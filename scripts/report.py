#!/usr/bin/env python3
"""One run = one report: every table, ratio, "fastest" and plot from that run's files alone.

usage: scripts/report.py run RUN_DIR          RUN_DIR/report.md, benchmarks.csv, tables/*.csv and the plots
                                              (PNG, SVG and PDF)
       scripts/report.py index RESULTS_DIR    RESULTS_DIR/README.md: the newest complete, unfiltered run's
                                              report and an index of every run under RESULTS_DIR/runs/;
                                              RESULTS_DIR/long-runs.md from RESULTS_DIR/long/*.json. First
                                              compresses every finished run folder's bench*.json to
                                              bench*.json.gz; the featured run alone keeps its plots
                                              (the others' reports are made again without them)
       scripts/report.py all RESULTS_DIR      the same compression, every run's report again, then the index
       scripts/report.py compress RUN_DIR...  bench*.json -> bench*.json.gz in each folder (the report reads
                                              both; `zcat` reads them)
       scripts/report.py noisy BENCH_JSON SECONDS REPETITIONS
                                              the --benchmark_filter of a second round: the cases whose CV
                                              was above 5%, most spread first, as many as fit SECONDS

A run folder is what scripts/reproduce.sh writes (results/runs/<UTC date-time>-<commit>-<host>/);
the parts are in scripts/reporting/ (load, stats, tables, plots, ...). The statistics:
scripts/reporting/stats.py; the quiet checks: scripts/reporting/conditions.py. It needs
numpy and matplotlib: scripts/requirements.txt.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__" and sys.argv[1:] in (["-h"], ["--help"]):  # help needs none of the modules below
    print(__doc__.strip())
    sys.exit(0)

# The modules this interpreter may lack, and the Debian package of each.
DEBIAN = {"numpy": "python3-numpy", "matplotlib": "python3-matplotlib", "PIL": "python3-pil", "scipy": "python3-scipy"}

try:
    from reporting import document, index, load, raw, rounds  # noqa: E402
    from reporting.load import RunError  # noqa: E402
except ModuleNotFoundError as e:
    top = (e.name or "").split(".")[0]
    if top not in DEBIAN:
        raise
    sys.exit(f"report.py: the Python module {top!r} is missing for {sys.executable} (Python {sys.version.split()[0]}): "
             f"pip install -r scripts/requirements.txt, or on Debian and Ubuntu apt install {DEBIAN[top]}")


def main(argv):
    if len(argv) == 2 and argv[0] == "run":
        document.write_run(argv[1])
    elif len(argv) == 2 and argv[0] == "index":
        index.write(argv[1])
    elif len(argv) == 2 and argv[0] == "all":
        index.compress_runs(argv[1])
        every = load.runs(os.path.join(argv[1], "runs"))  # damaged folders skipped, each with a line
        featured = next((r for r in reversed(every) if r.featured()), None)
        for run in every:
            if run is not featured:  # the index writes the featured run's, with its plots
                document.write_run(run.folder, draw=False)
        index.write(argv[1])
    elif len(argv) >= 2 and argv[0] == "compress":
        for folder in argv[1:]:
            if not os.path.isdir(folder):
                raise RunError(f"{folder}: no such run folder")
            for name in raw.compress(folder):
                print(f"report.py: compressed {os.path.join(folder, name)}", file=sys.stderr)
    elif len(argv) == 4 and argv[0] == "noisy":
        rounds.main(argv[1], float(argv[2]), int(argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except RunError as e:
        sys.exit(f"report.py: {e}")
    except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError, IndexError) as e:
        # A raw file whose shape the checks in reporting/load.py let through: still one line.
        sys.exit(f"report.py: {sys.argv[-1]}: a file in it is damaged ({type(e).__name__}: {e})")
