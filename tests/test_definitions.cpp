// Puzzles from definition files: the reader against the format's rules and hostile input,
// the shipped definitions against published God's-algorithm tables, and the built-in
// families against their definitions (identical per-depth counts; distances and paths to
// the same targets reached by the same move sequences).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "core/errors.hpp"
#include "encoders/definition_coordinate.hpp"
#include "heuristics/definition_pdb.hpp"
#include "puzzles/definition_puzzle.hpp"
#include "puzzles/permutation_definition.hpp"
#include "registry/registry.hpp"

using namespace searchbench;

namespace {

std::vector<std::uint64_t> counts_of(const std::string& puzzle, const std::string& engine = "parallel", int threads = 2,
                                     const std::string& encoder = "") {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = engine;
  c.encoder = encoder;
  c.options.threads = threads;
  c.options.keep_table = false;  // counts only, as `run` asks for them
  return make_solver(c)->explore().depth_counts;
}

SearchResult query(const std::string& puzzle, const std::string& target, const std::string& engine = "bidir") {
  SolverConfig c;
  c.puzzle = puzzle;
  c.engine = engine;
  return make_solver(c)->search(make_puzzle(puzzle)->read_state(target, "--target"));
}

// The error text of reading `text` as a .tws file, or "" when it reads.
std::string tws_error(const std::string& text) {
  try {
    read_tws(text, "t.tws");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::string kHeader = "Name T\nSet A 3 2\nSolved\nA\n1 2 3\n0 0 0\nEnd\n";

}  // namespace

// twsearch's names and order: every power of a move, by increasing exponent.
TEST(DefinitionReader, PowersNamedAsTwsearchNamesThem) {
  const auto d = load_definition("2x2x2.tws");
  std::vector<std::string> names;
  for (const auto& m : d->moves) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"U", "U2", "U'", "R", "R2", "R'", "F", "F2", "F'", "D", "D2", "D'", "L", "L2", "L'",
                                             "B", "B2", "B'"}));
  for (std::size_t m = 0; m < d->moves.size(); ++m) EXPECT_EQ(d->moves[static_cast<std::size_t>(d->inverse[m])].base, d->moves[m].base);
  EXPECT_EQ(d->moves[static_cast<std::size_t>(d->inverse[0])].name, "U'");
  EXPECT_EQ(d->moves[static_cast<std::size_t>(d->inverse[1])].name, "U2");
  // An order-5 move: F, F2, F2', F'.
  const auto five = read_tws("Set A 5 1\nSolved\nA\n1 2 3 4 5\nEnd\nMove F\nA\n2 3 4 5 1\nEnd\n", "five.tws");
  std::vector<std::string> fives;
  for (const auto& m : five.moves) fives.push_back(m.name);
  EXPECT_EQ(fives, (std::vector<std::string>{"F", "F2", "F2'", "F'"}));
}

// The orientation line of a .tws move is indexed by the source slot; KPuzzle's by the
// destination: the two shipped 2x2x2 files are the same puzzle.
TEST(DefinitionReader, KPuzzleJsonMatchesTws) {
  const auto tws = load_definition("2x2x2.tws");
  const auto json = load_definition("2x2x2.kpuzzle.json");
  ASSERT_EQ(tws->moves.size(), json->moves.size());
  for (std::size_t m = 0; m < tws->moves.size(); ++m) {
    EXPECT_EQ(tws->moves[m].name, json->moves[m].name);
    EXPECT_EQ(tws->moves[m].source, json->moves[m].source);
    EXPECT_EQ(tws->moves[m].twist, json->moves[m].twist);
  }
}

// MoveSequence adds a search move (with its powers); MoveAlias only a name for states.
TEST(DefinitionReader, SequencesAndAliases) {
  const auto d = read_tws(kHeader + "Move X\nA\n2 1 3\nEnd\nMove Y\nA\n1 3 2\n0 1 1\nEnd\nMoveSequence Z X Y\nMoveAlias W Y\n", "s.tws");
  std::vector<std::string> names;
  for (const auto& m : d.moves) names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"X", "Y", "Z", "Z'"}));  // X Y is a 3-cycle
  ASSERT_EQ(d.aliases.size(), 1u);
  EXPECT_EQ(d.aliases[0].name, "W");
  EXPECT_EQ(d.aliases[0].source, d.moves[1].source);
}

