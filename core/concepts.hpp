// The two plug points of searchbench.
//
// A Puzzle owns the rules: its state type, the start state, the moves (in lexicographic
// order, each named by one letter), applying a move and its inverse, parsing and printing.
// An Encoder turns a state into an integer key and back; engines only ever store keys, so
// the encoder decides what a visited set costs (a direct table of `key_bound()` entries
// when `dense()`, a hash set otherwise). Engines are templates over both concepts; no
// engine knows a puzzle's name and no puzzle knows an engine. What an encoder offers beyond
// that it declares in one EncoderCapabilities, kCapabilities
// (core/encoder_capabilities.hpp), each field checked against the members it names.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/encoder_capabilities.hpp"

namespace searchbench {

using Key = std::uint64_t;

// Keys below this bound may be kept in a direct table; larger key spaces must hash.
inline constexpr Key kDenseKeyLimit = Key{1} << 33;

template <class P>
concept Puzzle = requires(const P& p, const typename P::State& s, typename P::State& out, int m,
                          std::string_view text) {
  typename P::State;
  requires std::equality_comparable<typename P::State>;
  requires std::copyable<typename P::State>;
  { p.name() } -> std::convertible_to<std::string>;
  { p.start() } -> std::same_as<typename P::State>;
  { p.move_count() } -> std::same_as<int>;
  { p.move_name(m) } -> std::same_as<char>;
  // Writes the successor into `out`; false when the move does not apply to `s`.
  { p.apply(s, m, out) } -> std::same_as<bool>;
  // Writes the predecessor `t` with apply(t, m) == s into `out`; false when none exists.
  { p.apply_inverse(s, m, out) } -> std::same_as<bool>;
  // The move that undoes `m` when one single move does (-1 otherwise): used for pruning.
  { p.inverse_move(m) } -> std::same_as<int>;
  // Smallest n > 1 with m^n == identity on every state, 0 when no such n exists.
  { p.move_order(m) } -> std::same_as<int>;
  // Number of states reachable from `s` (exact where known, else an upper bound).
  { p.component_size(s) } -> std::same_as<std::uint64_t>;
  // True when `b` lies in the same connected component as `a` (cheap invariant check).
  { p.same_component(s, s) } -> std::same_as<bool>;
  { p.parse(text) } -> std::same_as<typename P::State>;
  { p.format(s) } -> std::convertible_to<std::string>;
};

// The members each optional encoder hook names (core/encoder_capabilities.hpp).
template <class E, class P>
concept HasIncrementalKeyHooks = requires(const E& e, Key k, const typename P::State& s, int m, Key& out) {
  { e.successor_key(k, s, m, out) } -> std::same_as<bool>;
  { e.predecessor_key(k, s, m, out) } -> std::same_as<bool>;
};
template <class E>
concept HasKeySuccessorsHook = requires(const E& e, Key k, Key* out) {
  { e.key_successors(k, out) } -> std::same_as<int>;
};
template <class E>
concept HasSequentialDecoder = requires(const E& e, Key k) {
  { typename E::Decoder(e).decode(k) };
};

// Each capability an encoder declares agrees with its members, so that a misspelled hook
// is a compile error. Part of the Encoder concept (checked once the required members are
// there), so every encoder a family lists is checked where it is listed.
template <class E, class P>
constexpr bool check_encoder_hooks() {
  static_assert(requires { { E::kCapabilities } -> std::convertible_to<EncoderCapabilities>; },
                "an encoder declares static constexpr EncoderCapabilities kCapabilities{...} (core/encoder_capabilities.hpp)");
  static_assert(!requires { E::kEveryKeyIsState; },
                "an encoder declares kCapabilities.every_key_is_state, not a constant kEveryKeyIsState of its own");
  constexpr EncoderCapabilities c = E::kCapabilities;
  static_assert(c.incremental_keys == HasIncrementalKeyHooks<E, P>,
                "kCapabilities.incremental_keys and the members successor_key(k, s, m, out) and predecessor_key(k, s, m, out) "
                "go together: one is missing or misspelled");
  static_assert(c.incremental_keys || !(requires { &E::successor_key; } || requires { &E::predecessor_key; }),
                "a successor_key or predecessor_key member without kCapabilities.incremental_keys");
  static_assert(c.key_successors == HasKeySuccessorsHook<E>,
                "kCapabilities.key_successors and the member key_successors(k, out) go together: one is missing or misspelled");
  static_assert(c.sequential_decoder == requires { typename E::Decoder; },
                "kCapabilities.sequential_decoder and the nested type Decoder go together: one is missing or misspelled");
  static_assert(!c.sequential_decoder || HasSequentialDecoder<E>, "an encoder's Decoder is built from the encoder and has decode(k)");
  static_assert(c.former_name == requires(const P& p) {
    { E::kFormerName } -> std::convertible_to<std::string_view>;
    { E::former_name_fits(p) } -> std::same_as<std::string>;
  }, "kCapabilities.former_name and the members kFormerName and former_name_fits(puzzle) go together: one is missing or misspelled");
  static_assert(c.codec_variants == requires {
    E::decode_variants();
    E::encode_variants();
  }, "kCapabilities.codec_variants and the members decode_variants() and encode_variants() go together: one is missing or "
     "misspelled");
  return true;
}

template <class E, class P>
concept Encoder = Puzzle<P> && std::constructible_from<E, const P&> &&
                  requires(const E& e, const P& p, const typename P::State& s, Key k) {
                    { E::kName } -> std::convertible_to<std::string_view>;
                    // Empty when the encoder can represent `p`, else the reason it cannot.
                    { E::fits(p) } -> std::same_as<std::string>;
                    { e.encode(s) } -> std::same_as<Key>;
                    { e.decode(k) } -> std::same_as<typename P::State>;
                    // Every key is < key_bound() (saturated at 2^64-1 for full 64-bit keys).
                    { e.key_bound() } -> std::same_as<Key>;
                    { e.dense() } -> std::same_as<bool>;
                  } && check_encoder_hooks<E, P>();

// A perfect encoder (kCapabilities.every_key_is_state): every key below key_bound()
// decodes to a valid state.
template <class E>
constexpr bool every_key_is_state() {
  return E::kCapabilities.every_key_is_state;
}

// The key of apply(state, m) (kForward) or apply_inverse(state, m) (the state's key is k),
// into `out`; false when m does not apply. `scratch` holds the neighbour where it has to be
// built.
template <bool kForward, class P, class E>
  requires Encoder<E, P>
bool neighbour_key(const P& puzzle, const E& enc, Key k, const typename P::State& state, int m, typename P::State& scratch,
                   Key& out) {
  if constexpr (E::kCapabilities.incremental_keys) {
    return kForward ? enc.successor_key(k, state, m, out) : enc.predecessor_key(k, state, m, out);
  } else {
    if (!(kForward ? puzzle.apply(state, m, scratch) : puzzle.apply_inverse(state, m, scratch))) return false;
    out = enc.encode(scratch);
    return true;
  }
}
template <class P, class E>
bool successor_key(const P& puzzle, const E& enc, Key k, const typename P::State& state, int m, typename P::State& scratch,
                   Key& out) {
  return neighbour_key<true>(puzzle, enc, k, state, m, scratch, out);
}
template <class P, class E>
bool predecessor_key(const P& puzzle, const E& enc, Key k, const typename P::State& state, int m, typename P::State& scratch,
                     Key& out) {
  return neighbour_key<false>(puzzle, enc, k, state, m, scratch, out);
}

// Where an encoder moves keys by table (kCapabilities.key_successors), key_successors(k,
// out) writes the keys of every successor of the state of key k, in move order, and returns
// how many (every move applies; at most kMaxKeySuccessors), sparing the engines decoding
// the state at all.
inline constexpr int kMaxKeySuccessors = 128;

// The encoder's Decoder where it has one (kCapabilities.sequential_decoder), else a plain
// stand-in that decodes each key alone: key_decoder(enc) gives it.
template <class E>
struct EachKeyAlone {
  const E& enc;
  auto decode(Key k) const { return enc.decode(k); }
};

template <class E>
auto key_decoder(const E& enc) {
  if constexpr (E::kCapabilities.sequential_decoder) return typename E::Decoder(enc);
  else return EachKeyAlone<E>{enc};
}

// Calls sink(key) with the key of each successor of the state whose key is `k` (decoded by
// `decoder`, from key_decoder), in move order, using `successor` as scratch; returns how
// many moves applied.
template <class P, class E, class Decoder, class Sink>
  requires Encoder<E, P>
std::uint64_t for_each_successor_key(const P& puzzle, const E& enc, Decoder& decoder, Key k, typename P::State& successor,
                                     Sink&& sink) {
  if constexpr (E::kCapabilities.key_successors) {  // moves by table: no state to decode
    Key keys[kMaxKeySuccessors];
    const int count = enc.key_successors(k, keys);
    for (int m = 0; m < count; ++m) sink(keys[m]);
    return static_cast<std::uint64_t>(count);
  }
  const typename P::State state = decoder.decode(k);
  std::uint64_t applied = 0;
  for (int m = 0, moves = puzzle.move_count(); m < moves; ++m) {
    Key n;
    if (!successor_key(puzzle, enc, k, state, m, successor, n)) continue;
    ++applied;
    sink(n);
  }
  return applied;
}

}  // namespace searchbench
