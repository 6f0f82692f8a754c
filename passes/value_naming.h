//===- value_naming.h - names values are handed over under ------*- C++ -*-===//
//
// The naming rules of a split (program_splitter.cpp): a value read by a job
// that does not make it is handed over by name, as a kwarg of the reading
// job and a shadow_output of the making one. Its name is the one the input
// gives it (a `pd_op.data`'s `name`, a `builtin.parameter`'s
// `parameter_name`, an existing shadow_output's `output_name`), which must
// read back as a kwarg name, or a new `var_{idx}_{op}_{result}`, whose
// unfit op-name bytes are written as `_`. Each name stands for one value
// across all jobs, and a new name must not be one the input gives.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/diagnostics.h"
#include "core/program.h"
#include "core/status.h"

namespace pir::passes {

/// Text that stays where it is until the store goes: names made while the
/// reads are collected, read by later reads, then interned.
class NameStore {
 public:
  std::string_view keep(std::string_view s) {
    if (static_cast<size_t>(end_ - at_) < s.size()) {
      size_t n = std::max(s.size(), kBlock);
      blocks_.emplace_back(new char[n]);
      at_ = blocks_.back().get();
      end_ = at_ + n;
    }
    std::memcpy(at_, s.data(), s.size());
    at_ += s.size();
    return {at_ - s.size(), s.size()};
  }

 private:
  static constexpr size_t kBlock = size_t{1} << 20;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* at_ = nullptr;
  char* end_ = nullptr;
};

/// The attribute that names the value `op` makes or writes in the scope
/// (the op table's: a `pd_op.data`'s `name`, a `builtin.parameter`'s
/// `parameter_name`, a `builtin.shadow_output`'s `output_name`); empty for
/// other ops.
std::string_view nameAttrKey(const core::Operation& op);

/// The name a value has in the scope: a kwarg's keyword, or the naming
/// attribute of its producer (a builtin.parameter's parameter_name, a
/// pd_op.data's name); empty when it has none.
std::string scopeName(const core::Value* v);

/// The names the serial check (export-gradients) hands a parameter's
/// gradient over under: exported as `<param>@GRAD@CHECK`, and read back
/// by the optimizer as the kwarg `<param>@GRAD@CHECK_MEAN`.
std::string exportedGradientName(std::string_view param);
/// gradient-merge's buffer of a parameter's gradient: `<param>@GRAD@MERGE`.
std::string mergeBufferName(std::string_view param);
std::string fedGradientName(std::string_view param);
bool isExportedGradientName(std::string_view name);
/// The parameter an exported gradient's name is of (`w` for `w@GRAD@CHECK`).
std::string paramOfExported(std::string_view exported);
/// For a fed gradient's name, the exported one it takes the mean of; empty
/// for any other name.
std::string exportedOfFed(std::string_view fed);

/// Whether `name` reads back as a kwarg name (`%kwarg_NAME`): only letters,
/// digits, '_', '.' and '@'.
bool isKwargName(std::string_view name);

/// Sets `name` to the new name of result `result` of the program's op
/// number `producer`, named `opName`: `var_{producer}_{opName}_{result}`,
/// with the bytes of `opName` a kwarg name cannot hold written as `_`.
void newValueName(std::string& name, size_t producer, std::string_view opName, uint32_t result);

/// The located error for a value of `def` going to another job under the
/// name its attribute `givenBy` gives, which cannot be a kwarg name.
core::Status unfitGivenName(core::DiagnosticEngine& diag, const core::Operation& def, std::string_view givenBy,
                            std::string_view name);

/// Given names (and kwargs') are interned, so equal names are equal
/// pointers, and a sort of (name, owner) claims finds them. Returns the
/// owners of the clash found first while reading (the later owner the
/// smallest; addresses vary between runs), or kNoClash; empties `claims`.
inline constexpr std::pair<uint32_t, uint32_t> kNoClash{UINT32_MAX, UINT32_MAX};
std::pair<uint32_t, uint32_t> firstNameClash(std::vector<std::pair<const char*, uint32_t>>& claims);

/// The located error for two values handed over under one name: `later`,
/// found after `earlier`, has the same name `name`.
core::Status nameClash(core::DiagnosticEngine& diag, std::string_view name, const core::Value* earlier,
                       const core::Value* later);

/// Every name the input gives a value: its kwargs' and the naming
/// attributes (nameAttrKey) of all its ops.
std::unordered_set<std::string_view> namesGivenIn(const core::Program& program);

/// The located error for a value going to another job under the new name
/// `name`, which the input already gives another value.
core::Status newNameTaken(core::DiagnosticEngine& diag, const core::Value* value, std::string_view name);

}  // namespace pir::passes
