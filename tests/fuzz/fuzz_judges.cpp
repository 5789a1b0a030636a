// libFuzzer target for the four judge input parsers. The first byte picks the judge; the
// rest is the judge's stdin. Bad input must end in InputError (one clear line for the
// user), never a crash, a sanitizer report, a hang or another exception type.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "judges/registry_routes.hpp"
#include "core/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto judges = searchbench::judges();
  const std::string_view judge = judges[data[0] % judges.size()].name;
  const std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  // Valid fzu1603 boards near the 20-cell limit are legitimate but slow queries: keep cases small.
  if (judge == "fzu1603" && input.size() > 64) return 0;
  try {
    searchbench::run_judge(judge, input);
  } catch (const searchbench::InputError&) {
  }
  return 0;
}
