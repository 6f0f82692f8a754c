//===- tail_memo.h - parse results of repeated op-line tails ----*- C++ -*-===//
//
// An op line is `(RESULTS) = "NAME" (OPERANDS) TAIL`, where the tail, from
// the attribute dictionary's `{` to the end of the line, repeats another
// op's byte for byte in most ops of a program, but for its strings: a
// parameter's name, a value's name. So the memo keys a tail by its bytes
// outside its strings (the holes) and by the meshes of the operands' types
// (the hints its types were read with), and keeps what the reader made of
// it: the attribute list, with the entry each string is the value of, the
// op's mesh and the operand and result types. A tail is remembered from its
// second sighting, in a bounded table (core/sighting_slots.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/attributes.h"
#include "core/sighting_slots.h"
#include "core/types.h"
#include "core/value.h"

namespace pir::parser {

/// A tail's extent and strings, as scanTail() found them.
struct TailScan {
  const char* begin = nullptr;  // the dictionary's `{`
  const char* end = nullptr;    // the line's `\n`, or the end of the text
  /// Each string's contents: the bytes between its quotes.
  std::vector<std::pair<const char*, const char*>> holes;
  uint64_t hash = 0;  // of the bytes outside the holes, then of the hints
};

/// Finds the end of the line whose tail starts at `begin`, the strings on
/// it (read as the lexer reads them: a backslash escapes the next byte) and
/// the hash of the bytes outside them (tail_scan.cpp). False where the
/// reader might not agree on what the line holds: a NUL byte, a string that
/// runs past the line or `limit`, more than 32 strings, a line over 1 MiB.
bool scanTail(const char* begin, const char* limit, TailScan& out);
/// scanTail's 16-byte loop, which it uses on a CPU without AVX2 (tests run
/// it beside the one scanTail picks; the two hash differently).
bool scanTailSse2(const char* begin, const char* limit, TailScan& out);

/// What the reader made of a tail.
struct TailParse {
  /// The op's attribute list (interned); with holes, each hole's string
  /// replaces the value of entry holeEntries[k].
  std::span<const core::NamedAttr> attrs;
  const core::ProcessMesh* opMesh = nullptr;
  std::span<const core::Type*const> operandTypes, resultTypes;
  std::span<const uint32_t> holeEntries;
  /// Where the `:` before the operand types is, and where each operand
  /// type starts, counted back from the tail's end (the holes are all
  /// before them).
  uint32_t colonFromEnd = 0;
  std::span<const uint32_t> operandTypesFromEnd;
  /// How many levels deeper than its op the tail's parse nested.
  int depth = 0;
};

class TailMemo {
 public:
  using Found = core::SightingSlots::Found;

  /// Looks up the tail `scan` read with operand type hints `hints`
  /// (scan.hash must already include them: see hashHints). On Hit, `out`
  /// holds what the reader made of it before; on Admit, this is its second
  /// sighting and the caller should add() what it reads now.
  Found find(const TailScan& scan, std::span<const void* const> hints, TailParse& out) {
    if (slots_.makeRoom()) clearEntries();
    uint32_t entry = 0;
    Found found = slots_.find(scan.hash, static_cast<uint32_t>(scan.holes.size()), same(scan, hints), entry);
    if (found == Found::Hit) out = view(entries_[entry]);
    return found;
  }

  /// Remembers `parse` for the tail find() admitted.
  void add(const TailScan& scan, std::span<const void* const> hints, const TailParse& parse) {
    if (!slots_.keep(scan.hash, static_cast<uint32_t>(scan.holes.size()), same(scan, hints))) return;
    Entry e;
    e.rep = scan.begin;
    e.repLen = static_cast<uint32_t>(scan.end - scan.begin);
    e.holesAt = static_cast<uint32_t>(offsets_.size());
    for (auto [open, close] : scan.holes) {
      offsets_.push_back(static_cast<uint32_t>(open - scan.begin));
      offsets_.push_back(static_cast<uint32_t>(close - scan.begin));
    }
    e.numHoles = static_cast<uint32_t>(scan.holes.size());
    e.holeEntriesAt = static_cast<uint32_t>(offsets_.size());
    offsets_.insert(offsets_.end(), parse.holeEntries.begin(), parse.holeEntries.end());
    e.typesFromEndAt = static_cast<uint32_t>(offsets_.size());
    offsets_.insert(offsets_.end(), parse.operandTypesFromEnd.begin(), parse.operandTypesFromEnd.end());
    e.hintsAt = static_cast<uint32_t>(hints_.size());
    e.numHints = static_cast<uint32_t>(hints.size());
    hints_.insert(hints_.end(), hints.begin(), hints.end());
    e.typesAt = static_cast<uint32_t>(types_.size());
    e.numOperandTypes = static_cast<uint32_t>(parse.operandTypes.size());
    e.numResultTypes = static_cast<uint32_t>(parse.resultTypes.size());
    types_.insert(types_.end(), parse.operandTypes.begin(), parse.operandTypes.end());
    types_.insert(types_.end(), parse.resultTypes.begin(), parse.resultTypes.end());
    e.attrs = parse.attrs;
    e.opMesh = parse.opMesh;
    e.colonFromEnd = parse.colonFromEnd;
    e.depth = parse.depth;
    entries_.push_back(e);
  }

