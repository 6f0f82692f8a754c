//===- op_result_types.h - the op table's functions -------------*- C++ -*-===//
//
// Internal to core: the result-type functions and linearity conditions the
// op table (op_table_data.cpp) points at. Each follows the op's InferMeta
// in Paddle on dtype and dims (-1: dynamic); callers build dense or dist
// types from the specs.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "core/op_table.h"

namespace pir::core::op_types {

using Specs = Result<std::vector<ValueSpec>>;

Specs matmul(const ResultTypeQuery& q);
Specs transpose(const ResultTypeQuery& q);
Specs reshape(const ResultTypeQuery& q);
Specs slice(const ResultTypeQuery& q);
Specs split(const ResultTypeQuery& q);
Specs splitWithNum(const ResultTypeQuery& q);
Specs concat(const ResultTypeQuery& q);
Specs full(const ResultTypeQuery& q);
Specs fullIntArray(const ResultTypeQuery& q);
Specs fullLike(const ResultTypeQuery& q);
/// assign, all_reduce, all_to_all, broadcast: the operand's spec.
Specs sameAsX(const ResultTypeQuery& q);
Specs allGather(const ResultTypeQuery& q);
Specs reduceScatter(const ResultTypeQuery& q);
Specs sendV2(const ResultTypeQuery& q);
Specs recvV2(const ResultTypeQuery& q);

/// scale: linear (in x and in scale) only when its bias is 0; a bias that
/// is not a number counts as not 0.
bool scaleBiasIsZero(const Operation& op);
/// all_reduce: linear for SUM (0) and AVG (4), the default SUM included.
bool reducesLinearly(const Operation& op);
/// pool2d: linear for average pooling only.
bool poolsByAverage(const Operation& op);

}  // namespace pir::core::op_types
