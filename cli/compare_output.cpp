#include "cli/compare_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "core/memory_budget.hpp"

namespace searchbench::cli {

namespace {

// Any fixed value: the interval is a resampling, and the same times must print the same interval.
constexpr std::uint64_t kBootstrapSeed = 20'261'207;

double median_of(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The p-quantile of sorted values, interpolated linearly between the nearest two.
double quantile(const std::vector<double>& sorted, double p) {
  const double at = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

// Times drawn with replacement from `from` into `into` (as many as `from` has). The index is
// the generator's output modulo the count, not std::uniform_int_distribution, whose
// algorithm differs between standard libraries: the interval is the same with any of them.
void resample(const std::vector<double>& from, std::vector<double>& into, std::mt19937_64& rng) {
  into.resize(from.size());
  for (auto& x : into) x = from[rng() % from.size()];
}

const char* kind_name(bool whole_space) { return whole_space ? "whole-space" : "point-query"; }
const char* rate_unit(bool whole_space) { return whole_space ? "states/s" : "queries/s"; }

// The cells of a case's row; a timed-out case has its names and one cell that says so.
std::vector<std::string> row_cells(const ComparedCase& c) {
  std::vector<std::string> cells = {shown_engine(c.engine, c.heuristic), c.encoder, std::to_string(c.threads)};
  if (c.timed_out) {
    cells.push_back("timed out: " + *c.timed_out);
    return cells;
  }
  const std::vector<std::string> figures = {human_seconds(c.seconds.median()),
                                            human_seconds(c.seconds.min()),
                                            human_seconds(c.seconds.max()),
                                            human_rate(c.rate, rate_unit(c.whole_space)),
                                            human_bytes(c.peak_bytes),
                                            c.ratio ? ratio_cell(*c.ratio) : "",
                                            c.agrees ? "yes" : "NO"};
  cells.insert(cells.end(), figures.begin(), figures.end());
  return cells;
}

const std::vector<std::string> kHeader = {"engine", "encoder", "threads", "median", "min", "max", "rate", "peak", "vs fastest", "agrees"};
bool right_aligned(std::size_t column) { return column >= 2 && column <= 7; }

std::string table_title(const CompareTable& t, const CompareNotes& notes) {
  if (t.whole_space) return "whole-space engines, fastest first: the time to reach every state from the start";
  return "point-query engines, fastest first: the time to answer all " + std::to_string(notes.target_count) + " targets";
}

std::string footer(const CompareNotes& notes) {
  const auto count = [](int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  return "times: the median of " + count(notes.repetitions, "repetition", "repetitions") + " after " +
         count(notes.warmup, "warm-up run", "warm-up runs") +
         ", the search only, as run times it;\nthe whole-space engines' paths come from one more untimed run that keeps its "
         "table.\nvs fastest: the ratio of median times [its 95% bootstrap interval, from " +
         std::to_string(RatioToFastest::kMinRepetitionsForInterval) + " repetitions up]";
}

// A CSV field: quoted (its quotes doubled) where it holds a comma, a quote or a line break.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string raw(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

RatioToFastest ratio_to_fastest(const std::vector<double>& times, const std::vector<double>& fastest_times, bool is_fastest) {
  RatioToFastest r;
  r.fastest = is_fastest;
  const double base = median_of(fastest_times);
  if (is_fastest) return r;
  r.ratio = base > 0 ? median_of(times) / base : std::numeric_limits<double>::infinity();
  const auto enough = static_cast<std::size_t>(RatioToFastest::kMinRepetitionsForInterval);
  if (times.size() < enough || fastest_times.size() < enough || !(base > 0)) return r;
  std::mt19937_64 rng(kBootstrapSeed);
  std::vector<double> ratios, a, b;
  ratios.reserve(RatioToFastest::kBootstrapResamples);
  for (int i = 0; i < RatioToFastest::kBootstrapResamples; ++i) {
    resample(times, a, rng);
    resample(fastest_times, b, rng);
    if (const double m = median_of(b); m > 0) ratios.push_back(median_of(a) / m);
  }
  if (ratios.empty()) return r;
  std::sort(ratios.begin(), ratios.end());
  r.interval = std::make_pair(quantile(ratios, 0.025), quantile(ratios, 0.975));
  return r;
}

std::string ratio_cell(const RatioToFastest& r) {
  if (r.fastest) return "1 (fastest)";
  if (!std::isfinite(r.ratio)) return "-";
  std::string text = ratio_text(r.ratio);
  if (r.interval) text += " [" + three_figures(r.interval->first) + ", " + three_figures(r.interval->second) + "]";
  return text;
}

std::string shown_engine(const std::string& engine, const std::string& heuristic) {
  return heuristic.empty() ? engine : engine + ":" + heuristic;
}

std::vector<CompareTable> arrange(std::vector<ComparedCase> cases) {
  std::vector<CompareTable> tables;
  for (const bool whole_space : {true, false}) {
    CompareTable t;
    t.whole_space = whole_space;
    for (auto& c : cases)
      if (c.whole_space == whole_space) t.cases.push_back(std::move(c));
    if (t.cases.empty()) continue;
    std::stable_sort(t.cases.begin(), t.cases.end(), [](const ComparedCase& x, const ComparedCase& y) {
      if (x.timed_out.has_value() != y.timed_out.has_value()) return !x.timed_out;
      return !x.timed_out && x.seconds.median() < y.seconds.median();
    });
    if (!t.cases.front().timed_out) {
      const std::vector<double> fastest = t.cases.front().seconds.all;
      for (std::size_t i = 0; i < t.cases.size() && !t.cases[i].timed_out; ++i)
        t.cases[i].ratio = ratio_to_fastest(t.cases[i].seconds.all, fastest, i == 0);
    }
    tables.push_back(std::move(t));
  }
  return tables;
}

Json case_json(const ComparedCase& c) {
  Json j;
  j["engine"] = c.engine;
  if (!c.heuristic.empty()) j["heuristic"] = c.heuristic;
  j["encoder"] = c.encoder;
  j["threads"] = c.threads;
  j["threads_requested"] = c.threads_requested;
  if (c.timed_out) {
    j["timed_out"] = true;
    j["error"] = *c.timed_out;
    j["partial"] = c.partial;
  } else {
    c.seconds.put(j);
    j[c.whole_space ? "states_per_second" : "queries_per_second"] = c.rate;
    j["peak_bytes"] = c.peak_bytes;
    j["agrees"] = c.agrees;
  }
  j["kind"] = kind_name(c.whole_space);
  j["ratio_to_fastest"] = c.ratio && std::isfinite(c.ratio->ratio) ? Json(c.ratio->ratio) : Json(nullptr);
  j["ratio_ci"] = c.ratio && c.ratio->interval ? Json::array({c.ratio->interval->first, c.ratio->interval->second}) : Json(nullptr);
  return j;
}

void print_text_tables(const std::vector<CompareTable>& tables, const CompareNotes& notes) {
  std::printf("%s\n", notes.targets.c_str());
  for (const auto& t : tables) {
    std::vector<std::vector<std::string>> rows = {kHeader};
    for (const auto& c : t.cases) rows.push_back(row_cells(c));
    std::vector<std::size_t> width(kHeader.size(), 0);
    for (const auto& row : rows)
      for (std::size_t i = 0; i < row.size(); ++i)
        if (row.size() == kHeader.size() || i < 3) width[i] = std::max(width[i], row[i].size());
    std::printf("\n%s\n", table_title(t, notes).c_str());
    for (const auto& row : rows) {
      std::string line;
      for (std::size_t i = 0; i < row.size(); ++i) {
        // The last cell is not padded: the agreement, or the line of a timed-out case.
        const bool last = i + 1 == row.size();
        const std::string pad(last && (!right_aligned(i) || row.size() < kHeader.size()) ? 0 : width[i] - row[i].size(), ' ');
        line += (i == 0 ? "" : "  ") + (right_aligned(i) ? pad + row[i] : row[i] + pad);
      }
      std::printf("%s\n", line.c_str());
    }
  }
  std::printf("\n%s\n", footer(notes).c_str());
}

void print_markdown_tables(const std::vector<CompareTable>& tables, const CompareNotes& notes) {
  std::printf("%s\n", notes.targets.c_str());
  for (const auto& t : tables) {
    std::printf("\n**%s**\n\n|", table_title(t, notes).c_str());
    for (const auto& h : kHeader) std::printf(" %s |", h.c_str());
    std::printf("\n|");
    for (std::size_t i = 0; i < kHeader.size(); ++i) std::printf("%s|", right_aligned(i) ? "--:" : ":--");
    std::printf("\n");
    for (const auto& c : t.cases) {
      std::vector<std::string> cells = row_cells(c);
      cells.resize(kHeader.size());  // a timed-out case: the rest of its row empty
      std::printf("|");
      for (const auto& cell : cells) {
        std::string escaped;  // a '|' inside a cell would end it
        for (char ch : cell) escaped += ch == '|' ? std::string("\\|") : std::string(1, ch);
        std::printf(" %s |", escaped.c_str());
      }
      std::printf("\n");
    }
  }
  std::printf("\n%s\n", footer(notes).c_str());
}

void print_csv(const std::vector<CompareTable>& tables) {
  std::printf("kind,engine,heuristic,encoder,threads,threads_requested,seconds,seconds_min,seconds_max,rate,rate_unit,peak_bytes,"
              "ratio_to_fastest,ratio_ci_low,ratio_ci_high,agrees,timed_out,error\n");
  for (const auto& t : tables)
    for (const auto& c : t.cases) {
      std::string row = std::string(kind_name(c.whole_space)) + "," + csv_field(c.engine) + "," + csv_field(c.heuristic) + "," +
                        csv_field(c.encoder) + "," + std::to_string(c.threads) + "," + std::to_string(c.threads_requested) + ",";
      if (c.timed_out) {
        row += ",,,,," + std::string(rate_unit(c.whole_space)) + ",,,,,,true," + csv_field(*c.timed_out);
      } else {
        const bool ratio = c.ratio && std::isfinite(c.ratio->ratio), interval = c.ratio && c.ratio->interval;
        row += raw(c.seconds.median()) + "," + raw(c.seconds.min()) + "," + raw(c.seconds.max()) + "," + raw(c.rate) + "," +
               rate_unit(c.whole_space) + "," + std::to_string(c.peak_bytes) + "," + (ratio ? raw(c.ratio->ratio) : "") + "," +
               (interval ? raw(c.ratio->interval->first) : "") + "," + (interval ? raw(c.ratio->interval->second) : "") + "," +
               (c.agrees ? "true" : "false") + ",false,";
      }
      std::printf("%s\n", row.c_str());
    }
}

}  // namespace searchbench::cli
