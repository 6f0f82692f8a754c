//===- program.cpp --------------------------------------------------------===//
#include "core/program.h"

#include "core/context.h"

namespace pir::core {

Program::Program(Context& ctx) : ctx_(&ctx) {
  region_ = ctx.arena().make<Region>();
  body_ = region_->addBlock(ctx);
}

}  // namespace pir::core
