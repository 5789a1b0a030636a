#!/usr/bin/env bash
# Shows regressions between two benchmark runs: scripts/compare.sh OLD.json NEW.json [THRESHOLD%]
# Prints, for every benchmark in both, the median wall time before and after and the change;
# exits 1 when any benchmark got slower by more than THRESHOLD percent (default 10).
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: scripts/compare.sh OLD.json NEW.json [THRESHOLD%]" >&2; exit 2; }
/usr/bin/python3 - "$1" "$2" "${3:-10}" <<'PY'
import json, sys
def medians(path):
    with open(path) as f:
        doc = json.load(f)
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    # The median aggregate of each benchmark; a run of one repetition has only its iteration.
    out = {}
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            continue
        if b.get("aggregate_name") == "median" or (b.get("run_type") == "iteration" and b.get("repetitions", 1) <= 1):
            out[b["run_name"]] = b["real_time"] * scale[b["time_unit"]]
    return out
old, new, limit = medians(sys.argv[1]), medians(sys.argv[2]), float(sys.argv[3])
worse = 0
print(f"{'benchmark':70} {'old ms':>10} {'new ms':>10} {'change':>8}")
for name in sorted(set(old) & set(new)):
    change = (new[name] - old[name]) / old[name] * 100
    flag = "  SLOWER" if change > limit else ""
    worse += change > limit
    print(f"{name:70} {old[name]:10.3f} {new[name]:10.3f} {change:+7.1f}%{flag}")
print(f"{worse} of {len(set(old) & set(new))} benchmarks slower by more than {limit:.0f}%")
sys.exit(1 if worse else 0)
PY
