#!/usr/bin/python3
"""One run = one report: every table, ratio, "fastest" and plot from that run's files alone.

usage: scripts/report.py run RUN_DIR          RUN_DIR/report.md, benchmarks.csv, tables/*.csv and the plots
       scripts/report.py index RESULTS_DIR    RESULTS_DIR/README.md: the newest complete, unfiltered run's
                                              report and an index of every run under RESULTS_DIR/runs/;
                                              RESULTS_DIR/long-runs.md from RESULTS_DIR/long/*.json
       scripts/report.py all RESULTS_DIR      every run's report again, then the index
       scripts/report.py noisy BENCH_JSON SECONDS REPETITIONS
                                              the --benchmark_filter of a second round: the cases whose CV
                                              was above 5%, most spread first, as many as fit SECONDS

A run folder is what scripts/reproduce.sh writes (results/runs/<UTC date-time>-<commit>-<host>/);
the parts are in scripts/reporting/ (load, stats, tables, plots, ...). The statistics:
scripts/reporting/stats.py; the quiet checks: scripts/reporting/conditions.py.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from reporting import document, index, load, rounds  # noqa: E402
from reporting.load import RunError  # noqa: E402


def main(argv):
    if len(argv) == 2 and argv[0] == "run":
        document.write_run(argv[1])
    elif len(argv) == 2 and argv[0] == "index":
        index.write(argv[1])
    elif len(argv) == 2 and argv[0] == "all":
        runs_dir = os.path.join(argv[1], "runs")
        for run in load.runs(runs_dir):  # damaged folders skipped, each with a line
            document.write_run(run.folder)
        index.write(argv[1])
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
