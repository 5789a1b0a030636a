#include "cli/list_command.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/context.hpp"
#include "core/memory_budget.hpp"

namespace searchbench::cli {

namespace {

Json encoder_json(const EncoderInfo& e) {
  Json k;
  k["name"] = e.name;
  k["fits"] = e.fit.empty();
  if (!e.fit.empty()) k["why_not"] = e.fit;
  k["dense"] = e.dense;
  k["perfect"] = e.perfect;
  k["key_bound"] = e.key_bound;
  return k;
}

Json family_json(const FamilyInfo& family) {
  Json f;
  f["name"] = family.name;
  f["names"] = family.names;
  f["sizes"] = family.sizes;
  f["encoders"] = family.encoders;
  f["classic_encoder"] = family.classic_encoder;
  f["heuristics"] = Json::array();
  for (const auto& h : family.heuristics) {
    Json options = Json::array();
    for (const auto& o : h.options) options.push_back("--" + o.name);
    f["heuristics"].push_back({{"name", h.name}, {"summary", h.summary}, {"consistent", h.consistent}, {"options", options}});
  }
  f["puzzles"] = Json::array();
  for (const auto& name : family.examples) {
    const PuzzleSpec spec = parse_puzzle(name);
    Json p;
    p["name"] = spec.name;
    p["states"] = state_space_size(spec);
    p["encoders"] = Json::array();
    for (const auto& e : encoders(spec)) p["encoders"].push_back(encoder_json(e));
    // What runs on it: each engine's encoders ("none" for naive; [] where it cannot run).
    p["combinations"] = Json::object();
    for (const auto& e : engines()) p["combinations"][std::string(e.name)] = applicable_encoders(spec, e.name);
    // The heuristics that fit it, the last its default (those that do not, with why).
    p["heuristics"] = applicable_heuristics(spec);
    for (const auto& [name, why] : heuristic_fits(spec))
      if (!why.empty()) p["heuristics_not_fitting"][name] = why;
    f["puzzles"].push_back(p);
  }
  return f;
}

Json list_json(const RunCommand& run) {
  Json doc;
  doc["schema_version"] = kSchemaVersion;
  doc["searchbench"] = version();
  doc["engines"] = Json::array();
  for (const auto& e : engines()) {
    Json j;
    j["name"] = e.name;
    j["summary"] = e.summary;
    j["whole_space"] = e.whole_space;
    j["point_queries"] = !e.counts_only;
    j["counts_only"] = e.counts_only;
    j["threaded"] = e.threaded;
    j["uses_encoder"] = e.uses_encoder;
    j["perfect_only"] = e.perfect_only;
    j["needs_inverse_moves"] = e.needs_inverse_moves;
    j["distributed"] = e.distributed;
    j["uses_heuristic"] = e.uses_heuristic;
    j["any_optimal_path"] = e.any_optimal_path;
    j["options"] = run.options_of(e);
    doc["engines"].push_back(j);
  }
  doc["families"] = Json::array();
  for (const auto& family : families()) doc["families"].push_back(family_json(family));
  return doc;
}

void print_puzzles() {
  std::size_t encoder_width = 0;
  for (const auto& family : families())
    for (const auto& name : family.encoders) encoder_width = std::max(encoder_width, name.size());
  const int ew = static_cast<int>(encoder_width);
  std::cout << "\npuzzles (sizes: " << puzzle_sizes() << "):\n";
  for (const auto& family : families()) {
    for (const auto& name : family.examples) {
      const PuzzleSpec spec = parse_puzzle(name);
      std::printf("  %-15s %llu states from the default start\n", name.c_str(), static_cast<unsigned long long>(state_space_size(spec)));
      for (const auto& e : encoders(spec)) {
        if (e.fit.empty())
          std::printf("      %-*s %s, key bound %llu\n", ew, e.name.c_str(), e.dense ? "dense (direct table)" : "sparse (hashed)",
                      static_cast<unsigned long long>(e.key_bound));
        else
          std::printf("      %-*s does not fit: %s\n", ew, e.name.c_str(), e.fit.c_str());
      }
    }
  }
}

void print_heuristics() {
  std::cout << "\nheuristics (--heuristic, engines " << heuristic_engines() << "; the last that fits is the default):\n";
  for (const auto& family : families()) {
    std::printf("  %s\n", family.name.c_str());
    for (const auto& h : family.heuristics) {
      std::string options;
      for (const auto& o : h.options) options += " --" + o.name;
      std::printf("      %-16s %s%s%s\n", h.name.c_str(), h.summary.c_str(), h.consistent ? " (consistent)" : "",
                  options.empty() ? "" : ("; options:" + options).c_str());
    }
  }
}

void print_combinations() {
  std::vector<std::string> whole_states, point_only, counts_only, perfect_only;
  for (const auto& e : engines()) {
    if (!e.uses_encoder) whole_states.emplace_back(e.name);
    if (!e.whole_space) point_only.emplace_back(e.name);
    if (e.counts_only) counts_only.emplace_back(e.name);
    if (e.perfect_only) perfect_only.emplace_back(e.name);
  }
  std::cout << "\ncombinations: every engine runs with every encoder that fits";
  if (!perfect_only.empty()) std::cout << " (" << joined(perfect_only, " and ") << " with the perfect ones only)";
  std::cout << "; " << joined(whole_states, " and ") << (whole_states.size() > 1 ? " take none;\n" : " takes none;\n")
            << joined(point_only, " and ") << " answer point queries (--target) only";
  if (!counts_only.empty())
    std::cout << "; " << joined(counts_only, " and ") << (counts_only.size() > 1 ? " count" : " counts") << " whole spaces only";
  std::cout << ".\n";
}

}  // namespace

CLI::App* ListCommand::add_to(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "Puzzles, engines, encoders and which combinations apply");
  cmd->add_flag("--json", json_, "print the registry as one JSON object (fields: docs/measurement.md, JSON output)");
  return cmd;
}

int ListCommand::run(const RunCommand& run) const {
  const Context context;
  if (json_) {
    Json doc = list_json(run);
    doc["context"] = context.json();
    std::cout << doc.dump() << "\n";
    return 0;
  }
  std::cout << "engines:\n";
  for (const auto& e : engines())
    std::printf("  %-9s %s%s\n", std::string(e.name).c_str(), std::string(e.summary).c_str(),
                e.whole_space ? (e.counts_only ? " [whole-space counts only]" : "") : " [point queries only]");
  print_puzzles();
  print_heuristics();
  print_combinations();
  return 0;
}

}  // namespace searchbench::cli
