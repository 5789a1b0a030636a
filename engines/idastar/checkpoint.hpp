// IDA*'s checkpoint (--workdir, --resume): after each f bound that ends without a solution,
// the query, the next bound and the iterations so far are saved in the folder's
// `idastar-checkpoint`, replaced atomically (core/work_dir.hpp), so a query that runs for
// days survives a restart and continues from its next bound instead of its first.
//
// Resuming is sound with any admissible heuristic: the bounds saved proved that no path
// shorter than the next bound exists, and an iteration at a bound finds every path within
// it in depth-first order, so the answer (distance and the lexicographically smallest path)
// is the one an uninterrupted run gives.
//
// The file is text, one field a line, ending in an xxHash of the lines above it. A file
// that is not a checkpoint, whose checksum fails, or that records another query is refused
// with one line and left as it is; a fresh run refuses a folder that already holds one.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/result.hpp"
#include "core/work_dir.hpp"
#include "core/xxhash.hpp"

namespace searchbench {

struct IdaCheckpoint {
  static constexpr const char* kFile = "idastar-checkpoint";
  static constexpr const char* kMagic = "searchbench idastar checkpoint 1";

  std::string query;  // puzzle, start and target, as the run wrote them
  int next_bound = 0;
  std::vector<IterationStats> iterations;  // the bounds searched so far, in order

  std::string text() const {
    std::string body = std::string(kMagic) + "\nquery " + query + "\nbound " + std::to_string(next_bound) + "\niterations";
    for (const IterationStats& it : iterations)
      body += " " + std::to_string(it.bound) + ":" + std::to_string(it.expanded) + ":" + std::to_string(it.generated);
    body += "\n";
    return body + "xxh64 " + hex(body) + "\n";
  }

  void save(const WorkDir& dir) const { dir.write_text_atomically(kFile, text()); }

  // The folder's checkpoint of `query`; InputError (one line naming the file) when there is
  // none, when the file is not a sound checkpoint, or when it records another query.
  static IdaCheckpoint load(const WorkDir& dir, const std::string& query) {
    const std::string path = dir.path() + "/" + kFile;
    const auto text = dir.read_text(kFile);
    if (!text) throw InputError("nothing to resume in '" + dir.path() + "': no " + kFile + " (a fresh run writes it after its first f bound)");
    const std::size_t sum_at = text->rfind("xxh64 ");
    if (text->rfind(std::string(kMagic) + "\n", 0) != 0 || sum_at == std::string::npos)
      throw InputError(path + ": not an idastar checkpoint; left as it is");
    const std::string body = text->substr(0, sum_at);
    if (text->substr(sum_at) != "xxh64 " + hex(body) + "\n") throw InputError(path + ": damaged (its checksum does not match); left as it is");
    IdaCheckpoint c;
    std::istringstream lines(body);
    std::string line;
    std::getline(lines, line);  // the magic line
    bool sound = std::getline(lines, line) && line.rfind("query ", 0) == 0;
    if (sound) c.query = line.substr(6);
    sound = sound && std::getline(lines, line) && std::sscanf(line.c_str(), "bound %d", &c.next_bound) == 1 && c.next_bound >= 0;
    sound = sound && std::getline(lines, line) && line.rfind("iterations", 0) == 0;
    if (sound) {
      std::istringstream fields(line.substr(10));
      for (std::string field; fields >> field;) {
        IterationStats it;
        if (std::sscanf(field.c_str(), "%d:%" SCNu64 ":%" SCNu64, &it.bound, &it.expanded, &it.generated) != 3) sound = false;
        it.resumed = true;
        c.iterations.push_back(it);
      }
    }
    if (!sound) throw InputError(path + ": not an idastar checkpoint; left as it is");
    if (c.query != query)
      throw InputError(path + ": a checkpoint of another query (" + c.query + "), not of " + query + "; left as it is");
    return c;
  }

  // A fresh run's folder must not hold a checkpoint already: it is never overwritten.
  static void refuse_existing(const WorkDir& dir) {
    if (dir.exists(kFile))
      throw InputError("'" + dir.path() + "' holds an idastar checkpoint already: --resume to continue it, or remove it");
  }

 private:
  static std::string hex(const std::string& body) {
    char out[17];
    std::snprintf(out, sizeof out, "%016" PRIx64, static_cast<std::uint64_t>(XXH3_64bits(body.data(), body.size())));
    return out;
  }
};

}  // namespace searchbench
