//===- comm_check_test.cpp - the static check of job programs' communication ===//
#include <catch2/catch.hpp>
#include <deque>
#include <memory>
#include <string>

#include "parser/parser.h"
#include "passes/schedule/comm_check.h"

using namespace pir;
using namespace pir::passes::schedule;

namespace {

const std::string kT = "builtin.tensor<4x8xf32>";

std::string index(int k) { return k < 0 ? "" : ",message_index:(Int64)" + std::to_string(k); }

/// `() = send_v2 (%V)`: V's value to position `peer` of ring `ring`.
std::string send(int v, int peer, int ring, int k = -1, const std::string& type = kT) {
  return "    () = \"pd_op.send_v2\" (%" + std::to_string(v) + ") {dynamic_shape:false" + index(k) + ",peer:(Int32)" +
         std::to_string(peer) + ",ring_id:(Int32)" + std::to_string(ring) + ",use_calc_stream:true} : (" + type +
         ") -> \n";
}

/// `(%V) = recv_v2 ()` of a 4x8xf32 (or `dims`) from position `peer` of ring `ring`.
std::string recv(int v, int peer, int ring, int k = -1, const std::string& dims = "4,8", const std::string& type = kT) {
  return "    (%" + std::to_string(v) + ") = \"pd_op.recv_v2\" () {dtype:(pd_op.DataType)float32,dynamic_shape:false" +
         index(k) + ",out_shape:[" + dims + "],peer:(Int32)" + std::to_string(peer) + ",ring_id:(Int32)" +
         std::to_string(ring) + ",use_calc_stream:true} : () -> " + type + "\n";
}

std::string data(int v, const std::string& name = "x", const std::string& type = kT, const std::string& dims = "4,8") {
  return "    (%" + std::to_string(v) + ") = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"" + name +
         "\",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[" + dims +
         "],stop_gradient:[true]} : () -> " + type + "\n";
}

std::string output(int v, const std::string& name) {
  return "    () = \"builtin.shadow_output\" (%" + std::to_string(v) + ") {output_name:\"" + name + "\"} : (" + kT +
         ") -> \n";
}

std::string body(const std::string& ops) { return "{\n" + ops + "}\n"; }

/// Programs parsed from text, each with its own source, for the check.
struct Programs {
  core::Context ctx;
  std::deque<std::string> texts;
  std::deque<core::SourceFile> sources;
  std::deque<std::unique_ptr<core::Program>> programs;
  std::vector<CommProgram> list;
  core::RingTable rings{{12, {0, 1}}, {13, {1, 0}}};

  void add(int64_t rank, int stage, const std::string& job, const std::string& text) {
    texts.push_back(text);
    std::string name = "rank" + std::to_string(rank) + (job.empty() ? "" : "/" + job) + ".pir";
    sources.emplace_back(name, texts.back());
    core::DiagnosticEngine diag(&sources.back());
    auto p = parser::parseProgram(ctx, sources.back(), diag);
    INFO(diag.render());
    REQUIRE(p.isOk());
    programs.push_back(std::move(p.value()));
    list.push_back({rank, stage, job, programs.back().get(), &sources.back()});
  }

  CommCheckReport check(const Schedule* schedule = nullptr) const {
    return checkCommunication({list, schedule, &rings});
  }
};

Schedule schedule(std::vector<std::vector<std::string>> stages, int microBatches) {
  Schedule s;
  s.mode = "test";
  s.stages = int(stages.size());
  s.microBatches = microBatches;
  for (const auto& names : stages) {
    auto& jobs = s.stageJobs.emplace_back();
    for (const std::string& n : names) jobs.push_back(*parseJob(n));
  }
  return s;
}

/// A two-stage pipeline: rank 0 (stage 0) sends its forward's activation on
/// ring 12 and receives the gradient on ring 13; rank 1 the other way.
void addPipeline(Programs& p, int fwdIndex = -1, int bwdIndex = -1) {
  p.add(0, 0, "forward", body(data(0) + send(0, 1, 12, fwdIndex)));
  p.add(0, 0, "backward", body(recv(0, 0, 13, bwdIndex)));
  p.add(1, 1, "forward", body(recv(0, 0, 12, fwdIndex)));
  p.add(1, 1, "backward", body(data(0, "g") + send(0, 1, 13, bwdIndex)));
}

std::string rendered(const CommCheckReport& r) { return renderCommErrors(r); }

}  // namespace

