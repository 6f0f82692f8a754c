//===- remove_unuseful_comm.cpp - collectives of one rank are identities ---===//
//
// `remove-unuseful-comm` (Paddle's remove_unuseful_comm_op_pass, pir_pass.py),
// in every block: an op that communicates on a ring (it has a `ring_id`)
// with one operand and one result of the operand's type (all_reduce,
// all_gather, reduce_scatter, broadcast, all_to_all, their c_ forms) is the
// identity when its ring holds one rank: its result is replaced by its
// operand and it goes. As in Paddle, a `pd_op.share_data_` whose operand it
// is the only reader of goes too (the lowering's S->R on a one-rank mesh).
//
// The ring's ranks come from the ring table, not from the text (a dense
// program no longer says which ranks a ring joins, lowering.md §2):
// split-ranks hands the pass the table it planned over the distributed
// program; alone, `rings=FILE` reads it from a ranks.yaml. A ring id the
// table does not know is a located error, as is running without a table.
//
// The walk is skipped when it would replace nothing and report nothing,
// which split-ranks' ranks mostly are: see nothingToReplace. At 1M ops a
// walk of a rank's 2.25M ops was 6% of split-ranks' samples, waiting on
// memory.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "core/attr_access.h"
#include "core/context.h"
#include "core/verifier.h"
#include "passes/pass_registry.h"
#include "passes/rank_layout.h"

namespace pir::passes {

namespace {

using namespace pir::core;

class RemoveUnusefulCommPass : public ProgramPass {
 public:
  std::string_view name() const override { return "remove-unuseful-comm"; }
  std::string_view description() const override {
    return "replace collectives on one-rank rings (and share_data_ of a value read once) by their operand "
           "(Paddle's remove_unuseful_comm_op_pass)";
  }

  Status runOnProgram(NamedProgram& named, DiagnosticEngine& diag) override {
    // The ring table: rings=FILE's, else the one split-ranks left (a result).
    rings_ = result<RingTable>();
    if (!ringsFile_.value().empty()) {
      Result<RankLayout> layout = loadRankLayout(ringsFile_.value());
      if (!layout) return Status::error(layout.status().message());  // located in the file, not the program
      fileRings_ = std::move(layout->rings);
      rings_ = &fileRings_;
    }
    diag_ = &diag;
    failed_ = false;
    if (nothingToReplace(*named.program)) {
      stats_.add("walks skipped: nothing to replace");
      return Status::ok();
    }
    walkBlock(named.program->body());
    if (failed_) return Status::error("remove-unuseful-comm could not complete");
    return Status::ok();
  }

 private:
  /// Whether the walk would replace nothing and report nothing, known
  /// without it: the ring table is split-ranks', which says it holds every
  /// ring id of the program (RingTableCoversProgram), no ring of it holds
  /// one rank, and no op is named pd_op.share_data_ in the program's
  /// Context (so there is none).
  bool nothingToReplace(Program& program) {
    if (!rings_ || rings_ == &fileRings_ || !result<RingTableCoversProgram>()) return false;
    for (const ProcessGroup& ring : rings_->rings())
      if (ring.ranks.size() == 1) return false;
    return !program.context().hasInterned("pd_op.share_data_");
  }

  void walkBlock(Block& block) {
    for (Operation* op = block.front(); op && !failed_;) {
      Operation* next = op->nextOp();
      for (uint32_t r = 0; r < op->numRegions(); ++r)
        for (Block* b : op->region(r).blocks()) walkBlock(*b);
      processOp(*op);
      op = next;
    }
  }

  void processOp(Operation& op) {
    const Attribute* ring = op.attr("ring_id");  // a literal: the compare folds
    if (ring) {
      std::optional<int64_t> id = getInt64(ring);
      const ProcessGroup* group = id && rings_ ? rings_->find(*id) : nullptr;
      if (!group) {
        diag_->error(reportLocation(&op),
                     !rings_ ? "remove-unuseful-comm needs the ring table: give rings=FILE (a ranks.yaml) or run "
                               "it within split-ranks"
                             : "op '" + std::string(op.name()) + "' is on ring " +
                                   (id ? std::to_string(*id) : std::string("?")) + ", which the ring table lacks");
        failed_ = true;
        return;
      }
      if (group->ranks.size() == 1 && isIdentityShaped(op)) replace(op, "one-rank collectives removed");
      return;
    }
    if (op.name() == "pd_op.share_data_" && isIdentityShaped(op) && op.operandValue(0)->hasOneUse())
      replace(op, "share_data_ ops removed");
  }

  static bool isIdentityShaped(const Operation& op) {
    return op.numOperands() == 1 && op.numResults() == 1 && op.numRegions() == 0 && op.operandValue(0) &&
           typesEqual(op.operandValue(0)->type(), op.result(0)->type());
  }

  void replace(Operation& op, std::string_view counter) {
    op.result(0)->replaceAllUsesWith(op.operandValue(0));
    op.erase();
    stats_.add(counter);
  }

  Option<std::string> ringsFile_{this, "rings", "a ranks.yaml whose ring table gives each ring's ranks", ""};
  const RingTable* rings_ = nullptr;  // fileRings_, or split-ranks' result
  RingTable fileRings_;
  DiagnosticEngine* diag_ = nullptr;
  bool failed_ = false;
};

}  // namespace

void registerRemoveUnusefulCommPass() { registerPass<RemoveUnusefulCommPass>(); }

}  // namespace pir::passes