// MovePowers keeps only some powers as moves (the magic board's B and C turn one way); the
// others stay names for states, a move whose inverse is no move has inverse -1, and its
// undoing permutation still takes a state back.
TEST(DefinitionReader, MovePowersKeepsSomePowers) {
  const auto d = load_definition("msquare-2x4.tws");
  std::vector<std::string> names, aliases;
  for (const auto& m : d->moves) names.push_back(m.name);
  for (const auto& m : d->aliases) aliases.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(aliases, (std::vector<std::string>{"B2", "B'", "C2", "C'"}));
  EXPECT_EQ(d->inverse, (std::vector<int>{0, -1, -1}));
  const DefinitionPuzzle p(d);
  const auto state = p.parse("B' C A");
  for (int m = 0; m < p.move_count(); ++m) {
    DefinitionState forward, back;
    p.apply(state, m, forward);
    p.apply_inverse(forward, m, back);
    EXPECT_EQ(back, state) << m;
  }
  // Quarter turns only: U and U', as in a quarter-turn metric.
  const auto quarter = read_tws("Set A 4 1\nSolved\nA\n1 2 3 4\nEnd\nMove U\nA\n2 3 4 1\nEnd\nMovePowers U 1 3\n", "q.tws");
  ASSERT_EQ(quarter.moves.size(), 2u);
  EXPECT_EQ(quarter.moves[1].name, "U'");
  EXPECT_EQ(quarter.inverse, (std::vector<int>{1, 0}));
}

