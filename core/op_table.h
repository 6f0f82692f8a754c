//===- op_table.h - what is known of each op, by name ------------*- C++ -*-===//
//
// One home for op knowledge (in the spirit of MLIR's registered operation
// info, without a code generator): per op name, its operand, result and
// attribute names in Paddle's order, in-place pairs, the attribute that
// names a value, how its regions print, which operands it is linear in, and
// for the ops passes create a result-type function. The facts come from
// Paddle's op definitions (paddle/phi/ops/yaml/ops.yaml, backward.yaml,
// inconsistent/*.yaml, paddle/fluid/pir/dialect/operator/ir/ops.yaml and
// paddle/pir/include/core/builtin_op.h).
//
// The table is constant data: looking an op up allocates nothing and is
// safe from any number of threads. An op without an entry is legal and
// generic; every question about it answers "unknown". An entry's address is
// its identity for as long as the process runs, and index() numbers the
// entries densely, so a kernel registry can map entry -> kernel in a vector.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/attributes.h"
#include "core/hash.h"
#include "core/operation.h"
#include "core/pointer_map.h"
#include "core/status.h"
#include "core/types.h"
#include "core/value.h"

namespace pir::core {

class Value;

/// How an op's regions print: generically (blocks after the op's
/// signature), `pd_op.if`'s `{ .. } else { .. }`, or `pd_op.while`'s
/// `(cond=%c, inputs=..) { ^%arg_0 .. }`.
enum class RegionSyntax : uint8_t { Generic, IfElse, While };

/// The op writes operand `operand`'s value in place and returns it as
/// result `result` (Paddle's `inplace: (x -> out)`).
struct InplacePair {
  uint32_t operand;
  uint32_t result;
};

/// One signature of an op. Where Paddle changed a signature (adam_ and
/// adamw_ gained moment2_max for amsgrad) an op has several, told apart by
/// operand count.
struct OpLayout {
  std::span<const std::string_view> operands = {};
  std::span<const std::string_view> results = {};
  std::span<const InplacePair> inplace = {};
  /// Bit i: the op is linear in operand i with the others fixed (with a
  /// variadic tail, the last name's bit covers every operand from there).
  uint32_t linear = 0;
  bool variadicOperands = false;  // the last operand name repeats (builtin.combine's inputs)
  bool variadicResults = false;   // the last result name repeats (builtin.split's outputs)
};

/// Traits the passes ask about.
enum OpTraits : uint8_t {
  kNoTraits = 0,
  /// builtin.combine and builtin.split: pack values into a vec or unpack
  /// one, computing nothing; Paddle's passes look through them
  /// (infer_chunk_id takes their user's chunk, partition skips them).
  kPacksVec = 1 << 0,
  /// A parameter's gradient stays that parameter's gradient through this op
  /// (reshaped, cast, accumulated, reduced across ranks): the ops
  /// classifyBackward's data-flow rule follows on the way to an optimizer.
  kPassesGradient = 1 << 1,
  /// Computes nothing new: moves, cuts, joins, reshapes or reduces data
  /// across ranks, as the steps of a lowered reshard do (and the constants
  /// they use). pipeline-split runs such a step where its data is needed
  /// when it follows a recv_v2, where its data is made when it feeds a
  /// send_v2 (passes/comm_placement.h).
  kReshardStep = 1 << 2,
};

/// How an op meets the scope a program runs in (an executor's feeds and
/// fetches), by the name in its `scopeKey` attribute: it reads a feed
/// (pd_op.data by `name`) or a parameter (builtin.parameter by
/// `parameter_name`), or writes an output (builtin.shadow_output by
/// `output_name`) or a parameter (builtin.set_parameter by `parameter_name`).
enum class ScopeAccess : uint8_t { None, ReadsData, ReadsParameter, WritesOutput, WritesParameter };

/// How an op talks to other ranks: the one list the runtime's comm kernels
/// are registered from and the static communication check reads
/// (passes/schedule/comm_ops.h). AllReduceSum (c_allreduce_sum) and
/// ReduceScatter sum whatever a reduce_type says.
enum class Communication : uint8_t {
  None,
  Send,
  Recv,
  AllReduce,
  AllReduceSum,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast,
};

/// How the runner runs an op's regions.
enum class RegionRun : uint8_t {
  None,
  /// pd_op.if: region 0 when the 0-D or 1-element bool condition holds,
  /// else region 1; the taken region's cf.yield gives the results.
  IfElse,
  /// pd_op.while(cond=, inputs=): while the condition holds, the body runs
  /// with the carried values as its block arguments; its cf.yield gives the
  /// next condition, then the next values, which are the results at the end.
  While,
  /// cinn_op.group and cinn_op.fusion: the one region runs in place, reading
  /// outer values; its cf.yield gives the results.
  Inline,
};

/// A tensor as result-type functions see it: dtype and dims (-1: dynamic).
struct TensorSpec {
  DataType dtype = DataType::Undefined;
  std::vector<int64_t> dims;
  bool operator==(const TensorSpec&) const = default;
};

/// A value as result-type functions see it: one tensor, the elements of a
/// `vec[..]` (isList), or nothing (an absent optional value). For an
/// operand, `definingOp` is its producer (null for a block argument), so a
/// function can read a `full_int_array`'s `value`.
struct ValueSpec {
  std::vector<TensorSpec> tensors;
  bool isList = false;
  const Operation* definingOp = nullptr;

