"""The sections of a run's report that are not benchmark tables: whole-process runs,
judges against the classic programs, run conditions, the method, and the run's files."""
import re
import statistics

from . import conditions, fmt, stats
from .load import family


def scale_section(w, run):
    """Whole-process runs of scripts/scale_runs.py."""
    if not run.scale:
        return
    w.heading("Large spaces: whole-process wall time and peak resident memory",
              "`scripts/scale_runs.py`: each command run several times as a separate process; median of the wall time "
              "(start-up included) and of the peak RSS the kernel reports (wait4), with the min and max of the n runs. "
              "Totals and radii are checked against the known facts; every path has the length of its distance. "
              "The first-run row: each of n processes runs the search 7 times with no warm-up, and its first run "
              "(threads started, pages first touched) is set against the median of the other six.")
    table = []
    for r in sorted(run.scale, key=lambda r: ("point" in r["label"], r["label"])):
        if r.get("startup"):
            walls = r["wall_seconds"]
            table.append([r["label"], f"`{r['command']}`", str(len(walls)),
                          f"{r['median_wall_seconds']:.4f} ({min(walls):.4f}-{max(walls):.4f})", "",
                          f"{r['ratio_to_yardstick']:.2f}x a minimal C++ program ({r['yardstick_median_wall_seconds']:.4f} s)"])
            continue
        if r.get("disk"):
            writes, reads = r["write_bytes_per_second"], r["read_bytes_per_second"]
            table.append([r["label"], r["command"], str(len(writes)), "", "",
                          f"write {r['median_write_bytes_per_second'] / 1e6:.0f} MB/s ({min(writes) / 1e6:.0f}-{max(writes) / 1e6:.0f}), "
                          f"read {r['median_read_bytes_per_second'] / 1e6:.0f} MB/s ({min(reads) / 1e6:.0f}-{max(reads) / 1e6:.0f})"])
            continue
        if r.get("projection"):
            table.append([r["label"], f"`{r['command']}`", "", f"{r['projected_seconds']:.0f} (projected)", "",
                          f"{r['states']:,} states, at least {r['projected_seconds'] / 3600:.2f} h; the next section says how"])
            continue
        if r.get("cold_warm"):
            cold, warm = r["cold_seconds"], r["warm_seconds"]
            table.append([r["label"], f"`{r['command']}`", str(len(cold)),
                          f"first {statistics.median(cold):.3f} ({min(cold):.3f}-{max(cold):.3f}), "
                          f"warm {statistics.median(warm):.3f} ({min(warm):.3f}-{max(warm):.3f})", "",
                          f"first / warm {r['median_cold_to_warm']:.2f}x (median of the processes' ratios)"])
            continue
        answer = (f"{r['distance']} (`{r['path'][:24]}{'...' if len(r['path']) > 24 else ''}`)" if "distance" in r
                  else f"{r['states']:,}, radius {r['radius']}")
        walls, rss = r.get("wall_seconds", []), r.get("peak_rss_bytes", [])
        wall = f"{r['median_wall_seconds']:.3f}" + (f" ({min(walls):.3f}-{max(walls):.3f})" if len(walls) > 1 else "")
        mem = fmt.nbytes(r["median_peak_rss_bytes"]) + (f" ({fmt.nbytes(min(rss))}-{fmt.nbytes(max(rss))})" if len(rss) > 1 else "")
        extra = f"; mpi / parallel wall {r['wall_ratio_to_parallel']:.2f}" if "wall_ratio_to_parallel" in r else ""
        table.append([r["label"], f"`{r['command']}`", str(len(walls)), wall, mem, answer + extra])
    w.table("whole-process-runs", ["run", "command", "n", "median wall s (min-max)", "median peak RSS (min-max)", "states / distance"],
            "llrrrl", table)