TEST(DefinitionReader, RefusesMalformedFilesNamingTheLine) {
  const std::map<std::string, std::string> cases = {
      {kHeader + "Move X\nA\n1 1 3\nEnd\n", "t.tws:10: set A of move X is not a permutation"},
      {kHeader + "Move X\nA\n2 1 3\n0 2 0\nEnd\n", "t.tws:11: orientation 2 is out of range (0..1)"},
      {kHeader + "Move X\nA\n2 1\nEnd\n", "t.tws:10: set A has 3 slots, the line lists 2"},
      {kHeader + "Move X\nA\n2 1 3\n", "t.tws:8: move X has no End"},
      {kHeader + "Move X\nB\n2 1 3\nEnd\n", "t.tws:9: unknown set \"B\" in move X"},
      {kHeader + "Move X\nA\n2 1 3\nEnd\nMove X\nA\n2 1 3\nEnd\n", "t.tws:12: move X is defined twice (first on line 8)"},
      {kHeader + "Move X\nA\n1 2 3\nEnd\n", "t.tws:8: move X changes nothing"},
      {kHeader + "Illegal A 1 2\n", "t.tws:8: Illegal (pieces barred from slots) is not supported"},
      {"Set A 3 2\nSolved\nA\n1 ? 3\nEnd\n", "t.tws:4: '?' (an unknown piece or orientation) is not supported"},
      {"Set A 3 2\nSet A 2 1\n", "t.tws:2: set A is defined twice"},
      {"Set A 300 2\n", "t.tws:1: set size 300 is out of range (1..255)"},
      {"Set A 99999999999999999999 2\n", "t.tws:1: set size \"99999999999999999999\" is not a number"},
      {"Set A 40 1\nSet B 40 1\n", "t.tws:2: the sets hold more than 64 slots"},
      {kHeader + "MoveSequence P Q\nMoveSequence Q P\n", "t.tws:8: cannot expand P = \"Q\""},
      {kHeader + "Move x\nA\n2 1 3\nEnd\n", "t.tws:8: whole-puzzle rotations (x) are not supported"},
      {kHeader + "Move X\nA\n2 1 3\nEnd\nMove X2\nA\n3 2 1\nEnd\nMove Y\nA\n1 3 2\nEnd\n", ""},
      {"Set A 2 1\nSolved\nA\n1 2\nEnd\nMove X\nA\n2 1\nEnd\nMove X2\nA\n2 1\nEnd\n", ""},
      {"Set A 4 1\nSolved\nA\n1 2 3 4\nEnd\nMove X\nA\n2 3 4 1\nEnd\nMove X2\nA\n2 1 3 4\nEnd\n", "t.tws:0: two moves are named X2"},
      {"Name T\nSet A 3 1\n", "t.tws:0: the definition has no Solved block"},
      {"Name T\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\n", "t.tws:0: the definition has no Move"},
      {"Move X\n", "t.tws:1: Move before the Solved block"},
      {std::string("Name T\0x", 8), "t.tws:1: the file holds a NUL byte"},
      {"Bogus 1\n", "t.tws:1: unexpected \"Bogus\" at the start of a line"},
      {kHeader + "Move X\nA\n2 3 1\nEnd\nMovePowers X 3\n", "t.tws:12: move X has order 3: its powers are 1..2, not 3"},
      {kHeader + "Move X\nA\n2 3 1\nEnd\nMovePowers Y 1\n", "t.tws:12: MovePowers names Y, which is no Move or MoveSequence"},
      {kHeader + "Move X\nA\n2 3 1\nEnd\nMovePowers X 2 1\n", "t.tws:12: MovePowers lists its exponents increasing"},
      {kHeader + "Move X\nA\n2 3 1\nEnd\nMovePowers X 1\nMovePowers X 2\n", "t.tws:13: MovePowers for X is given twice"},
      {kHeader + "Move X\nA\n2 3 1\nEnd\nMovePowers X\n", "t.tws:12: MovePowers takes a move's name"},
      {kHeader + "Move X\nA\n2 3 1\nEnd\nMovePowers X 0\n", "t.tws:12: exponent 0 is out of range"},
      {"Set A 3 1\nMovePowers X 1\n", "t.tws:2: MovePowers before the Solved block"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string got = tws_error(text);
    if (expected.empty()) EXPECT_EQ(got, "") << text;
    else EXPECT_EQ(got.substr(0, expected.size()), expected) << text;
  }
}

TEST(DefinitionReader, RefusesJsonThatIsNoKPuzzle) {
  EXPECT_THROW(read_kpuzzle_json("{", "k.json"), InputError);
  EXPECT_THROW(read_kpuzzle_json("[]", "k.json"), InputError);
  EXPECT_THROW(read_kpuzzle_json(R"({"orbits":{"A":{"numPieces":2,"numOrientations":1}},"defaultPattern":{"A":{"pieces":[0,1],"orientation":[0,0]}},"moves":{"X":{"A":{"permutation":[0,0],"orientationDelta":[0,0]}}}})", "k.json"),
               InputError);
  EXPECT_THROW(read_kpuzzle_json(R"({"orbits":{"A":{"numPieces":1e9,"numOrientations":1}}})", "k.json"), InputError);
}

// A FIFO, a folder or a missing file is refused at once (a FIFO is never opened for a
// blocking read), with the file named.
TEST(DefinitionReader, RefusesWhatIsNoRegularFile) {
  const std::string dir = ::testing::TempDir() + "/defs-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir + "/folder.tws");
  const std::string fifo = dir + "/pipe.tws";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& [path, why] : std::map<std::string, std::string>{{fifo, "is not a regular file"},
                                                                     {dir + "/folder.tws", "is a folder"},
                                                                     {dir + "/missing.tws", "no such file"}}) {
    try {
      load_definition(path);
      ADD_FAILURE() << path;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(path + ":0: " + why), std::string::npos) << e.what();
    }
  }
  std::filesystem::remove_all(dir);
}

