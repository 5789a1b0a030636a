// Zero-filled memory straight from the kernel, for direct tables indexed by key.
//
// Untouched pages cost nothing until a search touches them, as with calloc. Where the
// caller knows the table will be touched all over (at least one key per 4 KiB page on
// average, so every page would become resident anyway), it asks for huge pages: the range is
// aligned to 2 MiB and marked MADV_HUGEPAGE, so the kernel maps it 2 MiB at a time. With 4 KiB
// pages a table is faulted in page by page, and a page first read before it is written
// faults twice (the shared zero page, then a copy on the write): on msquare-2x4's 2 MiB
// table that was most of the time of a whole judge run. A kernel that gives no huge pages
// (transparent huge pages off) still gives zeroed 4 KiB ones.
//
// Tables smaller than a huge page get one too from kSmallestHuge up: a huge page fault
// zeroes 2 MiB in one go, where a quarter of that in 4 KiB pages is 64 faults, and a fault
// costs microseconds (more in a virtual machine): msquare-2x5's 900 KB of two-bit cells took
// 2 ms to fault in, each run. The rest of the huge page is never used; where the kernel has
// none to give, the table is faulted in 4 KiB at a time as before.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace searchbench {

class ZeroedPages {
 public:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;
  static constexpr std::size_t kSmallestHuge = kHugePage / 8;

  ZeroedPages() = default;
  // `bytes` of zeros; empty (data() null) where the address space has no room for them.
  ZeroedPages(std::size_t bytes, bool touched_all_over) {
    if (bytes == 0) return;
    const bool huge = touched_all_over && bytes >= kSmallestHuge;
    // Room to start at a 2 MiB boundary and end at one: the advice covers whole huge pages.
    mapped_ = huge ? whole_huge_pages(bytes) + kHugePage : bytes;
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      mapped_ = 0;
      return;
    }
    base_ = static_cast<std::uint8_t*>(p);
    data_ = base_;
    if (huge) {
      const auto address = reinterpret_cast<std::uintptr_t>(base_);
      data_ = base_ + ((kHugePage - address % kHugePage) % kHugePage);
      // Advice only: where the kernel does not take it the pages stay small.
      madvise(data_, whole_huge_pages(bytes), MADV_HUGEPAGE);
    }
  }
  ZeroedPages(ZeroedPages&& other) noexcept
      : base_(std::exchange(other.base_, nullptr)), data_(std::exchange(other.data_, nullptr)), mapped_(std::exchange(other.mapped_, 0)) {}
  ZeroedPages& operator=(ZeroedPages&& other) noexcept {
    if (this != &other) {
      release();
      base_ = std::exchange(other.base_, nullptr);
      data_ = std::exchange(other.data_, nullptr);
      mapped_ = std::exchange(other.mapped_, 0);
    }
    return *this;
  }
  ZeroedPages(const ZeroedPages&) = delete;
  ZeroedPages& operator=(const ZeroedPages&) = delete;
  ~ZeroedPages() { release(); }

  std::uint8_t* data() const { return data_; }
  explicit operator bool() const { return data_ != nullptr; }

 private:
  static std::size_t whole_huge_pages(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
  void release() {
    if (base_) munmap(base_, mapped_);
    base_ = data_ = nullptr;
    mapped_ = 0;
  }
  std::uint8_t* base_ = nullptr;  // the mapping
  std::uint8_t* data_ = nullptr;  // where the zeros start (2 MiB aligned for huge pages)
  std::size_t mapped_ = 0;
};

}  // namespace searchbench
