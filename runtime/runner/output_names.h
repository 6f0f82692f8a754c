//===- output_names.h - what a run's results are called -----------*- C++ -*-===//
//
// A run's results are one tensor per name: every output (shadow_output by
// `output_name`), parameter and piece of state. So within a program two
// outputs of one name, or an output named like a parameter or state, would
// overwrite each other (in the results, in --check and in the output
// folder): each is an error at the output. When the names become files
// (`--output-dir`, NAME.npy) each must also be one file name in that
// folder: not empty, `.` or `..`, no `/`, no control character (NUL
// included), at most 250 bytes; refused, not escaped, so a file's name is
// always its tensor's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <unordered_set>

#include "core/program.h"
#include "core/status.h"

namespace pir::runtime::runner {

struct OutputNameRules {
  bool asFiles = false;  // the names become NAME.npy files
  /// State of the whole run (other ranks' parameters too); null: only the
  /// program's own.
  const std::unordered_set<std::string>* stateNames = nullptr;
};

/// The first problem with the names of `program`'s outputs, parameters and
/// state under `rules`, located at the op (with a note at the first use of
/// a duplicated name); the caller adds the source.
core::Status checkOutputNames(const core::Program& program, const OutputNameRules& rules);

/// Why `name` cannot be a file name in the output folder, or empty.
std::string fileNameProblem(const std::string& name);

}  // namespace pir::runtime::runner