// States as move sequences from solved or as blocks; both read back to the same state.
TEST(DefinitionPuzzle, StatesAsMovesOrBlocks) {
  const DefinitionPuzzle p = *DefinitionPuzzle::from_name("cube2-fixed.tws");
  const auto s = p.parse("R U2 F'");
  EXPECT_EQ(p.parse(p.format(s)), s);
  EXPECT_EQ(p.parse(""), p.start());
  EXPECT_EQ(p.parse("R R'"), p.start());
  EXPECT_EQ(p.parse("CORNER 1 2 3 4 5 6 7 8"), p.start());
  EXPECT_THROW(p.parse("R Q"), InputError);
  EXPECT_THROW(p.parse("CORNER 1 2 3"), InputError);
  EXPECT_THROW(p.parse("CORNER 1 1 3 4 5 6 7 8"), InputError);
  EXPECT_THROW(p.parse("CORNER 1 2 3 4 5 6 7 8 / 0 0 0 0 0 0 0 3"), InputError);
  // Twisting one corner in place leaves the class: unreachable, said before any search.
  EXPECT_FALSE(p.same_component(p.start(), p.parse("CORNER 1 2 3 4 5 6 7 8 / 1 0 0 0 0 0 0 0")));
  EXPECT_TRUE(p.same_component(p.start(), s));
}

// Every key decodes to a state that encodes back to it, and the table moves agree with
// moving the state.
// Ranks, move tables and the coordinates moved without a table (the dino's 12!/2, a
// 14-piece set past 32 bits) agree with applying the moves to decoded states, forwards
// (key_successor, key_successors) and backwards (predecessor_key; msquare's B has no inverse
// move, so its undoing permutation has a column of its own).
TEST(DefinitionCoordinate, RanksAndMovesAgree) {
  std::string fourteen = "Set A 14 1\nSolved\nA\n";
  for (int i = 1; i <= 14; ++i) fourteen += std::to_string(i) + (i < 14 ? " " : "\nEnd\nMove R\nA\n");
  for (int i = 1; i <= 14; ++i) fourteen += std::to_string(i % 14 + 1) + (i < 14 ? " " : "\nEnd\nMove S\nA\n2 1 3 4 5 6 7 8 9 10 11 12 13 14\nEnd\n");
  std::vector<DefinitionPuzzle> puzzles;
  for (const char* name : {"cube2-fixed.tws", "topspin-10-4.tws", "topspin-12-4-two-colours.tws", "pancake-6.tws", "dino.tws", "msquare-2x4.tws"})
    puzzles.push_back(*DefinitionPuzzle::from_name(name));
  puzzles.emplace_back(std::make_shared<const PermutationDefinition>(read_tws(fourteen, "fourteen.tws")));
  for (const DefinitionPuzzle& p : puzzles) {
    const std::string name = p.name();
    const DefinitionCoordinate enc(p);
    EXPECT_EQ(enc.key_bound(), p.component_size(p.start())) << name;
    std::mt19937_64 rng(7);
    for (int i = 0; i < 2000; ++i) {
      const Key k = rng() % enc.key_bound();
      const auto s = enc.decode(k);
      ASSERT_EQ(enc.encode(s), k) << name;
      Key all[kMaxDefinitionMoves];
      ASSERT_EQ(enc.key_successors(k, all), p.move_count());
      DefinitionState next;
      for (int m = 0; m < p.move_count(); ++m) {
        p.apply(s, m, next);
        ASSERT_EQ(enc.key_successor(k, m), enc.encode(next)) << name << " move " << m;
        ASSERT_EQ(all[m], enc.encode(next)) << name << " move " << m;
        Key back = 0;
        p.apply_inverse(s, m, next);
        ASSERT_TRUE(enc.predecessor_key(k, s, m, back));
        ASSERT_EQ(back, enc.encode(next)) << name << " move " << m;
      }
    }
  }
}