  void clear() {
    slots_.clear();
    clearEntries();
  }

  /// Mixes the hints into a tail's hash.
  static uint64_t hashHints(uint64_t h, std::span<const void* const> hints) {
    for (const void* p : hints) h = (h ^ reinterpret_cast<uintptr_t>(p)) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29) ^ hints.size();
  }

 private:
  struct Entry {
    const char* rep;  // the tail kept (in the source text), holes and all
    uint32_t repLen, holesAt, numHoles, holeEntriesAt, typesFromEndAt, hintsAt, numHints, typesAt, numOperandTypes,
        numResultTypes;
    std::span<const core::NamedAttr> attrs;
    const core::ProcessMesh* opMesh;
    uint32_t colonFromEnd;
    int depth;
  };

  TailParse view(const Entry& e) const {
    TailParse p;
    p.attrs = e.attrs;
    p.opMesh = e.opMesh;
    p.operandTypes = std::span<const core::Type* const>(types_.data() + e.typesAt, e.numOperandTypes);
    p.resultTypes = std::span<const core::Type* const>(types_.data() + e.typesAt + e.numOperandTypes, e.numResultTypes);
    p.holeEntries = std::span<const uint32_t>(offsets_.data() + e.holeEntriesAt, e.numHoles);
    p.operandTypesFromEnd = std::span<const uint32_t>(offsets_.data() + e.typesFromEndAt, e.numOperandTypes);
    p.colonFromEnd = e.colonFromEnd;
    p.depth = e.depth;
    return p;
  }

  /// The tail's bytes outside the holes and its hints equal the entry's.
  bool sameTail(const Entry& e, const TailScan& scan, std::span<const void* const> hints) const {
    if (e.numHoles != scan.holes.size() || e.numHints != hints.size()) return false;
    // (No hints: an op without operands, whose spans may be null, which memcmp may not take.)
    if (!hints.empty() && std::memcmp(hints_.data() + e.hintsAt, hints.data(), hints.size_bytes()) != 0) return false;
    const char* a = e.rep;
    const char* b = scan.begin;
    for (size_t k = 0; k < scan.holes.size(); ++k) {
      const char* aEnd = e.rep + offsets_[e.holesAt + 2 * k];
      if (aEnd - a != scan.holes[k].first - b || std::memcmp(a, b, static_cast<size_t>(aEnd - a)) != 0) return false;
      a = e.rep + offsets_[e.holesAt + 2 * k + 1];
      b = scan.holes[k].second;
    }
    const char* aEnd = e.rep + e.repLen;
    return aEnd - a == scan.end - b && std::memcmp(a, b, static_cast<size_t>(aEnd - a)) == 0;
  }

  /// Whether a kept entry's tail is `scan`'s: its bytes outside the holes
  /// and its hints equal.
  struct Same {
    const TailMemo& memo;
    const TailScan& scan;
    std::span<const void* const> hints;
    bool operator()(uint32_t entry) const { return memo.sameTail(memo.entries_[entry], scan, hints); }
  };
  Same same(const TailScan& scan, std::span<const void* const> hints) const { return Same{*this, scan, hints}; }

  void clearEntries() {
    entries_.clear();
    offsets_.clear();
    hints_.clear();
    types_.clear();
  }

  core::SightingSlots slots_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> offsets_;         // hole offsets (pairs), hole entries
  std::vector<const void*> hints_;        // per entry
  std::vector<const core::Type*> types_;  // per entry: operand types, then result types
};

}  // namespace pir::parser
