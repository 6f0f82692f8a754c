//===- inputs.h - a run's feeds, parameters and state ---------*- C++ -*-===//
//
// Every input of a program (pd_op.data by `name`, builtin.parameter by
// `parameter_name`, kwargs by keyword) is read from DIR/NAME.npy, or drawn:
//
//   - float feeds: standard normal; parameters: normal x 0.25; integer and
//     bool feeds: zeros. A dynamic (-1) dim cannot be drawn: an error asking
//     for a file.
//   - the generator: for each name, a std::mt19937_64 seeded with
//     `seed ^ fnv1a64(name)`; uniforms u = (next >> 11) * 2^-53 in [0, 1),
//     taken in pairs by Box-Muller: sqrt(-2 ln(1 - u1)) * cos(2 pi u2), then
//     the same radius times sin(2 pi u2), element by element in C order.
//     So a value never depends on the order of ops or on the rank count.
//   - persistable pd_op.data is state, not a feed: read from DIR/NAME.npy if
//     there is one, else a learning rate (`learning_rate*`) is 0.1, a beta pow
//     (`*beta1_pow*`, `*beta2_pow*`) the beta of the optimizer op using it,
//     anything else (moments) 0.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/diagnostics.h"
#include "core/status.h"
#include "runtime/executor.h"

namespace pir::runtime::runner {

struct InputOptions {
  std::string dir;  // empty: draw every input
  uint64_t seed = 0;
};

/// FNV-1a, 64 bits (offset basis 14695981039346656037, prime
/// 1099511628211; core::hashString): the per-name part of each input
/// generator's seed.
uint64_t fnv1a64(std::string_view s);

/// With a folder: that it is one (a missing folder is named as such, not
/// as every input missing in it).
core::Status checkInputFolder(const InputOptions& opts);

/// The tensor for each of `inputs` into `feeds`. A failure is located at
/// the op in `source` (naming the .npy file and both types); with a folder,
/// every missing feed and parameter is listed at once.
core::Status loadInputs(const std::vector<ProgramInput>& inputs, const InputOptions& opts,
                        const core::SourceFile& source, TensorMap& feeds);

/// The values drawn for `name` (exposed for tests and the README's rule).
Tensor drawNormal(const std::string& name, uint64_t seed, core::DataType dtype, std::span<const int64_t> shape,
                  double scale);

}  // namespace pir::runtime::runner
