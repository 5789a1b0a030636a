// Compiled by tests/plugins/check_compile_fails.cmake once per CASE: an encoder whose
// declared capabilities (kCapabilities) and members disagree must not compile, and the
// error must name the hook. CASE 0 is the same encoder spelled right, which must compile.
#include <string>
#include <string_view>

#include "core/concepts.hpp"
#include "puzzles/hanoi4.hpp"

namespace searchbench {

struct MisspelledEncoder {
  static constexpr std::string_view kName = "misspelled";
#if CASE == 1  // incremental keys declared, one member misspelled: succesor_key
  static constexpr EncoderCapabilities kCapabilities{.incremental_keys = true};
  bool succesor_key(Key, const Hanoi4State&, int, Key&) const { return false; }
  bool predecessor_key(Key, const Hanoi4State&, int, Key&) const { return false; }
#elif CASE == 2  // a member of a hook left undeclared
  static constexpr EncoderCapabilities kCapabilities{};
  int key_successors(Key, Key*) const { return 0; }
#elif CASE == 3  // a perfect ranking promised the old way
  static constexpr EncoderCapabilities kCapabilities{};
  static constexpr bool kEveryKeyIsState = true;
#elif CASE == 4  // a misspelled capability field
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_sate = true};
#else  // spelled right
  static constexpr EncoderCapabilities kCapabilities{.every_key_is_state = true, .key_successors = true};
  int key_successors(Key, Key*) const { return 0; }
#endif
  explicit MisspelledEncoder(const Hanoi4&) {}
  static std::string fits(const Hanoi4&) { return {}; }
  Key encode(const Hanoi4State&) const { return 0; }
  Hanoi4State decode(Key) const { return {}; }
  Key key_bound() const { return 1; }
  bool dense() const { return true; }
};

static_assert(Encoder<MisspelledEncoder, Hanoi4>);

}  // namespace searchbench
