// Command-line driver for lightln2/PuzzleSearch's CPU-only puzzles and algorithms, written for searchbench's side-by-side runs (not part of PuzzleSearch).
#include "../src/Common/InMemoryBFS.h"
#include "../src/Common/DiskBasedBFS.h"
#include "../src/Puzzles/SlidingTilePuzzleSimple.h"
#include "../src/Puzzles/PancakeSimple.h"
#include "../src/Puzzles/PancakeOptimized.h"
#include "../src/Puzzles/FourPegHanoiSimple.h"
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <thread>

static void usage() {
    std::cerr <<
      "usage: peer_bfs --puzzle tile W H | pancake N | pancake-opt N [--inv] | hanoi4 DISKS\n"
      "  --algo mem-classic|mem-2bit|mem-3bit|mem-frontier|classic|2bit|3bit|frontier|optfrontier|opt3bit|opt3bit2\n"
      "  [--threads T] [--segbits B] [--dir D1,D2,...] [--files-per-path K] [--max-steps M] [--init \"state\"]\n";
    exit(2);
}

int main(int argc, char** argv) {
    std::unique_ptr<Puzzle> puzzle;
    std::string algo = "optfrontier", init, dirs = "/tmp/peer/work";
    PuzzleOptions opts;
    opts.threads = (int)std::thread::hardware_concurrency();
    opts.storeOptions.filesPerPath = 1;
    bool inv = false;
    std::string kind; int a = 0, b = 0;
    for (int i = 1; i < argc; i++) {
        std::string s = argv[i];
        auto next = [&]() -> std::string { if (i + 1 >= argc) usage(); return argv[++i]; };
        if (s == "--puzzle") {
            kind = next();
            if (kind == "tile") { a = std::stoi(next()); b = std::stoi(next()); }
            else { a = std::stoi(next()); }
        }
        else if (s == "--inv") inv = true;
        else if (s == "--algo") algo = next();
        else if (s == "--threads") opts.threads = std::stoi(next());
        else if (s == "--segbits") opts.segmentBits = std::stoi(next());
        else if (s == "--dir") dirs = next();
        else if (s == "--files-per-path") opts.storeOptions.filesPerPath = std::stoi(next());
        else if (s == "--max-steps") opts.maxSteps = std::stoul(next());
        else if (s == "--init") init = next();
        else usage();
    }
    if (kind == "tile") puzzle = std::make_unique<SlidingTilePuzzleSimple>(a, b);
    else if (kind == "pancake") puzzle = std::make_unique<PancakeSimple>(a);
    else if (kind == "pancake-opt") puzzle = std::make_unique<PancakeOptimized>(a, inv);
    else if (kind == "hanoi4") puzzle = std::make_unique<FourPegHanoiSimple>(a, inv);
    else usage();

    opts.storeOptions.directories.clear();
    { std::stringstream ss(dirs); std::string d; while (std::getline(ss, d, ',')) opts.storeOptions.directories.push_back(d); }

    if (init.empty()) init = puzzle->ToString(0);
    std::cerr << "peer_bfs: " << puzzle->Name() << "; algo=" << algo << "; threads=" << opts.threads
              << "; segbits=" << opts.segmentBits << "; dirs=" << dirs << "; init=\"" << init << "\"" << std::endl;

    if (algo == "mem-frontier" && puzzle->HasOddLengthCycles()) {
        std::cerr << "mem-frontier (InMemoryFrontierSearch) does not terminate on puzzles with odd-length cycles (e.g. pancakes); use frontier/optfrontier/classic/...\n";
        return 3;
    }
    Timer timer;
    std::vector<uint64_t> r;
    Puzzle& p = *puzzle;
    if (algo == "mem-classic") r = InMemoryClassicBFS(p, init);
    else if (algo == "mem-2bit") r = InMemoryTwoBitBFS(p, init);
    else if (algo == "mem-3bit") r = InMemoryThreeBitBFS(p, init);
    else if (algo == "mem-frontier") r = InMemoryFrontierSearch(p, init);
    else if (algo == "classic") r = DiskBasedClassicBFS(p, init, opts);
    else if (algo == "2bit") r = DiskBasedTwoBitBFS(p, init, opts);
    else if (algo == "3bit") r = DiskBasedThreeBitBFS(p, init, opts);
    else if (algo == "frontier") r = DiskBasedFrontierSearch(p, init, opts);
    else if (algo == "optfrontier") r = DiskBasedOptFrontierSearch(p, init, opts);
    else if (algo == "opt3bit") r = DiskBasedOptThreeBitBFS(p, init, opts);
    else if (algo == "opt3bit2") r = DiskBasedOptThreeBitBFS2(p, init, opts);
    else usage();
    auto nanos = timer.Elapsed();

    uint64_t total = 0;
    for (auto x : r) total += x;
    std::ostringstream os;
    for (size_t i = 0; i < r.size(); i++) os << (i ? " " : "") << r[i];
    printf("PEER_RESULT puzzle=\"%s\" algo=%s threads=%d radius=%zu total=%llu seconds=%.3f\n",
           p.Name().c_str(), algo.c_str(), opts.threads, r.size() - 1, (unsigned long long)total, nanos / 1e9);
    printf("PEER_COUNTS %s\n", os.str().c_str());
    fflush(stdout);
    puzzle.release(); // Puzzle has no virtual destructor: do not delete through the base pointer
    return 0;
}
