//===- dist_locate.h - where an op_dist_attr part stands in the text -*- C++ -*-===//
//
// Parsed attributes are interned and shared by every op that spells them the
// same way, and an op's dictionary is read once per distinct text, so the IR
// keeps no offsets below the op. A diagnostic about one entry of an
// op_dist_attr finds that entry again in the op's source text, only when it
// is reported: nothing is paid while reading or verifying a good program.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string_view>

namespace pir::core {

/// What part of an entry a diagnostic is about.
enum class DistPart : uint8_t {
  Entry,        // the `operand(i)` / `result(i)` key, or a list element's first field
  Mesh,         // the entry's `mesh_shape` / `process_ids` / `mesh` (index -1: the op's `mesh`)
  DimsMapping,  // the `dims_mapping(s)` / `dims_maping` field, or its `item`-th number
  Partial,      // the `item`-th `partial(..)` of the entry
};

struct DistEntryRef {
  bool result = false;   // result(index), else operand(index)
  int64_t index = -1;    // -1: the op_dist_attr itself (with DistPart::Mesh, its mesh)
  int64_t element = -1;  // an element of a list entry `{[..]}`
  DistPart part = DistPart::Entry;
  int64_t item = -1;  // see DistPart; -1: the field itself
};

/// The offset in `text` of what `ref` names in the op_dist_attr of the op
/// whose text starts at `opOffset` (the op's first line only), or -1 when
/// the text does not hold it (an op a pass changed).
int64_t locateDistEntry(std::string_view text, int64_t opOffset, const DistEntryRef& ref);

/// The offset of operand `operand` in the operand list of the op whose
/// text starts at `opOffset` (`(%r) = "name" (%a, %b)`), or -1.
int64_t locateOperand(std::string_view text, int64_t opOffset, uint32_t operand);

}  // namespace pir::core
