//===- kernels_embedding_test.cpp - embedding, c_embedding and their grads -===//
#include "runtime/tests/kernels_test_util.h"

using namespace pir::runtime;
using namespace pir::runtime::test;

namespace {

Tensor ids64(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I64, std::move(shape), v); }
Tensor ids32(Shape shape, const std::vector<double>& v) { return tensorOf(DataType::I32, std::move(shape), v); }

// A 4x2 table whose row r is (10r, 10r + 1).
Tensor table(DataType dt = DataType::F64) { return tensorOf(dt, {4, 2}, {0, 1, 10, 11, 20, 21, 30, 31}); }

}  // namespace

TEST_CASE("embedding reads rows by id, zeros at padding_idx", "[kernels][embedding]") {
  auto r = run("pd_op.embedding", "padding_idx:(Int64)-1,sparse:false", {ids64({2, 2}, {3, 0, 1, 3}), table()});
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 2, 2}, {30, 31, 0, 1, 10, 11, 30, 31}, 0);
  // padding_idx 3: those rows are zeros; int32 ids and f32 work too.
  auto p = run("pd_op.embedding", "padding_idx:(Int64)3,sparse:false", {ids32({3}, {3, 2, 3}), table(DataType::F32)});
  REQUIRE(p.status.isOk());
  CHECK(p.out(0).dtype() == DataType::F32);
  checkValues(p.out(0), {3, 2}, {0, 0, 20, 21, 0, 0}, 0);
  // bf16 moves the stored bits.
  auto b = run("pd_op.embedding", "", {ids64({1}, {2}), table(DataType::BF16)});
  REQUIRE(b.status.isOk());
  checkValues(b.out(0), {1, 2}, {20, 21}, 0);
}

TEST_CASE("embedding refuses ids outside the table and sparse", "[kernels][embedding]") {
  auto out = run("pd_op.embedding", "padding_idx:(Int64)-1", {ids64({3}, {0, 4, 1}), table()});
  CHECK(out.status.message() == "id 4 at flat index 1 is outside the table's rows [0, 4)");
  auto neg = run("pd_op.embedding", "padding_idx:(Int64)-1", {ids64({1}, {-1}), table()});
  CHECK(neg.status.message() == "id -1 at flat index 0 is outside the table's rows [0, 4)");
  auto sparse = run("pd_op.embedding", "sparse:true", {ids64({1}, {0}), table()});
  CHECK(sparse.status.message().find("sparse: true") == 0);
  auto ftype = run("pd_op.embedding", "", {table(), table()});
  CHECK(ftype.status.message() == "ids must be an int32 or int64 tensor, not tensor<4x2xf64>");
  auto rank = run("pd_op.embedding", "", {ids64({1}, {0}), f64({4}, {0, 1, 2, 3})});
  CHECK(rank.status.message() == "weight must be 2-D [rows, width], not [4]");
}

TEST_CASE("c_embedding reads the rows of its piece, zeros for the others", "[kernels][embedding]") {
  // The piece holds rows 4..7 of a vocabulary of 8.
  auto r = run("pd_op.c_embedding", "start_index:(Int64)4,vocab_size:(Int64)8",
               {table(), ids64({2, 3}, {0, 4, 7, 3, 5, 8 - 1})});
  REQUIRE(r.status.isOk());
  checkValues(r.out(0), {2, 3, 2}, {0, 0, 0, 1, 30, 31, 0, 0, 10, 11, 30, 31}, 0);
  auto bad = run("pd_op.c_embedding", "start_index:(Int64)4,vocab_size:(Int64)8", {table(), ids64({2}, {1, 8})});
  CHECK(bad.status.message() == "id 8 at flat index 1 is outside [0, vocab_size 8)");
  // vocab_size -1: no upper bound, but a negative id is still an error.
  auto open = run("pd_op.c_embedding", "start_index:(Int64)0,vocab_size:(Int64)-1", {table(), ids64({2}, {9, 1})});
  REQUIRE(open.status.isOk());
  checkValues(open.out(0), {2, 2}, {0, 0, 10, 11}, 0);
  auto neg = run("pd_op.c_embedding", "start_index:(Int64)0,vocab_size:(Int64)-1", {table(), ids64({1}, {-2})});
  CHECK(neg.status.message() == "id -2 at flat index 0 is outside [0, vocab_size -1)");
}

