//===- operation.cpp - operations, blocks, regions, use lists -------------===//
#include "core/operation.h"

#include <algorithm>
#include <cassert>

#include "core/bytes_equal.h"
#include "core/context.h"

namespace pir::core {

//===----------------------------------------------------------------------===//
// Use lists
//===----------------------------------------------------------------------===//

void OpOperand::unlink() {
  if (!back_) return;
  *back_ = next_;
  if (next_) next_->back_ = back_;
  next_ = nullptr;
  back_ = nullptr;
}

void OpOperand::set(Value* v) {
  unlink();
  value_ = v;
  if (!v) return;
  next_ = v->firstUse_;
  if (next_) next_->back_ = &next_;
  back_ = &v->firstUse_;
  v->firstUse_ = this;
}

uint32_t OpOperand::index() const { return static_cast<uint32_t>(this - &owner_->operand(0)); }

size_t Value::numUses() const {
  size_t n = 0;
  for (OpOperand* u = firstUse_; u; u = u->nextUse()) ++n;
  return n;
}

void Value::replaceAllUsesWith(Value* v) {
  if (v == this) return;
  while (firstUse_) firstUse_->set(v);
}

//===----------------------------------------------------------------------===//
// Operation
//===----------------------------------------------------------------------===//

Operation* Operation::create(Context& ctx, std::string_view name, std::span<Value* const> operands,
                             std::span<const Type* const> resultTypes, std::span<const NamedAttr> attrs,
                             uint32_t numRegions) {
  Operation* op = createInterned(ctx, ctx.intern(name), operands, resultTypes, ctx.attrList(attrs));
  for (uint32_t i = 0; i < numRegions; ++i) op->addRegion(ctx);
  return op;
}

Operation* Operation::createInterned(Context& ctx, std::string_view name, std::span<Value* const> operands,
                                     std::span<const Type* const> resultTypes, std::span<const NamedAttr> attrs) {
  Arena& arena = ctx.arena();
  auto* op = new (arena.allocate(sizeof(Operation), alignof(Operation))) Operation();
  op->name_ = name;
  op->numOperands_ = static_cast<uint32_t>(operands.size());
  op->numResults_ = static_cast<uint32_t>(resultTypes.size());
  if (!operands.empty()) {
    op->operands_ = static_cast<OpOperand*>(arena.allocate(sizeof(OpOperand) * operands.size(), alignof(OpOperand)));
    for (size_t i = 0; i < operands.size(); ++i) {
      new (&op->operands_[i]) OpOperand();
      op->operands_[i].owner_ = op;
      op->operands_[i].set(operands[i]);
    }
  }
  if (!resultTypes.empty()) {
    op->results_ = static_cast<OpResult*>(arena.allocate(sizeof(OpResult) * resultTypes.size(), alignof(OpResult)));
    for (size_t i = 0; i < resultTypes.size(); ++i)
      new (&op->results_[i]) OpResult(op, resultTypes[i], static_cast<uint32_t>(i));
  }
  op->attrs_ = attrs.data();
  op->numAttrs_ = static_cast<uint32_t>(attrs.size());
  return op;
}

Region& Operation::addRegion(Context& ctx) {
  Region* r = ctx.arena().make<Region>();
  r->parent_ = this;
  extras(ctx.arena()).regions.push_back(ctx.arena(), r);
  return *r;
}

void Operation::setAttributes(Context& ctx, std::span<const NamedAttr> attrs) {
  setInternedAttributes(ctx.attrList(attrs));
}

void Operation::setOwnAttributes(Context& ctx, std::span<const NamedAttr> attrs) {
  std::span<const NamedAttr> list = ctx.ownAttrList(attrs);
  attrs_ = list.data();
  numAttrs_ = static_cast<uint32_t>(list.size());
}

void Operation::setAttr(Context& ctx, std::string_view key, const Attribute* value) {
  // The list is shared: edit a copy.
  std::vector<NamedAttr> attrs(attributes().begin(), attributes().end());
  auto same = std::find_if(attrs.begin(), attrs.end(), [&](const NamedAttr& a) { return a.key == key; });
  if (same != attrs.end()) {
    same->value = value;
  } else {
    // A new key goes at its bytewise-sorted position among the keys read.
    auto pos = std::find_if(attrs.begin(), attrs.end(), [&](const NamedAttr& a) { return !(a.key < key); });
    attrs.insert(pos, NamedAttr{ctx.intern(key), value});
  }
  setAttributes(ctx, attrs);
}

bool Operation::removeAttr(Context& ctx, std::string_view key) {
  std::vector<NamedAttr> attrs(attributes().begin(), attributes().end());
  auto it = std::find_if(attrs.begin(), attrs.end(), [&](const NamedAttr& a) { return a.key == key; });
  if (it == attrs.end()) return false;
  attrs.erase(it);
  setAttributes(ctx, attrs);
  return true;
}

Region& Operation::region(uint32_t i) {
  assert(i < numRegions());
  return *extras_->regions[i];
}

const Region& Operation::region(uint32_t i) const {
  assert(i < numRegions());
  return *extras_->regions[i];
}

Operation* Operation::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

bool Operation::isAncestorOf(const Operation* other) const {
  for (const Operation* p = other; p; p = p->parentOp())
    if (p == this) return true;
  return false;
}

void Operation::dropAllReferences() {
  for (uint32_t i = 0; i < numOperands_; ++i) operands_[i].set(nullptr);
  for (uint32_t r = 0; r < numRegions(); ++r)
    for (Block* b : region(r).blocks())
      for (Operation& op : *b) op.dropAllReferences();
}

void Operation::erase() {
  dropAllReferences();
  if (parent_) parent_->remove(this);
}

//===----------------------------------------------------------------------===//
// Block and Region
//===----------------------------------------------------------------------===//

Operation* Block::parentOp() const { return parent_ ? parent_->parentOp() : nullptr; }

void Block::insertBefore(Operation* pos, Operation* op) {
  assert(op->parent_ == nullptr && "op is already in a block");
  op->parent_ = this;
  op->next_ = pos;
  op->prev_ = pos ? pos->prev_ : last_;
  if (op->prev_)
    op->prev_->next_ = op;
  else
    first_ = op;
  if (pos)
    pos->prev_ = op;
  else
    last_ = op;
  ++numOps_;
}

void Block::pushBack(OpChain& chain, Operation* op) const {
  assert(op->parent_ == nullptr && "op is already in a block");
  op->parent_ = const_cast<Block*>(this);
  op->prev_ = chain.last;
  op->next_ = nullptr;
  if (chain.last)
    chain.last->next_ = op;
  else
    chain.first = op;
  chain.last = op;
  if (chain.size % OpChain::kLandmarkStride == 0) chain.landmarks.emplace_back(op, chain.size);
  ++chain.size;
}

void Block::append(OpChain& chain) {
  if (!chain.first) return;
  assert(chain.first->parent_ == this);
  chain.first->prev_ = last_;
  if (last_)
    last_->next_ = chain.first;
  else
    first_ = chain.first;
  last_ = chain.last;
  numOps_ += chain.size;
  chain = OpChain();
}

void Block::remove(Operation* op) {
  assert(op->parent_ == this);
  if (op->prev_)
    op->prev_->next_ = op->next_;
  else
    first_ = op->next_;
  if (op->next_)
    op->next_->prev_ = op->prev_;
  else
    last_ = op->prev_;
  op->prev_ = op->next_ = nullptr;
  op->parent_ = nullptr;
  --numOps_;
  ++removals_;
}

BlockArgument* Block::addArgument(Context& ctx, const Type* type) {
  auto* arg = ctx.arena().make<BlockArgument>(ValueKind::BlockArgument, this, type, static_cast<uint32_t>(args_.size()),
                                              std::string_view());
  args_.push_back(ctx.arena(), arg);
  return arg;
}

BlockArgument* Block::addKwarg(Context& ctx, std::string_view name, const Type* type) {
  return addInternedKwarg(ctx, ctx.intern(name), type);
}

BlockArgument* Block::addInternedKwarg(Context& ctx, std::string_view name, const Type* type) {
  auto* arg =
      ctx.arena().make<BlockArgument>(ValueKind::Kwarg, this, type, static_cast<uint32_t>(kwargs_.size()), name);
  kwargs_.push_back(ctx.arena(), arg);
  return arg;
}

BlockArgument* Block::findKwarg(std::string_view name) const {
  for (BlockArgument* k : kwargs_)
    if (k->name() == name) return k;
  return nullptr;
}

void Block::eraseKwarg(BlockArgument* kwarg) {
  assert(kwarg->useEmpty());
  for (size_t i = 0; i < kwargs_.size(); ++i)
    if (kwargs_[i] == kwarg) {
      kwargs_.erase(i);
      break;
    }
}

Block* Region::addBlock(Context& ctx) {
  Block* b = ctx.arena().make<Block>();
  b->parent_ = this;
  blocks_.push_back(ctx.arena(), b);
  return b;
}

}  // namespace pir::core
