// The puzzle services of one family (registry/puzzle_instance.hpp), and the encoder lookup
// that the family's solvers share with them. Only the per-family translation units include
// this (through registry/family_solvers.hpp).
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/closest_names.hpp"
#include "core/errors.hpp"
#include "registry/family.hpp"
#include "registry/puzzle_instance.hpp"

namespace searchbench {

[[noreturn]] inline void unknown_encoder(const std::string& name, const std::string& puzzle, const std::vector<EncoderInfo>& known) {
  std::vector<std::string> names;
  for (const auto& e : known) names.push_back(e.name);
  std::string choices;
  for (const auto& n : names) choices += (choices.empty() ? "" : ", ") + n;
  throw InputError("unknown encoder '" + name + "' for " + puzzle + " (" + did_you_mean(name, names) + "choose one of: " + choices + ")");
}

// Calls fn.template operator()<E>(encoder) for the fitting encoder `name` resolves to.
template <class F, class Fn>
void with_encoder(const typename F::Puzzle& puzzle, std::string_view name, Fn&& fn) {
  const std::string chosen = F::chosen_encoder(puzzle, name);
  if (chosen.empty()) {  // none named and none fits (past 20 pancakes no 64-bit key holds a stack)
    std::string why;
    for (const auto& e : F::encoder_fits(puzzle)) why += (why.empty() ? "" : "; ") + e.name + ": " + e.fit;
    throw InputError("no encoder fits " + puzzle.name() + " (" + why + ")");
  }
  bool found = false;
  F::for_each_encoder([&]<class E>() {
    if (found || chosen != E::kName) return;
    found = true;
    if (auto why = E::fits(puzzle); !why.empty())
      throw InputError("encoder '" + std::string(E::kName) + "' does not fit " + puzzle.name() + ": " + why);
    fn.template operator()<E>(E(puzzle));
  });
  if (!found) unknown_encoder(chosen, puzzle.name(), F::encoder_fits(puzzle));
}

template <class F>
class FamilyPuzzleInstance final : public PuzzleInstance {
 public:
  using P = typename F::Puzzle;
  using State = typename P::State;
  using TextOptions = typename TextOptionsOf<P>::Type;

  FamilyPuzzleInstance(const P& shape, const PuzzleConfig& config)
      : text_options_(options_from<TextOptions>(config.text_options, "puzzle family '" + std::string(F::kName) + "'")),
        start_(config.start ? shape.parse(*config.start) : shape.start()),
        puzzle_(for_start(shape, start_)) {}

  const P& puzzle() const { return puzzle_; }
  const State& start() const { return start_; }

