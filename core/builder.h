//===- builder.h - creating and inserting operations ------------*- C++ -*-===//
#pragma once

#include <span>
#include <string_view>

#include "core/context.h"
#include "core/operation.h"

namespace pir::core {

/// Creates ops at an insertion point: before a given op, or at the end of
/// a block. Ops it creates carry no source location and no debug id.
class Builder {
 public:
  explicit Builder(Context& ctx) : ctx_(ctx) {}

  void setInsertionPointToEnd(Block& block) {
    block_ = &block;
    before_ = nullptr;
  }
  void setInsertionPoint(Operation* op) {
    block_ = op->parentBlock();
    before_ = op;
  }
  void setInsertionPointAfter(Operation* op) {
    block_ = op->parentBlock();
    before_ = op->nextOp();
  }

  Operation* create(std::string_view name, std::span<Value* const> operands, std::span<const Type* const> resultTypes,
                    std::span<const NamedAttr> attrs = {}) {
    Operation* op = Operation::create(ctx_, name, operands, resultTypes, attrs);
    if (block_) block_->insertBefore(before_, op);
    return op;
  }

  /// As create, for a name from ctx.intern() and attributes from
  /// ctx.attrList() (Operation::createInterned): nothing is interned again.
  Operation* createInterned(std::string_view name, std::span<Value* const> operands,
                            std::span<const Type* const> resultTypes, std::span<const NamedAttr> attrs) {
    Operation* op = Operation::createInterned(ctx_, name, operands, resultTypes, attrs);
    if (block_) block_->insertBefore(before_, op);
    return op;
  }

  Context& context() { return ctx_; }

 private:
  Context& ctx_;
  Block* block_ = nullptr;
  Operation* before_ = nullptr;
};

}  // namespace pir::core
