// Yardstick: the classic single-file Sicily 1151 solution at its fastest. The board's 8 cells
// (row order: top row, then bottom row) are packed 3 bits each, value-1, into a 24-bit int;
// the moves A, B and C are a few shifts and masks on that int. One BFS from the fixed start
// (1 2 3 4 / 8 7 6 5) fills a direct 2^24-byte table with the move that first reached each
// board (moves tried in the order A, B, C, so the walk back gives the lexicographically
// smallest shortest path); each case then walks back from its target with the inverse moves.
// I/O: fread into a buffer with a hand-rolled integer reader, output through one fwrite
// buffer. Used only to measure `searchbench judge sicily1151` against
// (scripts/judge_speed.py); not part of the library.
#include <cstdio>

// Cell i (0..3 top row, 4..7 bottom row, left to right) sits at bits 3i..3i+2.
static inline unsigned move_a(unsigned x) { return (x >> 12) | ((x & 0xFFFu) << 12); }
static inline unsigned move_b(unsigned x) { return ((x << 3) & 0xFF8FF8u) | ((x >> 9) & 0x007007u); }
static inline unsigned move_c(unsigned x) {  // cells 1 <- 5, 2 <- 1, 6 <- 2, 5 <- 6
  return (x & 0xE07E07u) | ((x >> 12) & 0x38u) | ((x << 3) & 0x1C0u) | ((x << 12) & 0x1C0000u) |
         ((x >> 3) & 0x38000u);
}
static inline unsigned undo_b(unsigned x) { return ((x >> 3) & 0x1FF1FFu) | ((x << 9) & 0xE00E00u); }
static inline unsigned undo_c(unsigned x) {  // cells 1 <- 2, 2 <- 6, 6 <- 5, 5 <- 1
  return (x & 0xE07E07u) | ((x >> 3) & 0x38u) | ((x >> 12) & 0x1C0u) | ((x << 3) & 0x1C0000u) |
         ((x << 12) & 0x38000u);
}

static unsigned char how[1u << 24];  // 0 unseen, 1..3 the move (A..C) that reached it, 4 the start
static unsigned queue[40320];

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
static bool read_int(int& out) {
  int c = next_char();
  while (c != -1 && c != '-' && (c < '0' || c > '9')) c = next_char();
  if (c == -1) return false;
  bool negative = c == '-';
  if (negative) c = next_char();
  int v = 0;
  while (c >= '0' && c <= '9') v = v * 10 + (c - '0'), c = next_char();
  out = negative ? -v : v;
  return true;
}

static char out_buf[1 << 16];
static int out_len = 0;
static inline void flush_out() { std::fwrite(out_buf, 1, static_cast<size_t>(out_len), stdout), out_len = 0; }

int main() {
  const int start_cells[8] = {1, 2, 3, 4, 8, 7, 6, 5};
  unsigned start = 0;
  for (int i = 0; i < 8; ++i) start |= static_cast<unsigned>(start_cells[i] - 1) << (3 * i);
  how[start] = 4;
  int head = 0, tail = 0;
  queue[tail++] = start;
  while (head < tail) {
    const unsigned cur = queue[head++];
    const unsigned a = move_a(cur), b = move_b(cur), c = move_c(cur);
    if (!how[a]) how[a] = 1, queue[tail++] = a;
    if (!how[b]) how[b] = 2, queue[tail++] = b;
    if (!how[c]) how[c] = 3, queue[tail++] = c;
  }
  int limit;
  while (read_int(limit) && limit != -1) {
    unsigned key = 0;
    for (int i = 0; i < 8; ++i) {
      int v = 0;
      read_int(v);
      key |= static_cast<unsigned>(v - 1) << (3 * i);
    }
    key &= 0xFFFFFFu;
    if (out_len > static_cast<int>(sizeof out_buf) - 64) flush_out();
    char back[32];
    int len = 0;
    bool reached = how[key] != 0;
    while (reached && how[key] != 4) {
      const int m = how[key];
      back[len++] = static_cast<char>('A' + m - 1);
      key = m == 1 ? move_a(key) : m == 2 ? undo_b(key) : undo_c(key);
    }
    if (!reached || len > limit) {
      out_buf[out_len++] = '-', out_buf[out_len++] = '1', out_buf[out_len++] = '\n';
      continue;
    }
    if (len >= 10) out_buf[out_len++] = static_cast<char>('0' + len / 10);
    out_buf[out_len++] = static_cast<char>('0' + len % 10);
    out_buf[out_len++] = ' ';
    while (len > 0) out_buf[out_len++] = back[--len];
    out_buf[out_len++] = '\n';
  }
  flush_out();
}
