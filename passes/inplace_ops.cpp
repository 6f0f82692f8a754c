//===- inplace_ops.cpp - the in-place table -------------------------------===//
#include "passes/inplace_ops.h"

#include <iterator>

namespace pir::passes {

namespace {

struct Entry {
  std::string_view name;
  unsigned numOperands;  // 0: any
  std::span<const InplacePair> pairs;
};

// sgd_(param, learning_rate, grad, master_param) -> (param_out, master_param_out)
constexpr InplacePair kSgd[] = {{0, 0}, {3, 1}};
// momentum_(param, grad, velocity, learning_rate, master_param)
//   -> (param_out, velocity_out, master_param_out)
constexpr InplacePair kMomentum[] = {{0, 0}, {2, 1}, {4, 2}};
// adam_/adamw_(param, grad, learning_rate, moment1, moment2, moment2_max, beta1_pow, beta2_pow,
//              master_param, skip_update) -> (param_out, moment1_out, moment2_out,
//              moment2_max_out, beta1_pow_out, beta2_pow_out, master_param_out)
constexpr InplacePair kAdamAmsgrad[] = {{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}, {8, 6}};
// Before amsgrad: (param, grad, learning_rate, moment1, moment2, beta1_pow, beta2_pow,
//                  master_param, skip_update) -> (param_out, moment1_out, moment2_out,
//                  beta1_pow_out, beta2_pow_out, master_param_out)
constexpr InplacePair kAdam[] = {{0, 0}, {3, 1}, {4, 2}, {5, 3}, {6, 4}, {7, 5}};
// add_(x, y) -> out
constexpr InplacePair kAdd[] = {{0, 0}};
// assign_out_(x, output) -> out
constexpr InplacePair kAssignOut[] = {{1, 0}};

constexpr Entry kTable[] = {
    {"pd_op.sgd_", 0, kSgd},
    {"pd_op.momentum_", 0, kMomentum},
    {"pd_op.adam_", 10, kAdamAmsgrad},
    {"pd_op.adam_", 9, kAdam},
    {"pd_op.adamw_", 10, kAdamAmsgrad},
    {"pd_op.adamw_", 9, kAdam},
    {"pd_op.add_", 0, kAdd},
    {"pd_op.assign_out_", 0, kAssignOut},
};

}  // namespace

std::span<const InplacePair> inplacePairs(std::string_view opName, unsigned numOperands, bool& known) {
  known = false;
  for (const Entry& e : kTable) {
    if (e.name != opName) continue;
    known = true;
    if (e.numOperands == 0 || e.numOperands == numOperands) return e.pairs;
  }
  return {};
}

}  // namespace pir::passes
