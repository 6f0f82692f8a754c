//===- context_parent_test.cpp - a Context made over another one ---------===//
//
// A child Context gives the parent's string, type, attribute or list when
// the parent holds it, makes the rest itself, and never writes the parent.
//
//===----------------------------------------------------------------------===//
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "core/context.h"

using namespace pir::core;

namespace {
const DistTensorType* distType(Context& ctx, int64_t rows, int64_t split) {
  int64_t shape[] = {2};
  int64_t ids[] = {0, 1};
  const ProcessMesh* mesh = ctx.processMesh(shape, ids);
  int64_t mapping[] = {split, -1};
  int64_t dims[] = {rows, 8};
  return ctx.distTensorType(DataType::F32, dims, ctx.tensorDistAttr(mesh, mapping));
}
}  // namespace

TEST_CASE("a child Context gives what its parent holds and makes the rest itself", "[core][interning]") {
  Context parent;
  std::string_view relu = parent.intern("pd_op.relu");
  const DistTensorType* split = distType(parent, 4, 0);
  const NumberAttr* one = parent.numberAttr("Int32", "1");
  NamedAttr list[] = {{relu, one}};
  std::span<const NamedAttr> interned = parent.attrList(list);
  size_t parentBytes = parent.arena().bytesUsed();

  Context child(&parent, nullptr);
  CHECK(child.readsFrom(&parent));
  CHECK(child.readsFrom(&child));
  CHECK_FALSE(parent.readsFrom(&child));
  // The parent's, by pointer.
  CHECK(child.intern("pd_op.relu").data() == relu.data());
  CHECK(child.hasInterned("pd_op.relu"));
  CHECK(distType(child, 4, 0) == split);
  CHECK(child.numberAttr("Int32", "1") == one);
  NamedAttr same[] = {{child.intern("pd_op.relu"), child.numberAttr("Int32", "1")}};
  CHECK(child.attrList(same).data() == interned.data());
  // Singletons too: IR copied from the parent by pointer compares equal.
  CHECK(child.boolAttr(true) == parent.boolAttr(true));
  CHECK(child.nullAttr() == parent.nullAttr());
  CHECK(child.nullAttr(true) == parent.nullAttr(true));
  CHECK(child.nullType() == parent.nullType());
  CHECK(child.scalarType(DataType::F16) == parent.scalarType(DataType::F16));
  // What the parent lacks is the child's, uniqued there.
  const DistTensorType* replicated = distType(child, 4, -1);
  CHECK(replicated == distType(child, 4, -1));
  CHECK(replicated->distAttr()->mesh() == split->distAttr()->mesh());  // made of the parent's mesh
  std::string_view gelu = child.intern("pd_op.gelu");
  CHECK(child.intern("pd_op.gelu").data() == gelu.data());
  CHECK_FALSE(parent.hasInterned("pd_op.gelu"));
  CHECK(parent.arena().bytesUsed() == parentBytes);  // the parent is only read
}

TEST_CASE("a Context over a child reads the whole chain", "[core][interning]") {
  Context root;
  const StringAttr* a = root.stringAttr("a");
  Context middle(&root, nullptr);
  const StringAttr* b = middle.stringAttr("b");
  Context leaf(&middle, nullptr);
  CHECK(leaf.readsFrom(&root));
  CHECK(leaf.stringAttr("a") == a);
  CHECK(leaf.stringAttr("b") == b);
  CHECK(leaf.stringAttr("c") != nullptr);
  CHECK_FALSE(middle.hasInterned("c"));
  Context other;
  CHECK_FALSE(leaf.readsFrom(&other));
  CHECK(other.stringAttr("a") != a);
}

TEST_CASE("a child keeps what it made when the parent later makes the same", "[core][interning]") {
  // The parent may grow again once no child reads it at the same time (a
  // later --split-input-file chunk): the child's lookups find its own first,
  // so an object it made stays the one it gives.
  Context parent;
  Context child(&parent, nullptr);
  const StringAttr* mine = child.stringAttr("late");
  const StringAttr* theirs = parent.stringAttr("late");
  CHECK(mine != theirs);
  CHECK(child.stringAttr("late") == mine);
}

TEST_CASE("children on several threads read one parent at once", "[core][interning][tsan]") {
  Context parent;
  std::vector<const StringAttr*> names;
  for (int i = 0; i < 2000; ++i) names.push_back(parent.stringAttr("name_" + std::to_string(i)));
  size_t parentBytes = parent.arena().bytesUsed();
  std::vector<int> wrong(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      Context child(&parent, nullptr);
      for (int i = 0; i < 2000; ++i) {
        if (child.stringAttr("name_" + std::to_string(i)) != names[size_t(i)]) ++wrong[size_t(t)];
        const StringAttr* own = child.stringAttr("thread_" + std::to_string(t) + "_" + std::to_string(i));
        if (child.stringAttr(own->raw()) != own) ++wrong[size_t(t)];
      }
    });
  for (std::thread& t : threads) t.join();
  CHECK(wrong == std::vector<int>(4, 0));
  CHECK(parent.arena().bytesUsed() == parentBytes);
}

TEST_CASE("a Context lists each process mesh it and its parents hold, once", "[core][interning]") {
  Context parent;
  int64_t line[] = {2};
  int64_t square[] = {2, 2};
  int64_t pair[] = {0, 1};
  int64_t four[] = {0, 1, 2, 3};
  const ProcessMesh* p01 = parent.processMesh(line, pair);
  CHECK(parent.processMesh(line, pair) == p01);
  CHECK(parent.processMeshes() == std::vector<const ProcessMesh*>{p01});
  Context child(&parent, nullptr);
  CHECK(child.processMesh(line, pair) == p01);  // the parent's: not the child's again
  const ProcessMesh* grid = child.processMesh(square, four);
  std::string_view names[] = {"dp", "mp"};
  const ProcessMesh* named = child.processMesh(square, four, names);
  CHECK(child.processMeshes() == std::vector<const ProcessMesh*>{grid, named, p01});
  CHECK(parent.processMeshes() == std::vector<const ProcessMesh*>{p01});
}
