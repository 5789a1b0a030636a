"""The command that runs a benchmark case again, with names the front ends accept.

bench_search names its cases bfs/<engine>/<encoder>/<puzzle>/threads:<n> and so on
(bench/bench_search.cpp's header), and some of those engine names are no engine of
`searchbench run --engine`: a variant of an engine carries a suffix for an option of its
own (parallel-topdown is the parallel engine with --top-down), and a yardstick such as
explicit-csr exists only in bench_search. So each row the report shows names its engine as
the command line does, and carries one of two commands:

  searchbench run ...     a whole space from the start by an engine the run's registry
                          (registry.json: `searchbench list --json`) lists: the command line
                          does the same search
  bench_search ...        everything else (point queries and judges, whose targets bench_search
                          draws; heuristic sets of many starts; the codecs; the yardsticks): the
                          filter that selects that case alone, with the own flags that register it
                          (--full where the run had it, --threads=N for a thread count above 1)

Both programs are in the build folder (build/release/searchbench, build/release/bench/bench_search).
"""
import os
import shlex

from .rounds import ere_escape

# bench_search's suffix of an engine's name -> the option of that engine it stands for.
VARIANTS = {"-topdown": "--top-down"}
# Encoders renamed since some runs were made: the name the command line takes now.
RENAMED_ENCODERS = {"octal": "bitpack"}
YARDSTICK = "bench_search yardstick"


def cli_engine(engine, registry):
    """(engine, options) by which `searchbench run` runs bench_search's engine `engine`, or None
    for a program that is no engine of the run's registry."""
    if registry.engine(engine):
        return engine, []
    for suffix, option in VARIANTS.items():
        base = registry.engine(engine[:-len(suffix)]) if engine.endswith(suffix) else None
        if base and option in base.get("options", [option]):
            return base["name"], [option]
    return None


def engine_name(engine, registry, short=False):
    """The engine as a row shows it: `parallel --top-down`, or `explicit-csr (bench_search
    yardstick)` (short: `(yardstick)`, for a plot's legend)."""
    found = cli_engine(engine, registry)
    if found:
        return " ".join([found[0]] + found[1])
    return f"{engine} ({'yardstick' if short else YARDSTICK})"


def run_command(row, registry):
    """`searchbench run ...` doing the row's search, or None where the command line cannot
    (anything but a whole space from the start by an engine)."""
    found = cli_engine(row["engine"], registry) if row["kind"] == "bfs" else None
    if not found:
        return None
    engine, options = found
    info = registry.engine(engine)
    words = ["searchbench", "run", "--puzzle", row["puzzle"], "--engine", engine] + options
    if info.get("uses_encoder", True) and row["encoder"] not in ("", "none"):
        words += ["--encoder", RENAMED_ENCODERS.get(row["encoder"], row["encoder"])]
    if info.get("threaded", False):
        words += ["--threads", str(row["threads"] or 1)]
    return shlex.join(words)


def name_filter(names):
    """A --benchmark_filter (POSIX extended, as the library reads it) selecting exactly these
    benchmark names: one name whole, several as their common part and the alternatives between
    (^point/ring/cantor/msquare-2x4/depth:(4|8|12)$), in the order given."""
    names = list(dict.fromkeys(names))
    if len(names) == 1:
        return "^" + ere_escape(names[0]) + "$"
    prefix = os.path.commonprefix(names)
    prefix = prefix[:max(prefix.rfind("/"), prefix.rfind(":")) + 1]  # whole parts of the name alternate
    suffix = os.path.commonprefix([n[len(prefix):][::-1] for n in names])[::-1]
    suffix = suffix[suffix.find("/"):] if "/" in suffix else ""
    middles = [n[len(prefix):len(n) - len(suffix)] for n in names]
    if not all(middles):
        return "^(" + "|".join(ere_escape(n) for n in names) + ")$"
    return "^" + ere_escape(prefix) + "(" + "|".join(ere_escape(m) for m in middles) + ")" + ere_escape(suffix) + "$"


def bench_command(names, flags=()):
    """bench_search with its own flags and the filter selecting `names` alone."""
    pattern = name_filter(names)
    quoted = f"'{pattern}'" if "'" not in pattern else shlex.quote(pattern)
    return " ".join(["bench_search", *flags, f"--benchmark_filter={quoted}"])


def own_flags(row, full):
    """bench_search's own flags that register the row's case: --full where the run had it (the
    large spaces and sets exist only there), --threads=N for a whole-space thread count above 1
    (the default list depends on the machine's cores)."""
    flags = ["--full"] if full else []
    if row["kind"] == "bfs" and (row.get("threads") or 1) > 1:
        flags.append(f"--threads={row['threads']}")
    return flags


def full_run(run):
    return "--full" in str(run.command).split()


def annotate(run):
    """Each row of the run gets `shown` (its engine as the command line names it), `reproduce`
    (the command that runs it again) and `bench_flags` (bench_search's own flags for it). Only
    whole-space cases run variants and yardsticks; the other kinds' engines are the registry's
    own (bench_search registers them from it), and codecs name an operation."""
    full = full_run(run)
    for r in run.rows:
        if "reproduce" in r:
            continue
        r["bench_flags"] = own_flags(r, full)
        r["shown"] = engine_name(r["engine"], run.registry) if r["kind"] == "bfs" else r["engine"]
        r["reproduce"] = run_command(r, run.registry) or bench_command([r["name"]], r["bench_flags"])


def cell(r):
    """The row's command as a table cell, in backticks so that it copies whole."""
    return f"`{r['reproduce']}`"


def cell_for(rows):
    """One bench_search command for several rows of a table's line (a point query's depths)."""
    flags = list(dict.fromkeys(f for r in rows for f in r["bench_flags"]))
    return f"`{bench_command([r['name'] for r in rows], flags)}`"
