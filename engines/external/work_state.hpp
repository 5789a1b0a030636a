// The typed, versioned state of an out-of-core work folder: manifest.json (the last committed
// depth) and pass.json (the checkpoint inside the pass under way). Every field is read with
// its type and range checked, and each file carries a checksum of its own text, so a
// damaged or hand-edited record is refused with one line instead of being trusted.
//
// Each record also lists the data files it vouches for, with their length and checksum:
// a missing, short, extra or altered file is refused before its bytes can change a count.
// Checksums are XXH3-64 (libxxhash), computed from the bytes in memory as they are written
// and checked as they are read, so integrity costs no extra pass over the disk. A file is a
// sequence of chunks (a cells file is one chunk, a successor file one chunk per run it was
// appended), and its checksum is the sum of its chunks' hashes, each seeded by the chunk's
// offset in the file: appending a chunk updates the sum without reading the file again,
// and a chunk moved, lost or altered changes it.
#pragma once

#include "core/xxhash.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace searchbench::external {

// A data file as a record vouches for it; length 0: the file does not exist.
struct FileRecord {
  std::uint64_t length = 0, checksum = 0;
  bool operator==(const FileRecord&) const = default;

  static std::uint64_t chunk_hash(const void* data, std::size_t bytes, std::uint64_t offset) {
    return XXH3_64bits_withSeed(data, bytes, offset);
  }
  // Appends `bytes` at the end of the file this record describes.
  void append(const void* data, std::size_t bytes) {
    checksum += chunk_hash(data, bytes, length);
    length += bytes;
  }
};

// Reads a chunk back in pieces (a run's header, then its payload) and adds it to a sum.
class ChunkReader {
 public:
  explicit ChunkReader(std::uint64_t offset) { XXH3_64bits_reset_withSeed(&state_, offset); }
  void update(const void* data, std::size_t bytes) { XXH3_64bits_update(&state_, data, bytes); }
  std::uint64_t hash() const { return XXH3_64bits_digest(&state_); }

 private:
  XXH3_state_t state_{};
};

inline InputError damaged_folder(const std::string& file, const std::string& why) {
  return InputError("damaged work folder: " + file + ": " + why);
}

// A JSON document of one record file, read field by field with types and ranges checked.
class RecordReader {
 public:
  RecordReader(std::string file, const std::string& text, const std::string& format, int schema) : file_(std::move(file)) {
    if (nesting_depth(text) > kMaxNesting) throw damaged_folder(file_, "not a record of this program (nested too deeply)");
    try {
      doc_ = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      throw damaged_folder(file_, "not a record of this program");
    }
    if (!doc_.is_object()) throw damaged_folder(file_, "not a record of this program");
    if (text_at("format") != format) throw damaged_folder(file_, "not a record of this program (format)");
    if (unsigned_at("schema_version", 1 << 20) != static_cast<std::uint64_t>(schema))
      throw damaged_folder(file_, "schema version " + std::to_string(doc_["schema_version"].get<std::uint64_t>()) +
                                      ", this program reads " + std::to_string(schema));
    const std::string stored = text_at("checksum");
    nlohmann::json body = doc_;
    body.erase("checksum");
    if (stored != self_checksum(body)) throw damaged_folder(file_, "checksum mismatch (the record was altered)");
  }

  // The parser recurses once per level of nesting, so a record nested thousands deep would
  // overflow the stack: ours nest three levels.
  static constexpr int kMaxNesting = 16;
  static int nesting_depth(const std::string& text) {
    int depth = 0, deepest = 0;
    bool in_string = false, escaped = false;
    for (const char c : text) {
      if (in_string) {
        if (escaped) escaped = false;
        else if (c == '\\') escaped = true;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        deepest = std::max(deepest, ++depth);
      } else if (c == ']' || c == '}') {
        --depth;
      }
    }
    return deepest;
  }

