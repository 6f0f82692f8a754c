//===- all_to_all.cpp - SToS ----------------------------------------------===//
//
// Paddle's s_to_s_reshard_func.py on a 1-D mesh of n ranks, S(0) <-> S(k)
// with both dims even (plan.cpp takes the general path otherwise, where
// Paddle's reshapes would mix dims):
//   S(0) -> S(k): reshape to [.., n, Dk/n, ..] (n inserted at k), transpose
//     it to the front, reshape to [D0*n, .., Dk/n, ..], all_to_all;
//   S(k) -> S(0): share_data_, all_to_all, reshape to [n, D0/n, .., Dk, ..],
//     transpose n back behind dim k-1, reshape to [D0/n, .., Dk*n, ..].
// The reshape shapes are Paddle's numbers (dist-to-dense rewrites them to
// local ones); the values' types are chosen so their local shapes are what
// each rank really holds. all_to_all's operand entry is its operand's attr
// (Paddle lists the source's, which the reshaped value no longer has).
//
//===----------------------------------------------------------------------===//
#include <numeric>

#include "core/context.h"
#include "core/operation.h"
#include "passes/lowering/emitter.h"

namespace pir::passes::lowering {

using namespace pir::core;

namespace {

/// A mapping of `rank` dims with `at` on mesh dim 0.
std::vector<int64_t> mappedAt(size_t rank, size_t at) {
  std::vector<int64_t> m(rank, -1);
  m[at] = 0;
  return m;
}

Value* reshapeTo(Emitter& e, Value* x, std::span<const int64_t> shapeValue, std::span<const int64_t> dims,
                 const TensorDistAttr* attr) {
  Value* shape = e.fullIntArray(shapeValue, attr->mesh());
  const Attribute* operands[] = {distAttrOf(x->type()), e.helperAttr(attr->mesh())};
  const Attribute* results[] = {attr};
  AttrListBuilder a = e.attrs(e.opDist(attr->mesh(), operands, results, e.chunk()), 1);
  Value* in[] = {x, shape};
  const Type* t[] = {e.distType(dims, attr)};
  return e.create("pd_op.reshape", in, t, a)->result(0);
}

Value* transposeBy(Emitter& e, Value* x, std::span<const int32_t> perm, const TensorDistAttr* attr) {
  std::vector<int64_t> from = Emitter::dimsOf(x), dims(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) dims[i] = from[static_cast<size_t>(perm[i])];
  const Attribute* operands[] = {distAttrOf(x->type())};
  const Attribute* results[] = {attr};
  AttrListBuilder a = e.attrs(e.opDist(attr->mesh(), operands, results, e.chunk()), 1);
  a.setInt32Array("perm", perm);
  Value* in[] = {x};
  const Type* t[] = {e.distType(dims, attr)};
  return e.create("pd_op.transpose", in, t, a)->result(0);
}

}  // namespace

Value* Emitter::sToS(const Step& step, Value* cur) {
  const ProcessMesh* mesh = step.from->mesh();
  std::vector<int64_t> dims = dimsOf(cur);
  size_t r = dims.size();
  int64_t n = static_cast<int64_t>(mesh->processIds().size());
  size_t a = static_cast<size_t>(step.axis), b = static_cast<size_t>(step.toAxis);
  Value* in = cur;
  if (b != 0) {
    std::vector<int64_t> pre = dims;
    pre[b] /= n;
    pre.insert(pre.begin() + static_cast<std::ptrdiff_t>(b), n);
    Value* v = reshapeTo(*this, cur, pre, pre, ctx().tensorDistAttr(mesh, mappedAt(r + 1, 0)));
    std::vector<int32_t> perm{static_cast<int32_t>(b)};
    for (size_t i = 0; i < r + 1; ++i)
      if (i != b) perm.push_back(static_cast<int32_t>(i));
    v = transposeBy(*this, v, perm, ctx().tensorDistAttr(mesh, mappedAt(r + 1, 1)));
    pre.erase(pre.begin() + static_cast<std::ptrdiff_t>(b));
    pre[a] *= n;
    in = reshapeTo(*this, v, pre, dims, step.to);
  } else {
    in = share(cur, step.from);
  }
  const Attribute* operands[] = {distAttrOf(in->type())};
  const Attribute* results[] = {step.to};
  AttrListBuilder at = attrs(opDist(mesh, operands, results, chunk()), 1);
  at.setString("execution_stream", "DefaultStream");
  at.setInt32("ring_id", static_cast<int32_t>(meshRing(mesh).ringId));
  Value* x[] = {in};
  const Type* t[] = {distType(dims, a != 0 ? step.from : step.to)};
  Value* out = create("pd_op.all_to_all", x, t, at)->result(0);
  if (a == 0) return out;

  std::vector<int64_t> post = dims;
  post[0] /= n;
  post.insert(post.begin(), n);
  Value* v = reshapeTo(*this, out, post, post, ctx().tensorDistAttr(mesh, mappedAt(r + 1, a + 1)));
  std::vector<int32_t> perm(r);
  std::iota(perm.begin(), perm.end(), 1);
  perm.insert(perm.begin() + static_cast<std::ptrdiff_t>(a), 0);
  size_t shardAt = static_cast<size_t>(std::find(perm.begin(), perm.end(), static_cast<int32_t>(a + 1)) - perm.begin());
  v = transposeBy(*this, v, perm, ctx().tensorDistAttr(mesh, mappedAt(r + 1, shardAt)));
  post.erase(post.begin());
  post[a] *= n;
  return reshapeTo(*this, v, post, dims, step.to);
}

}  // namespace pir::passes::lowering
