//===- verifier_threads_test.cpp ------------------------------------------===//
//
// The threaded verifier marks each run's results as it verifies them, and
// decides an operand whose value no run had marked yet once all are: every
// way a value can be out of scope, across runs and within one, must give
// what one thread gives.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "core/builder.h"
#include "core/printer.h"
#include "core/program.h"
#include "core/verifier.h"

using namespace pir::core;

namespace {

constexpr int kOps = 8192;  // 8 runs of 1024 ops (a landmark every 1024)

/// kOps ops, each but the first reading the one before; a group op at 100
/// holds one op reading op 99, and `edit` then rewires what it likes.
struct Chain {
  Context ctx;
  Program prog{ctx};
  std::vector<Operation*> ops;
  Operation* inner = nullptr;  // the op in the group's region

  explicit Chain(const std::function<void(Chain&)>& edit) {
    Builder b(ctx);
    b.setInsertionPointToEnd(prog.body());
    int64_t dims[] = {4};
    const Type* t = ctx.denseTensorType("builtin.tensor", DataType::F32, dims);
    std::vector<const Type*> one{t};
    for (int i = 0; i < kOps; ++i) {
      Operation* op;
      if (i == 0) {
        op = b.create("pd_op.data", {}, one);
      } else if (i == 100) {
        op = b.create("x.group", {}, {});
        Builder in(ctx);
        in.setInsertionPointToEnd(*op->addRegion(ctx).addBlock(ctx));
        inner = in.create("pd_op.relu", std::vector<Value*>{ops[99]->result(0)}, one);
      } else {
        Operation* prev = ops.back()->numResults() ? ops.back() : ops[ops.size() - 2];
        op = b.create("pd_op.relu", std::vector<Value*>{prev->result(0)}, one);
      }
      op->setLocation(i);
      ops.push_back(op);
    }
    edit(*this);
  }
  void read(int reader, Value* v) { ops[static_cast<size_t>(reader)]->operand(0).set(v); }
  Value* result(int i) { return ops[static_cast<size_t>(i)]->result(0); }
};

}  // namespace

TEST_CASE("threaded verifying decides every scope as one thread does", "[core][verifier][tsan]") {
  struct Case {
    const char* what;
    std::function<void(Chain&)> edit;
    size_t errors;
  };
  const Case cases[] = {
      {"valid", [](Chain&) {}, 0},
      {"reads of earlier runs' values",
       [](Chain& c) {
         c.read(5000, c.result(10));
         c.read(8191, c.result(1));
         c.read(2049, c.result(2047));
       },
       0},
      {"a read of a later run's value", [](Chain& c) { c.read(10, c.result(5000)); }, 1},
      {"a read of the next run's first value", [](Chain& c) { c.read(1023, c.result(1024)); }, 1},
      {"an op reading its own result", [](Chain& c) { c.read(3000, c.result(3000)); }, 1},
      {"a read of the next op's value", [](Chain& c) { c.read(3000, c.result(3001)); }, 1},
      {"a read of a region's value from another run", [](Chain& c) { c.read(6000, c.inner->result(0)); }, 1},
      {"a read of a region's value next to it", [](Chain& c) { c.read(101, c.inner->result(0)); }, 1},
      {"many at once",
       [](Chain& c) {
         c.read(10, c.result(5000));
         c.read(3000, c.result(3000));
         c.read(6000, c.inner->result(0));
         c.read(7000, c.result(8000));
       },
       4},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    Chain chain(c.edit);
    DiagnosticEngine one;
    size_t serial = verifyProgram(chain.prog, one, VerifyOptions{});
    CHECK(serial == c.errors);
    for (unsigned threads : {2u, 3u, 8u}) {
      CAPTURE(threads);
      DiagnosticEngine many;
      CHECK(verifyProgram(chain.prog, many, VerifyOptions{}, threads, 1) == serial);
      CHECK(many.render() == one.render());
    }
  }
}

TEST_CASE("threaded verifying checks printability as one thread does", "[core][verifier][tsan]") {
  // kOps ops on one mesh; those in `badAt` carry a result entry on another
  // mesh, which the dims_maping era cannot spell; `readLater` makes op 10
  // read op 5000's result as well (a scope error, reported instead).
  // Returns the first diagnostic's offset (-2: none).
  auto check = [](std::vector<int> badAt, bool readLater, size_t errors) -> int64_t {
    Context ctx;
    Program prog(ctx);
    prog.style().distEra = DistEra::DimsMaping;
    int64_t shape[] = {2}, a[] = {0, 1}, b[] = {2, 3}, rep[] = {-1};
    const Attribute* here[] = {ctx.tensorDistAttr(ctx.processMesh(shape, a), rep)};
    const Attribute* elsewhere[] = {ctx.tensorDistAttr(ctx.processMesh(shape, b), rep)};
    NamedAttr good[] = {{ctx.intern("op_dist_attr"), ctx.opDistAttr(ctx.processMesh(shape, a), {}, here, -1, false)}};
    NamedAttr bad[] = {
        {ctx.intern("op_dist_attr"), ctx.opDistAttr(ctx.processMesh(shape, a), {}, elsewhere, -1, false)}};
    Builder builder(ctx);
    builder.setInsertionPointToEnd(prog.body());
    int64_t dims[] = {4};
    std::vector<const Type*> one{ctx.denseTensorType("builtin.tensor", DataType::F32, dims)};
    std::vector<Operation*> ops;
    for (int i = 0; i < kOps; ++i) {
      bool isBad = std::find(badAt.begin(), badAt.end(), i) != badAt.end();
      std::vector<Value*> in;
      if (i) in.push_back(ops.back()->result(0));
      ops.push_back(builder.create("pd_op.relu", in, one, isBad ? std::span<const NamedAttr>(bad) : good));
      ops.back()->setLocation(i);
    }
    if (readLater) ops[10]->operand(0).set(ops[5000]->result(0));
    VerifyOptions options;
    options.printable = true;
    DiagnosticEngine serial;
    size_t e1 = verifyProgram(prog, serial, options);
    CHECK(e1 == errors);
    for (unsigned threads : {2u, 3u}) {
      DiagnosticEngine many;
      CHECK(verifyProgram(prog, many, options, threads, 1) == e1);
      CHECK(many.render() == serial.render());
    }
    // What checkPrintable says, where nothing else is wrong.
    if (!readLater) {
      Status s = checkPrintable(prog);
      CHECK(s.isOk() == (errors == 0));
      if (!s.isOk()) CHECK(serial.render().find(s.message()) != std::string::npos);
    }
    return serial.size() ? serial.diagnostics()[0].offset : -2;
  };
  CHECK(check({}, false, 0) == -2);
  CHECK(check({6000, 7000}, false, 1) == 6000);  // the first op that cannot print, in a later run
  CHECK(check({3}, false, 1) == 3);
  CHECK(check({6000}, true, 1) == 10);  // the scope error alone
}
