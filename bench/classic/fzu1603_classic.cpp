// Yardstick: the classic FZU 1603 solution, as commonly written. Per case, a breadth-first
// search from A over the maskhole encoding (hole position x 2^(N-1) piece bits) with a
// direct distance table, until B is reached. Used only to measure `searchbench judge
// fzu1603` against (scripts/judge_speed.py); not part of the library.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

static int encode(const std::string& s) {
  int n = static_cast<int>(s.size()), hole = static_cast<int>(s.find('&')), mask = 0;
  for (int i = n - 1; i >= 0; --i)
    if (i != hole) mask = (mask << 1) | (s[i] == '@');
  return (hole << (n - 1)) | mask;
}

int main() {
  std::ios::sync_with_stdio(false);
  int t;
  std::cin >> t;
  std::vector<int> dist, queue;
  while (t--) {
    std::string a, b;
    std::cin >> a >> b;
    const int n = static_cast<int>(a.size());
    dist.assign(static_cast<std::size_t>(n) << (n - 1), -1);
    queue.assign(dist.size(), 0);
    const int target = encode(b);
    int head = 0, tail = 0, answer = -1;
    dist[encode(a)] = 0;
    queue[tail++] = encode(a);
    while (head < tail && answer < 0) {
      const int key = queue[head++];
      if (key == target) { answer = dist[key]; break; }
      const int hole = key >> (n - 1), mask = key & ((1 << (n - 1)) - 1);
      std::string s(n, '#');
      for (int i = 0, bit = 0; i < n; ++i) s[i] = i == hole ? '&' : ((mask >> bit++) & 1) ? '@' : '#';
      for (int d : {-2, -1, 1, 2}) {
        const int j = hole + d;
        if (j < 0 || j >= n) continue;
        std::swap(s[hole], s[j]);
        const int next = encode(s);
        if (dist[next] < 0) dist[next] = dist[key] + 1, queue[tail++] = next;
        std::swap(s[hole], s[j]);
      }
    }
    std::cout << answer << '\n';
  }
}