def projection_section(w, run):
    """The large out-of-core run projected from the run's per-pass costs (scripts/out_of_core_projection.py)."""
    row = next((r for r in run.scale if r.get("projection")), None)
    if not row:
        return
    i = row["inputs"]
    hours = row["projected_seconds"] / 3600
    w.heading(f"{row['puzzle']} out of core, projected from this run",
              f"**at least {row['projected_seconds']:,.0f} s ({hours:.2f} h)**: a floor, since a state of the larger board is priced "
              f"at what it costs on the smaller one (`scripts/out_of_core_projection.py`: its docstring states the model and which way "
              f"each thing it leaves out leans), from this run's `{i['small_run']}` and its disk "
              f"rates, and the layout and per-depth counts of the finished {row['puzzle']} run in results/long "
              f"(`{i['large_run_record']}`, commits {', '.join(i['large_run_commits'])}). Per state: "
              f"{i['per_state_seconds'] * 1e9:.1f} ns of a pass (fitted on depths {i['small_fit_depths'][0]}-{i['small_fit_depths'][1]} "
              f"of the small run) plus {i['large_routed_bytes_per_state']:.2f} bytes of successor lists written and read back "
              f"({i['small_bytes_per_routed_successor']:.2f} bytes per routed successor measured): {i['large_per_state_seconds'] * 1e9:.1f} ns. "
              f"Per pass: {fmt.nbytes(i['large_generation_bytes'])} of cells read and written, "
              f"{i['large_per_pass_seconds']:.0f} s at {i['write_bytes_per_second'] / 1e6:.0f} MB/s written and "
              f"{i['read_bytes_per_second'] / 1e6:.0f} MB/s read. {row['passes']} passes after {row['seeded_depths']} depths seeded in memory "
              f"({fmt.nbytes(i['large_max_memory_bytes'])}). The finished run's own seconds (its commits, on the machine it ran on) "
              f"stand beside the depths it printed.")
    if row.get("compared_depths"):
        a, b = row["compared_depths"]
        w(f"Depths {a}-{b}: projected {row['compared_projected_seconds']:,.0f} s, the finished run took "
          f"{row['compared_measured_seconds']:,.0f} s.")
        w()
    probe = row.get("probe_depths")
    if probe:
        a, b = row["probe_fit_depths"]
        w(f"**From its own first passes: {row['probe_projected_seconds']:,.0f} s ({row['probe_projected_seconds'] / 3600:.2f} h).** "
          f"`{row['probe_command']}` ran at this commit; fitted on its depths {a}-{b}: "
          f"{row['probe_per_pass_seconds']:.1f} s per pass and {row['probe_per_state_seconds'] * 1e9:.1f} ns per state, "
          f"added to the {sum(d['projected_seconds'] for d in probe if d['depth'] < a):,.0f} s it took to reach depth {a}.")
        w()
    table = [[str(d["depth"]), f"{d['states']:,}", f"{d['projected_seconds']:.1f}" + (" (seeded)" if d["seeded"] else "")]
             + ([f"{probe[k]['projected_seconds']:.1f}" + (" (ran)" if k < row["probe_fit_depths"][0] else "")] if probe else [])
             + ["" if d["measured_seconds"] is None else f"{d['measured_seconds']:.1f}"]
             for k, d in enumerate(row["depths"])]
    header = ["depth", "states", "floor s"] + (["from its first passes s"] if probe else []) + ["finished run's s"]
    w.table(f"projection-{row['puzzle']}", header, "r" * len(header), table)