  // The checksum a record's text carries: of its fields other than the checksum, dumped with
  // sorted keys (nlohmann::json's order), so it does not depend on the layout of the file.
  static std::string self_checksum(const nlohmann::json& body) {
    const std::string text = body.dump();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(XXH3_64bits(text.data(), text.size())));
    return hex;
  }
  static std::string with_checksum(nlohmann::json body) {
    body["checksum"] = self_checksum(body);
    return body.dump(1) + "\n";
  }

  const nlohmann::json& at(const char* key) const {
    const auto it = doc_.find(key);
    if (it == doc_.end()) throw damaged_folder(file_, std::string("field '") + key + "' is missing");
    return *it;
  }
  std::uint64_t unsigned_at(const char* key, std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
    return unsigned_of(at(key), key, max);
  }
  std::uint64_t unsigned_of(const nlohmann::json& v, const std::string& what, std::uint64_t max) const {
    if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
      throw damaged_folder(file_, "field '" + what + "' is not a non-negative integer");
    const std::uint64_t x = v.get<std::uint64_t>();
    if (x > max) throw damaged_folder(file_, "field '" + what + "' is out of range (" + std::to_string(x) + ")");
    return x;
  }
  std::int64_t signed_at(const char* key, std::int64_t min, std::int64_t max) const {
    const nlohmann::json& v = at(key);
    if (!v.is_number_integer()) throw damaged_folder(file_, std::string("field '") + key + "' is not an integer");
    const std::int64_t x = v.get<std::int64_t>();
    if (x < min || x > max) throw damaged_folder(file_, std::string("field '") + key + "' is out of range");
    return x;
  }
  bool flag_at(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_boolean()) throw damaged_folder(file_, std::string("field '") + key + "' is not true or false");
    return v.get<bool>();
  }
  std::string text_at(const char* key) const {
    const nlohmann::json& v = at(key);
    if (!v.is_string()) throw damaged_folder(file_, std::string("field '") + key + "' is not a string");
    return v.get<std::string>();
  }
  // An array of `size` elements (any size when `size` is npos), each read by `one`.
  template <class F>
  auto array_at(const char* key, std::size_t size, F one) const {
    const nlohmann::json& v = at(key);
    if (!v.is_array() || (size != std::string::npos && v.size() != size))
      throw damaged_folder(file_, std::string("field '") + key + "' is not an array of the folder's size");
    std::vector<decltype(one(v[0], std::string()))> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(one(v[i], std::string(key) + "[" + std::to_string(i) + "]"));
    return out;
  }
  std::vector<std::uint64_t> counts_at(const char* key, std::size_t size, std::uint64_t max) const {
    return array_at(key, size, [&](const nlohmann::json& v, const std::string& what) { return unsigned_of(v, what, max); });
  }
  std::vector<FileRecord> files_at(const char* key, std::size_t size, std::uint64_t max_length) const {
    return array_at(key, size, [&](const nlohmann::json& v, const std::string& what) {
      if (!v.is_array() || v.size() != 2) throw damaged_folder(file_, "field '" + what + "' is not a [length, checksum] pair");
      return FileRecord{unsigned_of(v[0], what, max_length), unsigned_of(v[1], what, std::numeric_limits<std::uint64_t>::max())};
    });
  }
  std::vector<std::string> texts_of(const nlohmann::json& v, const std::string& what) const {
    if (!v.is_array()) throw damaged_folder(file_, "field '" + what + "' is not a list of states");
    std::vector<std::string> out;
    for (const auto& s : v) {
      if (!s.is_string()) throw damaged_folder(file_, "field '" + what + "' is not a list of states");
      out.push_back(s.get<std::string>());
    }
    return out;
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  nlohmann::json doc_;
};

inline nlohmann::json files_json(const std::vector<FileRecord>& files) {
  nlohmann::json out = nlohmann::json::array();
  for (const FileRecord& f : files) out.push_back({f.length, f.checksum});
  return out;
}

// manifest.json: what the folder belongs to, its layout, and everything known after the
// last committed depth: `depth` is the first depth whose pass has not committed; its cells
// (generation depth % 2) and the successor lists routed to it are listed file by file.
struct Manifest {
  static constexpr const char* kFile = "manifest.json";
  static constexpr const char* kFormat = "searchbench-external";
  static constexpr int kSchemaVersion = 3;

