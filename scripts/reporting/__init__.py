"""scripts/report.py's parts: one run's report from that run's files alone.

  load      a run folder's raw files -> a Run (its benchmark rows, whole-process runs, judges)
  raw       the raw JSON files, plain or gzip-compressed, and their compression
  registry  the run's registry.json (searchbench list --json): the families' classic encoders
  stats     median, mean, sd, CV, the bootstrap CIs of the median and of a ratio of medians; ties
  fmt       number formats and the Markdown writer (every table also as CSV)
  summary   the first screen of a report
  tables    the benchmark tables
  commands  the command that runs each row's case again (searchbench run, else bench_search)
  sections  whole-process runs, judges, run conditions, method, files
  plots     the plots of one run (PNG, SVG, PDF)
  document  a run's report.md, benchmarks.csv and tables/ put together
  index     results/README.md (the newest complete default run and every run) and long-runs.md
  longruns  the long out-of-core runs (results/long/)
  rounds    the second round of repetitions for the cases whose spread was high
"""
