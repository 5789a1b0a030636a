// Command-line flags built from what the plug-ins declare (core/declared_options.hpp): one
// flag per option name over every engine and every family, its kind's validator, and help
// that names the engines declaring it ("parallel, mpi: ..."). After parsing, the values
// given are handed over per plug-in, and an option the chosen engine or puzzle family does
// not declare is refused, naming who does. The front end knows no engine or family by name.
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
  // Adds the flags of every engine's options and every family's text options to `cmd`.
  void add_to(CLI::App* cmd);

  // The values given for `engine`'s options; InputError for a given option it does not declare.
  OptionValues engine_values(const EngineInfo& engine) const;
  // The values given for the text options of `family`; InputError for one it does not declare.
  OptionValues text_values(const FamilyInfo& family) const;
  // The specs of the engine options given (for folder_per_run and one_run_only).
  std::vector<OptionSpec> given_engine_specs() const;
  // Whether `name` (with its dashes) is a flag some engine declares.
  bool is_engine_option(const std::string& name) const;

 private:
  struct Flag {
    OptionSpec spec;
    bool of_engines = false;          // an engine option, else a family's text option
    std::vector<std::string> owners;  // the engines or families declaring it
    std::string text;                 // the value given
    bool on = false;                  // a flag given
    CLI::Option* option = nullptr;
    bool given() const { return option && option->count() > 0; }
    std::string value() const { return spec.kind == OptionKind::flag ? (on ? "true" : "false") : text; }
  };
  Flag& flag_for(const OptionSpec& spec, bool of_engines);
  std::vector<std::unique_ptr<Flag>> flags_;  // stable addresses: CLI11 writes into them
};

}  // namespace searchbench::cli