  std::string identity, puzzle, encoder, start;
  std::uint64_t key_bound = 0, segment_keys = 0, segments = 0;
  int depth = 0;
  std::vector<std::uint64_t> depth_counts;       // depths 0 .. depth-1 (fewer once the search ran out)
  std::vector<std::uint64_t> claimed_ahead;      // per segment: keys of `depth` claimed inside their segment
  std::uint64_t pending_entries = 0;             // offsets routed to `depth`, duplicates included
  std::vector<FileRecord> cells, incoming;       // per segment: cells of `depth`, successor list to `depth`
  std::uint64_t expanded = 0, generated = 0, bytes_written = 0, bytes_read = 0, peak_disk_bytes = 0;
  int seeded_depths = 0;                          // depths found in memory before the first pass
  int last_max_depth = -1;                        // the --max-depth of the last run on the folder (-1: none)
  std::map<int, std::vector<std::string>> samples;  // per depth, a few of its states
  bool finished = false;                          // the search ran out: depth_counts is the whole answer

  std::uint64_t claimed_ahead_total() const {
    std::uint64_t sum = 0;
    for (const std::uint64_t c : claimed_ahead) sum += c;
    return sum;
  }

  std::string text() const {
    nlohmann::json s = nlohmann::json::object();
    for (const auto& [d, states] : samples) s[std::to_string(d)] = states;
    return RecordReader::with_checksum({{"format", kFormat},
                                        {"schema_version", kSchemaVersion},
                                        {"identity", identity},
                                        {"puzzle", puzzle},
                                        {"encoder", encoder},
                                        {"start", start},
                                        {"key_bound", key_bound},
                                        {"segment_keys", segment_keys},
                                        {"segments", segments},
                                        {"depth", depth},
                                        {"depth_counts", depth_counts},
                                        {"claimed_ahead_by_segment", claimed_ahead},
                                        {"pending_entries", pending_entries},
                                        {"cells", files_json(cells)},
                                        {"incoming", files_json(incoming)},
                                        {"expanded", expanded},
                                        {"generated", generated},
                                        {"bytes_written", bytes_written},
                                        {"bytes_read", bytes_read},
                                        {"peak_disk_bytes", peak_disk_bytes},
                                        {"seeded_depths", seeded_depths},
                                        {"max_depth", last_max_depth},
                                        {"samples", s},
                                        {"finished", finished}});
  }

  // `max_segments` and `max_segment_keys` bound the layout a folder may claim.
  static Manifest parse(const std::string& text, std::uint64_t max_segments, std::uint64_t max_segment_keys) {
    const RecordReader r(kFile, text, kFormat, kSchemaVersion);
    Manifest m;
    m.identity = r.text_at("identity");
    m.puzzle = r.text_at("puzzle");
    m.encoder = r.text_at("encoder");
    m.start = r.text_at("start");
    m.key_bound = r.unsigned_at("key_bound");
    m.segment_keys = r.unsigned_at("segment_keys", max_segment_keys);
    m.segments = r.unsigned_at("segments", max_segments);
    if (m.segment_keys == 0 || m.segments == 0 || (m.key_bound + m.segment_keys - 1) / m.segment_keys != m.segments)
      throw damaged_folder(r.file(), "the layout does not cover the key space");
    m.depth = static_cast<int>(r.signed_at("depth", 0, std::numeric_limits<int>::max() - 1));
    m.depth_counts = r.counts_at("depth_counts", std::string::npos, m.key_bound);
    std::uint64_t states = 0;
    for (const std::uint64_t c : m.depth_counts) states += c;
    if (m.depth_counts.size() > static_cast<std::size_t>(m.depth) || states > m.key_bound)
      throw damaged_folder(r.file(), "the depth counts do not fit the key space");
    m.claimed_ahead = r.counts_at("claimed_ahead_by_segment", m.segments, m.segment_keys);
    m.pending_entries = r.unsigned_at("pending_entries");
    const std::uint64_t cells_bytes = (m.segment_keys + 31) / 32 * 8;
    m.cells = r.files_at("cells", m.segments, cells_bytes);
    m.incoming = r.files_at("incoming", m.segments, std::numeric_limits<std::uint64_t>::max() / 2);
    m.expanded = r.unsigned_at("expanded");
    m.generated = r.unsigned_at("generated");
    m.bytes_written = r.unsigned_at("bytes_written");
    m.bytes_read = r.unsigned_at("bytes_read");
    m.peak_disk_bytes = r.unsigned_at("peak_disk_bytes");
    m.seeded_depths = static_cast<int>(r.signed_at("seeded_depths", 0, m.depth));
    m.last_max_depth = static_cast<int>(r.signed_at("max_depth", -1, std::numeric_limits<int>::max()));
    const nlohmann::json& s = r.at("samples");
    if (!s.is_object()) throw damaged_folder(r.file(), "field 'samples' is not an object");
    for (const auto& [key, states] : s.items()) {
      int d = -1;
      if (std::sscanf(key.c_str(), "%d", &d) != 1 || d < 0 || d >= m.depth || std::to_string(d) != key)
        throw damaged_folder(r.file(), "field 'samples' names depth '" + key + "'");
      m.samples[d] = r.texts_of(states, "samples");
    }
    m.finished = r.flag_at("finished");
    return m;
  }
};

