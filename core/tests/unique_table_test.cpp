//===- unique_table_test.cpp ----------------------------------------------===//
#include <catch2/catch.hpp>

#include <deque>

#include "core/context.h"
#include "core/hash.h"

using pir::core::UniqueTable;

namespace {
struct Entry {
  uint64_t h;
  int value;
  uint64_t hash() const { return h; }
};
}  // namespace

TEST_CASE("the uniquing table finds each entry, whatever its hash shares", "[core][hash]") {
  std::deque<Entry> entries;  // stable addresses
  UniqueTable<Entry> table;
  for (int i = 0; i < 20000; ++i) {
    // Groups of four share a full hash (so tags and slots collide too), and
    // neighbouring groups differ in one bit only.
    entries.push_back({static_cast<uint64_t>(i / 4) << 20, i});
    table.insert(&entries.back());
  }
  REQUIRE(table.size() == entries.size());
  for (const Entry& e : entries) {
    const Entry* found = table.find(e.h, [&](const Entry* c) { return c->value == e.value; });
    REQUIRE(found == &e);
  }
  REQUIRE(table.find(uint64_t{5000} << 20, [](const Entry*) { return true; }) == nullptr);
  REQUIRE(table.find(entries[8].h, [](const Entry* c) { return c->value == 123456; }) == nullptr);
}

TEST_CASE("interning a million strings keeps each one unique", "[core][hash]") {
  pir::core::Context ctx;
  std::vector<std::string_view> first;
  for (int i = 0; i < 1000000; ++i) first.push_back(ctx.intern("var_" + std::to_string(i)));
  for (int i = 0; i < 1000000; i += 997) REQUIRE(ctx.intern("var_" + std::to_string(i)).data() == first[i].data());
  REQUIRE(ctx.intern("var_x") != first[0]);
}

TEST_CASE("reserving room moves the table once and keeps every entry", "[core][hash]") {
  std::deque<Entry> entries;
  UniqueTable<Entry> table;
  auto find = [&](const Entry& e) { return table.find(e.h, [&](const Entry* c) { return c->value == e.value; }); };
  for (int i = 0; i < 100; ++i) {
    entries.push_back({static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ull, i});
    table.insert(&entries.back());
  }
  table.reserve(5000);
  table.reserve(10);  // never shrinks
  for (int i = 100; i < 5000; ++i) {
    entries.push_back({static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ull, i});
    table.prefetch(entries.back().h);
    table.insert(&entries.back());
  }
  REQUIRE(table.size() == 5000);
  for (const Entry& e : entries) REQUIRE(find(e) == &e);
}

TEST_CASE("string attributes made in a batch are the ones made one at a time", "[core][hash]") {
  pir::core::Context ctx;
  const pir::core::StringAttr* before = ctx.stringAttr("var_7");
  std::vector<std::string> text;
  for (int i = 0; i < 3000; ++i) text.push_back("var_" + std::to_string(i % 2000));  // repeats, and var_7
  std::vector<std::string_view> raws(text.begin(), text.end());
  std::vector<const pir::core::StringAttr*> attrs(raws.size());
  ctx.stringAttrs(raws, attrs);
  REQUIRE(attrs[7] == before);
  for (size_t i = 0; i < raws.size(); ++i) {
    REQUIRE(attrs[i]->raw() == raws[i]);
    REQUIRE(attrs[i]->raw().data() != raws[i].data());  // the context's own copy
    REQUIRE(attrs[i] == ctx.stringAttr(raws[i]));
    REQUIRE(attrs[i]->raw().data() == ctx.intern(raws[i]).data());
  }
  REQUIRE(attrs[2000] == attrs[0]);
  ctx.stringAttrs({}, {});
}

TEST_CASE("a string attribute says whether it was made, and a list holding a new one is the op's own", "[core][hash]") {
  pir::core::Context parent;
  bool made = false;
  const pir::core::StringAttr* a = parent.stringAttr("linear_0.w_0", made);
  REQUIRE(made);
  REQUIRE(parent.stringAttr("linear_0.w_0", made) == a);
  REQUIRE_FALSE(made);
  REQUIRE(parent.stringAttr("linear_0.w_0") == a);

  // A child finds the parent's: not made.
  pir::core::Context child(&parent, nullptr);
  REQUIRE(child.stringAttr("linear_0.w_0", made) == a);
  REQUIRE_FALSE(made);
  REQUIRE(child.stringAttr("linear_0.b_0", made) != a);
  REQUIRE(made);

  // An own list is a copy: equal entries, its own storage, not interned.
  pir::core::NamedAttr list[] = {{parent.intern("parameter_name"), a}};
  std::span<const pir::core::NamedAttr> own = parent.ownAttrList(list);
  REQUIRE(own.size() == 1);
  REQUIRE(own.data() != list);
  REQUIRE(own[0].key.data() == list[0].key.data());
  REQUIRE(own[0].value == a);
  std::span<const pir::core::NamedAttr> interned = parent.attrList(list);
  REQUIRE(interned.data() != own.data());
  REQUIRE(parent.attrList(own).data() == interned.data());
  REQUIRE(parent.ownAttrList(list).data() != own.data());
}
