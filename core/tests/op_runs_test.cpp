//===- op_runs_test.cpp - where threads start in a block ------------------===//
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "core/builder.h"
#include "core/op_runs.h"
#include "core/program.h"

using namespace pir::core;

namespace {
std::vector<const Operation*> opsOf(const Block& b) {
  std::vector<const Operation*> ops;
  for (const Operation& op : b) ops.push_back(&op);
  return ops;
}

/// Runs cover the block's ops in order, each starting where one does, the
/// first at its front; at most `runs` of them, none shorter than n / runs
/// but the last, none longer by more than a stride and `linkedIn` ops.
void checkRuns(const Block& block, const std::vector<const Operation*>& starts, size_t runs, size_t linkedIn = 0) {
  std::vector<const Operation*> ops = opsOf(block);
  REQUIRE(starts.size() >= 2);
  REQUIRE(starts.size() - 1 <= runs);
  REQUIRE(starts.front() == block.front());
  REQUIRE(starts.back() == nullptr);
  size_t per = (ops.size() + runs - 1) / runs;
  size_t at = 0;
  for (size_t r = 0; r + 1 < starts.size(); ++r) {
    REQUIRE(ops[at] == starts[r]);
    size_t len = 0;
    for (const Operation* op = starts[r]; op != starts[r + 1]; op = op->nextOp()) ++len;
    if (r + 2 < starts.size()) REQUIRE(len >= per);
    REQUIRE(len <= per + OpChain::kLandmarkStride + linkedIn);
    at += len;
  }
  REQUIRE(at == ops.size());
}
}  // namespace

TEST_CASE("op runs: landmarks a reader left, and a walk once the list changes", "[core][threads]") {
  Context ctx;
  Program prog(ctx);
  Block& body = prog.body();
  // Three chains of uneven length, as three reader threads leave them.
  std::vector<OpChain> chains(3);
  size_t lengths[] = {2500, 1, 3000};
  for (size_t c = 0; c < 3; ++c)
    for (size_t i = 0; i < lengths[c]; ++i) body.pushBack(chains[c], Operation::create(ctx, "test.op", {}, {}, {}));
  std::vector<OpLandmarks::Landmark> landmarks;
  for (OpChain& c : chains) {
    REQUIRE(c.landmarks.size() == (c.size + OpChain::kLandmarkStride - 1) / OpChain::kLandmarkStride);
    size_t offset = body.numOps();
    for (const auto& [op, at] : c.landmarks) landmarks.emplace_back(op, offset + at);
    body.append(c);
  }
  REQUIRE(body.numOps() == 5501);
  prog.bodyLandmarks().set(body, landmarks);
  for (size_t runs : {1, 2, 3, 5, 8, 100}) checkRuns(body, prog.bodyLandmarks().runs(body, runs), runs);

  SECTION("an op linked in the middle is in a run") {
    Operation* added = Operation::create(ctx, "test.added", {}, {}, {});
    body.insertBefore(opsOf(body)[3000]->nextOp(), added);
    checkRuns(body, prog.bodyLandmarks().runs(body, 4), 4);
  }
  SECTION("a landmark unlinked is never a start") {
    const Operation* gone = landmarks[2].first;
    body.remove(const_cast<Operation*>(gone));
    REQUIRE_FALSE(prog.bodyLandmarks().usable(body));  // a removal voids them, whichever op went
    for (size_t runs : {2, 6, 100}) {
      std::vector<const Operation*> starts = prog.bodyLandmarks().runs(body, runs);
      REQUIRE(std::find(starts.begin(), starts.end(), gone) == starts.end());
      checkRuns(body, starts, runs);
    }
  }
  SECTION("ops linked in keep the landmarks, up to half again as many ops") {
    // 2000 ops linked in around the middle (under half of 5501): no walk, so
    // a run may hold them beside its share; the starts stay the landmarks.
    Operation* at = const_cast<Operation*>(opsOf(body)[2750]);
    for (int i = 0; i < 2000; ++i) body.insertBefore(at, Operation::create(ctx, "test.linked", {}, {}, {}));
    REQUIRE(prog.bodyLandmarks().usable(body));
    for (size_t runs : {1, 2, 3, 5, 8, 100}) {
      std::vector<const Operation*> starts = prog.bodyLandmarks().runs(body, runs);
      for (size_t r = 0; r + 1 < starts.size(); ++r)
        REQUIRE(std::any_of(landmarks.begin(), landmarks.end(), [&](const auto& l) { return l.first == starts[r]; }));
      checkRuns(body, starts, runs, 2000);
    }
    // More than half again: taken anew, the runs even again.
    for (int i = 0; i < 1000; ++i) body.pushBack(Operation::create(ctx, "test.linked", {}, {}, {}));
    REQUIRE_FALSE(prog.bodyLandmarks().usable(body));
    for (size_t runs : {2, 3, 8}) checkRuns(body, prog.bodyLandmarks().runs(body, runs), runs);
  }
  SECTION("an op linked in before the front voids the landmarks") {
    body.insertBefore(body.front(), Operation::create(ctx, "test.first", {}, {}, {}));
    REQUIRE_FALSE(prog.bodyLandmarks().usable(body));
    checkRuns(body, prog.bodyLandmarks().runs(body, 3), 3);
  }
  SECTION("landmarks that do not start at the front are not used") {
    landmarks.erase(landmarks.begin());
    prog.bodyLandmarks().set(body, landmarks);
    checkRuns(body, prog.bodyLandmarks().runs(body, 3), 3);
  }
}
