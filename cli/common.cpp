#include "cli/common.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "cli/number_text.hpp"
#include "core/closest_names.hpp"
#include "core/errors.hpp"

namespace searchbench::cli {

std::string joined(const std::vector<std::string>& names, const std::string& last_separator) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last_separator : ", ") + names[i];
  return out;
}

std::string threaded_engines() {
  std::vector<std::string> names;
  for (const auto& e : engines())
    if (e.threaded) names.emplace_back(e.name);
  return joined(names);
}
std::string puzzle_sizes() {
  std::vector<std::string> sizes;
  for (const auto& f : families()) sizes.push_back(f.sizes);
  return joined(sizes);
}
std::string encoder_names() {
  std::string out;
  for (const auto& f : families()) out += (out.empty() ? "" : "; ") + f.name + ": " + joined(f.encoders);
  return out;
}

std::string heuristic_engines() {
  std::vector<std::string> names;
  for (const auto& e : engines())
    if (e.uses_heuristic) names.push_back("'" + std::string(e.name) + "'");
  return joined(names, " and ");
}
std::string heuristic_names() {
  std::string out;
  for (const auto& f : families()) {
    std::vector<std::string> names;
    for (const auto& h : f.heuristics) names.push_back(h.name);
    out += (out.empty() ? "" : "; ") + f.name + ": " + joined(names);
  }
  return out;
}

int machine_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::uint64_t peak_rss_bytes() {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

double Spread::median() const {
  std::vector<double> s = all;
  std::sort(s.begin(), s.end());
  const std::size_t n = s.size();
  return n == 0 ? 0.0 : n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}
double Spread::min() const { return all.empty() ? 0.0 : *std::min_element(all.begin(), all.end()); }
double Spread::max() const { return all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()); }
void Spread::put(Json& j) const {
  j["seconds"] = median();
  j["seconds_min"] = min();
  j["seconds_max"] = max();
  j["seconds_all"] = all;
}

std::string chosen_format(const std::string& format, const CLI::Option* format_option, bool json) {
  const bool given = format_option && format_option->count() > 0;
  if (json && given && format != "json")
    throw InputError("--json and --format " + format + " ask for different output (--json is --format json): give one");
  return json ? "json" : format;
}

CLI::Option* add_format_option(CLI::App* cmd, std::string& format, const std::vector<std::string>& formats, const std::string& help) {
  format = formats.front();
  return cmd->add_option("--format", format, help + " (--json: the same as --format json)")
      ->check(CLI::IsMember(formats))
      ->type_name("FORMAT");
}

std::string unknown_name(const std::string& what, const std::string& given, const std::vector<std::string>& known,
                         const std::string& where) {
  return "unknown " + what + " '" + given + "'" + (where.empty() ? "" : " for " + where) + " (" + did_you_mean(given, known) +
         "choose " + joined(known, " or ") + ")";
}

CLI::Validator name_list(const std::vector<std::string>& known, const std::string& what) {
  return CLI::Validator(
      [known, what](std::string& text) -> std::string {
        for (std::size_t begin = 0;;) {
          const std::size_t comma = std::min(text.find(',', begin), text.size());
          const std::string name = text.substr(begin, comma - begin);
          if (name.empty()) return text.empty() ? "must not be empty" : "'" + text + "' has an empty item between its commas";
          if (!known.empty() && std::find(known.begin(), known.end(), name) == known.end()) return unknown_name(what, name, known);
          if (comma == text.size()) return "";
          begin = comma + 1;
        }
      },
      "");
}

std::vector<std::string> split_names(const std::vector<std::string>& lists) {
  std::vector<std::string> out;
  for (const auto& list : lists)
    for (std::size_t begin = 0; begin <= list.size();) {
      const std::size_t comma = std::min(list.find(',', begin), list.size());
      const std::string name = list.substr(begin, comma - begin);
      if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
      begin = comma + 1;
    }
  return out;
}

void print_text(const Json& j, const std::string& prefix) {
  for (const auto& [key, value] : j.items()) {
    if (value.is_object()) {
      print_text(value, prefix + key + ".");
      continue;
    }
    std::string text;
    auto one = [](const Json& v) {
      if (v.is_string()) return v.get<std::string>();
      if (v.is_number_float()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.9g", v.get<double>());
        return std::string(buf);
      }
      return v.dump();
    };
    if (value.is_array()) {
      for (const auto& v : value) text += (text.empty() ? "" : " ") + one(v);
    } else {
      text = one(value);
    }
    std::printf("%-18s %s\n", (prefix + key).c_str(), text.c_str());
  }
}

void add_repetition_options(CLI::App* cmd, int& repetitions, int& warmup) {
  cmd->add_option("--repetitions", repetitions, "timed runs of each case; the median, min, max and every time are reported")
      ->transform(whole_number(1, 1'000'000));
  cmd->add_option("--warmup", warmup, "untimed runs before the timed ones")
      ->transform(whole_number(0, 1'000'000))
      ->default_str("1 when --repetitions > 1, else 0");
}

CLI::Option* add_size_option(CLI::App* cmd, const char* name, std::uint64_t& value, const char* help) {
  return cmd->add_option(name, value, help)->transform(size_text());
}

CLI::Option* add_timeout_option(CLI::App* cmd, double& seconds, const char* help) {
  return cmd->add_option("--timeout", seconds, help)
      ->transform(decimal_fraction("a number of seconds"))
      ->type_name("SECONDS")
      ->default_str("none");
}

namespace {

// "depth 31 (top-down scan 45%)", "f bound 52 in progress": where a stopped search was.
std::string where_it_was(const ProgressEvent& e) {
  switch (e.kind) {
    case ProgressEvent::Kind::depth_done: return "after depth " + std::to_string(e.depth);
    case ProgressEvent::Kind::heartbeat: return "in depth " + std::to_string(e.depth) + " (" + e.detail + ")";
    case ProgressEvent::Kind::nodes: return "at " + e.detail;
  }
  return {};
}

}  // namespace

std::string time_limit_line(const TimeLimitReached& e) {
  const ProgressEvent& at = e.at;
  std::string line = std::string(e.what()) + " " + where_it_was(at) + ", " + human_seconds(at.seconds) + " into the search: " +
                     std::to_string(at.expanded) + " expanded";
  if (at.kind == ProgressEvent::Kind::nodes) line += ", " + std::to_string(at.generated) + " generated";
  else line += ", " + std::to_string(at.reached) + " states reached";
  return line;
}

Json partial_statistics(const ProgressEvent& at) {
  Json j;
  j["where"] = where_it_was(at);
  j["depth"] = at.depth;
  j["seconds"] = at.seconds;
  j["expanded"] = at.expanded;
  if (at.kind == ProgressEvent::Kind::nodes) {
    j["generated"] = at.generated;
    j["held_bytes"] = at.held_bytes;
  } else {
    j["reached"] = at.reached;
    j["depth_states"] = at.new_states;
  }
  return j;
}

}  // namespace searchbench::cli
