//===- op_result_types.cpp - result specs of the ops passes create --------===//
//
// Each function follows the op's InferMeta in Paddle (MatmulInferMeta,
// TransposeInferMeta, ReshapeInferMeta, SliceRawInferMeta, SplitInferMeta,
// ConcatInferMeta, CreateInferMeta, AllGatherInferMeta,
// ReduceScatterInferMeta, RecvV2InferMeta ...) on dtype and dims; -1 is a
// dynamic dim and stays one where it decides the result. A shape or axis an
// operand carries is read from its producer: a `full_int_array`'s `value`,
// a `full`'s `value`; failing that, from the attribute of the same name
// (older programs), or the dims it decides become dynamic.
//
//===----------------------------------------------------------------------===//
#include "core/op_result_types.h"

#include <algorithm>
#include <optional>
#include <string>

#include "core/operation.h"

namespace pir::core::op_types {

namespace {

using Dims = std::vector<int64_t>;

Status fail(const std::string& why) { return Status::error(why); }

std::string dimsText(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

const Attribute* untagged(const Attribute* a) {
  if (auto* t = a ? a->dynCast<TaggedAttr>() : nullptr) return t->inner();
  return a;
}

constexpr int64_t kMaxPieces = 1 << 20;  // split_with_num's num: more is a typo, not a model

std::optional<int64_t> intOf(const Attribute* a) {
  auto* n = untagged(a) ? untagged(a)->dynCast<NumberAttr>() : nullptr;
  if (!n) return std::nullopt;
  if (auto v = n->asInt()) return v;
  // A Scalar such as full's value prints as `(Float)1` or `(Double)1.0`.
  // Only a whole number inside int64's range converts (NaN, inf and 1e300
  // would be undefined behaviour in the cast).
  auto d = n->asDouble();
  if (!d || !(*d >= -9.2e18 && *d <= 9.2e18)) return std::nullopt;
  if (*d == static_cast<double>(static_cast<int64_t>(*d))) return static_cast<int64_t>(*d);
  return std::nullopt;
}

std::optional<Dims> intsOf(const Attribute* a) {
  auto* arr = untagged(a) ? untagged(a)->dynCast<ArrayAttr>() : nullptr;
  if (!arr) return std::nullopt;
  Dims out;
  for (const Attribute* e : arr->elements()) {
    auto v = intOf(e);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<bool> boolOf(const Attribute* a) {
  if (!a) return false;
  auto* b = untagged(a)->dynCast<BoolAttr>();
  return b ? std::optional<bool>(b->value()) : std::nullopt;
}

/// A DataType attribute, `(pd_op.DataType)float32` or bare `float32`.
std::optional<DataType> dtypeOf(const Attribute* a) {
  auto* s = untagged(a) ? untagged(a)->dynCast<SymbolAttr>() : nullptr;
  if (!s) return std::nullopt;
  static constexpr std::pair<std::string_view, DataType> kNames[] = {{"float32", DataType::F32},
                                                                     {"float64", DataType::F64},
                                                                     {"float16", DataType::F16},
                                                                     {"bfloat16", DataType::BF16},
                                                                     {"int8", DataType::I8},
                                                                     {"uint8", DataType::U8},
                                                                     {"int16", DataType::I16},
                                                                     {"int32", DataType::I32},
                                                                     {"int64", DataType::I64},
                                                                     {"bool", DataType::Bool},
                                                                     {"complex64", DataType::C64},
                                                                     {"complex128", DataType::C128},
                                                                     {"float8_e4m3fn", DataType::F8E4M3FN},
                                                                     {"float8_e5m2", DataType::F8E5M2},
                                                                     {"undefined", DataType::Undefined}};
  for (auto [name, t] : kNames)
    if (s->text() == name) return t;
  return std::nullopt;
}

Result<DataType> dtypeAttr(const ResultTypeQuery& q, DataType absent) {
  const Attribute* a = q.attr("dtype");
  if (!a) return absent;
  if (auto t = dtypeOf(a)) return *t;
  return fail("dtype is not a data type");
}

/// Operand `i` as one tensor.
Result<const TensorSpec*> tensorOperand(const ResultTypeQuery& q, size_t i) {
  if (i >= q.operands.size() || !q.operands[i].isTensor())
    return fail("operand " + std::to_string(i) + " is not a tensor");
  return &q.operands[i].tensors[0];
}

/// The integers operand `i` holds when its producer is a constant, else
/// those of attribute `key`; nothing when neither says.
std::optional<Dims> constantInts(const ResultTypeQuery& q, size_t i, std::string_view key) {
  if (i < q.operands.size()) {
    const Operation* def = q.operands[i].definingOp;
    if (def && def->name() == "pd_op.full_int_array") return intsOf(def->attr("value"));
    if (def && def->name() == "pd_op.full")
      if (auto v = intOf(def->attr("value"))) return Dims{*v};
    return std::nullopt;
  }
  const Attribute* a = q.attr(key);
  if (!a) return std::nullopt;
  if (auto v = intsOf(a)) return v;
  if (auto v = intOf(a)) return Dims{*v};
  return std::nullopt;
}

/// `axis` in [-rank, rank) made non-negative.
Result<int64_t> normalizeAxis(int64_t axis, size_t rank) {
  auto r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + r : axis;
}

Result<int64_t> axisOperand(const ResultTypeQuery& q, size_t i, size_t rank) {
  auto v = constantInts(q, i, "axis");
  if (!v || v->size() != 1) return fail("the axis is not a constant");
  return normalizeAxis((*v)[0], rank);
}

std::vector<ValueSpec> one(DataType dtype, Dims dims) { return {ValueSpec::tensor(dtype, std::move(dims))}; }

/// Numpy broadcasting of two batch shapes (right-aligned; -1 is dynamic).
Result<Dims> broadcast(const Dims& a, const Dims& b) {
  Dims out(std::max(a.size(), b.size()));
  for (size_t k = 0; k < out.size(); ++k) {
    int64_t x = k < a.size() ? a[a.size() - 1 - k] : 1, y = k < b.size() ? b[b.size() - 1 - k] : 1;
    int64_t& o = out[out.size() - 1 - k];
    if (x == y || y == 1)
      o = x;
    else if (x == 1)
      o = y;
    else if (x == -1 || y == -1)
      o = std::max(x, y) > 1 ? std::max(x, y) : -1;
    else
      return fail("batch dims " + dimsText(a) + " and " + dimsText(b) + " do not broadcast");
  }
  return out;
}

Result<int64_t> nranksAttr(const ResultTypeQuery& q) {
  auto n = intOf(q.attr("nranks"));
  if (!n || *n < 1) return fail("nranks is not a positive number");
  return *n;
}

/// `x` split along `axis` into pieces of `sizes` dims: one list result.
std::vector<ValueSpec> pieces(const TensorSpec& x, int64_t axis, const Dims& sizes) {
  std::vector<TensorSpec> elems;
  for (int64_t s : sizes) {
    elems.push_back(x);
    elems.back().dims[static_cast<size_t>(axis)] = s;
  }
  return {ValueSpec::list(std::move(elems))};
}

}  // namespace

Specs matmul(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0), y = tensorOperand(q, 1);
  if (!x) return x.takeStatus();
  if (!y) return y.takeStatus();
  auto tx = boolOf(q.attr("transpose_x")), ty = boolOf(q.attr("transpose_y"));
  if (!tx || !ty) return fail("transpose_x or transpose_y is not a boolean");
  Dims a = (*x)->dims, b = (*y)->dims;
  if (a.empty() || b.empty()) return fail("operands need rank 1 or more");
  // A 1-D x is read as [1,K], a 1-D y as [K,1]; the added dim is dropped.
  bool vx = a.size() == 1, vy = b.size() == 1;
  if (vx) a.insert(a.begin(), 1);
  if (vy) b.push_back(1);
  size_t n = a.size(), m = b.size();
  bool ta = *tx && !vx, tb = *ty && !vy;
  int64_t rows = ta ? a[n - 1] : a[n - 2], kx = ta ? a[n - 2] : a[n - 1];
  int64_t ky = tb ? b[m - 1] : b[m - 2], cols = tb ? b[m - 2] : b[m - 1];
  if (kx >= 0 && ky >= 0 && kx != ky)
    return fail("contracted dims differ: " + std::to_string(kx) + " and " + std::to_string(ky));
  auto out = broadcast(Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 2));
  if (!out) return out.takeStatus();
  if (!vx) out->push_back(rows);
  if (!vy) out->push_back(cols);
  return one((*x)->dtype, std::move(*out));
}

Specs transpose(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  auto perm = intsOf(q.attr("perm"));
  const Dims& d = (*x)->dims;
  if (!perm) return fail("perm is not a list of integers");
  if (perm->size() != d.size())
    return fail("perm " + dimsText(*perm) + " has " + std::to_string(perm->size()) + " entries for rank " +
                std::to_string(d.size()));
  Dims out(d.size());
  std::vector<bool> seen(d.size());
  for (size_t i = 0; i < perm->size(); ++i) {
    auto p = normalizeAxis((*perm)[i], d.size());
    if (!p) return p.takeStatus();
    if (seen[static_cast<size_t>(*p)]) return fail("perm " + dimsText(*perm) + " repeats an axis");
    seen[static_cast<size_t>(*p)] = true;
    out[i] = d[static_cast<size_t>(*p)];
  }
  return one((*x)->dtype, std::move(out));
}

Specs reshape(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  const Dims& d = (*x)->dims;
  auto shape = constantInts(q, 1, "shape");
  if (!shape) {
    // A shape computed at run time: its length is all that is known.
    if (q.operands.size() > 1 && q.operands[1].isTensor() && q.operands[1].tensors[0].dims.size() == 1 &&
        q.operands[1].tensors[0].dims[0] >= 0)
      return one((*x)->dtype, Dims(static_cast<size_t>(q.operands[1].tensors[0].dims[0]), -1));
    return fail("the shape is not known");
  }
  Dims out = *shape;
  int inferred = -1;
  int64_t known = 1;
  bool dynamic = std::any_of(d.begin(), d.end(), [](int64_t v) { return v < 0; });
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      if (i >= d.size())
        return fail("shape " + dimsText(*shape) + " copies dim " + std::to_string(i) + " of a rank-" +
                    std::to_string(d.size()) + " input");
      out[i] = d[i];
      if (out[i] < 0) continue;
    } else if (out[i] == -1) {
      if (inferred >= 0) return fail("shape " + dimsText(*shape) + " has more than one -1");
      inferred = static_cast<int>(i);
      continue;
    } else if (out[i] < 0) {
      return fail("shape " + dimsText(*shape) + " has a negative dim other than -1");
    }
    if (__builtin_mul_overflow(known, out[i], &known)) return fail("shape " + dimsText(*shape) + " overflows int64");
  }
  if (dynamic) return one((*x)->dtype, std::move(out));
  int64_t total = 1;
  for (int64_t v : d)
    if (__builtin_mul_overflow(total, v, &total)) return fail("input " + dimsText(d) + " overflows int64");
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) return fail("cannot reshape " + dimsText(d) + " into " + dimsText(*shape));
    out[static_cast<size_t>(inferred)] = total / known;
  } else if (known != total) {
    return fail("cannot reshape " + dimsText(d) + " (" + std::to_string(total) + " elements) into " + dimsText(out));
  }
  return one((*x)->dtype, std::move(out));
}