TEST_CASE("a 1F1B pipeline's sends and receives pair up", "[passes][comm]") {
  Programs p;
  addPipeline(p);
  Schedule s = schedule(
      {{"forward:0", "forward:1", "backward:0", "backward:1"}, {"forward:0", "backward:0", "forward:1", "backward:1"}},
      2);
  CommCheckReport r = p.check(&s);
  INFO(rendered(r));
  CHECK(r.valid());
  CHECK(r.messages == 4);
  CHECK(r.collectives == 0);
}

TEST_CASE("two ranks that each receive first deadlock, and the report names the cycle", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "", body(recv(0, 0, 13) + send(0, 1, 12)));  // ring 13 is [1, 0]
  p.add(1, 1, "", body(recv(0, 0, 12) + send(0, 1, 13)));
  CommCheckReport r = p.check();
  REQUIRE(r.errors.size() == 1);
  const core::Diagnostic& d = r.errors[0];
  CHECK(d.message == "deadlock: no rank can go on; the waits go round a cycle: rank 0 -> rank 1 -> rank 0");
  REQUIRE(d.notes.size() == 2);
  CHECK(d.notes[0].message.find("rank 0: waits in pd_op.recv_v2 from rank 1 on ring 13") == 0);
  CHECK(d.notes[1].message.find("rank 1: waits in pd_op.recv_v2 from rank 0 on ring 12") == 0);
  std::string text = rendered(r);
  CHECK(text.find("rank0.pir:2:5: error: deadlock") == 0);
  CHECK(text.find("rank1.pir:2:5: note: rank 1: waits") != std::string::npos);
}

TEST_CASE("a deadlock in a schedule names each rank's job and micro-batch", "[passes][comm]") {
  Programs p;
  addPipeline(p);
  // Stage 1 runs its backward (a send) only after a second forward, which
  // waits for stage 0's second forward, which runs after its backward:0.
  Schedule s = schedule(
      {{"forward:0", "backward:0", "forward:1", "backward:1"}, {"forward:0", "forward:1", "backward:0", "backward:1"}},
      2);
  CommCheckReport r = p.check(&s);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message ==
        "deadlock: no rank can go on; the waits go round a cycle: rank 0 (backward:0) -> rank 1 (forward:1) -> rank 0");
  CHECK(rendered(r).find("rank0/backward.pir:2:5: error: deadlock") == 0);
}

TEST_CASE("without message_index a receive that takes another micro-batch's message is a mispairing",
          "[passes][comm]") {
  Programs p;
  addPipeline(p);
  Schedule s = schedule(
      {{"forward:1", "forward:0", "backward:0", "backward:1"}, {"forward:0", "backward:0", "forward:1", "backward:1"}},
      2);
  CommCheckReport r = p.check(&s);
  REQUIRE(r.errors.size() >= 1);
  const core::Diagnostic& d = r.errors[0];
  CHECK(d.message ==
        "rank 1, job forward:0: pd_op.recv_v2 from rank 0 on ring 12 takes micro-batch 1's message: without "
        "message_index, messages pair in order on the channel");
  REQUIRE(d.notes.size() == 1);
  CHECK(d.notes[0].message == "rank 0, job forward:1: micro-batch 1's message, sent here");
  CHECK(rendered(r).find("rank1/forward.pir:2:5: error:") == 0);
  CHECK(rendered(r).find("rank0/forward.pir:3:5: note:") != std::string::npos);
}

TEST_CASE("with message_index the same swapped order pairs by key", "[passes][comm]") {
  Programs p;
  addPipeline(p, 0, 0);
  Schedule s = schedule(
      {{"forward:1", "forward:0", "backward:0", "backward:1"}, {"forward:0", "backward:0", "forward:1", "backward:1"}},
      2);
  CommCheckReport r = p.check(&s);
  INFO(rendered(r));
  CHECK(r.valid());
  CHECK(r.messages == 4);
}