// God's-algorithm tables: the 2x2x2 with one corner fixed (the suite's cube2-htm, 3,674,160
// states) and TopSpin (10,4), whose reversals of 4 are even (10!/2 states).
TEST(DefinitionSpaces, PublishedCounts) {
  const std::vector<std::uint64_t> fixed = {1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644};
  EXPECT_EQ(counts_of("cube2-fixed.tws"), fixed);
  EXPECT_EQ(counts_of("cube2-htm"), fixed);
  std::uint64_t topspin = 0;
  for (const auto c : counts_of("topspin-10-4.tws")) topspin += c;
  EXPECT_EQ(topspin, 1'814'400u);
  EXPECT_EQ(counts_of("topspin-10-4.tws", "ring", 1, "packed"), counts_of("topspin-10-4.tws"));
}

// The 2x2x2 with all six faces and no fixed corner (twsearch's samples/main/2x2x2.tws):
// 88,179,840 states (Rokicki's twsearch-results, godsnumber/2x2x2.log), from the .tws file
// and from its KPuzzle JSON.
TEST(DefinitionSpaces, Full2x2x2) {
  const std::vector<std::uint64_t> expected = {1,       18,       243,      2874,     28000, 205416, 1168516,
                                               5402628, 20776176, 45391616, 15139616, 64736};
  EXPECT_EQ(counts_of("2x2x2.tws"), expected);
  EXPECT_EQ(counts_of("2x2x2.kpuzzle.json", "parallel", 2), expected);
}

// The skewb with no piece fixed: 37,791,360 states, radius 11 (Rokicki's twsearch-results,
// godsnumber/skewb.log; the per-depth counts are twsearch -g's on its own skewb sample,
// whose file this one, written from the geometry, is not).
TEST(DefinitionSpaces, Skewb) {
  EXPECT_EQ(counts_of("skewb.tws"), (std::vector<std::uint64_t>{1, 16, 208, 2280, 19683, 125280, 712032, 3782376, 14705796,
                                                                17470272, 972336, 1080}));
}

// The Pyraminx, tips ignored, written here from the geometry: 933,120 states, radius 11, and
// the per-depth counts of the God's-algorithm table on Jaap Scherphuis's Puzzle Page
// ("Pyraminx", face turns).
TEST(DefinitionSpaces, PyraminxPublishedTable) {
  EXPECT_EQ(counts_of("pyraminx-no-tips.tws"),
            (std::vector<std::uint64_t>{1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32}));
}

// The Dino cube, written here from the geometry: its corner turns are 3-cycles of edges, so
// the class is the even arrangements, 12!/2 = 239,500,800 (Jaap's Puzzle Page, "Dino Cube",
// before dividing by the cube's 12 orientations); the whole space takes half a minute, so
// the test counts the first depths (twsearch -g on this file gives the same counts).
TEST(DefinitionSpaces, DinoCube) {
  const auto dino = make_puzzle("dino.tws");
  EXPECT_EQ(dino->component_size(), 239'500'800u);
  SolverConfig c;
  c.puzzle = "dino.tws";
  c.engine = "ring";
  c.encoder = "packed";
  c.options.max_depth = 5;
  c.options.keep_table = false;
  EXPECT_EQ(make_solver(c)->explore().depth_counts, (std::vector<std::uint64_t>{1, 16, 160, 1408, 11712, 90912}));
}