Specs slice(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  Dims out = (*x)->dims;
  auto axes = intsOf(q.attr("axes"));
  if (!axes) return fail("axes is not a list of integers");
  auto starts = constantInts(q, 1, "starts"), ends = constantInts(q, 2, "ends");
  if ((starts && starts->size() != axes->size()) || (ends && ends->size() != axes->size()))
    return fail("starts and ends need one entry per axis of " + dimsText(*axes));
  Dims flags = intsOf(q.attr("infer_flags")).value_or(Dims());
  for (size_t i = 0; i < axes->size(); ++i) {
    auto axis = normalizeAxis((*axes)[i], out.size());
    if (!axis) return axis.takeStatus();
    int64_t& dim = out[static_cast<size_t>(*axis)];
    if (dim < 0) continue;
    if (!starts || !ends || (i < flags.size() && flags[i] == -1)) {
      dim = -1;  // bounds known only at run time
      continue;
    }
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + dim : v, int64_t{0}, dim); };
    dim = std::max(clamp((*ends)[i]) - clamp((*starts)[i]), int64_t{0});
  }
  Dims decrease = intsOf(q.attr("decrease_axis")).value_or(Dims());
  std::vector<bool> drop(out.size());
  for (int64_t a : decrease) {
    auto axis = normalizeAxis(a, out.size());
    if (!axis) return axis.takeStatus();
    if (out[static_cast<size_t>(*axis)] > 1)
      return fail("decrease_axis drops axis " + std::to_string(a) + " of size " +
                  std::to_string(out[static_cast<size_t>(*axis)]));
    drop[static_cast<size_t>(*axis)] = true;
  }
  Dims kept;
  for (size_t i = 0; i < out.size(); ++i)
    if (!drop[i]) kept.push_back(out[i]);
  return one((*x)->dtype, std::move(kept));
}

