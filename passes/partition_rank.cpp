//===- partition_rank.cpp - keep only what one rank runs -------------------===//
//
// `partition-rank{rank=R}` (Paddle's remove_other_rank_op_pass, pir_pass.py):
// walking every block backwards, so that an op's users are decided before
// the op, it erases
//   - builtin.combine / builtin.split whose results are all unused;
//   - an op with an op_dist_attr whose mesh does not hold R (an op without
//     one stays, as in Paddle since it stopped dereferencing the attr);
//   - a dist_op.reshard whose result is unused: a fake reshard, which the
//     lowering leaves on ranks outside a mesh.
// `cf.yield` always stays (Paddle's special case: a region keeps its end).
// A dist_op.reshard still in use was never lowered for R: a located error.
// So is an op off rank R whose result an op that stays still reads (Paddle
// would erase it and leave the reader dangling). Each op costs O(1) plus its
// operands: use lists are intrusive.
//
// The walk is skipped when it would erase nothing and report nothing, which
// split-ranks' ranks of a program on one mesh mostly are: see
// nothingToErase. At 1M ops a walk of a rank's 2.25M ops was 7% of
// split-ranks' samples, waiting on memory.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "core/context.h"
#include "core/mesh_math.h"
#include "core/op_table.h"
#include "passes/known_reshards.h"
#include "passes/pass_registry.h"
#include "passes/rank_pass.h"

namespace pir::passes {

namespace {

using namespace pir::core;

bool allResultsUnused(const Operation& op) {
  for (uint32_t i = 0; i < op.numResults(); ++i)
    if (!op.result(i)->useEmpty()) return false;
  return true;
}

/// The first user of one of `op`'s results.
const Operation* firstUser(const Operation& op) {
  for (uint32_t i = 0; i < op.numResults(); ++i)
    if (const OpOperand* use = op.result(i)->firstUse()) return use->owner();
  return nullptr;
}

class PartitionRankPass : public RankProgramPass {
 public:
  PartitionRankPass() : RankProgramPass("the global rank whose ops are kept (-1: the program's own rank)") {}
  std::string_view name() const override { return "partition-rank"; }
  std::string_view description() const override {
    return "keep only the ops rank R runs: erase ops on meshes without R, unused combine/split and fake reshards "
           "(Paddle's remove_other_rank_op_pass)";
  }

 private:
  Status runForRank(NamedProgram& named) override {
    if (nothingToErase(*named.program)) {
      stats_.add("walks skipped: nothing to erase");
      return Status::ok();
    }
    seenMesh_ = nullptr;
    ops_ = OpInfoCache();  // keyed by this program's interned names
    walkBlock(named.program->body());
    return Status::ok();
  }

  /// Whether the walk would erase nothing and report nothing, known
  /// without it: lower-reshard, the pass before, left no reshard in the
  /// program; no op that packs a vec is named in its Context (so there is
  /// none); and every mesh of its Context holds the rank (so no op is on a
  /// mesh without it).
  bool nothingToErase(Program& program) {
    const ReshardsLeft* left = result<ReshardsLeft>();
    if (!left || left->program != &program || left->count != 0) return false;
    Context& ctx = program.context();
    for (const OpInfo& info : opTable())
      if (info.has(kPacksVec) && ctx.hasInterned(info.name)) return false;
    for (const ProcessMesh* mesh : ctx.processMeshes())
      if (!meshIndexOf(*mesh, rank())) return false;
    return true;
  }

  void walkBlock(Block& block) {
    for (Operation* op = block.back(); op && !failed();) {
      Operation* prev = op->prevOp();
      processOp(*op);
      op = prev;
    }
  }

  void processOp(Operation& op) {
    const OpInfo* info = ops_.lookup(op);
    if (info && info->has(kPacksVec)) {
      if (allResultsUnused(op)) erase(op, "combine/split ops erased");
      return;
    }
    if (op.name() == "cf.yield") return;  // a region's terminator stays, as in Paddle
    const OpDistAttr* od = op.distAttr();
    bool offRank = od && od->mesh() && !onRank(od->mesh());
    if (op.name() == "dist_op.reshard") {
      if (!allResultsUnused(op)) {
        report(op, "dist_op.reshard is still in use on rank " + std::to_string(rank()) +
                       "; run lower-reshard{rank=" + std::to_string(rank()) + "} first");
        return;
      }
      erase(op, offRank ? "ops of other ranks erased" : "fake reshards erased");
      return;
    }
    if (offRank) {
      if (const Operation* user = firstUser(op)) {
        report(*user, "op '" + std::string(user->name()) + "' stays on rank " + std::to_string(rank()) +
                          " but reads a result of '" + std::string(op.name()) + "', which is on a mesh without it");
        return;
      }
      erase(op, "ops of other ranks erased");
      return;
    }
    for (uint32_t r = 0; r < op.numRegions() && !failed(); ++r)
      for (Block* b : op.region(r).blocks()) walkBlock(*b);
  }

  void erase(Operation& op, std::string_view counter) {
    op.erase();
    stats_.add(counter);
  }

  /// Whether rank() is in `mesh`. Runs of ops share a mesh (interned): the
  /// last answer is kept, not a search of its ids per op.
  bool onRank(const ProcessMesh* mesh) {
    if (mesh != seenMesh_) {
      seenMesh_ = mesh;
      seenOnRank_ = meshIndexOf(*mesh, rank()).has_value();
    }
    return seenOnRank_;
  }

  OpInfoCache ops_;
  const ProcessMesh* seenMesh_ = nullptr;
  bool seenOnRank_ = false;
};

}  // namespace

void registerPartitionRankPass() { registerPass<PartitionRankPass>(); }

}  // namespace pir::passes
