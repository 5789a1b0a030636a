// What `compare` prints, once every case has run: the whole-space engines and the point-query
// engines in tables of their own (they measure different things: states per second over the
// whole space, targets answered per second), each sorted by median time, fastest first, with
// each case's time relative to the fastest of its table ("vs fastest": the ratio of the
// medians and a 95% bootstrap interval of that ratio); timed-out cases last. As text (columns
// as wide as what they hold), GitHub markdown, CSV (raw numbers in seconds and bytes) or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/common.hpp"

namespace searchbench::cli {

// A case's median time over the fastest case's of its table: the ratio, and a 95% bootstrap
// interval of it where both have at least kMinRepetitionsForInterval times. The interval:
// each case's times resampled with replacement, the ratio of the resampled medians, its 2.5th
// and 97.5th percentiles over kBootstrapResamples resamples, from a fixed seed (the same
// output for the same times).
struct RatioToFastest {
  static constexpr int kMinRepetitionsForInterval = 3;
  static constexpr int kBootstrapResamples = 10'000;
  double ratio = 1.0;
  std::optional<std::pair<double, double>> interval;
  bool fastest = false;
};
RatioToFastest ratio_to_fastest(const std::vector<double>& times, const std::vector<double>& fastest_times, bool is_fastest);

// "1 (fastest)", "2.31x [2.10, 2.55]", "2.31x" (too few repetitions for an interval).
std::string ratio_cell(const RatioToFastest& r);

// One engine x encoder x threads case of compare, as measured.
struct ComparedCase {
  std::string engine, encoder;
  std::string heuristic;  // heuristic engines only
  int threads_requested = 1, threads = 1;
  bool whole_space = true;  // a whole-space engine (states/s), else a point-query one (queries/s)
  Spread seconds;
  double rate = 0;  // states or queries per second, from the median
  std::uint64_t peak_bytes = 0;
  bool agrees = true;
  std::optional<std::string> timed_out;  // stopped by --timeout: where it was (the error line)
  Json partial;                          // and what it had done
  std::optional<RatioToFastest> ratio;   // set by arrange(); none for a timed-out case
};

// "idastar:manhattan" for a heuristic engine, the engine's name for the others.
std::string shown_engine(const std::string& engine, const std::string& heuristic);

// The cases of one kind: sorted by median time, timed-out ones last, with their ratios.
struct CompareTable {
  bool whole_space = true;
  std::vector<ComparedCase> cases;
};
// The whole-space table first, then the point-query one; a kind with no case has no table.
std::vector<CompareTable> arrange(std::vector<ComparedCase> cases);

// A case as a row of the JSON's `rows`: its names, times, rate, peak and agreement (or the
// timed-out fields), its `kind` and its ratio to the fastest.
Json case_json(const ComparedCase& c);

// What the text and markdown tables say around the rows.
struct CompareNotes {
  std::string targets;  // "20 targets: 20 random (seed 1); ..."
  int repetitions = 1, warmup = 0;
  std::size_t target_count = 0;
};
void print_text_tables(const std::vector<CompareTable>& tables, const CompareNotes& notes);
void print_markdown_tables(const std::vector<CompareTable>& tables, const CompareNotes& notes);
// One header row, then one row per case: seconds, bytes and rates as raw numbers.
void print_csv(const std::vector<CompareTable>& tables);

}  // namespace searchbench::cli
