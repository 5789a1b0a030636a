// Published per-depth counts (USACO "Magic Squares", Sicily 1515) that every correct
// search must reproduce.
#pragma once

#include <cstdint>
#include <vector>

namespace searchbench::facts {

inline const std::vector<std::uint64_t> kMsquare2x4Depths = {1,    3,    7,    14,   26,   51,   92,   159,
                                                            274,  453,  720,  1115, 1727, 2603, 3701, 4729,
                                                            5620, 6240, 5840, 4492, 2120, 328,  5};
inline const std::vector<std::uint64_t> kSicily1515Depths = {1,    3,    6,    13,   26,   49,   93,   171,
                                                             305,  529,  892,  1412, 2130, 3048, 4159, 5295,
                                                             6185, 6408, 5515, 3108, 888,  83,   1};

}  // namespace searchbench::facts