def peers_section(w, run):
    """scripts/peer_runs.py (reproduce.sh --peers): searchbench beside PuzzleSearch, gapbs and twsearch."""
    doc = run.peers
    if not doc:
        return
    commits = "; ".join(f"{peer} at commit {info.get('mirror_commit', 'unknown')[:12]}" + (f", given with {info['given']}" if "given" in info else "")
                        for peer, info in doc["context"].get("peers", {}).items())
    methods = {  # how each peer is measured: said only for the peers the run holds
        "PuzzleSearch": "PuzzleSearch: whole processes in turn with searchbench's `parallel` engine, median wall time of n "
                        "runs each, per-depth counts checked equal.",
        "twsearch": "twsearch: `twsearch -g` (one thread) on the same definition file as `searchbench run --puzzle FILE "
                    "--engine parallel`, whole processes in turn, per-depth counts checked equal.",
        "gapbs": "gapbs: `bfs` on the state graph `searchbench export` writes (explicit for it, implicit for us), both warm, "
                 "median of 9 trials each.",
    }
    present = {r.get("peer") for r in doc.get("runs", [])}
    w.heading("Beside the peers, on the same work",
              "`scripts/reproduce.sh --peers` (`scripts/peer_runs.py`): the peers built outside the project from local git "
              "copies of their repositories" + (f" ({commits})" if commits else "") + ", run on this machine in this run. " +
              " ".join(text for peer, text in methods.items() if peer in present) +
              " Ratio: ours / the peer's (below 1: searchbench is faster). *reproduce*: searchbench's command and the "
              "peer's, as `scripts/peer_runs.py` ran them (gapbs reads the graph `searchbench export` wrote).")
    table = []
    for r in doc.get("runs", []):
        if "skipped" in r:
            table.append([r["peer"], "", "", "", "", f"skipped: {r['skipped']}", ""])
            continue
        if r["peer"] == "gapbs":
            ours, theirs = r["median_search_seconds"], r["peer_median_search_seconds"]
            n, note = str(len(r["search_seconds"])), f"{r['states']:,} states, radius {r['radius']}; search time"
        else:
            ours, theirs = r["median_wall_seconds"], r["peer_median_wall_seconds"]
            n = str(len(r["wall_seconds"]))
            note = (f"{r['states']:,} states, radius {r['radius']}, counts agree; peak RSS {fmt.nbytes(r['median_peak_rss_bytes'])} "
                    f"vs {fmt.nbytes(r['peer_median_peak_rss_bytes'])}")
        table.append([f"{r['peer']} `{r['peer_algorithm']}`", r["label"], n, f"{ours:.3f}", f"{theirs:.3f}",
                      f"**{r['ratio']:.2f}x**; {note}", peer_commands(r)])
    w.table("peers", ["peer", "work", "n", "searchbench median s", "peer median s", "ours / peer", "reproduce"], "lllrrll", table)


def peer_commands(r):
    """searchbench's command and the peer's of a row of scripts/peer_runs.py, each in backticks."""
    return "; ".join(f"{who}: `{r[key]}`" for who, key in (("ours", "command"), ("peer", "peer_command")) if r.get(key))


def judge_groups(doc):
    """(total, its inputs) per group of scripts/judge_speed.py's file; older files do not list
    a group's inputs, so those are matched by the rule judge_speed.py used."""
    inputs = doc.get("inputs", [])
    rules = {"sicily1151": lambda i: i["judge"] == "sicily1151", "random": lambda i: i["input"].startswith("fzu1603-random"),
             "far": lambda i: i["input"] == "fzu1603-far"}
    out = []
    for t in doc.get("totals", []):
        if "input_labels" in t:
            members = [i for i in inputs if i["input"] in t["input_labels"]]
        else:
            rule = next((f for key, f in rules.items() if key in t["group"]), lambda i: False)
            members = [i for i in inputs if rule(i)]
        out.append((t, members))
    return out


def judge_ratio_ci(members, kind, who="ours"):
    pairs = [(i[who][f"{kind}_seconds"], i["classic"][f"{kind}_seconds"]) for i in members]
    return stats.bootstrap_ratio_of_summed_medians(pairs)


def judge_rows(doc):
    """Per group: the totals and the bootstrap CIs of both ratios, and of the command line's
    wall ratio where the file timed it too (None otherwise)."""
    return [(t, judge_ratio_ci(m, "wall"), judge_ratio_ci(m, "cpu"),
             judge_ratio_ci(m, "wall", "cli") if "cli_wall" in t else None) for t, m in judge_groups(doc)]


def judged_program(doc):
    """The program the file's "ours" figures time: files before searchbench-judge timed the
    command line's judge."""
    return doc["context"].get("ours_command", "searchbench judge NAME").replace(" NAME", "")


