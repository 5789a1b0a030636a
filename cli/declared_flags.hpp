// Command-line flags built from what the plug-ins declare (core/declared_options.hpp): one
// flag per option name over every engine, every family and every heuristic, its kind's
// validator, and help that names the engines or heuristics declaring it ("parallel, mpi:
// ..."). After parsing, the values given are handed over per plug-in, and an option the
// chosen engine, puzzle family or heuristic does not declare is refused, naming who does.
// The front end knows no engine, family or heuristic by name.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "core/declared_options.hpp"
#include "registry/registry.hpp"

namespace searchbench::cli {

class DeclaredFlags {
 public:
  // Adds the flags of every engine's options, every family's text options and every
  // heuristic's options to `cmd`.
  void add_to(CLI::App* cmd);

  // The values given for `engine`'s options; InputError for a given option it does not declare.
  OptionValues engine_values(const EngineInfo& engine) const;
  // The values given for the text options of `family`; InputError for one it does not declare.
  OptionValues text_values(const FamilyInfo& family) const;
  // The values given for the options of heuristic `heuristic` (the one chosen); InputError
  // for one it does not declare.
  OptionValues heuristic_values(const std::string& heuristic) const;
  // The names of the heuristic options given, whoever declares them.
  std::vector<std::string> heuristic_values_given() const;
  // The specs of the engine options given (for folder_per_run and one_run_only).
  std::vector<OptionSpec> given_engine_specs() const;
  // Whether `name` (with its dashes) is a flag some engine declares.
  bool is_engine_option(const std::string& name) const;
  // Whether `name` (with its dashes) is a flag some heuristic declares.
  bool is_heuristic_option(const std::string& name) const;

 private:
  enum class Owner { engine, family, heuristic };
  struct Flag {
    OptionSpec spec;
    Owner of = Owner::engine;         // whose option it is
    std::vector<std::string> owners;  // the engines, families or heuristics declaring it
    std::vector<std::string> defaults;  // each owner's default, as its help shows it
    std::string text;                 // the value given
    bool on = false;                  // a flag given
    CLI::Option* option = nullptr;
    bool given() const { return option && option->count() > 0; }
    std::string value() const { return spec.kind == OptionKind::flag ? (on ? "true" : "false") : text; }
  };
  Flag& flag_for(const OptionSpec& spec, Owner of);
  std::vector<std::unique_ptr<Flag>> flags_;  // stable addresses: CLI11 writes into them
};

}  // namespace searchbench::cli
