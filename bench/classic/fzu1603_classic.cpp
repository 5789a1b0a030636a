// Yardstick: the classic single-file FZU 1603 solution at its fastest. A line of n cells is
// packed into bits: the hole's position times 2^(n-1), plus one bit per piece ('@' = 1) in
// line order with the hole left out, so every board has a slot in a direct table of
// n * 2^(n-1) bytes. On these keys a step of the hole (1 cell) only changes the hole's
// position and a jump (2 cells) also swaps two neighbouring piece bits: a few bit operations,
// no decoding. Per case: 0 when A = B, -1 when the piece counts differ (then B is
// unreachable), else a bidirectional breadth-first search that grows the smaller frontier
// one whole level at a time and stops at the first board the other side has seen; the
// table holds which side saw a board and is cleared afterwards through the two queues.
// I/O: fread into a buffer with a hand-rolled reader, output through one fwrite buffer.
// Used only to measure `searchbench judge fzu1603` against (scripts/judge_speed.py); not
// part of the library.
#include <cstdio>

static const int kMaxCells = 20;
static unsigned char side[static_cast<unsigned>(kMaxCells) << (kMaxCells - 1)];  // bit 1: from A, bit 2: from B
static unsigned queue_a[static_cast<unsigned>(kMaxCells) << (kMaxCells - 1)];
static unsigned queue_b[static_cast<unsigned>(kMaxCells) << (kMaxCells - 1)];

static char in_buf[1 << 16];
static int in_len = 0, in_pos = 0;
static inline int next_char() {
  if (in_pos == in_len) {
    in_len = static_cast<int>(std::fread(in_buf, 1, sizeof in_buf, stdin));
    in_pos = 0;
    if (in_len <= 0) return in_len = 0, -1;
  }
  return in_buf[in_pos++];
}
static inline bool is_space(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
static int read_word(char* s, int cap) {  // the next whitespace-separated word, its length (0 at the end)
  int c = next_char(), n = 0;
  while (c != -1 && is_space(c)) c = next_char();
  while (c != -1 && !is_space(c)) {
    if (n < cap) s[n++] = static_cast<char>(c);
    c = next_char();
  }
  return n;
}

static unsigned encode(const char* s, int n) {
  unsigned mask = 0;
  int hole = 0, bit = 0;
  for (int i = 0; i < n; ++i)
    if (s[i] == '&') hole = i;
    else mask |= static_cast<unsigned>(s[i] == '@') << bit++;
  return (static_cast<unsigned>(hole) << (n - 1)) | mask;
}

// Grows one side by a whole level: every board one move past queue[head, tail) that this
// side has not seen. Returns true as soon as a new board is one the other side has seen.
static bool grow(unsigned* queue, int& head, int& tail, unsigned char mine, int n) {
  const int shift = n - 1;
  const unsigned low = (1u << shift) - 1;
  const unsigned char theirs = static_cast<unsigned char>(3 - mine);
  for (const int end = tail; head < end; ++head) {
    const unsigned key = queue[head], mask = key & low;
    const int hole = static_cast<int>(key >> shift);
    unsigned next[4];
    int count = 0;
    if (hole >= 2) {  // a: the piece two left jumps into the hole: piece bits hole-2, hole-1 swap
      const unsigned diff = ((mask >> (hole - 2)) ^ (mask >> (hole - 1))) & 1u;
      next[count++] = (static_cast<unsigned>(hole - 2) << shift) | (mask ^ (diff * (3u << (hole - 2))));
    }
    if (hole >= 1) next[count++] = (static_cast<unsigned>(hole - 1) << shift) | mask;  // b
    if (hole + 1 < n) next[count++] = (static_cast<unsigned>(hole + 1) << shift) | mask;  // c
    if (hole + 2 < n) {  // d: the piece two right jumps into the hole: piece bits hole, hole+1 swap
      const unsigned diff = ((mask >> hole) ^ (mask >> (hole + 1))) & 1u;
      next[count++] = (static_cast<unsigned>(hole + 2) << shift) | (mask ^ (diff * (3u << hole)));
    }
    for (int i = 0; i < count; ++i) {
      const unsigned char seen = side[next[i]];
      if (seen & theirs) return true;
      if (!seen) side[next[i]] = mine, queue[tail++] = next[i];
    }
  }
  return false;
}

static int solve(const char* a, const char* b, int n) {
  int pieces_a = 0, pieces_b = 0;
  for (int i = 0; i < n; ++i) pieces_a += a[i] == '@', pieces_b += b[i] == '@';
  if (pieces_a != pieces_b) return -1;
  const unsigned from = encode(a, n), to = encode(b, n);
  if (from == to) return 0;
  int head_a = 0, tail_a = 0, head_b = 0, tail_b = 0, depth_a = 0, depth_b = 0, answer = -1;
  side[from] = 1, queue_a[tail_a++] = from;
  side[to] = 2, queue_b[tail_b++] = to;
  while (head_a < tail_a && head_b < tail_b) {
    if (tail_a - head_a <= tail_b - head_b) {
      if (grow(queue_a, head_a, tail_a, 1, n)) { answer = depth_a + depth_b + 1; break; }
      ++depth_a;
    } else {
      if (grow(queue_b, head_b, tail_b, 2, n)) { answer = depth_a + depth_b + 1; break; }
      ++depth_b;
    }
  }
  for (int i = 0; i < tail_a; ++i) side[queue_a[i]] = 0;
  for (int i = 0; i < tail_b; ++i) side[queue_b[i]] = 0;
  return answer;
}

int main() {
  char word[32], a[kMaxCells + 1], b[kMaxCells + 1];
  int t = 0;
  for (int n = read_word(word, 31), i = 0; i < n; ++i) t = t * 10 + (word[i] - '0');
  static char out_buf[1 << 12];
  int out_len = 0;
  while (t-- > 0) {
    const int n = read_word(a, kMaxCells);
    if (read_word(b, kMaxCells) != n || n == 0) break;
    const int answer = solve(a, b, n);
    out_len += std::snprintf(out_buf + out_len, sizeof out_buf - static_cast<unsigned>(out_len), "%d\n", answer);
    if (out_len > static_cast<int>(sizeof out_buf) - 16) std::fwrite(out_buf, 1, static_cast<size_t>(out_len), stdout), out_len = 0;
  }
  std::fwrite(out_buf, 1, static_cast<size_t>(out_len), stdout);
}
