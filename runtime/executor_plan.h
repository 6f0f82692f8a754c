//===- executor_plan.h - the plan compile() makes ----------------*- C++ -*-===//
//
// Private to the executor: the steps of a compiled program, its regions and
// the type each result must have. executor_plan.cpp builds a plan,
// executor.cpp runs it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/executor.h"

namespace pir::runtime {

/// Kernel, Feed and Fetch are one op's; If, While and Inline run their
/// regions' steps, which follow them in Plan::steps; Yield (a region's
/// cf.yield, its last step) copies its operands into its targets.
enum class StepKind : uint8_t { Kernel, Feed, Fetch, If, While, Inline, Yield };

struct Step {
  KernelFn fn = nullptr;
  const core::Operation* op = nullptr;
  const core::Operation* made = nullptr;  // the op whose results the step makes: op, or a fused loss's square_grad
  StepKind kind = StepKind::Kernel;
  uint32_t next = 0;                           // the step after this one and its regions' steps
  uint32_t region = 0;                         // If/While/Inline: its first region in Plan::regions
  uint32_t targetBegin = 0;                    // Yield: its targets in Plan::yieldTargets (one per operand)
  uint32_t operandBegin = 0, numOperands = 0;  // into Plan::operandSlots
  uint32_t resultBegin = 0, numResults = 0;    // slot indices
  uint32_t inplaceBegin = 0, numInplace = 0;   // into Plan::inplace
  uint32_t dropBegin = 0, numDrop = 0;         // into Plan::drops: null-typed results, then freed slots
  uint32_t numNullResults = 0;                 // the first numNullResults drops
  uint32_t name = 0;                           // feed or fetch: into Plan::names
  uint64_t dying = 0;                          // Kernel: bit i, operand i's value is read by no later step
};

/// What a result's type declares; the kernel's value is checked against it.
struct Declared {
  enum class Kind : uint8_t {
    Null,    // `<<NULL TYPE>>`: dropped, not checked
    Any,     // a vec nested in a vec: not checked
    Tensor,  // dtype and dims (-1: any size)
    List,    // a vec: elements [elemBegin, elemBegin + numElems) of Plan::elements
  } kind = Kind::Null;
  DataType dtype = DataType::Undefined;
  std::span<const int64_t> dims;  // into the type, which lives as long as the program
  uint32_t elemBegin = 0, numElems = 0;
};

/// No slot: an absent optional operand (`<<NULL VALUE>>`).
constexpr uint32_t kNoSlot = UINT32_MAX;

/// A region's steps, and what a while body carries: its block arguments'
/// slots and the slot its cf.yield writes the next condition to.
struct RegionPlan {
  uint32_t stepBegin = 0, stepEnd = 0;
  uint32_t argBegin = 0, numArgs = 0;  // into Plan::argSlots
  uint32_t condSlot = kNoSlot;
};

struct Executor::Plan {
  std::vector<Step> steps;
  std::vector<uint32_t> operandSlots;  // per operand of every step, or kNoSlot
  uint32_t numSlots = 0;
  std::vector<core::InplacePair> inplace;
  std::vector<uint32_t> drops;
  std::vector<std::string> names;
  std::vector<std::vector<int64_t>> feedShapes;  // by feed step's name index
  std::vector<DataType> feedTypes;
  std::vector<Declared> declared;  // by slot: an op result's type (feeds' are Null: checked as feeds)
  std::vector<Declared> elements;  // the element types of vec results
  std::vector<RegionPlan> regions;
  std::vector<uint32_t> argSlots;       // while bodies' block arguments
  std::vector<uint32_t> yieldTargets;   // per cf.yield operand: the slot it writes
  std::vector<bool> yieldCarries;       // beside yieldTargets: a while's carried value (made the body's own)
  uint32_t fusedUpdates = 0;            // sgd_ steps their matmul_grad's GEMM makes (update_fusion.h)
  uint32_t fusedLossOps = 0;            // squares and square_grads their reduction (grad) makes (loss_fusion.h)
  std::vector<std::string> fusedFeeds;  // their parameters' and learning rates' feed names, each once
  std::vector<std::string> feedNames;   // every name a feed step reads, each once
};

/// Builds `plan` for `body`, a program's top block, and the inputs and
/// outputs it reads and writes: an error located at the first op that cannot
/// run, with every other such op as a note.
core::Status buildPlan(const core::Block& body, Executor::Plan& plan, std::vector<ProgramInput>& inputs,
                       std::vector<std::string>& outputs, const KernelRegistry& registry,
                       const CompileOptions& options = {});

}  // namespace pir::runtime
