// The options of engine `external`: where its work files live, whether to continue the run
// recorded there, and how its memory splits between the first depths and the segments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/declared_options.hpp"
#include "core/errors.hpp"

namespace searchbench::external {

struct ExternalOptions {
  std::string workdir;  // empty: a temporary folder, removed afterwards
  bool resume = false;
  // Keys the first depths may hold in memory (sorted lists) before passes over the segments
  // take over; none: as many as the run's memory holds; 0: passes from depth 0.
  std::optional<std::uint64_t> seed_keys;
  std::uint64_t segment_keys = 0;  // keys per segment, a power of two (0: the largest that fits)

  template <class V>
  void declare(V& v) {
    v(workdir, {.name = "workdir",
                .help = "folder for the on-disk cells, successor lists and checkpoint, locked while a run uses it; "
                        "with more than one run (--repetitions, --warmup) each gets a fresh subfolder, warmup-N or rep-N",
                .default_text = "a temporary folder $TMPDIR/searchbench-external-XXXXXX (/tmp without TMPDIR), removed at "
                                "the end and on SIGINT, SIGTERM or SIGHUP",
                .folder_per_run = true});
    v(resume, {.name = "resume",
               .help = "continue the run recorded in --workdir from its last checkpoint, to --max-depth or the end; "
                       "a damaged or foreign folder is refused",
               .one_run_only = true});
    v(seed_keys, {.name = "seed-keys",
                  .help = "keys a fresh run's first depths may hold in memory before the passes over the segments take "
                          "over (0: passes from depth 0)",
                  .default_text = "what --max-memory holds"});
    v(segment_keys, {.name = "segment-keys",
                     .help = "keys per segment file, a power of two; a resumed run keeps its folder's",
                     .default_text = "the largest that fits the memory"});
  }
  void check() const {
    if (resume && workdir.empty()) throw InputError("--resume needs the --workdir of the run to continue");
  }
};

}  // namespace searchbench::external
