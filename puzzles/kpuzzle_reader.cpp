// The KPuzzle JSON reader (cubing.js): orbits, defaultPattern (or startStateData), moves with
// 0-based permutations and orientation deltas by destination slot, derivedMoves as products.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "puzzles/definition_builder.hpp"

namespace searchbench {

using namespace definition_reading;

PermutationDefinition read_kpuzzle_json(std::string_view text, const std::string& file) {
  using Json = nlohmann::ordered_json;
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    fail(file, 0, std::string("not valid JSON: ") + e.what());
  }
  PermutationDefinition d;
  d.file = file;
  d.checksum = checksum_of(text);
  Builder builder(d, file);
  auto field = [&](const Json& obj, const char* key, const std::string& where) -> const Json& {
    if (!obj.is_object() || !obj.contains(key)) fail(file, 0, where + " has no \"" + key + "\"");
    return obj.at(key);
  };
  auto small = [&](const Json& v, int lo, int hi, const std::string& what) {
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      fail(file, 0, what + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return static_cast<int>(v.get<long long>());
  };
  try {
    d.name = j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "Unnamed";
    const Json& orbits = field(j, "orbits", "the puzzle");
    if (!orbits.is_object()) fail(file, 0, "\"orbits\" must be an object");
    for (const auto& [name, o] : orbits.items())
      builder.add_set(name, small(field(o, "numPieces", "orbit " + name), 1, 255, "numPieces of " + name),
                      small(field(o, "numOrientations", "orbit " + name), 1, 127, "numOrientations of " + name), 0);
    const Json& start = j.contains("defaultPattern") ? j["defaultPattern"] : field(j, "startStateData", "the puzzle");
    d.solved_piece.assign(static_cast<std::size_t>(d.slots), 0);
    d.solved_twist.assign(static_cast<std::size_t>(d.slots), 0);
    for (const auto& s : d.sets) {
      const Json& o = field(start, s.name.c_str(), "defaultPattern");
      const Json& pieces = field(o, "pieces", "defaultPattern of " + s.name);
      const Json& twists = field(o, "orientation", "defaultPattern of " + s.name);
      if (!pieces.is_array() || !twists.is_array() || static_cast<int>(pieces.size()) != s.size || static_cast<int>(twists.size()) != s.size)
        fail(file, 0, "defaultPattern of " + s.name + " must list " + std::to_string(s.size) + " pieces and orientations");
      for (int i = 0; i < s.size; ++i) {
        d.solved_piece[s.offset + i] = static_cast<std::uint8_t>(small(pieces[i], 0, 255, "a piece of " + s.name));
        d.solved_twist[s.offset + i] = static_cast<std::uint8_t>(small(twists[i], 0, s.orientations - 1, "an orientation of " + s.name));
      }
    }
    const Json& moves = field(j, "moves", "the puzzle");
    if (!moves.is_object()) fail(file, 0, "\"moves\" must be an object");
    for (const auto& [name, t] : moves.items()) {
      BaseMove m{name, builder.identity(), 0};
      if (!t.is_object()) fail(file, 0, "move " + name + " must be an object");
      for (const auto& [orbit, o] : t.items()) {
        const int set = d.set_index(orbit);
        if (set < 0) fail(file, 0, "move " + name + " names the unknown orbit " + orbit);
        const DefinitionSet& s = d.sets[set];
        const Json& perm = field(o, "permutation", "move " + name + " on " + orbit);
        const Json& twist = o.contains("orientationDelta") ? o["orientationDelta"] : field(o, "orientation", "move " + name + " on " + orbit);
        if (!perm.is_array() || !twist.is_array() || static_cast<int>(perm.size()) != s.size || static_cast<int>(twist.size()) != s.size)
          fail(file, 0, "move " + name + " on " + orbit + " must list " + std::to_string(s.size) + " sources and orientations");
        std::vector<bool> seen(static_cast<std::size_t>(s.size), false);
        for (int i = 0; i < s.size; ++i) {
          const int from = small(perm[i], 0, s.size - 1, "a source of move " + name);
          if (seen[from]) fail(file, 0, "move " + name + " on " + orbit + " is not a permutation");
          seen[from] = true;
          m.move.source[s.offset + i] = static_cast<std::uint8_t>(s.offset + from);
          m.move.twist[s.offset + i] = static_cast<std::uint8_t>(small(twist[i], 0, s.orientations - 1, "an orientation of move " + name));
        }
      }
      builder.add_move(std::move(m));
    }
    if (j.contains("derivedMoves") && j["derivedMoves"].is_object())
      for (const auto& [name, alg] : j["derivedMoves"].items()) {
        if (!alg.is_string()) fail(file, 0, "derived move " + name + " must be a string of moves");
        builder.add_sequence({name, alg.get<std::string>(), false, 0});
      }
  } catch (const Json::exception& e) {
    fail(file, 0, std::string("unexpected JSON: ") + e.what());
  }
  builder.finish();
  return d;
}


}  // namespace searchbench
