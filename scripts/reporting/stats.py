"""Statistics of a case's repetitions, and the rules that compare two cases.

Every repetition's time is the library's real_time (wall time per iteration, averaged over
the repetition's iterations). Per case: median, mean, standard deviation (n - 1), the
coefficient of variation sd / mean, and a 95% confidence interval of the median from a
percentile bootstrap: RESAMPLES resamples of the n times drawn with replacement, the
median of each, and the 2.5th and 97.5th percentiles of those medians. The generator is
seeded with SEED, so a report is the same every time it is made from the same files. With
5 repetitions the interval is the range of the 5 times (the order statistics the bootstrap
can reach); more repetitions narrow it.

Two cases tie when their intervals overlap; a case is called the fastest only when its
interval lies wholly below every other's. How many times slower one case is than another is
the ratio of their medians, with a 95% interval from the same bootstrap applied to each
case's times on its own (the ratio of the two resampled medians, RESAMPLES times).
"""
import math
import statistics

import numpy

CONFIDENCE = 0.95
RESAMPLES = 10_000
SEED = 20240601
NOISY_CV = 0.05  # a case whose CV is above this is flagged, and gets more repetitions


def bootstrap_median_ci(values, confidence=CONFIDENCE, resamples=RESAMPLES, seed=SEED):
    """(low, high) of the percentile bootstrap interval of the median; None under 2 values."""
    if len(values) < 2:
        return None
    data = numpy.asarray(values, dtype=float)
    rng = numpy.random.default_rng(seed)
    medians = numpy.median(data[rng.integers(0, len(data), size=(resamples, len(data)))], axis=1)
    tail = (1 - confidence) / 2 * 100
    low, high = numpy.percentile(medians, [tail, 100 - tail])
    return float(low), float(high)


def _resampled_medians(rng, values, resamples):
    data = numpy.asarray(values, dtype=float)
    return numpy.median(data[rng.integers(0, len(data), size=(resamples, len(data)))], axis=1)


def bootstrap_ratio_of_medians(top, bottom, confidence=CONFIDENCE, resamples=RESAMPLES, seed=SEED):
    """(low, high) of the percentile bootstrap interval of median(top) / median(bottom), each
    sample resampled on its own; None unless both have 2 values or more."""
    if len(top) < 2 or len(bottom) < 2:
        return None
    rng = numpy.random.default_rng(seed)
    ratios = _resampled_medians(rng, top, resamples) / _resampled_medians(rng, bottom, resamples)
    tail = (1 - confidence) / 2 * 100
    low, high = numpy.percentile(ratios, [tail, 100 - tail])
    return float(low), float(high)


def ratio_ci(top, bottom):
    """(ratio, low, high): median time of row `top` / that of row `bottom`, with its 95% CI
    (None and None without the repetitions); None when a median is missing."""
    if top is None or bottom is None or top.get("median") is None or not bottom.get("median"):
        return None
    ci = bootstrap_ratio_of_medians(top.get("times") or [], bottom.get("times") or [])
    return (top["median"] / bottom["median"],) + (ci or (None, None))


def summarize(values):
    """n, median, mean, sd, cv, ci_low, ci_high of a list of times (None where undefined)."""
    n = len(values)
    out = {"n": n, "median": None, "mean": None, "sd": None, "cv": None, "ci_low": None, "ci_high": None}
    if not n:
        return out
    out.update(median=statistics.median(values), mean=statistics.fmean(values))
    if n >= 2:
        out["sd"] = statistics.stdev(values)
        out["cv"] = out["sd"] / out["mean"] if out["mean"] else None
        out["ci_low"], out["ci_high"] = bootstrap_median_ci(values)
    return out


def noisy(row):
    return row.get("cv") is not None and row["cv"] > NOISY_CV


def has_ci(row):
    return row.get("ci_low") is not None


def overlap(a, b):
    """Whether the CIs of the medians of two rows overlap (a tie)."""
    return a["ci_low"] <= b["ci_high"] and b["ci_low"] <= a["ci_high"]


def fastest(rows, key="median"):
    """(best, tied, decided) among rows: the row of the smallest median, the others whose CI
    overlaps its CI, and whether the best is decided (CIs known and no tie). Without CIs
    (files that kept only the aggregates) nothing is decided."""
    rows = [r for r in rows if r.get(key) is not None]
    if not rows:
        return None, [], False
    best = min(rows, key=lambda r: r[key])
    others = [r for r in rows if r is not best]
    if not all(has_ci(r) for r in rows):
        return best, [], False
    tied = [r for r in others if overlap(best, r)]
    return best, tied, not tied


def ratio(numerator, denominator):
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def bootstrap_ratio_of_summed_medians(pairs, confidence=CONFIDENCE, resamples=2_000, seed=SEED):
    """95% CI of sum(median(a_i)) / sum(median(b_i)) over inputs i, each input's runs
    resampled on their own (the judges' whole-process runs); None without 2 runs each."""
    if not pairs or any(len(a) < 2 or len(b) < 2 for a, b in pairs):
        return None
    rng = numpy.random.default_rng(seed)
    top = numpy.zeros(resamples)
    bottom = numpy.zeros(resamples)
    for a, b in pairs:
        for values, acc in ((a, top), (b, bottom)):
            data = numpy.asarray(values, dtype=float)
            acc += numpy.median(data[rng.integers(0, len(data), size=(resamples, len(data)))], axis=1)
    tail = (1 - confidence) / 2 * 100
    low, high = numpy.percentile(top / bottom, [tail, 100 - tail])
    return float(low), float(high)


def finite(x):
    return x is not None and not (isinstance(x, float) and math.isnan(x))