def judge_speed_section(w, run):
    doc = run.judges
    if not doc or not doc.get("totals"):
        return
    ctx = doc["context"]
    load = ""
    if ctx.get("load_average_before") and ctx.get("load_average_after"):
        load = (f" (load average {ctx['load_average_before'][0]:.2f} before the runs, "
                f"{ctx['load_average_after'][0]:.2f} after)")
    ours = judged_program(doc)
    rows = judge_rows(doc)
    with_cli = all(cli is not None for *_, cli in rows)
    cli_text = (" The last columns time `searchbench judge`, the command line's judge, on the same inputs in the same "
                "rotation: the same answers, from an executable that loads libstdc++ and oneTBB as shared libraries "
                "at every start.") if with_cli else ""
    w.heading("Judges against the classic single-file programs",
              f"`{ctx['command']}`: whole processes (start-up, I/O and every table included) on seeded inputs; each input "
              f"read {ctx['runs']} times by each program, `{ours}` and the `bench/classic` program alternating, and "
              f"the medians per input summed. Ratio = {ours} / classic (below 1: searchbench is faster), with a 95% "
              "bootstrap CI (each input's runs resampled). CPU time (user + system) stands beside wall time because on a "
              f"shared machine the wall time also counts waiting for a core{load}.{cli_text}")
    ci = lambda c: "" if c is None else f" [{c[0]:.3f}, {c[1]:.3f}]"
    table = [[t["group"], t["inputs"], f"{t['ours_wall'] * 1000:.1f}", f"{t['classic_wall'] * 1000:.1f}",
              f"{t['ratio_wall']:.3f}{ci(cw)}", f"{t['ours_cpu'] * 1000:.1f}", f"{t['classic_cpu'] * 1000:.1f}",
              f"{t['ratio_cpu']:.3f}{ci(cc)}"]
             + ([f"{t['cli_wall'] * 1000:.1f}", f"{t['cli_ratio_wall']:.3f}{ci(cli)}"] if with_cli else [])
             + ["yes" if t["identical"] else "NO"] for t, cw, cc, cli in rows]
    header = ["judge", "inputs", f"{ours} wall ms", "classic wall ms", "ratio (wall) [95% CI]",
              f"{ours} CPU ms", "classic CPU ms", "ratio (CPU) [95% CI]"]
    if with_cli:
        header += ["searchbench judge wall ms", "its ratio (wall) [95% CI]"]
    w.table("judges-against-classic", header + ["outputs identical"], "lrrrrrrr" + ("rr" if with_cli else "") + "l", table)


def conditions_section(w, run):
    w.heading("Run conditions",
              "Whether other work shared the machine (scripts/report.py's checks: reporting/conditions.py), the CPU "
              "frequency governor, and how widely the repetitions spread.")
    w(f"CPU frequency governor: {conditions.governor(run)}. " + conditions.claim(run))
    w()
    made = conditions.checks(run)
    if made:
        w.table("quiet-checks", ["check", "passed", "seen"], "lll", [[n, "yes" if ok else "**no**", seen] for n, ok, seen in made])
    flagged_cases(w, run)
    if run.errors:
        w(f"{len(run.errors)} benchmarks ended with an error and are left out: "
          + "; ".join(f"`{name}` ({message})" for name, message in run.errors) + ".")
        w()


