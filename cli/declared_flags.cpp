#include "cli/declared_flags.hpp"

#include <algorithm>
#include <limits>

#include "cli/common.hpp"
#include "cli/number_text.hpp"
#include "core/errors.hpp"

namespace searchbench::cli {

namespace {

// The default help shows for a flag: its one default, or each owner's where they differ
// ("iddfs: 4000000000, idastar: 100000000000").
std::string default_shown(const std::string& first, const std::vector<std::string>& owners, const std::vector<std::string>& defaults) {
  if (std::all_of(defaults.begin(), defaults.end(), [&](const std::string& d) { return d == first; })) return first;
  std::vector<std::string> each;
  for (std::size_t i = 0; i < owners.size(); ++i) each.push_back(owners[i] + ": " + defaults[i]);
  return joined(each, ", ");
}

}  // namespace

DeclaredFlags::Flag& DeclaredFlags::flag_for(const OptionSpec& spec, Owner of) {
  for (auto& f : flags_)
    if (f->spec.name == spec.name) {
      if (f->spec.kind != spec.kind || f->of != of)
        throw std::logic_error("option --" + spec.name + " is declared twice with different kinds");
      return *f;
    }
  auto flag = std::make_unique<Flag>();
  flag->spec = spec;
  flag->of = of;
  flags_.push_back(std::move(flag));
  return *flags_.back();
}

void DeclaredFlags::add_to(CLI::App* cmd) {
  for (const auto& e : engines())
    for (const auto& spec : e.options) {
      Flag& f = flag_for(spec, Owner::engine);
      f.owners.emplace_back(e.name);
      f.defaults.push_back(spec.default_text);
    }
  for (const auto& family : families()) {
    for (const auto& spec : family.options) flag_for(spec, Owner::family).owners.push_back(family.name);
    for (const auto& h : family.heuristics)
      for (const auto& spec : h.options) {
        auto& owners = flag_for(spec, Owner::heuristic).owners;
        if (std::find(owners.begin(), owners.end(), h.name) == owners.end()) owners.push_back(h.name);
      }
  }
  for (auto& f : flags_) {
    const OptionSpec& s = f->spec;
    const std::string name = "--" + s.name;
    // An engine's or a heuristic's option names its owners; a family's text option speaks for itself.
    const std::string help = f->of != Owner::family ? joined(f->owners) + ": " + s.help : s.help;
    if (s.kind == OptionKind::flag) {
      f->option = cmd->add_flag(name, f->on, help);
      continue;
    }
    f->option = cmd->add_option(name, f->text, help);
    if (s.kind == OptionKind::count)
      f->option->transform(whole_number(0, std::numeric_limits<std::uint64_t>::max()))->type_name("UINT");
    if (s.kind == OptionKind::ratio) f->option->transform(decimal_fraction(s.value_noun))->type_name("FLOAT");
    if (!s.choices.empty()) f->option->check(CLI::IsMember(s.choices));
    f->option->default_str(default_shown(s.default_text, f->owners, f->defaults));
  }
}

namespace {

// "engine 'external'", "engines 'parallel' and 'mpi'", "heuristic 'pdb'".
std::string owners_text(const std::vector<std::string>& owners, const std::string& noun = "engine") {
  std::vector<std::string> quoted;
  for (const auto& o : owners) quoted.push_back("'" + o + "'");
  return noun + (owners.size() == 1 ? " " : "s ") + joined(quoted, " and ");
}

}  // namespace

OptionValues DeclaredFlags::engine_values(const EngineInfo& engine) const {
  OptionValues out;
  for (const auto& f : flags_) {
    if (f->of != Owner::engine || !f->given()) continue;
    if (std::find(f->owners.begin(), f->owners.end(), engine.name) == f->owners.end())
      throw InputError("--" + f->spec.name + " applies to " + owners_text(f->owners) + " only");
    out[f->spec.name] = f->value();
  }
  return out;
}

OptionValues DeclaredFlags::heuristic_values(const std::string& heuristic) const {
  OptionValues out;
  for (const auto& f : flags_) {
    if (f->of != Owner::heuristic || !f->given()) continue;
    if (std::find(f->owners.begin(), f->owners.end(), heuristic) == f->owners.end())
      throw InputError("--" + f->spec.name + " applies to " + owners_text(f->owners, "heuristic") + " only (the heuristic is '" +
                       heuristic + "')");
    out[f->spec.name] = f->value();
  }
  return out;
}

OptionValues DeclaredFlags::text_values(const FamilyInfo& family) const {
  OptionValues out;
  for (const auto& f : flags_) {
    if (f->of != Owner::family || !f->given()) continue;
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

std::vector<std::string> DeclaredFlags::heuristic_values_given() const {
  std::vector<std::string> out;
  for (const auto& f : flags_)
    if (f->of == Owner::heuristic && f->given()) out.push_back("--" + f->spec.name);
  return out;
}

std::vector<OptionSpec> DeclaredFlags::given_engine_specs() const {
  std::vector<OptionSpec> out;
  for (const auto& f : flags_)
    if (f->of == Owner::engine && f->given()) out.push_back(f->spec);
  return out;
}

bool DeclaredFlags::is_engine_option(const std::string& name) const {
  return std::any_of(flags_.begin(), flags_.end(), [&](const auto& f) { return f->of == Owner::engine && "--" + f->spec.name == name; });
}

bool DeclaredFlags::is_heuristic_option(const std::string& name) const {
  return std::any_of(flags_.begin(), flags_.end(),
                     [&](const auto& f) { return f->of == Owner::heuristic && "--" + f->spec.name == name; });
}

}  // namespace searchbench::cli
