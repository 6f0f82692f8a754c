//===- clone.h - copying operations, and programs between contexts -*- C++ -*-===//
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/operation.h"
#include "core/pointer_map.h"
#include "core/program.h"

namespace pir::core {

class Context;

/// What a clone maps each source value to.
using ValueMapping = std::unordered_map<const Value*, Value*>;

/// Called for an operand whose value is not in the mapping (a value defined
/// outside what is being cloned); returns what the copy should read.
using MissingValueFn = std::function<Value*(const Value*)>;

/// Creates a detached copy of `op`, its attributes and its regions. Operands
/// are looked up in `map` (then `missing`); the copy's results and block
/// arguments are added to `map`.
Operation* cloneOperation(Context& ctx, const Operation& op, ValueMapping& map, const MissingValueFn& missing);

/// Re-creates types, attributes and strings of other Contexts in `dst`,
/// each source object once (later asks are a map lookup). It only reads the
/// source objects: several importers on several threads may read one
/// source at once, each into its own Context. When the objects all come
/// from `source` and `dst` was made over it (Context::readsFrom), there is
/// nothing to re-create: each is handed on as it is.
class ContextImporter {
 public:
  explicit ContextImporter(Context& dst, const Context* source = nullptr);
  Context& destination() const { return dst_; }

  const Type* type(const Type* t);
  const Attribute* attribute(const Attribute* a);
  std::string_view string(std::string_view s);
  /// As string, for a string interned in its source Context (an op's name,
  /// an attribute's key): looked up by address, each interned once.
  std::string_view internedString(std::string_view s);
  /// An op's attribute list: keys interned, values imported, the list
  /// interned in `dst` (one lookup per distinct source list).
  std::span<const NamedAttr> attrList(std::span<const NamedAttr> attrs);
  /// Attributes with keys interned and values imported, not interned as a
  /// list (a block argument's, which the argument copies).
  std::vector<NamedAttr> namedAttrs(std::span<const NamedAttr> attrs);

 private:
  const Type* importType(const Type* t);
  const Attribute* importAttribute(const Attribute* a);

  Context& dst_;
  bool shared_;  // dst reads the source's objects: every import is the object itself
  PointerMap<const Type*> types_;
  PointerMap<const Attribute*> attrs_;
  PointerMap<std::span<const NamedAttr>> lists_;
  struct StringCopy {
    size_t sourceSize = 0;
    std::string_view copy;
  };
  PointerMap<StringCopy> strings_;  // by the source string's address
  std::vector<NamedAttr> scratch_;  // attrList's imported list, reused (no attribute holds a list: no reentry)
};

/// A program numbered for copying, once, however many copies are made: its
/// values and ops get dense indices (in their passIndex scratch), so a copy
/// maps them through arrays instead of hash maps. Making one writes that
/// scratch, so it is made on one thread; while it lives, copies on several
/// threads may read the program at once (each into its own Context), and
/// nothing may change the program or write its scratch.
class CloneSource {
 public:
  explicit CloneSource(const Program& program);
  CloneSource(const CloneSource&) = delete;
  CloneSource& operator=(const CloneSource&) = delete;

  const Program& program() const { return program_; }
  /// Every value, in walk order (a block's arguments, its kwargs, then each
  /// op's results before the values of its regions); `values()[v->passIndex] == v`.
  std::span<const Value* const> values() const { return values_; }
  /// Every op, in walk order; `ops()[op->passIndex()] == op`.
  std::span<const Operation* const> ops() const { return ops_; }
  /// Every operand's value is defined in the program before the op in walk
  /// order, and every use list runs from the last use to the first, as
  /// setting the operands in walk order makes them (the parser's order). A
  /// copy then sets each op's operands as it makes it, without a second walk
  /// over the use lists.
  bool usesInWalkOrder() const { return usesInWalkOrder_; }
  /// Every op's operands in walk order, each its value's index in values(),
  /// or kNoValue for a null operand or a value defined after the op or
  /// outside the program.
  static constexpr uint32_t kNoValue = ~uint32_t{0};
  std::span<const uint32_t> operandValues() const { return operandValues_; }

 private:
  void number(const Block& block);
  bool useListsRunBackwards() const;

  const Program& program_;
  std::vector<const Value*> values_;
  std::vector<const Operation*> ops_;
  std::vector<uint32_t> operandValues_;
  bool operandsDefinedBefore_ = true;
  bool usesInWalkOrder_ = false;
};

/// A copy of `src` (with everything it references) owned by `dst`, which
/// may be another Context: it prints byte for byte as `src` does, and every
/// use list keeps its order (so passes behave on the copy as on `src`).
/// When `dst` was made over `src`'s Context, the copy's ops and values are
/// `dst`'s and its strings, types and attributes are `src`'s Context's,
/// which must outlive it; otherwise the copy shares no pointer with `src`'s
/// Context, which may be destroyed after.
/// An operand whose value `src` does not define is null in the copy.
std::unique_ptr<Program> cloneProgram(const CloneSource& src, Context& dst);
/// As above; `copies[i]` is then the copy of `src.ops()[i]`.
std::unique_ptr<Program> cloneProgram(const CloneSource& src, Context& dst, std::vector<Operation*>& copies);
/// The same through a CloneSource of its own: `src`'s scratch is written,
/// so one thread at a time (number once with CloneSource for many copies).
std::unique_ptr<Program> cloneProgram(const Program& src, Context& dst);

}  // namespace pir::core