def flagged_cases(w, run):
    """The noisy (CV above the limit) and busy cases: one line per puzzle on the page, every
    case in a CSV file of the run's tables."""
    busy = {id(r) for r in conditions.busy_rows(run)}
    flagged = [(r, [k for k, on in (("noisy", stats.noisy(r)), ("busy", id(r) in busy)) if on]) for r in run.rows]
    flagged = [(r, flags) for r, flags in flagged if flags]
    if not flagged:
        return
    link = w.csv_only("flagged-cases", ["benchmark", "flags", "CV", "n", "others' cores", "largest load"],
                      [[r["name"], ", ".join(flags), fmt.percent(r.get("cv")), r["n"], fmt.ratio(r.get("others_cpu")),
                        "-" if r.get("load1_max") is None else f"{r['load1_max']:.2f}"] for r, flags in flagged])
    groups = {}
    for r in run.rows:
        groups.setdefault(r["puzzle"] or f"({r['kind']})", []).append(r)
    lines = []
    natural = lambda p: (family(p), [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", p)])
    for puzzle in sorted(groups, key=natural):
        rows = groups[puzzle]
        cvs = [r["cv"] for r in rows if r.get("cv") is not None]
        noisy, hot = sum(1 for r in rows if stats.noisy(r)), sum(1 for r in rows if id(r) in busy)
        if noisy or hot:
            lines.append([puzzle, str(len(rows)), str(noisy), fmt.percent(statistics.median(cvs)) if cvs else "-",
                          fmt.percent(max(cvs)) if cvs else "-", str(hot)])
    w(f"Cases with a CV above {stats.NOISY_CV:.0%} (*noisy*) or run while other processes kept more than "
      f"{conditions.OTHERS_LIMIT} cores busy (*busy*), one line per puzzle; every such case with its figures: "
      f"[{link.rsplit('/', 1)[-1]}]({link}).")
    w()
    w.table("flagged-by-puzzle", ["puzzle", "cases", "noisy", "median CV", "largest CV", "busy"], "lrrrrr", lines)


def method_section(w, run):
    if not run.rows:
        return
    rounds = run.manifest.get("rounds") or []
    plan = ("; ".join(f"round {i + 1}: {r.get('repetitions', '?')} repetitions of {r.get('cases', '?')} cases"
                      + (f" ({r['why']})" if r.get("why") else "") for i, r in enumerate(rounds)) + ". ") if rounds else ""
    interleaved = "random_interleaving" in str(run.manifest.get("bench_flags", "")) or run.manifest.get("interleaved")
    w.heading("How the figures are computed",
              f"{plan}Google Benchmark "
              + ("interleaves the repetitions of all cases in random order (`--benchmark_enable_random_interleaving=true`), "
                 "so a slow minute of the machine spreads over many cases instead of shifting one. " if interleaved else
                 "ran each case's repetitions back to back. ")
              + "Each repetition's time is its wall time per iteration. A row gives the median of the repetitions with a 95% "
              f"CI of the median from a percentile bootstrap ({stats.RESAMPLES:,} resamples, fixed seed {stats.SEED}, so the "
              "report is reproducible; with 5 repetitions the interval is the range of the 5 times, whose exact coverage of "
              "the median is 93.8%), the mean ± standard deviation, and the CV = sd / mean, flagged above "
              f"{stats.NOISY_CV:.0%}. Cases that got a second round pool the repetitions of both. Two rows *tie* when their "
              "CIs overlap, and *fastest* is said only of a row whose CI lies below every other row's of its table. "
              "Ratios (x naive, x classic, speedups, vs fastest) are ratios of medians of this run; where a ratio has a "
              "95% CI, it is the percentile bootstrap of the ratio of the two medians, each case's repetitions resampled "
              "on their own (same resamples and seed). Rates (states/s, queries/s, keys) are the items of one iteration "
              "over the median wall time: Google Benchmark's items_per_second divides by the CPU time for cases that "
              "do not use the real time (the serial engines), so a rate from it would not match the time beside it. "
              "Rows from files that kept only the aggregates (runs before the repetitions were kept) have no CI, so no "
              "tie or fastest is decided there. The last column of each benchmark's row, *reproduce*, is the command "
              "that runs that case again (scripts/reporting/commands.py), from the build folder "
              "(`build/release/searchbench`, `build/release/bench/bench_search`): `searchbench run` where the command line "
              "does the same search (a whole space from the start; bench_search's `parallel-topdown` is `--engine parallel "
              "--top-down`), else bench_search with a `--benchmark_filter` that selects that case alone and the own flags "
              "that register it (`--full`, `--threads=N`): point queries and judges (their targets are drawn there), "
              "heuristic sets, the codecs and the yardsticks that are no engine (`explicit-csr`). Add `--repetitions 5` "
              "(searchbench) or the run's `bench_flags` (run.json) for the repetitions behind the medians.")


def files_section(w, run):
    w.heading("Files of this run")
    names = [name for kind in ("bench", "scale", "judges", "peers") for name, _ in run.files[kind]]
    if run.manifest:
        names.append("run.json")
    if run.registry.saved:
        names.append("registry.json")
    csvs = f"Every benchmark, one row each: [benchmarks.csv]({w.link('benchmarks.csv')}); " if run.rows else ""
    w("Raw files: " + ", ".join(f"[{n}]({w.link(n)})" for n in names) + f". {csvs}each table above as CSV under "
      f"[tables/]({w.link('tables/')}).")
    w()