  static ValueSpec tensor(DataType dtype, std::vector<int64_t> dims) { return {{{dtype, std::move(dims)}}}; }
  static ValueSpec list(std::vector<TensorSpec> elems) { return {std::move(elems), true}; }
  bool isTensor() const { return !isList && tensors.size() == 1; }
  bool operator==(const ValueSpec& o) const { return tensors == o.tensors && isList == o.isList; }
};

/// What a result-type function gets: the operand specs in order and the
/// op's attributes (as an Operation holds them).
struct ResultTypeQuery {
  std::span<const ValueSpec> operands;
  std::span<const NamedAttr> attrs;
  const Attribute* attr(std::string_view key) const;
};

/// The specs of an op's results (a `vec[..]` result is one list spec), or
/// an error saying why the operands and attributes allow none.
using ResultTypeFn = Result<std::vector<ValueSpec>> (*)(const ResultTypeQuery&);

/// Whether an op is linear in its operands depends on an attribute for a
/// few ops (scale's bias, all_reduce's reduce type); null: it does not.
using LinearWhenFn = bool (*)(const Operation&);

enum class Linearity : uint8_t { Unknown, Linear, NotLinear };

/// One entry of the table. Fields are public so the table is a constant
/// aggregate; read them through the member functions where there is one.
struct OpInfo {
  std::string_view name = {};
  OpLayout layout = {};                         // Paddle's current signature
  std::span<const OpLayout> olderLayouts = {};  // earlier ones, by operand count
  /// The op's attribute names in the order of Paddle's ops.yaml /
  /// backward.yaml `args` (after the tensor inputs; a mutable attribute
  /// printed as an operand is in `layout.operands` instead), then the
  /// `extra` ones PIR prints for it (builtin.parameter's need_clip, add_'s
  /// grad_merge_add). The attributes PIR may put on any op are not listed
  /// (genericAttributes). An op without attributes has an empty list that is
  /// recorded (op_table_data.cpp's kNoAttrs, whose data() is not null); a
  /// default (null) span is not recorded: attributesRecorded() says which.
  std::span<const std::string_view> attributes = {};
  std::string_view nameAttr = {};  // the attribute naming a value, or empty
  RegionSyntax regionSyntax = RegionSyntax::Generic;
  uint8_t traits = kNoTraits;  // OpTraits
  ScopeAccess scope = ScopeAccess::None;
  std::string_view scopeKey = {};  // the attribute naming what `scope` reads or writes
  Communication comm = Communication::None;
  RegionRun regionRun = RegionRun::None;
  /// Why the runner refuses the op (a located error naming it), or empty.
  std::string_view refusal = {};
  LinearWhenFn linearWhen = nullptr;   // null: the linear masks hold unconditionally
  ResultTypeFn resultTypes = nullptr;  // null: none (yet)

  /// Dense number of this entry, 0 .. opTable().size() - 1.
  uint32_t index() const;
  bool has(OpTraits t) const { return (traits & t) != 0; }
  /// Whether `attributes` is recorded (possibly empty: the op has none).
  bool attributesRecorded() const { return attributes.data() != nullptr; }
  /// Whether an op of this entry with `numOperands` operands may print the
  /// attribute `key`: one of its own, one PIR puts on any op
  /// (genericAttributes), or a mutable attribute that Paddle's current
  /// signature takes as an operand but an older era printed as an attribute
  /// (2023 dumps: sum's `axis`, scale's `scale`, uniform's `shape`), which
  /// is an operand name at or past `numOperands`. True for every key when
  /// the list is not recorded.
  bool mayPrintAttribute(std::string_view key, uint32_t numOperands) const;