Specs split(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  auto axis = axisOperand(q, 2, (*x)->dims.size());
  if (!axis) return axis.takeStatus();
  auto sections = constantInts(q, 1, "sections");
  if (!sections || sections->empty()) return fail("the sections are not a constant list");
  Dims out = *sections;
  int64_t dim = (*x)->dims[static_cast<size_t>(*axis)], sum = 0;
  long inferred = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1 && inferred < 0)
      inferred = static_cast<long>(i);
    else if (out[i] < 0)
      return fail("sections " + dimsText(*sections) + " has a bad size");
    else
      sum += out[i];
  }
  if (dim >= 0) {
    if (inferred >= 0 ? sum > dim : sum != dim)
      return fail("sections " + dimsText(*sections) + " do not add up to dim " + std::to_string(dim));
    if (inferred >= 0) out[static_cast<size_t>(inferred)] = dim - sum;
  }
  return pieces(**x, *axis, out);
}

Specs splitWithNum(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  auto axis = axisOperand(q, 1, (*x)->dims.size());
  if (!axis) return axis.takeStatus();
  auto num = intOf(q.attr("num"));
  if (!num || *num < 1) return fail("num is not a positive number");
  int64_t dim = (*x)->dims[static_cast<size_t>(*axis)];
  // One result per piece: a count past any real split is refused before a
  // vector of that many pieces is made.
  if (*num > kMaxPieces || (dim >= 0 && *num > std::max<int64_t>(dim, 1)))
    return fail("num " + std::to_string(*num) + " is more pieces than dim " + std::to_string(dim) + " allows");
  if (dim >= 0 && dim % *num != 0)
    return fail("dim " + std::to_string(dim) + " does not split into " + std::to_string(*num));
  return pieces(**x, *axis, Dims(static_cast<size_t>(*num), dim < 0 ? -1 : dim / *num));
}

