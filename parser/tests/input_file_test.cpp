//===- input_file_test.cpp - a mapped input, read ahead and dropped -------===//
//
// InputFile::readAhead maps a file's pages in on a thread ahead of a reader
// going front to back, and drops what the reader is done with. The text
// read must be the file's, byte for byte, however the two threads meet;
// the reader must take no page faults on what was mapped ahead.
//
//===----------------------------------------------------------------------===//
#include <sys/resource.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "parser/input_file.h"

using pir::parser::InputFile;

namespace {

/// A file of `bytes` whose every 8-byte word says where it is.
/// In /dev/shm where there is one: tmpfs maps a file in 4 KiB pages, where
/// a disk's file system may map big folios at one fault each.
struct TempFile {
  std::string path;
  explicit TempFile(size_t bytes) {
    std::string pattern =
        access("/dev/shm", W_OK) == 0 ? "/dev/shm/pir-input-file-XXXXXX" : "/tmp/pir-input-file-XXXXXX";
    int fd = mkstemp(pattern.data());
    const char* name = pattern.c_str();
    REQUIRE(fd >= 0);
    path = name;
    std::string data(bytes, '\0');
    for (size_t at = 0; at + 8 <= bytes; at += 8) std::snprintf(&data[at], 9, "%07zx\n", at / 8 % 0xfffffff);
    REQUIRE(write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size()));
    close(fd);
  }
  ~TempFile() { std::remove(path.c_str()); }
};

/// FNV-1a of text[from, to), going on from `h` (a checksum of the bytes before).
constexpr uint64_t kChecksumStart = 1469598103934665603ull;
uint64_t checksum(std::string_view text, size_t from, size_t to, uint64_t h = kChecksumStart) {
  for (size_t i = from; i < to; ++i) h = (h ^ static_cast<unsigned char>(text[i])) * 1099511628211ull;
  return h;
}

long faultsOfThisThread() {
  rusage u{};
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_minflt + u.ru_majflt;
}

/// Reads `file` once through a plain InputFile, faulting as it goes: the
/// text's checksum, and the faults it took. Fewer than 64 for the whole
/// file means the kernel maps it in big folios, and a test cannot tell
/// mapped-ahead pages from faulted ones. A sanitizer's shadow pages can add
/// to a first read's faults, so the count is capped at one a 64 KiB (the
/// 16 pages the kernel maps around a fault of a tmpfs file).
struct Unaided {
  uint64_t sum = 0;
  long faults = 0;
  bool telling() const { return faults >= 64; }
};
Unaided readUnaided(const TempFile& file, size_t bytes) {
  InputFile plain;
  REQUIRE(plain.open(file.path));
  long before = faultsOfThisThread();
  Unaided u;
  u.sum = checksum(plain.text(), 0, bytes);
  u.faults = std::min<long>(faultsOfThisThread() - before, static_cast<long>(bytes >> 16));
  if (!u.telling()) WARN("the kernel maps this file in " << u.faults << " faults: too few to tell mapped pages");
  return u;
}

}  // namespace

TEST_CASE("a file read ahead reads as the file, with its pages dropped behind the reader", "[parser][input][tsan]") {
  constexpr size_t kBytes = size_t{40} << 20;  // past the helper's window, so it has to follow the reader
  TempFile file(kBytes);
  InputFile plain;
  REQUIRE(plain.open(file.path));
  uint64_t expected = checksum(plain.text(), 0, kBytes);

  // Steps of every size against the helper's: within a page, across pages,
  // across its whole window.
  for (size_t step : {size_t{1000}, size_t{1} << 20, size_t{20} << 20}) {
    InputFile input;
    REQUIRE(input.open(file.path));
    input.readAhead();
    uint64_t h = kChecksumStart;
    for (size_t at = 0; at < kBytes; at += step) {
      size_t to = std::min(kBytes, at + step);
      h = checksum(input.text(), at, to, h);
      input.releaseResidentPages(at, to);
    }
    CHECK(h == expected);
    // Dropped pages map back in from the file: a diagnostic may quote a line long passed.
    CHECK(checksum(input.text(), 4096, 3 * 4096) == checksum(plain.text(), 4096, 3 * 4096));
    input.releaseResidentPages();
    CHECK(checksum(input.text(), 0, kBytes) == expected);
  }

  // Stopped at once, with the helper mid-step.
  for (int i = 0; i < 20; ++i) {
    InputFile input;
    REQUIRE(input.open(file.path));
    input.readAhead();
    input.releaseResidentPages(0, size_t{1} << 20);
  }
}

TEST_CASE("the reader takes no page faults on what was read ahead", "[parser][input]") {
  constexpr size_t kBytes = size_t{16} << 20;  // within the helper's window: it maps all of it
  TempFile file(kBytes);
  Unaided unaided = readUnaided(file, kBytes);
  if (!unaided.telling()) return;
  InputFile input;
  REQUIRE(input.open(file.path));
  input.readAhead();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (input.mappedAhead() < kBytes && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (input.mappedAhead() < kBytes) {
    WARN("the kernel maps nothing ahead (no MADV_POPULATE_READ): nothing to check");
    return;
  }
  long before = faultsOfThisThread();
  CHECK(checksum(input.text(), 0, kBytes) == unaided.sum);
  long taken = faultsOfThisThread() - before;
  CHECK(taken < unaided.faults / 8);

  // The helper drops what the reader is done with: a page touched again
  // faults once the drop is made (it is made on the helper's time).
  input.releaseResidentPages(0, kBytes);
  auto faultsToTouch = [&](size_t at) {
    long b = faultsOfThisThread();
    volatile char c = input.text()[at];
    (void)c;
    return faultsOfThisThread() - b;
  };
  bool dropped = false;
  while (!dropped && std::chrono::steady_clock::now() < deadline) {
    dropped = faultsToTouch(kBytes - 1) > 0;
    if (!dropped) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  CHECK(dropped);
  CHECK(faultsToTouch(0) > 0);
  CHECK(faultsToTouch(kBytes / 2) > 0);
  input.releaseResidentPages();
  before = faultsOfThisThread();
  CHECK(checksum(input.text(), 0, kBytes) == unaided.sum);
  CHECK(faultsOfThisThread() - before >= unaided.faults / 2);  // dropped: faulted back in
}

TEST_CASE("text mapped in at once reads without page faults", "[parser][input]") {
  constexpr size_t kBytes = size_t{8} << 20;
  TempFile file(kBytes);
  Unaided unaided = readUnaided(file, kBytes);
  if (!unaided.telling()) return;
  InputFile input;
  REQUIRE(input.open(file.path));
  input.mapIn(kBytes / 2 + 100, kBytes + 4096);  // unaligned, and past the end
  input.mapIn(100, kBytes / 2 + 100);
  long before = faultsOfThisThread();
  CHECK(checksum(input.text(), 0, kBytes) == unaided.sum);
  CHECK(faultsOfThisThread() - before < unaided.faults / 8);
}
