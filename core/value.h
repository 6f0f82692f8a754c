//===- value.h - SSA values and their intrusive use lists -------*- C++ -*-===//
//
// Each OpOperand holds `next_` and `back_` (the address of the pointer that
// points to it), so linking and unlinking a use is O(1) with no special case
// for the list head; a Value holds only its first use.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "core/arena_vector.h"

namespace pir::core {

class Attribute;
class Block;
class Operation;
class Type;
class Value;

struct NamedAttr {
  std::string_view key;  // interned
  const Attribute* value;
};

class OpOperand {
 public:
  Value* get() const { return value_; }
  /// Points this operand at `v` (may be null, printed `<<NULL VALUE>>`).
  void set(Value* v);
  Operation* owner() const { return owner_; }
  uint32_t index() const;
  OpOperand* nextUse() const { return next_; }

 private:
  friend class Operation;
  void unlink();

  Value* value_ = nullptr;
  OpOperand* next_ = nullptr;
  OpOperand** back_ = nullptr;
  Operation* owner_ = nullptr;
};

enum class ValueKind : uint8_t { OpResult, BlockArgument, Kwarg };

class Value {
 public:
  ValueKind kind() const { return kind_; }
  const Type* type() const { return type_; }
  void setType(const Type* t) { type_ = t; }

  /// The op that defines this value, or null for block arguments and kwargs.
  Operation* definingOp() const { return kind_ == ValueKind::OpResult ? op_ : nullptr; }
  /// The block that owns this argument or kwarg, or null for op results.
  Block* ownerBlock() const { return kind_ == ValueKind::OpResult ? nullptr : block_; }
  /// Result index, or argument/kwarg index in its block.
  uint32_t index() const { return index_; }

  OpOperand* firstUse() const { return firstUse_; }
  bool useEmpty() const { return firstUse_ == nullptr; }
  bool hasOneUse() const { return firstUse_ && !firstUse_->nextUse(); }
  size_t numUses() const;
  /// Points every use of this value at `v`.
  void replaceAllUsesWith(Value* v);

  // Printer bookkeeping: the number handed out on first print, valid while
  // printGen matches the current print (an epoch of the value's Context,
  // Context::newWalkEpoch; like all scratch here, one thread at a time).
  mutable uint32_t printId = 0;
  mutable uint32_t printGen = 0;
  // Scratch mark for walks such as the verifier's scope check (also an epoch
  // of the value's Context).
  mutable uint32_t visitMark = 0;
  // Scratch for a pass's dense side tables (an index into them). Stale from
  // earlier passes: a pass that reads it sets it on every value first.
  mutable uint32_t passIndex = 0;

 protected:
  friend class OpOperand;
  friend class Operation;
  friend class Block;
  Value(ValueKind kind, const Type* type, uint32_t index) : type_(type), index_(index), kind_(kind) {}

  const Type* type_;
  OpOperand* firstUse_ = nullptr;
  union {
    Operation* op_ = nullptr;
    Block* block_;
  };
  uint32_t index_;
  ValueKind kind_;
};

class OpResult : public Value {
 public:
  OpResult(Operation* op, const Type* type, uint32_t index) : Value(ValueKind::OpResult, type, index) { op_ = op; }
};

/// A block argument (`%arg_N`) or kwarg (`%kwarg_<name>`), with the
/// attributes Paddle prints in braces on first print.
class BlockArgument : public Value {
 public:
  BlockArgument(ValueKind kind, Block* block, const Type* type, uint32_t index, std::string_view name)
      : Value(kind, type, index), name_(name) {
    block_ = block;
  }
  bool isKwarg() const { return kind() == ValueKind::Kwarg; }
  /// The kwarg's keyword (empty for positional arguments).
  std::string_view name() const { return name_; }
  std::span<const NamedAttr> attributes() const { return attrs_.span(); }
  void setAttributes(Arena& arena, std::span<const NamedAttr> attrs) { attrs_.assign(arena, attrs); }

 private:
  std::string_view name_;
  ArenaVector<NamedAttr> attrs_;
};

// Every op result is one of these: keep the scratch fields within padding.
static_assert(sizeof(OpResult) <= 48, "OpResult grew past 48 bytes");

}  // namespace pir::core