  /// The layout an op with `numOperands` operands has: with one layout,
  /// that one whatever the count (callers check indices); with several,
  /// the one of that count, or null when none has it.
  const OpLayout* layoutFor(uint32_t numOperands) const;
  /// The in-place pairs of an op with `numOperands` operands (empty when
  /// its layout is unknown).
  std::span<const InplacePair> inplacePairs(uint32_t numOperands) const;
  /// Whether some layout of the op writes an operand in place.
  bool writesInPlace() const;
  /// The index of the operand called `operand` (the first of a variadic
  /// tail) in an op of `numOperands` operands, or -1, also when the op has
  /// too few operands to hold it; without a count, in Paddle's current
  /// signature.
  int operandIndex(std::string_view operand, uint32_t numOperands) const;
  int operandIndex(std::string_view operand) const {
    return operandIndex(operand, static_cast<uint32_t>(layout.operands.size()));
  }
  /// The name of operand `i` (a variadic tail repeats its name), or empty.
  std::string_view operandName(uint32_t i, uint32_t numOperands) const;
};

/// Every entry, in index order.
std::span<const OpInfo> opTable();
/// The attributes PIR may put on any op, beside the op's own
/// (OpInfo::attributes): the per-result `stop_gradient` and `persistable`
/// that Value::set_attribute keeps on the defining op; `op_role` and
/// `chunk_id`, stamped by the Builder's guards and the auto-parallel passes;
/// the distributed dialect's `op_dist_attr`; dy2static's `struct_name`, the
/// layer an op was traced in; the new executor's `execution_stream`, which
/// the reshard lowering sets on collectives; and apply_partition's
/// `replace_all_uses_with_reshard_var` (research/paddle.md §1 and §3,
/// research/lowering.md). Sorted.
std::span<const std::string_view> genericAttributes();
/// The entry for `name`, or null for an op the table does not know.
const OpInfo* lookupOp(std::string_view name);
const OpInfo* lookupOp(const Operation& op);
/// lookupOp for the ops of a walk over one program: op names are interned
/// in its Context (or in one it was made over), so a name's address keys
/// the answer, and the op table is searched once per distinct name, not
/// once per op. Keep one no longer than the program's Context.
class OpInfoCache {
 public:
  /// Inline: a pass may ask every op (partition-rank, dist-to-dense), and a
  /// map lookup was 56 instructions an op. A slot chosen by the name's
  /// address answers most; the map answers the rest and fills the slot.
  [[gnu::always_inline]] const OpInfo* lookup(const Operation& op) {
    std::string_view name = op.name();
    const Recent& r = recent_[slotOf(name.data())];
    if (r.name && r.name == name.data() && r.size == name.size()) return r.info;
    return lookupSlow(name);
  }

 private:
  const OpInfo* lookupSlow(std::string_view name);

  struct Answer {
    size_t nameSize;
    const OpInfo* info;
  };
  struct Recent {
    const char* name = nullptr;  // an interned name's address (a null one is never kept)
    size_t size = 0;
    const OpInfo* info = nullptr;
  };
  static constexpr int kRecentBits = 6;
  static size_t slotOf(const char* name) { return fibonacciSlot(reinterpret_cast<uintptr_t>(name), kRecentBits); }
  Recent recent_[size_t{1} << kRecentBits];
  PointerMap<Answer> byName_;  // by the name's address
};

/// The entry `op` runs as: its own, or for an op of the kernel dialect
/// (`"add(phi_kernel)"`, `"..(legacy_kernel)"`) the entry of the `op_name`
/// it carries (pd_op.add); null when there is none.
const OpInfo* lookupRunOp(const Operation& op);

/// An optimizer op's parameter and gradient operands (an entry whose
/// signature has a `param` and a `grad` operand: sgd_, adam_, adamw_, lamb_,
/// momentum_). An optimizer op short of either has -1 for it, not an index
/// past its operands; any other op has -1, -1 and `optimizer` false. The
/// one optimizer test.
struct OptimizerOperands {
  int param = -1, grad = -1;
  bool optimizer = false;  // the op is of an optimizer's kind, whatever its operands
  explicit operator bool() const { return param >= 0 && grad >= 0; }
};
OptimizerOperands optimizerOperands(const Operation& op);

/// Whether `op` is linear in operand `operand` with the others fixed:
/// Unknown for an op without an entry (which is not "linear in nothing").
Linearity linearityOf(const Operation& op, uint32_t operand);

/// The entry's result specs for `operands` and `attrs`; an error when the
/// op has no result-type function, or the function finds none.
Result<std::vector<ValueSpec>> inferResultTypes(const OpInfo& info, std::span<const ValueSpec> operands,
                                                std::span<const NamedAttr> attrs);
/// The spec of `v` as an operand: its type's dtype and dims (a `vec[..]`'s
/// elements), its producer; an empty spec for null, an error for a type
/// that is no tensor.
Result<ValueSpec> operandSpec(const Value* v);
/// inferResultTypes for the operands and attributes `op` has now.
Result<std::vector<ValueSpec>> inferResultTypes(const Operation& op);

}  // namespace pir::core