// A built-in family and its definition: identical per-depth counts, and for targets reached
// by the same random move sequences, equal distances; the definition's path, spelled in the
// family's letters, leads the family's puzzle to the family's target.
TEST(DefinitionSpaces, BuiltInFamiliesAgreeWithTheirDefinitions) {
  struct Pair {
    std::string family, definition;
    std::map<std::string, char> letter;  // definition move name -> family move letter
  };
  std::vector<Pair> pairs = {
      {"cube2-htm", "cube2-fixed.tws", {{"F", 'F'}, {"F2", 'G'}, {"F'", 'f'}, {"R", 'R'}, {"R2", 'S'}, {"R'", 'r'}, {"U", 'U'}, {"U2", 'V'}, {"U'", 'u'}}},
      {"pancake-8", "pancake-8.tws", {}},
      {"msquare-2x3", "msquare-2x3.tws", {{"A", 'A'}, {"B", 'B'}, {"C", 'C'}}},
      {"msquare-2x4", "msquare-2x4.tws", {{"A", 'A'}, {"B", 'B'}, {"C", 'C'}}},
      {"sicily1515-2x4", "sicily1515-2x4.tws", {{"A", 'A'}, {"B", 'B'}, {"C", 'C'}}}};
  for (int k = 2; k <= 8; ++k) pairs[1].letter["P" + std::to_string(k)] = static_cast<char>('0' + k);
  for (const auto& pair : pairs) {
    EXPECT_EQ(counts_of(pair.family), counts_of(pair.definition)) << pair.definition;
    std::vector<std::string> names;
    for (const auto& [name, letter] : pair.letter) names.push_back(name);
    std::mt19937_64 rng(11);
    const auto family = make_puzzle(pair.family);
    const auto definition = make_puzzle(pair.definition);
    for (int t = 0; t < 20; ++t) {
      std::string sequence, letters;
      for (int i = 0; i < 14; ++i) {
        const std::string& name = names[rng() % names.size()];
        sequence += (i ? " " : "") + name;
        letters += pair.letter.at(name);
      }
      const auto family_target = family->follow(letters);
      ASSERT_TRUE(family_target);
      const SearchResult f = query(pair.family, *family_target);
      const SearchResult d = query(pair.definition, sequence);
      EXPECT_EQ(f.distance, d.distance) << sequence;
      std::string translated;
      std::string name;
      const std::string words = definition->path_text(d.path) + " ";
      for (const char c : words) {
        if (c != ' ') {
          name += c;
          continue;
        }
        if (!name.empty()) translated += pair.letter.at(name);
        name.clear();
      }
      EXPECT_EQ(family->follow(translated), family_target) << sequence;
      if (pair.family != "cube2-htm") {
        EXPECT_EQ(translated, f.path);  // same move order: the same smallest path
      }
    }
  }
}

// A target outside the start's class is answered, not searched for ever.
TEST(DefinitionSpaces, UnreachableTargetAnswered) {
  const SearchResult r = query("cube2-fixed.tws", "CORNER 1 2 3 4 5 6 7 8 / 1 0 0 0 0 0 0 0");
  EXPECT_FALSE(r.found);
  EXPECT_EQ(r.distance, -1);
}

// IDA* with pattern databases over the definition's pieces answers as bidir does: the same
// distance and the same (lexicographically smallest) path, with the moves pruned after a
// power of the same move and after commuting moves.
TEST(DefinitionHeuristics, IdaStarWithPatternDatabasesMatchesBidir) {
  for (const char* name : {"2x2x2.tws", "cube2-fixed.tws", "topspin-10-4.tws", "skewb.tws", "msquare-2x4.tws"}) {
    const auto puzzle = make_puzzle(name);
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const std::string target = puzzle->random_state(seed);
      const SearchResult expected = query(name, target);
      for (const int threads : {1, 2}) {
        SolverConfig c;
        c.puzzle = name;
        c.engine = "idastar";
        c.heuristic = "pdb";
        c.heuristic_options["pdb-cache"] = "none";
        if (std::string(name) == "2x2x2.tws") c.heuristic_options["pattern"] = "CORNER.1,CORNER.2,CORNER.3,CORNER.4/CORNER.5,CORNER.6,CORNER.7";
        if (std::string(name) == "msquare-2x4.tws") c.heuristic_options["pattern"] = "CELL.1,CELL.2,CELL.3,CELL.4";  // a pattern built over undoing permutations
        c.options.threads = threads;
        const SearchResult r = make_solver(c)->search(puzzle->read_state(target, "--target"));
        EXPECT_EQ(r.distance, expected.distance) << name << " seed " << seed;
        EXPECT_EQ(r.path, expected.path) << name << " seed " << seed;
      }
    }
  }
}