// pass.json: the checkpoint inside the pass of `depth`, taken after each segment: segments
// below `next_segment` are done, their new cells listed, and the successor lists the pass
// has routed so far to depth + 1 listed at the lengths that checkpoint covers.
struct PassRecord {
  static constexpr const char* kFile = "pass.json";
  static constexpr const char* kFormat = "searchbench-external-pass";
  static constexpr int kSchemaVersion = 1;

  int depth = 0;
  std::uint64_t next_segment = 0;  // the segments below it are done
  std::uint64_t count = 0;         // keys at this depth found so far
  std::uint64_t expanded = 0, generated = 0, bytes_written = 0, bytes_read = 0, peak_disk_bytes = 0;
  std::vector<FileRecord> next;       // per segment: its successor list of depth + 1
  std::vector<std::uint64_t> entries;  // per segment: offsets in that list
  std::vector<FileRecord> cells;      // per segment below next_segment: its cells of depth + 1
  std::vector<std::uint64_t> ahead;   // per segment: keys of depth + 1 claimed inside it
  std::vector<std::string> samples;   // states found at this depth, from different segments

  std::string text() const {
    return RecordReader::with_checksum({{"format", kFormat},
                                        {"schema_version", kSchemaVersion},
                                        {"depth", depth},
                                        {"next_segment", next_segment},
                                        {"count", count},
                                        {"expanded", expanded},
                                        {"generated", generated},
                                        {"bytes_written", bytes_written},
                                        {"bytes_read", bytes_read},
                                        {"peak_disk_bytes", peak_disk_bytes},
                                        {"next", files_json(next)},
                                        {"entries", entries},
                                        {"cells", files_json(cells)},
                                        {"ahead", ahead},
                                        {"samples", samples}});
  }

  static PassRecord parse(const std::string& text, const Manifest& m) {
    const RecordReader r(kFile, text, kFormat, kSchemaVersion);
    PassRecord p;
    p.depth = static_cast<int>(r.signed_at("depth", 0, std::numeric_limits<int>::max() - 1));
    p.next_segment = r.unsigned_at("next_segment", m.segments);
    p.count = r.unsigned_at("count", m.key_bound);
    p.expanded = r.unsigned_at("expanded");
    p.generated = r.unsigned_at("generated");
    p.bytes_written = r.unsigned_at("bytes_written");
    p.bytes_read = r.unsigned_at("bytes_read");
    p.peak_disk_bytes = r.unsigned_at("peak_disk_bytes");
    p.next = r.files_at("next", m.segments, std::numeric_limits<std::uint64_t>::max() / 2);
    p.entries = r.counts_at("entries", m.segments, std::numeric_limits<std::uint64_t>::max() / 2);
    p.cells = r.files_at("cells", m.segments, (m.segment_keys + 31) / 32 * 8);
    p.ahead = r.counts_at("ahead", m.segments, m.segment_keys);
    p.samples = r.texts_of(r.at("samples"), "samples");
    return p;
  }
};

}  // namespace searchbench::external