Specs concat(const ResultTypeQuery& q) {
  if (q.operands.empty() || !q.operands[0].isList || q.operands[0].tensors.empty())
    return fail("operand 0 is not a non-empty vec[..]");
  const std::vector<TensorSpec>& xs = q.operands[0].tensors;
  Dims out = xs[0].dims;
  auto axis = axisOperand(q, 1, out.size());
  if (!axis) return axis.takeStatus();
  auto a = static_cast<size_t>(*axis);
  for (size_t k = 1; k < xs.size(); ++k) {
    const Dims& d = xs[k].dims;
    if (d.size() != out.size())
      return fail("element " + std::to_string(k) + " has rank " + std::to_string(d.size()) + ", element 0 rank " +
                  std::to_string(out.size()));
    for (size_t i = 0; i < d.size(); ++i) {
      if (i == a) {
        out[i] = out[i] < 0 || d[i] < 0 ? -1 : out[i] + d[i];
      } else if (out[i] >= 0 && d[i] >= 0 && out[i] != d[i]) {
        return fail("element " + std::to_string(k) + " is " + dimsText(d) + ", element 0 " + dimsText(xs[0].dims) +
                    " off axis " + std::to_string(a));
      } else if (out[i] < 0) {
        out[i] = d[i];
      }
    }
  }
  return one(xs[0].dtype, std::move(out));
}