TEST(DefinitionHeuristics, PatternsRefusedWithTheReason) {
  const DefinitionPuzzle p = *DefinitionPuzzle::from_name("2x2x2.tws");
  EXPECT_THROW(DefinitionPdb::patterns(p, "EDGE"), InputError);
  EXPECT_THROW(DefinitionPdb::patterns(p, "CORNER.9"), InputError);
  EXPECT_THROW(DefinitionPdb::patterns(p, "CORNER.1,CORNER.1"), InputError);
  EXPECT_EQ(DefinitionPdb::patterns(p, "CORNER/CORNER.2").size(), 2u);
  EXPECT_EQ(DefinitionPdb::fits(*DefinitionPuzzle::from_name("topspin-12-4-two-colours.tws")), "no set has two or more distinct pieces that move");
}

// The 3x3x3 (4.3e19 states: no 64-bit key holds one, so the engines that keep keys refuse
// it up front): the first depths of the half-turn metric's table (Rokicki, Kociemba,
// Davidson, Dethridge, "The diameter of the Rubik's cube group is twenty", 2013: 1, 18, 243,
// 3240, 43239), and IDA* with pattern databases against the textbook BFS on short scrambles.
TEST(DefinitionSpaces, Cube3x3x3) {
  SolverConfig c;
  c.puzzle = "3x3x3.tws";
  c.engine = "naive";
  c.options.max_depth = 4;
  c.options.keep_table = false;
  EXPECT_EQ(make_solver(c)->explore().depth_counts, (std::vector<std::uint64_t>{1, 18, 243, 3240, 43239}));
  c.engine = "parallel";
  EXPECT_THROW(make_solver(c), InputError);
  // One edge swapped, one corner twisted, one edge flipped: no scramble reaches them (the
  // parity summed over corners and edges, the twist sum, the flip sum), and IDA* says so at
  // once instead of deepening for ever.
  const DefinitionPuzzle cube = *DefinitionPuzzle::from_name("3x3x3.tws");
  EXPECT_TRUE(cube.invariants().combined_even);
  for (const char* unreachable : {"EDGE 2 1 3 4 5 6 7 8 9 10 11 12", "CORNER 1 2 3 4 5 6 7 8 / 1 0 0 0 0 0 0 0",
                                  "EDGE 1 2 3 4 5 6 7 8 9 10 11 12 / 1 0 0 0 0 0 0 0 0 0 0 0"}) {
    EXPECT_FALSE(cube.same_component(cube.start(), cube.parse(unreachable))) << unreachable;
    SolverConfig ida;
    ida.puzzle = "3x3x3.tws";
    ida.engine = "idastar";
    ida.heuristic = "pdb";
    ida.heuristic_options["pdb-cache"] = "none";
    ida.heuristic_options["pattern"] = "CORNER.1,CORNER.2";
    EXPECT_EQ(make_solver(ida)->search(make_puzzle("3x3x3.tws")->read_state(unreachable, "--target")).distance, -1) << unreachable;
  }
  EXPECT_TRUE(cube.same_component(cube.start(), cube.parse("EDGE 2 1 3 4 5 6 7 8 9 10 11 12 CORNER 2 1 3 4 5 6 7 8")));
  const auto puzzle = make_puzzle("3x3x3.tws");
  for (const char* scramble : {"R U F' D2 L", "B2 D' L R2 F"}) {
    SolverConfig ida;
    ida.puzzle = "3x3x3.tws";
    ida.engine = "idastar";
    ida.heuristic = "pdb";
    ida.heuristic_options["pdb-cache"] = "none";
    ida.heuristic_options["pattern"] = "CORNER.1,CORNER.2,CORNER.3,CORNER.4/EDGE.1,EDGE.2,EDGE.3,EDGE.4";
    const std::string target = puzzle->read_state(scramble, "--target");
    SolverConfig naive = ida;
    naive.engine = "naive";
    naive.heuristic.clear();
    naive.heuristic_options.clear();
    const SearchResult expected = make_solver(naive)->search(target);
    for (const int threads : {1, 2}) {
      ida.options.threads = threads;
      const SearchResult r = make_solver(ida)->search(target);
      EXPECT_EQ(r.distance, 5) << scramble;
      EXPECT_EQ(r.path, expected.path) << scramble;
    }
  }
}
