// Reading the size out of a puzzle name such as "checkers-25" or "msquare-2x5".
#pragma once

#include <charconv>
#include <string>
#include <string_view>

#include "core/errors.hpp"
#include "core/printable.hpp"

namespace searchbench {

// `digits` is the part of `whole` that must be a decimal number.
inline int parse_name_size(std::string_view digits, std::string_view whole) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size())
    throw InputError("malformed size in puzzle name '" + printable(whole) + "'");
  return value;
}

}  // namespace searchbench
