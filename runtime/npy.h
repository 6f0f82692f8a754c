//===- npy.h - numpy .npy files in and out ----------------------*- C++ -*-===//
//
// The .npy format (numpy/lib/format.py): a magic "\x93NUMPY", a version
// (1.0: 16-bit header length; 2.0: 32-bit; 3.0: 32-bit, utf-8 header), a
// Python-literal dict {'descr', 'fortran_order', 'shape'} padded with spaces
// to a multiple of 64 bytes and ended by '\n', then the raw elements.
//
// Read: little-endian (or byte-order-free) f4, f8, i4, i8 and b1 in C order.
// Refused with a message saying why: Fortran order, object arrays, structured
// dtypes, big-endian, any other dtype, truncated data. numpy has no bf16, so a
// bf16 tensor is written as f4 (and a reader converts f4 to bf16 itself).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"
#include "runtime/tensor.h"

namespace pir::runtime {

/// The tensor in `bytes`, a whole .npy file; errors say what is wrong
/// (the caller prefixes the file name).
core::Result<Tensor> parseNpy(std::string_view bytes);
/// The .npy file at `path`; errors start with the path.
core::Result<Tensor> readNpy(const std::string& path);

/// The bytes of `t` as a .npy file (version 1.0, or 2.0 for a header longer
/// than 65535 bytes); bf16 becomes f4.
std::string encodeNpy(const Tensor& t);
core::Status writeNpy(const std::string& path, const Tensor& t);

/// Tensor `t` converted to `dtype` (F32 <-> BF16 only; the same tensor when
/// the dtypes agree).
Tensor convertFloat(const Tensor& t, DataType dtype);

}  // namespace pir::runtime
