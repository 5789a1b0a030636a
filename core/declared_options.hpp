// How a plug-in declares its options (an engine's, a puzzle family's, soon a heuristic's),
// after Fast Downward's plugins: the plug-in's options are one plain struct whose
// `declare(v)` names every field once, with its help text:
//
//   struct IddfsOptions {
//     std::uint64_t node_budget = 4'000'000'000ULL;
//     template <class V> void declare(V& v) { v(node_budget, {.name = "node-budget", .help = "..."}); }
//   };
//
// The field's type gives the option's kind (bool: a flag; std::uint64_t or
// std::optional<std::uint64_t>: a whole number; double: a non-negative decimal; std::string:
// text, or one of `choices`), its initial value the default. From that one declaration the
// registry lists the options (option_specs), the front ends build their flags and help and
// refuse an option the chosen plug-in does not declare, and the plug-in gets its struct back
// filled in from the text given (options_from), checked once, here. A struct may add
// `check()`, throwing InputError for combinations its fields cannot take.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"

namespace searchbench {

enum class OptionKind { flag, count, ratio, text };

// What a declaration says about one field besides the field itself.
struct OptionDoc {
  std::string_view name;  // the flag without its dashes: "top-down" is --top-down
  std::string_view help;
  std::string_view default_text = {};       // how help shows the default (else the initial value)
  std::vector<std::string_view> choices = {};  // text options: the values it takes (empty: any)
  std::string_view value_noun = {};          // "a bottom-up ratio": how errors name a bad value
  // A folder of work files: with several runs (repetitions, warm-ups) each run gets a fresh
  // subfolder of it, warmup-N or rep-N.
  bool folder_per_run = false;
  bool one_run_only = false;  // continues one run: refused with repetitions or warm-ups
};

struct OptionSpec {
  std::string name, help, default_text;
  OptionKind kind = OptionKind::text;
  std::vector<std::string> choices;
  std::string value_noun;
  bool folder_per_run = false, one_run_only = false;
};

// Option values as given, by name, before they are read into a struct ("true" for a flag).
using OptionValues = std::map<std::string, std::string, std::less<>>;

namespace declared_options_detail {

template <class T>
constexpr OptionKind kind_of() {
  if constexpr (std::is_same_v<T, bool>) return OptionKind::flag;
  else if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::optional<std::uint64_t>>) return OptionKind::count;
  else if constexpr (std::is_same_v<T, double>) return OptionKind::ratio;
  else {
    static_assert(std::is_same_v<T, std::string>, "an option is a bool, a std::uint64_t, an optional one, a double or a std::string");
    return OptionKind::text;
  }
}

template <class T>
std::string shown(const T& value) {
  if constexpr (std::is_same_v<T, bool>) return value ? "on" : "off";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return std::to_string(value);
  else if constexpr (std::is_same_v<T, std::optional<std::uint64_t>>) return value ? std::to_string(*value) : "";
  else if constexpr (std::is_same_v<T, double>) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
  } else return value;
}

struct Collector {
  std::vector<OptionSpec> specs;
  template <class T>
  void operator()(const T& field, const OptionDoc& doc) {
    OptionSpec s{std::string(doc.name), std::string(doc.help),
                 doc.default_text.empty() ? shown(field) : std::string(doc.default_text), kind_of<T>(), {},
                 doc.value_noun.empty() ? "a value of --" + std::string(doc.name) : std::string(doc.value_noun),
                 doc.folder_per_run, doc.one_run_only};
    for (auto c : doc.choices) s.choices.emplace_back(c);
    specs.push_back(std::move(s));
  }
};

// Reads the given text into each declared field; `used` counts the names it read.
struct Reader {
  const OptionValues& given;
  std::string_view owner;
  std::size_t used = 0;

  [[noreturn]] void refuse(const OptionDoc& doc, const std::string& text) const {
    const std::string noun = doc.value_noun.empty() ? "a valid value" : std::string(doc.value_noun);
    throw InputError("--" + std::string(doc.name) + " '" + text + "' is not " + noun + " (" + std::string(owner) + ")");
  }
  static std::optional<std::uint64_t> whole(std::string_view text) {
    std::uint64_t v = 0;
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{}) return std::nullopt;
    return v;
  }
  template <class T>
  void operator()(T& field, const OptionDoc& doc) {
    const auto it = given.find(doc.name);
    if (it == given.end()) return;
    ++used;
    const std::string& text = it->second;
    if constexpr (std::is_same_v<T, bool>) {
      if (text != "true" && text != "false") refuse(doc, text);
      field = text == "true";
    } else if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::optional<std::uint64_t>>) {
      const auto v = whole(text);
      if (!v) refuse(doc, text);
      field = *v;
    } else if constexpr (std::is_same_v<T, double>) {
      char* end = nullptr;
      const double v = text.empty() ? -1 : std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 0) refuse(doc, text);
      field = v;
    } else {
      bool allowed = doc.choices.empty();
      for (auto c : doc.choices) allowed = allowed || c == text;
      if (!allowed) refuse(doc, text);
      field = text;
    }
  }
};

}  // namespace declared_options_detail

// The options struct O declares, in declaration order.
template <class O>
std::vector<OptionSpec> option_specs() {
  O options;
  declared_options_detail::Collector c;
  options.declare(c);
  return c.specs;
}

// O filled in from `given`; InputError for a name O does not declare, a value its kind does
// not take, or a combination its check() refuses. `owner` names the plug-in in messages
// ("engine 'external'").
template <class O>
O options_from(const OptionValues& given, std::string_view owner) {
  O options;
  declared_options_detail::Reader r{given, owner};
  options.declare(r);
  if (r.used != given.size()) {
    const auto specs = option_specs<O>();
    for (const auto& [name, text] : given) {
      bool declared = false;
      for (const auto& s : specs) declared = declared || s.name == name;
      if (!declared) throw InputError("--" + name + " does not apply to " + std::string(owner));
    }
  }
  if constexpr (requires { options.check(); }) options.check();
  return options;
}

// A plug-in without options.
struct NoOptions {
  template <class V>
  void declare(V&) {}
};

}  // namespace searchbench
