//===- comm_simulator.cpp - every rank's communication, stepped together ---===//
#include "passes/schedule/comm_simulator.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "passes/schedule/comm_deadlock.h"
#include "passes/schedule/comm_mailbox.h"

namespace pir::passes::schedule {

namespace {

enum class Wait : uint8_t { None, Recv, Collective, Done };

struct RankState {
  const RankRun* run = nullptr;
  size_t job = 0, op = 0;  // the next op: ops[op] of jobs[job]
  Wait wait = Wait::None;
  std::unordered_map<int64_t, int64_t> collectives;  // per ring: how many it reached
  int64_t waitRing = 0, waitNumber = 0;              // the collective it waits in

  const JobSite& site() const { return run->jobs[job]; }
  const CommOp& current() const { return site().code->ops[op]; }
};

/// A member at a collective.
struct Arrival {
  size_t state;
  JobSite site;
  const CommOp* op;
};

struct PairHash {
  size_t operator()(const std::pair<int64_t, int64_t>& p) const {
    return std::hash<int64_t>()(p.first) * 0x9e3779b97f4a7c15ull ^ std::hash<int64_t>()(p.second);
  }
};

std::string ordinal(int64_t n) { return "#" + std::to_string(n); }

class Simulator {
 public:
  Simulator(const std::vector<RankRun>& ranks, const core::RingTable& rings, CommErrors& errors)
      : rings_(rings), errors_(errors) {
    states_.resize(ranks.size());
    queued_.assign(ranks.size(), false);
    for (size_t i = 0; i < ranks.size(); ++i) {
      states_[i].run = &ranks[i];
      indexOf_[ranks[i].rank] = i;
    }
  }

  CommCounts run() {
    for (size_t i = 0; i < states_.size(); ++i) push(i);
    for (;;) {
      while (!ready_.empty()) {
        size_t i = ready_.front();
        ready_.pop_front();
        queued_[i] = false;
        step(i);
      }
      if (std::all_of(states_.begin(), states_.end(), [](const RankState& s) { return s.wait == Wait::Done; })) break;
      if (takeMispaired()) continue;
      reportDeadlock();
      return counts_;
    }
    for (const Message& m : mailbox_.inFlight())
      errors_.add(errorAt(
          m.from, *m.op,
          describe(*m.op) + ": micro-batch " + std::to_string(m.key.microBatch) + "'s message is never received"));
    return counts_;
  }

 private:
  void push(size_t i) {
    if (queued_[i]) return;
    queued_[i] = true;
    ready_.push_back(i);
  }

  /// Runs rank `i` until it blocks or is done.
  void step(size_t i) {
    RankState& s = states_[i];
    if (s.wait == Wait::Done || s.wait == Wait::Collective) return;
    s.wait = Wait::None;
    for (;;) {
      if (s.job == s.run->jobs.size()) {
        s.wait = Wait::Done;
        return;
      }
      if (s.op == s.site().code->ops.size()) {
        ++s.job;
        s.op = 0;
        continue;
      }
      const JobSite& site = s.site();
      const CommOp& op = s.current();
      if (op.kind == CommOpKind::Send) {
        send(site, op);
      } else if (op.kind == CommOpKind::Recv) {
        auto taken = mailbox_.take(channelOf(site, op), {op.messageIndex, site.microBatch()});
        if (!taken) {
          s.wait = Wait::Recv;
          return;
        }
        deliver(site, op, *taken);
      } else if (!arrive(i, site, op)) {
        return;
      }
      ++s.op;
    }
  }

  static ChannelId channelOf(const JobSite& site, const CommOp& op) {
    return op.kind == CommOpKind::Send ? ChannelId{op.ring, site.rank, op.peer}
                                       : ChannelId{op.ring, op.peer, site.rank};
  }

  void send(const JobSite& site, const CommOp& op) {
    Message m{{op.messageIndex, site.microBatch()}, site, &op, seq_++};
    if (const Message* first = mailbox_.post(channelOf(site, op), m)) {
      core::Diagnostic d = errorAt(site, op,
                                   describe(op) + ": a second message for micro-batch " +
                                       std::to_string(m.key.microBatch) + " while the first is not received");
      d.notes.push_back(noteAt(first->from, *first->op, "the first, sent here"));
      errors_.add(std::move(d));
    }
    auto peer = indexOf_.find(op.peer);
    if (peer == indexOf_.end()) return;
    const RankState& p = states_[peer->second];
    if (p.wait == Wait::Recv && p.current().ring == op.ring && p.current().peer == site.rank) push(peer->second);
  }

  /// The receive `op` of `site` takes `t`: report a wrong pairing or type.
  void deliver(const JobSite& site, const CommOp& op, const Taken& t) {
    ++counts_.messages;
    const CommOp& sent = *t.message.op;
    const std::string mb = std::to_string(t.message.key.microBatch);
    core::Diagnostic d;
    if (t.pairing == Pairing::OtherMicroBatch) {
      d = errorAt(site, op,
                  describe(op) + " takes micro-batch " + mb +
                      "'s message: without message_index, messages pair in order on the channel");
      d.notes.push_back(noteAt(t.message.from, *t.message.op, "micro-batch " + mb + "'s message, sent here"));
    } else if (t.pairing == Pairing::OneEndIndexed) {
      d = errorAt(
          site, op,
          describe(op) + " pairs with " + describe(sent) + ": a message_index on one end only (core/message_key.h)");
      d.notes.push_back(noteAt(t.message.from, sent, "the send, micro-batch " + mb));
    } else if (!compatible(sent.type, op.type)) {
      d = errorAt(
          site, op,
          describe(op) + " receives " + typeText(op.type) + ", the message it pairs with is " + typeText(sent.type));
      d.notes.push_back(noteAt(t.message.from, sent, "sent here as " + typeText(sent.type)));
    } else {
      return;
    }
    errors_.add(std::move(d));
  }

