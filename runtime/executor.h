//===- executor.h - one dense program compiled to a flat plan ----*- C++ -*-===//
//
// compile() walks a dense program's top block once into an immutable plan:
// every op gets its kernel (an array read in the registry), every value a
// slot index, every operand its value's slot (none for `<<NULL VALUE>>`),
// and every slot the op after which it is freed (its last use). The run's
// state beside it holds the slots and each operand's pointer into them, made
// once. run() then only calls kernels:
//
//   - pd_op.data (by `name`), builtin.parameter (by `parameter_name`) and
//     the block's kwargs (by keyword) take their tensor from the feeds, which
//     must have the value's dtype and shape (a dim of -1 takes any size);
//   - builtin.shadow_output (by `output_name`) and builtin.set_parameter (by
//     `parameter_name`) put their operand in the fetches;
//   - an in-place pair of the op table presets the result to its operand's
//     tensor, so the kernel writes the operand's buffer (sgd_ updates the
//     fed parameter itself: state carries over between runs);
//   - a `<<NULL TYPE>>` result is dropped as soon as its kernel returns;
//   - every other result must be what the op declares (dtype, and shape
//     with -1 any size; a vec's elements each): a kernel's result that is
//     not is an error located at that op, not at a later consumer;
//   - a plain sgd_ whose gradient only a matmul_grad's y_grad gives may be
//     made by that GEMM (CompileOptions::fuseUpdates, update_fusion.h);
//   - a squared loss's square and square_grad may be made by its reduction
//     and reduction grad (CompileOptions::fuseLoss, loss_fusion.h);
//   - with RunStats::checkFinite, a fed tensor or a kernel's result holding
//     NaN or an infinity is an error located at its op (pir-run
//     --check-finite): feeds are checked first, so the first op that fails
//     is the first to make a non-finite value from finite operands.
//
// Region ops run their regions (the op table's RegionRun: pd_op.if's taken
// branch, pd_op.while's body while its condition holds, cinn_op.group
// inline), whose steps follow the op's in the plan; a value read inside a
// region lives until its region op has finished. A kernel-dialect op runs
// as the op its `op_name` names (core::lookupRunOp).
//
// An op without a kernel, one the op table refuses (the cf stack ops,
// cinn_runtime.jit_kernel), a region op of unknown semantics or a value of a
// type the runner cannot hold is an error of compile(), located at the op
// (Status offset); every such op of the program is listed at once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/program.h"
#include "core/status.h"
#include "runtime/kernel.h"
#include "runtime/trace_sink.h"

namespace pir::runtime {

using TensorMap = std::unordered_map<std::string, Tensor>;

/// A value the program takes from the feeds.
struct ProgramInput {
  enum class Kind { Data, Parameter, Kwarg } kind = Kind::Data;
  std::string name;
  const core::Operation* op = nullptr;  // null for a kwarg
  DataType dtype = DataType::Undefined;
  std::vector<int64_t> shape;  // the program's (local) shape; -1: any
  bool persistable = false;    // a persistable pd_op.data or kwarg: state, not a feed

  /// Parameters and persistable values are state (they carry over steps and
  /// are reported); everything else is a feed. The one test.
  bool isState() const { return kind == Kind::Parameter || persistable; }
};

struct RunStats {
  double kernelSeconds = 0;    // in kernels (communication kernels included)
  TraceSink* trace = nullptr;  // when set, every op's run and its communication go there (trace_sink.h)
  bool checkFinite = false;    // fail on the first NaN or infinity fed or made (pir-run --check-finite)
  /// When set, a copy of every tensor the top block's ops make, as each is
  /// made, with its value (pir-run --dump-values).
  std::vector<std::pair<const core::Value*, Tensor>>* madeValues = nullptr;
  /// A while that runs more iterations is an error at it (0: no limit; a
  /// loop runs as long as its data says, until the run is stopped).
  uint64_t maxLoopIterations = 0;
};

/// How compile() may change the op-by-op order of work.
struct CompileOptions {
  /// A plain sgd_ of a matmul_grad's y_grad is made by that GEMM itself
  /// (runtime/update_fusion.h): the gradient is never stored. Off where
  /// every value must be the op's own (--dump-values, --check-finite,
  /// --check's serial reference).
  bool fuseUpdates = true;
  /// A squared loss's reduction sums the squares as it makes them, and its
  /// reduction grad makes the square_grad (runtime/loss_fusion.h): bitwise
  /// the same results, but the squares and the broadcast gradient are never
  /// stored. Off where every value must be made (as fuseUpdates).
  bool fuseLoss = true;
};

class Executor {
 public:
  /// The plan for `program`'s top block.
  static core::Result<std::unique_ptr<Executor>> compile(const core::Program& program,
                                                         const KernelRegistry& registry = kernelRegistry(),
                                                         const CompileOptions& options = {});
  ~Executor();

  /// Runs the plan once. `comm` may be null for a program without
  /// communication. A kernel's failure is returned with the op's offset and
  /// its name in the message (`pd_op.relu: ...`).
  core::Status run(const TensorMap& feeds, TensorMap& fetches, Communicator* comm = nullptr, RunStats* stats = nullptr);

  const std::vector<ProgramInput>& inputs() const { return inputs_; }
  /// The names builtin.shadow_output writes, in program order.
  const std::vector<std::string>& outputNames() const { return outputs_; }
  size_t numSteps() const;
  /// How many sgd_ updates their matmul_grad makes (CompileOptions::fuseUpdates).
  /// A run whose feeds hold a fused update's parameter or learning rate
  /// under a second name too runs a plan without them.
  size_t numFusedUpdates() const;
  /// How many squares and square_grads their reduction or reduction grad
  /// makes (CompileOptions::fuseLoss).
  size_t numFusedLossOps() const;
  const core::Operation& stepOp(uint32_t step) const;

  struct Plan;   // opaque, immutable after compile(): executor.cpp
  struct State;  // one run's values: the slots and the operands' pointers into them

 private:
  Executor();
  std::shared_ptr<const Plan> plan_;
  std::unique_ptr<State> state_;
  // With fused updates: the plan without them, and its state, for a run
  // whose feeds share a fused update's tensors (update_fusion.h).
  std::shared_ptr<const Plan> unfused_;
  std::unique_ptr<State> unfusedState_;
  std::vector<ProgramInput> inputs_;
  std::vector<std::string> outputs_;
};

}  // namespace pir::runtime
