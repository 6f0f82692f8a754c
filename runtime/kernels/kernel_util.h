//===- kernel_util.h - what the data-movement kernels share ------*- C++ -*-===//
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/attr_access.h"
#include "runtime/kernel.h"

namespace pir::runtime {

/// The elements of an integer operand tensor (full_int_array's, or a
/// `full` of shape [1]) as int64.
core::Result<std::vector<int64_t>> intValues(const Tensor& t, std::string_view what);
/// The one element of a 0-D or [1] tensor, as a double.
core::Result<double> scalarValue(const Tensor& t, std::string_view what);
/// `axis` wrapped into [0, rank) (rank 0 counts as 1), or an error.
core::Result<int64_t> wrapAxis(int64_t axis, size_t rank);
/// The static dims of result `i`'s type, or nullopt when it has a -1 or is
/// not a tensor.
std::optional<std::vector<int64_t>> staticResultDims(const core::Operation& op, uint32_t i);

/// Copies the box of `extent` at `srcAt` in `src` to `dstAt` in `dst`
/// (same dtype and rank; row-major).
void copyBox(const Tensor& src, std::span<const int64_t> srcAt, Tensor& dst, std::span<const int64_t> dstAt,
             std::span<const int64_t> extent);

/// Fills `t` with `v` converted to its dtype.
void fillWith(Tensor& t, double v);

std::string dimsText(std::span<const int64_t> dims);

}  // namespace pir::runtime
