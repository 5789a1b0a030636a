// Errors that reach the user as one clear line: bad input, unknown names, sizes that do not fit.
#pragma once

#include <stdexcept>
#include <string>

namespace searchbench {

// Malformed user input (states, judge files, arguments) or a request the suite refuses.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Output that could not be written: a full disk, a closed pipe.
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A search that would exceed the memory or node budget it was given.
struct BudgetError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace searchbench
