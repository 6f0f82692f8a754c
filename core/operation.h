//===- operation.h - operations, blocks, regions ----------------*- C++ -*-===//
//
// Layout: an Operation and its operand and result arrays are allocated in
// one go from the Context's arena; attributes keep the order they were read
// (a pass adding a key inserts it at its bytewise-sorted position). Ops sit
// in their Block's intrusive doubly-linked list, so insert and erase are O(1).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "core/arena_vector.h"
#include "core/attributes.h"
#include "core/bytes_equal.h"
#include "core/value.h"

namespace pir::core {

class Block;
class Context;
class Region;

class Operation {
 public:
  /// Creates a detached op. Operands may contain nulls (`<<NULL VALUE>>`).
  static Operation* create(Context& ctx, std::string_view name, std::span<Value* const> operands,
                           std::span<const Type* const> resultTypes, std::span<const NamedAttr> attrs,
                           uint32_t numRegions = 0);
  /// As create, for a name from ctx.intern() and attributes from
  /// ctx.attrList() (the parser holds them so): they are not looked up again.
  static Operation* createInterned(Context& ctx, std::string_view name, std::span<Value* const> operands,
                                   std::span<const Type* const> resultTypes, std::span<const NamedAttr> attrs);
  /// Appends an empty region (the parser learns the count as it reads).
  Region& addRegion(Context& ctx);

  std::string_view name() const { return name_; }

  // Operands.
  uint32_t numOperands() const { return numOperands_; }
  OpOperand& operand(uint32_t i) { return operands_[i]; }
  const OpOperand& operand(uint32_t i) const { return operands_[i]; }
  Value* operandValue(uint32_t i) const { return operands_[i].get(); }
  std::span<OpOperand> operands() { return {operands_, numOperands_}; }
  std::span<const OpOperand> operands() const { return {operands_, numOperands_}; }
  /// Keywords printed before operands (`cond=`, `inputs=` of pd_op.while);
  /// empty when the op has none.
  std::span<const std::string_view> operandKeywords() const {
    return extras_ ? extras_->keywords.span() : std::span<const std::string_view>();
  }
  void setOperandKeywords(Arena& arena, std::span<const std::string_view> k) {
    if (!k.empty() || extras_) extras(arena).keywords.assign(arena, k);
  }

  // Results.
  uint32_t numResults() const { return numResults_; }
  OpResult* result(uint32_t i) { return &results_[i]; }
  const OpResult* result(uint32_t i) const { return &results_[i]; }

  // Attributes.
  /// Shared with every op of the same list (Context::attrList), unless set
  /// by setOwnAttributes. Never changed in place.
  std::span<const NamedAttr> attributes() const { return {attrs_, numAttrs_}; }
  /// Inline: passes ask every op for a key or two (op_dist_attr, ring_id),
  /// and with a literal key the compare folds to a length test and a load.
  [[gnu::always_inline]] const Attribute* attr(std::string_view key) const {
    for (const NamedAttr& a : attributes())
      if (bytesEqual(a.key, key)) return a.value;
    return nullptr;
  }
  template <class T>
  [[gnu::always_inline]] const T* attrOf(std::string_view key) const {
    const Attribute* a = attr(key);
    return a ? a->dynCast<T>() : nullptr;
  }
  /// Replaces the value, or inserts the key at its sorted position.
  void setAttr(Context& ctx, std::string_view key, const Attribute* value);
  bool removeAttr(Context& ctx, std::string_view key);
  void setAttributes(Context& ctx, std::span<const NamedAttr> attrs);
  /// As setAttributes, for a list ctx.attrList() returned already (a pass
  /// that rewrites each distinct list once): not looked up again.
  void setInternedAttributes(std::span<const NamedAttr> list) {
    attrs_ = list.data();
    numAttrs_ = static_cast<uint32_t>(list.size());
  }
  /// As setAttributes, for a list no other op can have (it holds an
  /// attribute made for this op): copied, not interned. Half a million such
  /// ops (pipeline-split's shadow_outputs) would each cost a lookup in a big
  /// table, and grow it.
  void setOwnAttributes(Context& ctx, std::span<const NamedAttr> attrs);
  const OpDistAttr* distAttr() const { return attrOf<OpDistAttr>("op_dist_attr"); }

  // Regions.
  uint32_t numRegions() const { return extras_ ? static_cast<uint32_t>(extras_->regions.size()) : 0; }
  Region& region(uint32_t i);
  const Region& region(uint32_t i) const;

  // Position.
  Block* parentBlock() const { return parent_; }
  Operation* parentOp() const;
  Operation* nextOp() const { return next_; }
  Operation* prevOp() const { return prev_; }
  bool isAncestorOf(const Operation* other) const;

  /// Unlinks from the parent block and drops every operand (recursively in
  /// regions). Results must have no remaining uses outside this op.
  void erase();
  /// Drops all operand uses held by this op and the ops nested in it.
  void dropAllReferences();

  /// Scratch for a pass: an index among the ops it gathered.
  uint32_t passIndex() const { return passIndex_; }
  void setPassIndex(uint32_t i) const { passIndex_ = i; }

  // Source information kept for printing and diagnostics.
  int64_t debugId() const { return debugId_; }  // `[id:N]`, or -1
  void setDebugId(int64_t id) { debugId_ = id; }
  int64_t location() const { return loc_; }  // byte offset in the source, or -1
  void setLocation(int64_t offset) { loc_ = offset; }

 private:
  friend class Block;
  Operation() = default;

