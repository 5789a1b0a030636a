// A puzzle family as the registry sees it: the puzzle type and its encoders, defined in a
// family header of its own (registry/families/) and listed in registry/families.hpp. The
// names, sizes and examples come from the puzzle type itself, as an encoder's name comes
// from its kName: a FamilyPuzzle (below) has kFamily, kNames, kSizes, examples(),
// test_examples(), from_name() (the inverse of its name()) and kHooks, its optional parts
// declared in one place (core/puzzle_hooks.hpp: classic encoder, default puzzle,
// definition files, text options, benchmark plan, for_start, path_text, redundant_after),
// each checked against its member here (FamilyHooksAgree).
// An encoder that was renamed (kCapabilities.former_name, core/encoder_capabilities.hpp)
// still answers to its old name where it fits.
// A family's heuristics (core/heuristic.hpp) follow in the same declaration:
// Family<P, Encoders...>::WithHeuristics<H...>; `blind` comes first in every family's list,
// and the last heuristic that fits an instance is its default (list the strongest last).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/closest_names.hpp"
#include "core/concepts.hpp"
#include "core/errors.hpp"
#include "core/declared_options.hpp"
#include "core/heuristic.hpp"
#include "core/puzzle_hooks.hpp"
#include "heuristics/blind.hpp"
#include "registry/registry.hpp"

namespace searchbench {

// The family's text options: the puzzle type's TextOptions, or none.
template <class P>
struct TextOptionsOf {
  using Type = NoOptions;
};
template <class P>
  requires(P::kHooks.text_options)
struct TextOptionsOf<P> {
  using Type = typename P::TextOptions;
};

// What a family's puzzle type must have for the registry.
template <class P>
concept FamilyPuzzle = Puzzle<P> && requires(std::string_view name) {
  { P::kFamily } -> std::convertible_to<std::string_view>;
  { P::kNames } -> std::convertible_to<std::string_view>;
  { P::kSizes } -> std::convertible_to<std::string_view>;
  { P::kHooks } -> std::convertible_to<PuzzleHooks>;
  { P::examples() } -> std::same_as<std::vector<std::string>>;
  { P::test_examples() } -> std::same_as<std::vector<std::string>>;
  { P::from_name(name) } -> std::same_as<std::optional<P>>;
};

// The members of the text_options hook (a concept, so that a type without TextOptions is a
// false, not an error, in every compiler).
template <class P>
concept HasTextOptionsHook = requires { { P::TextOptions::kAppliesTo } -> std::convertible_to<std::string_view>; } &&
    requires(const P& p, std::string_view text, const typename P::TextOptions& o) {
      { p.read(text, o, text) } -> std::same_as<typename P::State>;
    };

// A puzzle type's kHooks against its members: a hook declared without its member, or a
// member without its declaration (a misspelling on either side), does not compile.
template <class P>
struct FamilyHooksAgree {
  static constexpr PuzzleHooks hooks = P::kHooks;
  using State = typename P::State;
  static_assert(hooks.text_options == HasTextOptionsHook<P>,
                "kHooks.text_options and the members TextOptions (with kAppliesTo) and read(text, options, what) go "
                "together: one is missing or misspelled");
  static_assert(hooks.benchmark_plan == requires { { P::benchmark_plan() } -> std::same_as<BenchmarkPlan>; },
                "kHooks.benchmark_plan and the member static benchmark_plan() go together: one is missing or misspelled");
  static_assert(hooks.for_start == requires(const P& p, const State& s) { { p.for_start(s) } -> std::same_as<P>; },
                "kHooks.for_start and the member for_start(state) go together: one is missing or misspelled");
  static_assert(hooks.path_text == requires(const P& p, std::string_view path) { { p.path_text(path) } -> std::same_as<std::string>; },
                "kHooks.path_text and the member path_text(moves) go together: one is missing or misspelled");
  static_assert(hooks.redundant_after == requires(const P& p, int m) { { p.redundant_after(m, m) } -> std::same_as<bool>; },
                "kHooks.redundant_after and the member redundant_after(last, move) go together: one is missing or misspelled");
  static constexpr bool value = true;
};

template <class Heuristics, FamilyPuzzle P, class... Encoders>
  requires(FamilyHooksAgree<P>::value && (Encoder<Encoders, P> && ...))
struct BasicFamily {
  using Puzzle = P;
  using HeuristicTypes = Heuristics;
  // The family with these heuristics after `blind`.
  template <class... Hs>
    requires(Heuristic<Hs, P> && ...)
  using WithHeuristics = BasicFamily<HeuristicList<Blind<P>, Hs...>, P, Encoders...>;
  using LastEncoder = std::tuple_element_t<sizeof...(Encoders) - 1, std::tuple<Encoders...>>;
  static constexpr std::string_view kName = P::kFamily;

