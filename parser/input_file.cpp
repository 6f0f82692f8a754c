//===- input_file.cpp -----------------------------------------------------===//
#include "parser/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/threads.h"

namespace pir::parser {

namespace {
constexpr size_t kPage = 4096;
}

// Mapping a page of a file in costs a fault for every 16 pages the kernel
// maps around it, and dropping it again an madvise: for a 534 MB program a
// fifth of a one-thread parse, all on the reader's thread. This helper does
// both on another core: it maps in (MADV_POPULATE_READ, Linux 5.14) up to
// kAhead past where the reader last said it was, a step at a time, and
// drops what the reader is done with. Where the kernel has no such madvise
// it only drops, and the reader faults as before.
class InputFile::ReadAhead {
 public:
  static constexpr size_t kAhead = size_t{32} << 20;
  static constexpr size_t kStep = size_t{4} << 20;

  ReadAhead(char* map, size_t size) : map_(map), size_(size) {
    worker_ = core::startHelperThread([this] { run(); });
  }

  ~ReadAhead() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_one();
    if (worker_.joinable()) worker_.join();
    for (auto [from, to] : drops_) drop(from, to);  // what the helper did not get to
  }

  bool running() const { return worker_.joinable(); }

  size_t populated() {
    std::lock_guard<std::mutex> lock(mutex_);
    return populatedTo_;
  }

  /// The reader is done with the page-aligned [from, to).
  void doneWith(size_t from, size_t to) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      drops_.push_back({from, to});
      readTo_ = std::max(readTo_, to);
    }
    wake_.notify_one();
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return stopping_ || !drops_.empty() || (populating_ && mappedTo_ < target()); });
      if (stopping_) return;
      if (!drops_.empty()) {
        std::vector<std::pair<size_t, size_t>> drops;
        drops.swap(drops_);
        lock.unlock();
        for (auto [from, to] : drops) drop(from, to);
        lock.lock();
        continue;
      }
      // Never behind the reader: what it passed may be dropped already.
      size_t from = std::max(mappedTo_, readTo_ & ~(kPage - 1));
      size_t to = std::min(target(), from + kStep);
      mappedTo_ = to;
      if (from >= to) continue;
      lock.unlock();
      bool mapped = madvise(map_ + from, to - from, MADV_POPULATE_READ) == 0;
      bool unknown = !mapped && errno == EINVAL;  // older kernels; on other failures the reader faults
      lock.lock();
      if (unknown) populating_ = false;
      if (mapped && from == populatedTo_) populatedTo_ = to;
    }
  }

  size_t target() const { return std::min(size_, readTo_ + kAhead); }
  void drop(size_t from, size_t to) { madvise(map_ + from, to - from, MADV_DONTNEED); }

  char* const map_;
  const size_t size_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::pair<size_t, size_t>> drops_;  // page-aligned, in the order told
  size_t readTo_ = 0;                             // the furthest end the reader was done with
  size_t mappedTo_ = 0;                           // mapped in up to here (or the reader is past it)
  size_t populatedTo_ = 0;                        // mapped in from the start, without a gap
  bool populating_ = true;
  bool stopping_ = false;
  std::thread worker_;  // last: starts after the fields it reads
};

InputFile::InputFile() = default;

InputFile::~InputFile() {
  stopReadingAhead();
  if (map_) munmap(map_, mapSize_);
}

void InputFile::readAhead() {
  if (!map_ || ahead_) return;
  ahead_ = std::make_unique<ReadAhead>(static_cast<char*>(map_), mapSize_);
  if (!ahead_->running()) ahead_.reset();
}

void InputFile::stopReadingAhead() { ahead_.reset(); }

size_t InputFile::mappedAhead() const { return ahead_ ? ahead_->populated() : 0; }

core::Status InputFile::open(const std::string& path) {
  int fd = path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return core::Status::error("cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    if (fd != STDIN_FILENO) ::close(fd);
    return core::Status::error("cannot read '" + path + "': it is a directory");
  }
  if (fd != STDIN_FILENO && S_ISREG(st.st_mode) && st.st_size > 0) {
    // The pages are shared with the page cache, never copied. They are
    // mapped as the reader gets to them (read ahead: WILLNEED), and it
    // drops them again behind itself (releaseResidentPages), so a big
    // input is never resident whole next to the IR made of it.
    void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (p != MAP_FAILED) {
      madvise(p, static_cast<size_t>(st.st_size), MADV_WILLNEED);
      ::close(fd);
      map_ = p;
      mapSize_ = static_cast<size_t>(st.st_size);
      text_ = std::string_view(static_cast<const char*>(p), mapSize_);
      return core::Status::ok();
    }
  }
  char chunk[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string err = std::strerror(errno);
      if (fd != STDIN_FILENO) ::close(fd);
      return core::Status::error("cannot read '" + path + "': " + err);
    }
    buffer_.append(chunk, static_cast<size_t>(n));
    // No program holds a NUL byte: the reader reports the first one, so an
    // endless stream of them (/dev/zero) need not be read to its end.
    if (std::memchr(chunk, 0, static_cast<size_t>(n))) break;
  }
  if (fd != STDIN_FILENO) ::close(fd);
  text_ = buffer_;
  return core::Status::ok();
}

void InputFile::mapIn(size_t begin, size_t end) {
  begin &= ~(kPage - 1);
  end = std::min(end, mapSize_);
  if (map_ && begin < end) madvise(static_cast<char*>(map_) + begin, end - begin, MADV_POPULATE_READ);
}

void InputFile::releaseResidentPages() {
  stopReadingAhead();
  if (map_) madvise(map_, mapSize_, MADV_DONTNEED);
}

void InputFile::releaseResidentPages(size_t begin, size_t end) {
  begin = (begin + kPage - 1) & ~(kPage - 1);
  end = std::min(end, mapSize_) & ~(kPage - 1);
  if (!map_ || begin >= end) return;
  if (ahead_)
    ahead_->doneWith(begin, end);
  else
    madvise(static_cast<char*>(map_) + begin, end - begin, MADV_DONTNEED);
}

std::vector<TextChunk> splitInputChunks(std::string_view text) {
  std::vector<TextChunk> chunks;
  size_t begin = 0;
  for (size_t line = 0; line < text.size();) {
    size_t first = text.find_first_not_of(" \t\r\v\f", line);
    if (first != std::string_view::npos && line > 0 && text.compare(first, 8, "// -----") == 0) {
      chunks.push_back({begin, line});
      begin = line;
    }
    size_t nl = text.find('\n', line);
    line = nl == std::string_view::npos ? text.size() : nl + 1;
  }
  chunks.push_back({begin, text.size()});
  return chunks;
}

}  // namespace pir::parser
