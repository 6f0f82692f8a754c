//===- status_test.cpp - Status and Result: messages, offsets, kinds ------===//
#include <catch2/catch.hpp>
#include <string>

#include "core/status.h"

using namespace pir::core;

TEST_CASE("an ok Status has no kind to speak of", "[status]") {
  Status s = Status::ok();
  CHECK(s.isOk());
  CHECK_FALSE(s.isInternal());
  CHECK(s.kind() == ErrorKind::User);
  CHECK(s.offset() == -1);
}

TEST_CASE("Status::error is a user error, Status::internal an internal one", "[status]") {
  Status user = Status::error("bad option", 7);
  CHECK_FALSE(user.isOk());
  CHECK(user.kind() == ErrorKind::User);
  CHECK_FALSE(user.isInternal());
  CHECK(user.message() == "bad option");
  CHECK(user.offset() == 7);

  Status bug = Status::internal("invariant broken");
  CHECK_FALSE(bug.isOk());
  CHECK(bug.kind() == ErrorKind::Internal);
  CHECK(bug.isInternal());
  CHECK(bug.offset() == -1);
  CHECK(Status::failure(ErrorKind::Internal, "x", 3).isInternal());
}

TEST_CASE("withMessage keeps the kind and the offset", "[status]") {
  Status bug = Status::internal("broke", 12).withMessage("pass 'p' failed: broke");
  CHECK(bug.isInternal());
  CHECK(bug.offset() == 12);
  CHECK(bug.message() == "pass 'p' failed: broke");
  Status user = Status::error("no").withMessage("still no");
  CHECK(user.kind() == ErrorKind::User);
  CHECK_FALSE(user.isOk());
}

TEST_CASE("Result keeps the kind of its error", "[status]") {
  Result<int> ok = 5;
  REQUIRE(ok.isOk());
  CHECK(*ok == 5);
  Result<std::string> bad = Status::internal("lost", 2);
  REQUIRE_FALSE(bad.isOk());
  CHECK(bad.status().isInternal());
  CHECK(bad.status().offset() == 2);
  Status taken = bad.takeStatus();
  CHECK(taken.isInternal());
  CHECK(taken.message() == "lost");
  Result<int> user = Status::error("wrong");
  CHECK(user.status().kind() == ErrorKind::User);
}