  // What few ops have, out of line: every op is a little smaller, and a
  // million of them are a cache miss fewer per walk every so often.
  struct Extras {
    ArenaVector<Region*> regions;
    ArenaVector<std::string_view> keywords;
  };
  Extras& extras(Arena& arena) {
    if (!extras_) extras_ = arena.make<Extras>();
    return *extras_;
  }

  std::string_view name_;
  Block* parent_ = nullptr;
  Operation* prev_ = nullptr;
  Operation* next_ = nullptr;
  OpOperand* operands_ = nullptr;
  OpResult* results_ = nullptr;
  Extras* extras_ = nullptr;
  const NamedAttr* attrs_ = nullptr;
  uint32_t numOperands_ = 0;
  uint32_t numResults_ = 0;
  uint32_t numAttrs_ = 0;
  mutable uint32_t passIndex_ = 0;  // in what was padding: ops stay 104 bytes
  int64_t debugId_ = -1;
  int64_t loc_ = -1;
};

static_assert(sizeof(Operation) <= 104, "Operation grew past 104 bytes");

/// Iterates a block's ops; safe against erasing the current op only if the
/// caller advances first (`for (Operation* op = b.front(); op; op = next)`).
class OpIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = Operation;
  using difference_type = std::ptrdiff_t;
  using pointer = Operation*;
  using reference = Operation&;
  explicit OpIterator(Operation* op) : op_(op) {}
  Operation& operator*() const { return *op_; }
  Operation* operator->() const { return op_; }
  OpIterator& operator++() {
    op_ = op_->nextOp();
    return *this;
  }
  bool operator==(const OpIterator& o) const { return op_ == o.op_; }

 private:
  Operation* op_;
};

/// Ops linked in order, in no block's list yet. Threads that read the ops
/// of one block each build a chain of their own (Block::pushBack(chain,
/// op)), and the block then takes the chains in order (Block::append).
struct OpChain {
  /// Every kLandmarkStride-th op of the chain, with its position in it: the
  /// places a threaded walker can start from without walking there
  /// (core/op_runs.h).
  static constexpr size_t kLandmarkStride = 1024;
  Operation* first = nullptr;
  Operation* last = nullptr;
  size_t size = 0;
  std::vector<std::pair<const Operation*, size_t>> landmarks;
};

class Block {
 public:
  Region* parentRegion() const { return parent_; }
  Operation* parentOp() const;

  Operation* front() const { return first_; }
  Operation* back() const { return last_; }
  bool empty() const { return first_ == nullptr; }
  OpIterator begin() const { return OpIterator(first_); }
  OpIterator end() const { return OpIterator(nullptr); }
  size_t numOps() const { return numOps_; }
  /// How many ops were ever unlinked from the block: the ops it holds keep
  /// their order while this stays, whatever is linked in (what
  /// core/op_runs.h learnt of the list holds).
  uint64_t removals() const { return removals_; }

  void pushBack(Operation* op) { insertBefore(nullptr, op); }
  /// Links `op` at the end of `chain` as an op of this block to be; the
  /// block itself is not touched, so threads may do this at once.
  void pushBack(OpChain& chain, Operation* op) const;
  /// Appends the chain's ops in order (O(1)) and empties it.
  void append(OpChain& chain);
  /// Inserts `op` before `pos` (at the end when `pos` is null).
  void insertBefore(Operation* pos, Operation* op);
  void insertAfter(Operation* pos, Operation* op) { insertBefore(pos ? pos->nextOp() : first_, op); }
  /// Unlinks `op` without touching its operands.
  void remove(Operation* op);

  std::span<BlockArgument* const> arguments() const { return args_.span(); }
  std::span<BlockArgument* const> kwargs() const { return kwargs_.span(); }
  BlockArgument* addArgument(Context& ctx, const Type* type);
  BlockArgument* addKwarg(Context& ctx, std::string_view name, const Type* type);
  /// As addKwarg, for a name the context holds already (another kwarg's,
  /// a StringAttr's raw text): skips the lookup.
  BlockArgument* addInternedKwarg(Context& ctx, std::string_view name, const Type* type);
  BlockArgument* findKwarg(std::string_view name) const;
  /// Removes a kwarg that has no uses.
  void eraseKwarg(BlockArgument* kwarg);

 private:
  friend class Region;
  Region* parent_ = nullptr;
  Operation* first_ = nullptr;
  Operation* last_ = nullptr;
  size_t numOps_ = 0;
  uint64_t removals_ = 0;
  ArenaVector<BlockArgument*> args_;
  ArenaVector<BlockArgument*> kwargs_;
};

class Region {
 public:
  Operation* parentOp() const { return parent_; }
  std::span<Block* const> blocks() const { return blocks_.span(); }
  bool empty() const { return blocks_.empty(); }
  Block* front() const { return blocks_.empty() ? nullptr : blocks_[0]; }
  Block* addBlock(Context& ctx);

 private:
  friend class Operation;
  friend class Program;
  Operation* parent_ = nullptr;
  ArenaVector<Block*> blocks_;
};

/// Calls `fn(Operation&)` on every op under `block`, in print order (an op
/// before the ops nested in its regions).
template <class Fn>
void walk(const Block& block, Fn&& fn) {
  for (Operation* op = block.front(); op;) {
    Operation* next = op->nextOp();
    fn(*op);
    for (uint32_t r = 0; r < op->numRegions(); ++r)
      for (Block* b : op->region(r).blocks()) walk(*b, fn);
    op = next;
  }
}

}  // namespace pir::core
