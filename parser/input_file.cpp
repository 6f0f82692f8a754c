//===- input_file.cpp -----------------------------------------------------===//
#include "parser/input_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace pir::parser {

InputFile::~InputFile() {
  if (map_) munmap(map_, mapSize_);
}

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

void InputFile::releaseResidentPages() {
  if (map_) madvise(map_, mapSize_, MADV_DONTNEED);
}

void InputFile::releaseResidentPages(size_t begin, size_t end) {
  constexpr size_t kPage = 4096;
  begin = (begin + kPage - 1) & ~(kPage - 1);
  end = std::min(end, mapSize_) & ~(kPage - 1);
  if (map_ && begin < end) madvise(static_cast<char*>(map_) + begin, end - begin, MADV_DONTNEED);
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