TEST_CASE("embedding_grad and c_embedding_grad scatter-add by hand", "[kernels][embedding]") {
  Tensor dout = f64({3, 2}, {1, 2, 3, 4, 5, 6});
  auto g = run("pd_op.embedding_grad", "padding_idx:(Int64)-1", {ids64({3}, {2, 0, 2}), table(), dout});
  REQUIRE(g.status.isOk());
  checkValues(g.out(0), {4, 2}, {3, 4, 0, 0, 6, 8, 0, 0}, 0);
  auto pad = run("pd_op.embedding_grad", "padding_idx:(Int64)2", {ids64({3}, {2, 0, 2}), table(), dout});
  REQUIRE(pad.status.isOk());
  checkValues(pad.out(0), {4, 2}, {3, 4, 0, 0, 0, 0, 0, 0}, 0);
  // c_embedding_grad: ids 5 and 5 are rows 1 of the piece at 4; 2 is outside.
  auto c = run("pd_op.c_embedding_grad", "start_index:(Int64)4", {table(), ids64({3}, {5, 2, 5}), dout});
  REQUIRE(c.status.isOk());
  checkValues(c.out(0), {4, 2}, {0, 0, 6, 8, 0, 0, 0, 0}, 0);
  // bf16 accumulates in f32 and stores bf16.
  auto b =
      run("pd_op.embedding_grad", "",
          {ids64({3}, {1, 1, 1}), table(DataType::BF16), tensorOf(DataType::BF16, {3, 2}, {0.5, 1, 0.5, 1, 0.5, 1})});
  REQUIRE(b.status.isOk());
  CHECK(b.out(0).dtype() == DataType::BF16);
  checkValues(b.out(0), {4, 2}, {0, 0, 1.5, 3, 0, 0, 0, 0}, 0);
  auto wrong = run("pd_op.embedding_grad", "", {ids64({3}, {1, 1, 1}), table(), f64({2, 2}, {1, 2, 3, 4})});
  CHECK(wrong.status.message() == "out_grad [2x2] does not fit ids and width [3x2]");
}

// f64 central differences of sum(out · w) in the table.
TEST_CASE("embedding_grad and c_embedding_grad match finite differences", "[kernels][embedding]") {
  struct Case {
    const char* fwd;
    const char* grad;
    std::string attrs;
    bool tableFirst;
    Tensor ids;
  };
  std::vector<Case> cases = {
      {"pd_op.embedding", "pd_op.embedding_grad", "padding_idx:(Int64)-1", false, ids64({2, 3}, {1, 4, 1, 0, 2, 4})},
      {"pd_op.embedding", "pd_op.embedding_grad", "padding_idx:(Int64)1", false, ids64({2, 3}, {1, 4, 1, 0, 2, 4})},
      {"pd_op.c_embedding", "pd_op.c_embedding_grad", "start_index:(Int64)3,vocab_size:(Int64)9", true,
       ids64({2, 3}, {3, 8, 7, 0, 3, 5})},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    Case& k = cases[c];
    INFO("case " << c << ": " << k.fwd << " " << k.attrs);
    Tensor w = randomF64({5, 3}, uint32_t(40 + c));
    auto inputs = [&](const Tensor& table) {
      return k.tableFirst ? std::vector<Tensor>{table, k.ids} : std::vector<Tensor>{k.ids, table};
    };
    Tensor weights = randomF64({2, 3, 3}, uint32_t(50 + c));
    std::vector<Tensor> in = inputs(w);
    in.push_back(weights);
    auto g = run(k.grad, k.attrs, in);
    REQUIRE(g.status.isOk());
    size_t tableAt = k.tableFirst ? 0 : 1;
    Tensor want = numericGrad(
        [&](auto& x) {
          auto r = run(k.fwd, k.attrs, x);
          REQUIRE(r.status.isOk());
          return r.out(0);
        },
        inputs(w), tableAt, weights);
    checkClose(g.out(0), want, 1e-8);
  }
}