Specs full(const ResultTypeQuery& q) {
  auto shape = intsOf(q.attr("shape"));
  if (!shape) return fail("shape is not a list of integers");
  auto dtype = dtypeAttr(q, DataType::F32);
  if (!dtype) return dtype.takeStatus();
  return one(*dtype, std::move(*shape));
}

Specs fullIntArray(const ResultTypeQuery& q) {
  auto value = intsOf(q.attr("value"));
  if (!value) return fail("value is not a list of integers");
  auto dtype = dtypeAttr(q, DataType::F32);
  if (!dtype) return dtype.takeStatus();
  return one(*dtype, {static_cast<int64_t>(value->size())});
}

Specs fullLike(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  auto dtype = dtypeAttr(q, DataType::Undefined);
  if (!dtype) return dtype.takeStatus();
  return one(*dtype == DataType::Undefined ? (*x)->dtype : *dtype, (*x)->dims);
}

Specs sameAsX(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  return one((*x)->dtype, (*x)->dims);
}

Specs allGather(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  auto n = nranksAttr(q);
  if (!n) return n.takeStatus();
  Dims out = (*x)->dims;
  if (out.empty()) return fail("a 0-D tensor has no dim 0 to gather along");
  if (out[0] >= 0 && __builtin_mul_overflow(out[0], *n, &out[0])) return fail("dim 0 times nranks overflows int64");
  return one((*x)->dtype, std::move(out));
}

Specs reduceScatter(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  auto n = nranksAttr(q);
  if (!n) return n.takeStatus();
  Dims out = (*x)->dims;
  if (out.empty()) return fail("a 0-D tensor has no dim 0 to scatter along");
  if (out[0] >= 0 && out[0] % *n != 0)
    return fail("dim 0 (" + std::to_string(out[0]) + ") is not divisible by nranks (" + std::to_string(*n) + ")");
  if (out[0] >= 0) out[0] /= *n;
  return one((*x)->dtype, std::move(out));
}

Specs sendV2(const ResultTypeQuery& q) {
  auto x = tensorOperand(q, 0);
  if (!x) return x.takeStatus();
  return std::vector<ValueSpec>();
}

Specs recvV2(const ResultTypeQuery& q) {
  auto shape = intsOf(q.attr("out_shape"));
  if (!shape) return fail("out_shape is not a list of integers");
  auto dtype = dtypeAttr(q, DataType::F32);
  if (!dtype) return dtype.takeStatus();
  return one(*dtype, std::move(*shape));
}

bool scaleBiasIsZero(const Operation& op) {
  const Attribute* bias = op.attr("bias");
  if (!bias) return true;  // Paddle's default bias is 0
  auto* n = untagged(bias)->dynCast<NumberAttr>();
  auto v = n ? n->asDouble() : std::nullopt;
  return v && *v == 0.0;
}

bool reducesLinearly(const Operation& op) {
  const Attribute* r = op.attr("reduce_type");
  if (!r) return true;  // SUM
  auto v = intOf(r);
  return v && (*v == 0 || *v == 4);
}

bool poolsByAverage(const Operation& op) {
  auto* s = op.attrOf<StringAttr>("pooling_type");
  return s && s->raw() == "avg";
}

}  // namespace pir::core::op_types