  static FamilyInfo info() {
    using TextOptions = typename TextOptionsOf<P>::Type;
    FamilyInfo i;
    i.name = P::kFamily;
    i.names = P::kNames;
    i.sizes = P::kSizes;
    i.examples = P::examples();
    i.test_examples = P::test_examples();
    i.encoders = {std::string(Encoders::kName)...};
    i.classic_encoder = P::kHooks.classic_encoder;
    i.options = option_specs<TextOptions>();
    if constexpr (P::kHooks.text_options) i.options_apply_to = TextOptions::kAppliesTo;
    if constexpr (P::kHooks.benchmark_plan) i.benchmark_plan = P::benchmark_plan();
    Heuristics::for_each([&]<class H>() {
      i.heuristics.push_back({std::string(H::kName), std::string(H::kSummary), option_specs<typename H::Options>(),
                              is_consistent<H>()});
    });
    return i;
  }
  // The canonical name of the encoder `wanted` names for `puzzle`: a former name where it
  // still fits, else the name itself; empty: the last listed that fits (the family's
  // perfect ranking). The one rule for the solvers, the puzzle services and Selection.
  static std::string chosen_encoder(const P& puzzle, std::string_view wanted) {
    std::string chosen(wanted);
    for_each_encoder([&]<class E>() {
      if constexpr (E::kCapabilities.former_name) {
        if (chosen != E::kFormerName) return;
        if (auto why = E::former_name_fits(puzzle); !why.empty())
          throw InputError("encoder '" + chosen + "' does not fit " + puzzle.name() + ": " + why + " (use '" +
                           std::string(E::kName) + "')");
        chosen = E::kName;
      }
    });
    if (chosen.empty())
      for (const auto& e : encoder_fits(puzzle))
        if (e.fit.empty()) chosen = e.name;
    return chosen;
  }
  // The heuristic `wanted` names, checked against the puzzle; empty: the last that fits (the
  // strongest, the family's default). InputError when unknown or not fitting.
  static std::string chosen_heuristic(const P& puzzle, std::string_view wanted) {
    const auto fits = heuristic_fits(puzzle);
    if (wanted.empty()) {
      for (auto it = fits.rbegin(); it != fits.rend(); ++it)
        if (it->second.empty()) return it->first;
    }
    std::vector<std::string> names;
    for (const auto& [name, why] : fits) {
      if (name == wanted) {
        if (!why.empty()) throw InputError("heuristic '" + name + "' does not fit " + puzzle.name() + ": " + why);
        return name;
      }
      names.push_back(name);
    }
    std::string known;
    for (std::size_t i = 0; i < names.size(); ++i) known += (i ? ", " : "") + names[i];
    throw InputError("unknown heuristic '" + std::string(wanted) + "' for " + puzzle.name() + " (" + did_you_mean(wanted, names) +
                     "choose " + known + ")");
  }
  // Every heuristic of the family, with whether it fits this instance (empty) or why not.
  static std::vector<std::pair<std::string, std::string>> heuristic_fits(const P& puzzle) {
    std::vector<std::pair<std::string, std::string>> out;
    Heuristics::for_each([&]<class H>() { out.emplace_back(std::string(H::kName), H::fits(puzzle)); });
    return out;
  }
  // Every encoder of the family, with whether and how it fits this instance.
  static std::vector<EncoderInfo> encoders(const P& puzzle) {
    std::vector<EncoderInfo> out;
    (out.push_back(encoder_info<Encoders>(puzzle)), ...);
    return out;
  }
  // The same without the key bounds and dense flags, which take building each encoder (the
  // magic board's cantor builds its unranking tables: 35 MB for 2x7): which encoders fit,
  // and which are perfect, is all that choosing one needs.
  static std::vector<EncoderInfo> encoder_fits(const P& puzzle) {
    std::vector<EncoderInfo> out;
    (out.push_back(encoder_fit<Encoders>(puzzle)), ...);
    return out;
  }
  // The encoder types as L<Encoders...> (e.g. a test framework's type list).
  template <template <class...> class L>
  using EncodersAs = L<Encoders...>;
  // Calls fn.template operator()<Encoder>() for each encoder, in order.
  template <class Fn>
  static void for_each_encoder(Fn&& fn) {
    (fn.template operator()<Encoders>(), ...);
  }

 private:
  template <class E>
  static EncoderInfo encoder_fit(const P& puzzle) {
    return EncoderInfo{.name = std::string(E::kName), .fit = E::fits(puzzle), .perfect = every_key_is_state<E>()};
  }
  template <class E>
  static EncoderInfo encoder_info(const P& puzzle) {
    EncoderInfo i = encoder_fit<E>(puzzle);
    if (i.fit.empty()) {
      const E enc(puzzle);
      i.dense = enc.dense();
      i.key_bound = enc.key_bound();
    }
    return i;
  }
};

// A family with `blind` as its one heuristic; ::WithHeuristics<...> adds its own.
template <FamilyPuzzle P, class... Encoders>
using Family = BasicFamily<HeuristicList<Blind<P>>, P, Encoders...>;

template <class... Families>
struct FamilyList {
  // The position of puzzle type P's family in the list (public: clang checks access where
  // the alias Of below is used, not where it is declared).
  template <class P>
  static constexpr std::size_t index_of() {
    std::size_t i = 0, found = sizeof...(Families);
    ((std::is_same_v<typename Families::Puzzle, P> ? found = i : 0, ++i), ...);
    return found;
  }

  static constexpr std::size_t size = sizeof...(Families);
  template <std::size_t I>
  using At = std::tuple_element_t<I, std::tuple<Families...>>;
  // The family of puzzle type P.
  template <class P>
  using Of = At<index_of<P>()>;

  template <class Fn>
  static void for_each(Fn&& fn) {
    (fn.template operator()<Families>(), ...);
  }
};

// Builds a solver of family F for `config` (its puzzle name is one of F's). Defined in
// registry/family_solvers.hpp and instantiated once per family, each family in its own
// translation unit (every engine x encoder is compiled there).
template <class F>
std::unique_ptr<Solver> make_family_solver(const typename F::Puzzle& shape, const SolverConfig& config);
// The same for the family's puzzle services (registry/family_puzzle.hpp).
template <class F>
std::unique_ptr<PuzzleInstance> make_family_puzzle(const typename F::Puzzle& shape, const PuzzleConfig& config);

}  // namespace searchbench