  std::string name() const override { return puzzle_.name(); }
  std::string family() const override { return std::string(F::kName); }
  int move_count() const override { return puzzle_.move_count(); }
  std::string start_text() const override { return puzzle_.format(start_); }
  std::uint64_t component_size() const override { return puzzle_.component_size(start_); }
  std::string read_state(std::string_view text, std::string_view what) const override {
    if constexpr (P::kHooks.text_options) return puzzle_.format(puzzle_.read(text, text_options_, what));
    else return normalize_state(text);
  }
  std::string normalize_state(std::string_view text) const override { return puzzle_.format(puzzle_.parse(text)); }
  std::string random_state(std::uint64_t seed) const override {
    std::mt19937_64 rng(seed);
    State state = start_, next;
    for (int step = 0; step < 1000; ++step)
      if (puzzle_.apply(state, static_cast<int>(rng() % static_cast<unsigned>(puzzle_.move_count())), next)) state = next;
    return puzzle_.format(state);
  }
  std::string random_walk(std::uint64_t seed, int moves) const override {
    std::mt19937_64 rng(seed);
    State state = start_, next;
    for (int step = 0, last = -1; step < moves;) {
      const int m = static_cast<int>(rng() % static_cast<unsigned>(puzzle_.move_count()));
      if ((last >= 0 && puzzle_.inverse_move(last) == m) || !puzzle_.apply(state, m, next)) continue;
      if constexpr (P::kHooks.redundant_after)
        if (last >= 0 && puzzle_.redundant_after(last, m)) continue;
      state = next;
      last = m;
      ++step;
    }
    return puzzle_.format(state);
  }
  std::optional<std::string> follow(std::string_view path) const override {
    State state = start_, next;
    for (const char letter : path) {
      int move = -1;
      for (int m = 0; m < puzzle_.move_count(); ++m)
        if (puzzle_.move_name(m) == letter) move = m;
      if (move < 0 || !puzzle_.apply(state, move, next)) return std::nullopt;
      state = next;
    }
    return puzzle_.format(state);
  }
  std::string path_text(std::string_view path) const override {
    if constexpr (P::kHooks.path_text) return puzzle_.path_text(path);
    else return std::string(path);
  }
  std::vector<std::string> states_within(int depth) const override {
    std::vector<std::string> out{puzzle_.format(start_)};
    std::set<State> seen{start_};
    std::vector<State> level{start_}, next;
    State successor;
    for (int d = 0; d < depth && !level.empty(); ++d) {
      next.clear();
      for (const State& s : level)
        for (int m = 0; m < puzzle_.move_count(); ++m)
          if (puzzle_.apply(s, m, successor) && seen.insert(successor).second) {
            next.push_back(successor);
            out.push_back(puzzle_.format(successor));
          }
      level.swap(next);
    }
    return out;
  }
  std::string encoder_name(std::string_view encoder) const override {
    std::string name;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E&) { name = E::kName; });
    return name;
  }
  std::uint64_t key_bound(std::string_view encoder) const override {
    std::uint64_t bound = 0;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E& enc) { bound = enc.key_bound(); });
    return bound;
  }
  std::vector<std::string> component_states(std::string_view encoder) const override {
    std::vector<std::string> out;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E& enc) {
      if constexpr (every_key_is_state<E>()) {
        for (Key k = 0; k < enc.key_bound(); ++k) {
          const State s = enc.decode(k);
          if (puzzle_.same_component(start_, s)) out.push_back(puzzle_.format(s));
        }
      } else {
        throw InputError("encoder '" + std::string(E::kName) + "' has keys that are no state; enumerating needs a perfect one");
      }
    });
    return out;
  }
  EdgeListSummary export_edge_list(std::string_view encoder, std::FILE* out) const override {
    EdgeListSummary summary;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E& enc) { summary = write_edge_list(puzzle_, enc, start_, out); });
    return summary;
  }
  CsrGraph csr_graph(std::string_view encoder, bool inverse) const override {
    CsrGraph g;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E& enc) {
      if constexpr (every_key_is_state<E>()) g = build_csr(puzzle_, enc, inverse);
      else throw InputError("an explicit graph needs an encoder whose every key is a state; '" + std::string(E::kName) + "' is not one");
    });
    return g;
  }
  std::uint64_t start_key(std::string_view encoder) const override {
    std::uint64_t key = 0;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E& enc) { key = enc.encode(start_); });
    return key;
  }
  std::vector<CodecLoop> codec_loops(std::string_view encoder, std::size_t count, std::uint64_t seed) const override {
    std::vector<CodecLoop> loops;
    with_encoder<F>(puzzle_, encoder, [&]<class E>(const E& enc) { loops = codec_loops_of(enc, count, seed); });
    return loops;
  }

 private:
  // The instance a start state needs (checkers: the piece counts the encoders rank by).
  static P for_start(const P& shape, const State& start) {
    if constexpr (P::kHooks.for_start) return shape.for_start(start);
    else return shape;
  }

  // Keys drawn by `seed` below the key bound, their states decoded by the slowest variant
  // (the reference), and one loop per variant over them.
  template <class E>
  static std::vector<CodecLoop> codec_loops_of(const E& enc, std::size_t count, std::uint64_t seed) {
    std::vector<CodecLoop> loops;
    if constexpr (E::kCapabilities.codec_variants) {
      constexpr auto decoders = E::decode_variants();
      constexpr auto encoders = E::encode_variants();
      auto keys = std::make_shared<std::vector<Key>>(count);
      auto states = std::make_shared<std::vector<State>>();
      std::mt19937_64 rng(seed);
      for (auto& k : *keys) {
        k = rng() % enc.key_bound();
        states->push_back((enc.*decoders.back().second)(k));
      }
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (loops.push_back({"decode", std::string(decoders[I].first), [enc, keys] {
                            std::uint64_t sum = 0;
                            constexpr auto decode = E::decode_variants()[I].second;
                            for (const Key k : *keys) sum += fold((enc.*decode)(k));
                            return sum;
                          }, count}), ...);
      }(std::make_index_sequence<decoders.size()>());
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        (loops.push_back({"encode", std::string(encoders[I].first), [enc, states] {
                            std::uint64_t sum = 0;
                            constexpr auto encode = E::encode_variants()[I].second;
                            for (const State& s : *states) sum += (enc.*encode)(s);
                            return sum;
                          }, count}), ...);
      }(std::make_index_sequence<encoders.size()>());
    }
    return loops;
  }
  // A state's first bytes as a number: what a decode loop sums so that no decode is dropped.
  static std::uint64_t fold(const State& s) {
    std::uint64_t v = 0;
    std::memcpy(&v, &s, std::min(sizeof v, sizeof s));
    return v;
  }

  TextOptions text_options_;
  State start_;
  P puzzle_;
};

// Builds the puzzle services of family F for `config` (its puzzle name is one of F's).
template <class F>
std::unique_ptr<PuzzleInstance> make_family_puzzle(const typename F::Puzzle& shape, const PuzzleConfig& config) {
  return std::make_unique<FamilyPuzzleInstance<F>>(shape, config);
}

}  // namespace searchbench
