//===- input_file.h - reading a program's text without copying it -*- C++ -*-===//
//
// A regular file is memory-mapped (a multi-gigabyte dump is never held
// twice); stdin and other streams are read into a buffer.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace pir::parser {

class InputFile {
 public:
  InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  /// Opens `path`, or stdin when `path` is "-".
  core::Status open(const std::string& path);
  std::string_view text() const { return text_; }
  /// Once the text is parsed the IR holds none of it: drops a mapped file's
  /// pages from this process (they stay in the page cache, and text() stays
  /// valid: a diagnostic quoting a source line maps its page back in).
  void releaseResidentPages();
  /// The same for the bytes [begin, end) of the text (the whole pages in it).
  /// After readAhead(), its thread drops them, and the caller goes on at once.
  void releaseResidentPages(size_t begin, size_t end);
  /// Maps the pages of bytes [begin, end) of a mapped file in at once, as
  /// a reader about to read them would fault them in, at a fraction of the
  /// cost (the kernel maps 16 pages a fault; MADV_POPULATE_READ, Linux 5.14).
  void mapIn(size_t begin, size_t end);
  /// For a reader that goes through the text once, front to back, telling
  /// releaseResidentPages how far it got: a thread maps the pages in ahead
  /// of it and drops them behind it, so that the reader takes no page faults
  /// on the text. For a core the reader leaves idle; does nothing for
  /// text that is not a mapped file.
  void readAhead();
  /// How far from the start the text is mapped in by that thread: 0 with
  /// none, or where the kernel cannot (for tests).
  size_t mappedAhead() const;

 private:
  class ReadAhead;
  void stopReadingAhead();

  std::unique_ptr<ReadAhead> ahead_;
  void* map_ = nullptr;
  size_t mapSize_ = 0;
  std::string buffer_;
  std::string_view text_;
};

/// A `--split-input-file` chunk: the bytes [begin, end) of the input, from
/// a `// -----` line (or the start) to the next such line (or the end).
struct TextChunk {
  size_t begin = 0, end = 0;
};

/// Cuts `text` at each line that starts (after blanks) with `// -----`, as
/// the lexer sees a split marker; a chunk keeps its marker line. Text with
/// no marker is one chunk. A UTF-8 byte-order mark stays in the first chunk.
std::vector<TextChunk> splitInputChunks(std::string_view text);

}  // namespace pir::parser
