// Yardstick: the classic single-file Sicily 1151 solution, as commonly written. One BFS
// from the start over Cantor ranks with a ring-buffer queue and a parent table, then each
// case walks back from its target. cin/cout I/O. Used only to measure `searchbench judge
// sicily1151` against (scripts/judge_speed.py); not part of the library.
#include <algorithm>
#include <iostream>
#include <string>

static int fact[9] = {1, 1, 2, 6, 24, 120, 720, 5040, 40320};
static int parent[40320];
static char how[40320];
static bool seen[40320];
static int ring[40320];

static int rank_of(const int* a) {
  int r = 0;
  for (int i = 0; i < 8; ++i) {
    int smaller = 0;
    for (int j = i + 1; j < 8; ++j) smaller += a[j] < a[i];
    r += smaller * fact[7 - i];
  }
  return r;
}
static void unrank(int r, int* a) {
  bool used[9] = {};
  for (int i = 0; i < 8; ++i) {
    int d = r / fact[7 - i];
    r %= fact[7 - i];
    for (int v = 1; v <= 8; ++v)
      if (!used[v] && d-- == 0) {
        a[i] = v;
        used[v] = true;
        break;
      }
  }
}
static void move(const int* a, int m, int* b) {  // row order: a[0..3] top, a[4..7] bottom
  if (m == 0) { for (int i = 0; i < 4; ++i) b[i] = a[i + 4], b[i + 4] = a[i]; }
  else if (m == 1) { for (int i = 0; i < 4; ++i) b[i] = a[(i + 3) % 4], b[i + 4] = a[4 + (i + 3) % 4]; }
  else { std::copy(a, a + 8, b); b[1] = a[5]; b[2] = a[1]; b[6] = a[2]; b[5] = a[6]; }
}

int main() {
  std::ios::sync_with_stdio(false);
  const int start[8] = {1, 2, 3, 4, 8, 7, 6, 5};
  int s = rank_of(start), head = 0, tail = 0;
  seen[s] = true;
  parent[s] = -1;
  ring[tail++] = s;
  while (head < tail) {
    int cur = ring[head++], a[8], b[8];
    unrank(cur, a);
    for (int m = 0; m < 3; ++m) {
      move(a, m, b);
      int r = rank_of(b);
      if (!seen[r]) seen[r] = true, parent[r] = cur, how[r] = static_cast<char>('A' + m), ring[tail++] = r;
    }
  }
  int n;
  while (std::cin >> n && n != -1) {
    int a[8];
    for (int& x : a) std::cin >> x;
    std::string path;
    for (int r = rank_of(a); parent[r] != -1; r = parent[r]) path += how[r];
    std::reverse(path.begin(), path.end());
    if (static_cast<int>(path.size()) > n) std::cout << "-1\n";
    else std::cout << path.size() << ' ' << path << '\n';
  }
}
