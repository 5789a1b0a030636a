// Input quoted in an error message, made safe to print: every message is one line on a
// terminal, so a newline, a NUL (which would also cut what() short), an escape sequence or
// any other control byte in the input is written as an escape instead of being sent raw.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace searchbench {

namespace printable_detail {

inline bool continuation(std::string_view text, std::size_t at) {
  return at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80;
}

// Bytes of the well-formed UTF-8 character at text[at] that is not a control (C1, U+0080..
// U+009F), or 0: overlong forms, surrogates and stray bytes are escaped like controls.
inline std::size_t printable_utf8_length(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const auto second = at + 1 < text.size() ? static_cast<unsigned char>(text[at + 1]) : 0;
  if (lead == 0xC2) return second >= 0xA0 && second <= 0xBF ? 2 : 0;
  if (lead > 0xC2 && lead <= 0xDF) return continuation(text, at + 1) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    if ((lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0)) return 0;
    return continuation(text, at + 1) && continuation(text, at + 2) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    if ((lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90)) return 0;
    return continuation(text, at + 1) && continuation(text, at + 2) && continuation(text, at + 3) ? 4 : 0;
  }
  return 0;
}

inline void append_escape(std::string& out, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (byte) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: out += "\\x"; out += kHex[byte >> 4]; out += kHex[byte & 0xF];
  }
}

}  // namespace printable_detail

// Printable ASCII and well-formed UTF-8 stay as they are; \n, \r and \t become those escapes
// and every other byte \xHH. A backslash stays as it is, so escaping twice changes nothing
// (the CLI escapes each whole message again before printing it).
inline std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F) {
      out += text[i++];
    } else if (const std::size_t n = byte >= 0x80 ? printable_detail::printable_utf8_length(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      printable_detail::append_escape(out, byte);
      ++i;
    }
  }
  return out;
}

}  // namespace searchbench
