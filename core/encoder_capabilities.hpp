// What an encoder offers beyond its required members (core/concepts.hpp), declared in one
// place so that a typo is a compile error:
//
//   static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true};
//
// A misspelled field does not compile, and the Encoder concept checks each field against
// the members it names (check_encoder_hooks): a hook declared without its members, or
// members of a hook left undeclared, is a compile error naming the hook, where an optional
// member probed by name would go unused without a word when misspelled. Fields left out are
// false.
#pragma once

namespace searchbench {

struct EncoderCapabilities {
  // Every key below key_bound() decodes to a valid state (a perfect ranking). Engines that
  // visit keys they never generated (bottom-up levels, the out-of-core scan, the explicit
  // graph) need it. No member goes with it: it is a promise the tests check (every key of
  // the small spaces decoded and encoded back).
  bool every_key_is_state = false;
  // successor_key(k, s, m, out) and predecessor_key(k, s, m, out) -> bool: the key of the
  // state's neighbour from the parent's key, without building the neighbour (an encoder
  // whose key order lets it: encoders/tiles_blank_low.hpp).
  bool incremental_keys = false;
  // key_successors(k, out) -> int: every successor's key from the key alone, in move order
  // (an encoder that moves keys by table: encoders/definition_coordinate.hpp).
  bool key_successors = false;
  // A nested type Decoder, constructed from the encoder, whose decode(k) equals the
  // encoder's and is faster on keys in increasing order, the order the scans visit them in.
  bool sequential_decoder = false;
  // kFormerName, a name the encoder had before that --encoder still takes, with
  // former_name_fits(puzzle) -> std::string, which says why that name no longer fits where
  // it does not (empty where it does).
  bool former_name = false;
  // decode_variants() and encode_variants(), constexpr arrays of (name, member pointer)
  // pairs: the encoder's fast paths beside the textbook ones (the last of each), which the
  // codec benchmarks time against each other and the tests check agree.
  bool codec_variants = false;
};

}  // namespace searchbench
