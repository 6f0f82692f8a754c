//===- program.cpp --------------------------------------------------------===//
#include "core/program.h"

#include "core/context.h"
#include "core/types.h"

namespace pir::core {

Program::Program(Context& ctx) : ctx_(&ctx) {
  region_ = ctx.arena().make<Region>();
  body_ = region_->addBlock(ctx);
}

bool hasDistTypes(const Program& p) {
  bool dist = false;
  walk(p.body(), [&](const Operation& op) {
    if (op.distAttr()) dist = true;
    for (uint32_t i = 0; i < op.numResults(); ++i)
      if (distAttrOf(op.result(i)->type())) dist = true;
  });
  return dist;
}

}  // namespace pir::core
