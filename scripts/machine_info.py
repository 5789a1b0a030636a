#!/usr/bin/python3
"""The machine a run happens on, recorded with every raw results file.

usage: scripts/machine_info.py [--benchmark-context]

Prints the description as JSON, or with --benchmark-context one
`--benchmark_context=KEY=VALUE` argument per line for bench_search (commas, which the
library reads as separators, become semicolons).
Keys: machine (one line naming all of it), cpu_model, cores (logical CPUs this process may
use), memory_bytes (MemTotal), kernel (uname), os (/etc/os-release PRETTY_NAME).
"""
import json
import os
import platform
import sys
import time


def _first(path, prefix, split):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(prefix):
                    return line.split(split, 1)[1].strip().strip('"')
    except OSError:
        pass
    return None


def describe():
    cpu = _first("/proc/cpuinfo", "model name", ":") or platform.processor() or "unknown CPU"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    mem_kib = _first("/proc/meminfo", "MemTotal:", ":")
    memory = int(mem_kib.split()[0]) * 1024 if mem_kib else 0
    kernel = f"{platform.system()} {platform.release()}"
    os_name = _first("/etc/os-release", "PRETTY_NAME=", "=") or platform.platform()
    return {
        "machine": f"{cpu}; {cores} cores; {memory / 2**30:.1f} GiB; {kernel}",
        "cpu_model": cpu,
        "cores": str(cores),
        "memory_bytes": str(memory),
        "kernel": kernel,
        "os": os_name,
    }


def write_runs(path, rows, *, runs, git_revision, command, filter=None, **extra):
    """A whole-process results file: {"context": this machine, the date, N runs, the commit,
    the command (and its filter), extra keys; "runs": rows}."""
    context = dict(describe(), date=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), runs=runs, **extra,
                   git_revision=git_revision, command=command)
    if filter:
        context["filter"] = filter
    with open(path, "w") as f:
        json.dump({"context": context, "runs": rows}, f, indent=1)


if __name__ == "__main__":
    info = describe()
    if sys.argv[1:] == ["--benchmark-context"]:
        # Google Benchmark splits a context value at commas: none may remain.
        print("\n".join(f"--benchmark_context={k}={v.replace(',', ';')}" for k, v in info.items()))
    elif sys.argv[1:]:
        sys.exit(__doc__)
    else:
        print(json.dumps(info, indent=1))