TEST_CASE("a message_index on one end only is a mispairing", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "", body(data(0) + send(0, 1, 12, 0)));
  p.add(1, 1, "", body(recv(0, 0, 12)));
  CommCheckReport r = p.check();
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message.find("rank 1: pd_op.recv_v2 from rank 0 on ring 12 pairs with pd_op.send_v2 to rank 1 on "
                                 "ring 12 (message_index 0): a message_index on one end only") == 0);
}

TEST_CASE("two messages with one key in flight are an error", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "", body(data(0) + send(0, 1, 12, 3) + send(0, 1, 12, 3)));
  p.add(1, 1, "", body(recv(0, 0, 12, 3) + recv(1, 0, 12, 3)));
  CommCheckReport r = p.check();
  REQUIRE(!r.errors.empty());
  CHECK(r.errors[0].message.find("a second message for micro-batch 0 while the first is not received") !=
        std::string::npos);
  CHECK(r.errors[0].notes.size() == 1);
}

TEST_CASE("a receive of another shape than its message names both ops", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "", body(data(0) + send(0, 1, 12)));
  p.add(1, 1, "", body(recv(0, 0, 12, -1, "4,16", "builtin.tensor<4x16xf32>")));
  CommCheckReport r = p.check();
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message ==
        "rank 1: pd_op.recv_v2 from rank 0 on ring 12 receives 4x16xf32, the message it pairs with is 4x8xf32");
  REQUIRE(r.errors[0].notes.size() == 1);
  CHECK(rendered(r).find("rank0.pir:3:5: note: rank 0: sent here as 4x8xf32") != std::string::npos);
}

TEST_CASE("a dynamic dim or dynamic_shape receive takes any size", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "", body(data(0) + send(0, 1, 12)));
  p.add(1, 1, "", body(recv(0, 0, 12, -1, "-1,8", "builtin.tensor<-1x8xf32>")));
  CommCheckReport r = p.check();
  INFO(rendered(r));
  CHECK(r.valid());
}

TEST_CASE("members of a collective must agree on kind and shape", "[passes][comm]") {
  auto reduce = [](const std::string& name, const std::string& type, const std::string& attrs) {
    return "    (%1) = \"pd_op." + name + "\" (%0) {" + attrs + "ring_id:(Int32)12} : (" + type + ") -> " + type + "\n";
  };
  SECTION("all_reduce and c_allreduce_sum are one kind") {
    Programs p;
    p.add(0, 0, "", body(data(0) + reduce("all_reduce", kT, "reduce_type:(Int32)0,")));
    p.add(1, 1, "", body(data(0) + reduce("c_allreduce_sum", kT, "")));
    CommCheckReport r = p.check();
    INFO(rendered(r));
    CHECK(r.valid());
    CHECK(r.collectives == 1);
  }
  SECTION("another kind") {
    Programs p;
    p.add(0, 0, "", body(data(0) + reduce("all_reduce", kT, "reduce_type:(Int32)0,")));
    p.add(1, 1, "", body(data(0) + reduce("all_reduce", kT, "reduce_type:(Int32)1,")));
    CommCheckReport r = p.check();
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message ==
          "rank 1: pd_op.all_reduce: collective #1 on ring 12: all_reduce MAX of 4x8xf32 here, all_reduce SUM of "
          "4x8xf32 on rank 0");
    CHECK(rendered(r).find("rank0.pir:3:5: note: rank 0: its collective #1 on ring 12, pd_op.all_reduce") !=
          std::string::npos);
  }
  SECTION("another shape") {
    Programs p;
    const std::string t16 = "builtin.tensor<4x16xf32>";
    p.add(0, 0, "", body(data(0) + reduce("all_reduce", kT, "reduce_type:(Int32)0,")));
    p.add(1, 1, "", body(data(0, "x", t16, "4,16") + reduce("all_reduce", t16, "reduce_type:(Int32)0,")));
    CommCheckReport r = p.check();
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message.find("all_reduce SUM of 4x16xf32 here, all_reduce SUM of 4x8xf32 on rank 0") !=
          std::string::npos);
  }
  SECTION("a member that never comes deadlocks the ring") {
    Programs p;
    p.add(0, 0, "", body(data(0) + reduce("all_reduce", kT, "reduce_type:(Int32)0,")));
    p.add(1, 1, "", body(data(0)));
    CommCheckReport r = p.check();
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == "deadlock: no rank can go on; 1 rank waits for ranks that will not act");
    REQUIRE(r.errors[0].notes.size() == 1);
    CHECK(r.errors[0].notes[0].message ==
          "rank 0: waits in pd_op.all_reduce on ring 12 (its collective #1 there) for rank 1 (done)");
  }
}

