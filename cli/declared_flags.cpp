#include "cli/declared_flags.hpp"

#include <algorithm>
#include <limits>

#include "cli/common.hpp"
#include "cli/number_text.hpp"
#include "core/errors.hpp"

namespace searchbench::cli {

DeclaredFlags::Flag& DeclaredFlags::flag_for(const OptionSpec& spec, bool of_engines) {
  for (auto& f : flags_)
    if (f->spec.name == spec.name) {
      if (f->spec.kind != spec.kind || f->of_engines != of_engines)
        throw std::logic_error("option --" + spec.name + " is declared twice with different kinds");
      return *f;
    }
  auto flag = std::make_unique<Flag>();
  flag->spec = spec;
  flag->of_engines = of_engines;
  flags_.push_back(std::move(flag));
  return *flags_.back();
}

void DeclaredFlags::add_to(CLI::App* cmd) {
  for (const auto& e : engines())
    for (const auto& spec : e.options) flag_for(spec, true).owners.emplace_back(e.name);
  for (const auto& family : families())
    for (const auto& spec : family.options) flag_for(spec, false).owners.push_back(family.name);
  for (auto& f : flags_) {
    const OptionSpec& s = f->spec;
    const std::string name = "--" + s.name;
    // An engine option's help names its engines; a family's text option speaks for itself.
    const std::string help = f->of_engines ? joined(f->owners) + ": " + s.help : s.help;
    if (s.kind == OptionKind::flag) {
      f->option = cmd->add_flag(name, f->on, help);
      continue;
    }
    f->option = cmd->add_option(name, f->text, help);
    if (s.kind == OptionKind::count)
      f->option->transform(whole_number(0, std::numeric_limits<std::uint64_t>::max()))->type_name("UINT");
    if (s.kind == OptionKind::ratio) f->option->transform(decimal_fraction(s.value_noun))->type_name("FLOAT");
    if (!s.choices.empty()) f->option->check(CLI::IsMember(s.choices));
    f->option->default_str(s.default_text);
  }
}

namespace {

// "engine 'external'", "engines 'parallel' and 'mpi'".
std::string owners_text(const std::vector<std::string>& owners) {
  std::vector<std::string> quoted;
  for (const auto& o : owners) quoted.push_back("'" + o + "'");
  return (owners.size() == 1 ? "engine " : "engines ") + joined(quoted, " and ");
}

}  // namespace

OptionValues DeclaredFlags::engine_values(const EngineInfo& engine) const {
  OptionValues out;
  for (const auto& f : flags_) {
    if (!f->of_engines || !f->given()) continue;
    if (std::find(f->owners.begin(), f->owners.end(), engine.name) == f->owners.end())
      throw InputError("--" + f->spec.name + " applies to " + owners_text(f->owners) + " only");
    out[f->spec.name] = f->value();
  }
  return out;
}

OptionValues DeclaredFlags::text_values(const FamilyInfo& family) const {
  OptionValues out;
  for (const auto& f : flags_) {
    if (f->of_engines || !f->given()) continue;
    if (std::find(f->owners.begin(), f->owners.end(), family.name) == f->owners.end()) {
      std::vector<std::string> owners;
      for (const auto& other : families())
        if (std::find(f->owners.begin(), f->owners.end(), other.name) != f->owners.end())
          owners.push_back(other.options_apply_to.empty() ? "puzzle family '" + other.name + "'" : other.options_apply_to);
      throw InputError("--" + f->spec.name + " applies to " + joined(owners, " and ") + " only");
    }
    out[f->spec.name] = f->value();
  }
  return out;
}

std::vector<OptionSpec> DeclaredFlags::given_engine_specs() const {
  std::vector<OptionSpec> out;
  for (const auto& f : flags_)
    if (f->of_engines && f->given()) out.push_back(f->spec);
  return out;
}

bool DeclaredFlags::is_engine_option(const std::string& name) const {
  return std::any_of(flags_.begin(), flags_.end(), [&](const auto& f) { return f->of_engines && "--" + f->spec.name == name; });
}

}  // namespace searchbench::cli