  /// Rank `i` reaches collective `op`: true when it completes it.
  bool arrive(size_t i, const JobSite& site, const CommOp& op) {
    RankState& s = states_[i];
    const int64_t number = ++s.collectives[op.ring];
    auto& arrived = pending_[{op.ring, number}];
    arrived.push_back({i, site, &op});
    if (arrived.size() < rings_.find(op.ring)->ranks.size()) {
      s.wait = Wait::Collective;
      s.waitRing = op.ring;
      s.waitNumber = number;
      return false;
    }
    compare(arrived, op.ring, number);
    ++counts_.collectives;
    for (const Arrival& a : arrived)
      if (a.state != i) {
        ++states_[a.state].op;
        states_[a.state].wait = Wait::None;
        push(a.state);
      }
    pending_.erase({op.ring, number});
    return true;
  }

  /// The members must agree with the first in the ring's order.
  void compare(std::vector<Arrival>& arrived, int64_t ring, int64_t number) {
    const std::vector<int64_t>& order = rings_.find(ring)->ranks;
    auto position = [&](const Arrival& a) {
      return std::find(order.begin(), order.end(), a.site.rank) - order.begin();
    };
    std::sort(arrived.begin(), arrived.end(),
              [&](const Arrival& a, const Arrival& b) { return position(a) < position(b); });
    const CommOp& ref = *arrived[0].op;
    for (size_t k = 1; k < arrived.size(); ++k) {
      const CommOp& op = *arrived[k].op;
      bool reduces = ref.collective == CollectiveKind::AllReduce || ref.collective == CollectiveKind::ReduceScatter;
      if (op.collective == ref.collective && (!reduces || op.reduce == ref.reduce) &&
          (ref.collective != CollectiveKind::Broadcast || op.root == ref.root) && compatible(op.type, ref.type))
        continue;
      std::string what = "collective " + ordinal(number) + " on ring " + std::to_string(ring) + ": " +
                         collectiveText(op) + " here, " + collectiveText(ref) + " on rank " +
                         std::to_string(arrived[0].site.rank);
      core::Diagnostic d = errorAt(arrived[k].site, op, std::string(op.op->name()) + ": " + what);
      d.notes.push_back(noteAt(arrived[0].site, ref,
                               "its collective " + ordinal(number) + " on ring " + std::to_string(ring) + ", " +
                                   std::string(ref.op->name())));
      errors_.add(std::move(d));
    }
  }

  /// Once nobody can move: a waiting receive that could only pair wrongly
  /// takes that message. Whether one did.
  bool takeMispaired() {
    bool moved = false;
    for (size_t i = 0; i < states_.size(); ++i) {
      RankState& s = states_[i];
      if (s.wait != Wait::Recv) continue;
      const CommOp& op = s.current();
      auto taken = mailbox_.takeMispaired(channelOf(s.site(), op), {op.messageIndex, s.site().microBatch()});
      if (!taken) continue;
      deliver(s.site(), op, *taken);
      ++s.op;
      s.wait = Wait::None;
      push(i);
      moved = true;
    }
    return moved;
  }

  void reportDeadlock() {
    std::vector<RankWait> waits;
    for (const RankState& s : states_) {
      if (s.wait != Wait::Recv && s.wait != Wait::Collective) continue;
      RankWait w{s.site(), &s.current(), {}, 0};
      if (s.wait == Wait::Recv) {
        w.waitsFor.push_back(s.current().peer);
      } else {
        w.collectiveNumber = s.waitNumber;
        std::unordered_set<int64_t> there;
        for (const Arrival& a : pending_[{s.waitRing, s.waitNumber}]) there.insert(a.site.rank);
        for (int64_t r : rings_.find(s.waitRing)->ranks)
          if (!there.count(r)) w.waitsFor.push_back(r);
      }
      waits.push_back(std::move(w));
    }
    if (waits.empty()) {  // a rank neither done nor waiting is a bug of this file
      core::Diagnostic d;
      d.message = "internal: the communication check stopped with no rank waiting";
      errors_.add(std::move(d));
      return;
    }
    errors_.add(deadlockDiagnostic(waits, [&](int64_t rank) -> std::string {
      auto it = indexOf_.find(rank);
      if (it == indexOf_.end()) return "runs no program";
      return states_[it->second].wait == Wait::Done ? "done" : "";
    }));
  }

  const core::RingTable& rings_;
  CommErrors& errors_;
  std::vector<RankState> states_;
  std::unordered_map<int64_t, size_t> indexOf_;
  std::deque<size_t> ready_;
  std::vector<bool> queued_;
  Mailbox mailbox_;
  std::unordered_map<std::pair<int64_t, int64_t>, std::vector<Arrival>, PairHash> pending_;
  uint64_t seq_ = 0;
  CommCounts counts_;
};

}  // namespace

CommCounts simulateCommunication(const std::vector<RankRun>& ranks, const core::RingTable& rings, CommErrors& errors) {
  return Simulator(ranks, rings, errors).run();
}

}  // namespace pir::passes::schedule
