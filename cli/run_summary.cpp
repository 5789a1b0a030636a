#include "cli/run_summary.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/memory_budget.hpp"

namespace searchbench::cli {

namespace {

// The fields are read with defaults: run's JSON gains and loses engine-specific fields
// (out_of_core, distributed), and a summary line is left out rather than the run failing.
std::uint64_t count_of(const Json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<std::uint64_t>() : 0; }
double number_of(const Json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0; }
std::string text_of(const Json& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; }
int int_of(const Json& j, const char* key, int fallback) { return j.contains(key) && j[key].is_number_integer() ? j[key].get<int>() : fallback; }

std::string plural(std::uint64_t n, const std::string& one, const std::string& many) { return grouped(n) + " " + (n == 1 ? one : many); }

std::string line(const std::string& label, const std::string& text) {
  std::string l = label;
  l.resize(10, ' ');
  return l + text;
}

// "40,320 states, radius 22", or what stopped it short; a point query's distance and path.
std::string result_text(const Json& j) {
  const bool truncated = j.value("truncated", false);
  const int max_depth = int_of(j, "max_depth", -1);
  if (!j.contains("distance")) {
    std::string text = plural(count_of(j, "states"), "state", "states") + ", radius " + std::to_string(int_of(j, "radius", 0));
    if (truncated) text += " (cut short by --max-depth " + std::to_string(max_depth) + ": states remain beyond it)";
    return text;
  }
  const int distance = int_of(j, "distance", -1);
  if (distance >= 0) {
    const std::string path = text_of(j, "path");
    return "distance " + std::to_string(distance) + (path.empty() ? "" : ", path " + path);
  }
  if (truncated) return "not found within --max-depth " + std::to_string(max_depth);
  return "unreachable: the target is not in the start's component";
}

// "1.234 ms", or with repetitions "1.234 ms median of 5 runs (1.201 ms to 1.310 ms)".
std::string time_text(const Json& j) {
  std::string text = human_seconds(number_of(j, "seconds"));
  const int repetitions = int_of(j, "repetitions", 1), warmup = int_of(j, "warmup", 0);
  if (repetitions > 1)
    text += " median of " + std::to_string(repetitions) + " runs (" + human_seconds(number_of(j, "seconds_min")) + " to " +
            human_seconds(number_of(j, "seconds_max")) + ")";
  if (warmup > 0) text += ", after " + plural(static_cast<std::uint64_t>(warmup), "warm-up run", "warm-up runs");
  return text;
}

// "msquare, engine ring, encoder cantor, 2 threads (64 asked for, 2 cores)".
std::string settings_text(const Json& j) {
  std::string text = text_of(j, "puzzle") + ", engine " + text_of(j, "engine") + ", encoder " + text_of(j, "encoder");
  if (j.contains("heuristic") && j["heuristic"].is_object()) text += ", heuristic " + text_of(j["heuristic"], "name");
  const auto threads = count_of(j, "threads"), requested = count_of(j, "threads_requested");
  text += ", " + plural(threads, "thread", "threads");
  if (requested != threads) text += " (" + grouped(requested) + " asked for, " + plural(count_of(j, "cores"), "core", "cores") + ")";
  if (int_of(j, "max_depth", -1) >= 0) text += ", --max-depth " + std::to_string(int_of(j, "max_depth", -1));
  return text;
}

// "pdb: built in 1.234 s, 42.0 MiB, initial estimate 41", then how it was built, a line for
// each part of the note ("pattern 1,2,4,5: loaded from FILE; pattern 3,6,7,8: ...").
std::vector<std::string> heuristic_lines(const Json& h) {
  std::string text = text_of(h, "name") + ": ";
  text += h.value("reused", false) ? "reused from an earlier search in this process"
                                   : "built in " + human_seconds(number_of(h, "build_seconds"));
  text += ", " + human_bytes(count_of(h, "bytes")) + ", initial estimate " + std::to_string(int_of(h, "initial", 0));
  std::vector<std::string> lines = {line("heuristic", text)};
  const std::string note = text_of(h, "note");
  for (std::size_t begin = 0; begin < note.size();) {
    const std::size_t end = std::min(note.find("; ", begin), note.size());
    lines.push_back(line("", note.substr(begin, end - begin)));
    begin = end + 2;
  }
  return lines;
}

// A point query's nodes: "1.23 M expanded, 3.91 M generated (12.3 M generated/s); 9 f bounds, 41 to 57".
std::string nodes_text(const Json& j) {
  const double seconds = number_of(j, "seconds");
  const double rate = j.contains("generated_per_second") ? number_of(j, "generated_per_second")
                      : seconds > 0                      ? static_cast<double>(count_of(j, "generated")) / seconds
                                                         : 0.0;
  std::string text = human_quantity(static_cast<double>(count_of(j, "expanded"))) + " expanded, " +
                     human_quantity(static_cast<double>(count_of(j, "generated"))) + " generated (" + human_rate(rate, "generated/s") + ")";
  if (j.contains("iterations") && j["iterations"].is_array() && !j["iterations"].empty()) {
    const Json& it = j["iterations"];
    text += "; " + plural(it.size(), "f bound", "f bounds") + ", " + std::to_string(int_of(it.front(), "bound", 0)) + " to " +
            std::to_string(int_of(it.back(), "bound", 0));
  }
  return text;
}

// The out-of-core engine's disk: "1.20 GiB written, 1.10 GiB read, 300 MiB at peak in DIR
// (21 segments of 65,536 keys); resumed at depth 8".
std::string disk_text(const Json& j) {
  std::string text = human_bytes(count_of(j, "bytes_written")) + " written, " + human_bytes(count_of(j, "bytes_read")) + " read, " +
                     human_bytes(count_of(j, "peak_disk_bytes")) + " at peak in " + text_of(j, "workdir") + " (" +
                     plural(count_of(j, "segments"), "segment", "segments") + " of " + grouped(count_of(j, "segment_keys")) + " keys)";
  if (const int from = int_of(j, "resumed_from", -1); from >= 0) text += "; resumed at depth " + std::to_string(from);
  return text;
}

}  // namespace

std::vector<std::string> run_summary(const Json& j) {
  std::vector<std::string> lines;
  const bool point_query = j.contains("distance");
  lines.push_back(line("result", result_text(j)));
  if (point_query) lines.push_back(line("query", text_of(j, "start") + "  ->  " + text_of(j, "target")));
  lines.push_back(line("time", time_text(j)));
  if (j.contains("states_per_second")) lines.push_back(line("rate", human_rate(number_of(j, "states_per_second"), "states/s")));
  if (point_query) lines.push_back(line("nodes", nodes_text(j)));
  if (j.contains("heuristic") && j["heuristic"].is_object())
    for (auto& l : heuristic_lines(j["heuristic"])) lines.push_back(std::move(l));
  lines.push_back(line("memory", human_bytes(count_of(j, "peak_bytes")) + " search structures at peak, " +
                                     human_bytes(count_of(j, "peak_rss_bytes")) + " process peak RSS"));
  if (j.contains("bytes_written")) lines.push_back(line("disk", disk_text(j)));
  if (j.contains("ranks"))
    lines.push_back(line("ranks", plural(count_of(j, "ranks"), "rank", "ranks") + ", " + human_bytes(count_of(j, "bytes_exchanged")) +
                                      " exchanged"));
  lines.push_back(line("settings", settings_text(j)));
  return lines;
}

void print_run_summary(const Json& j, std::FILE* out) {
  for (const auto& l : run_summary(j)) std::fprintf(out, "%s\n", l.c_str());
  std::fprintf(out, "(--format json prints every figure: depth counts and times, the machine; --format keys as key-value lines)\n");
}

}  // namespace searchbench::cli