TEST_CASE("a message never received is an error at its send", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "", body(data(0) + send(0, 1, 12)));
  p.add(1, 1, "", body(data(0)));
  CommCheckReport r = p.check();
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "rank 0: pd_op.send_v2 to rank 1 on ring 12: micro-batch 0's message is never received");
  CHECK(rendered(r).find("rank0.pir:3:5: error:") == 0);
}

TEST_CASE("a kwarg another job makes must be made earlier for the same micro-batch", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "forward", body(data(0) + output(0, "h")));
  p.add(0, 0, "backward",
        "{\n    ^kw:\n        %kwarg_h {}\n        %kwarg_w {}\n"
        "    (%0) = \"pd_op.relu\" (%kwarg_h) {} : (" +
            kT + ") -> " + kT +
            "\n"
            "    (%1) = \"pd_op.relu\" (%kwarg_w) {} : (" +
            kT + ") -> " + kT + "\n}\n");
  SECTION("in order") {
    Schedule s = schedule({{"forward:0", "backward:0"}}, 1);
    CommCheckReport r = p.check(&s);
    INFO(rendered(r));
    CHECK(r.valid());
  }
  SECTION("read before it is made") {
    Schedule s = schedule({{"backward:0", "forward:0"}}, 1);
    CommCheckReport r = p.check(&s);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == "rank 0, job backward:0 reads 'h', which job forward:0 makes later");
    CHECK(rendered(r).find("rank0/backward.pir:5:5: error:") == 0);
  }
  SECTION("never made for that micro-batch") {
    Schedule s = schedule({{"forward:0", "backward:1"}}, 2);
    CommCheckReport r = p.check(&s);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message ==
          "rank 0, job backward:1 reads 'h', which job forward makes, but never for micro-batch 1");
  }
}

TEST_CASE("an op the check cannot place and a job without a program are errors", "[passes][comm]") {
  Programs p;
  p.add(0, 0, "forward", body(data(0) + send(0, 1, 77)));
  p.add(1, 1, "forward", body(recv(0, 5, 12)));
  Schedule s = schedule({{"forward:0"}, {"forward:0", "backward:0"}}, 1);
  CommCheckReport r = p.check(&s);
  REQUIRE(r.errors.size() == 3);
  CHECK(r.errors[0].message == "rank 0, job forward: pd_op.send_v2: ring 77 is not in the ring table (ranks.yaml)");
  CHECK(r.errors[1].message == "rank 1, job forward: pd_op.recv_v2: peer 5 is no position in ring 12 [0, 1]");
  CHECK(r.errors[2].message == "rank 1 (stage 1) has no program for job backward");
}

TEST_CASE("the check is linear: a long schedule of many micro-batches runs fast", "[passes][comm]") {
  Programs p;
  addPipeline(p, 0, 0);
  const int n = 100000;
  std::vector<std::string> s0, s1;
  for (int mb = 0; mb < n; ++mb) s0.push_back("forward:" + std::to_string(mb));
  for (int mb = 0; mb < n; ++mb) s0.push_back("backward:" + std::to_string(mb));
  for (int mb = 0; mb < n; ++mb) {
    s1.push_back("forward:" + std::to_string(mb));
    s1.push_back("backward:" + std::to_string(mb));
  }
  Schedule s = schedule({s0, s1}, n);
  CommCheckReport r = p.check(&s);
  CHECK(r.valid());
  CHECK(r.messages == 2 * n);
}

TEST_CASE("errors past the limit are counted, not kept", "[passes][comm]") {
  Programs p;
  std::string sends = data(0);
  for (int i = 0; i < 30; ++i) sends += send(0, 1, 12);
  p.add(0, 0, "", body(sends));
  p.add(1, 1, "", body(data(0)));
  CommCheckReport r = p.check();
  REQUIRE(r.errors.size() == kMaxCommErrors + 1);
  CHECK(r.errors.back().message == "10 more communication errors not shown");
}
