//===- pipeline_split.cpp - a training program into per-job programs ------===//
//
// `pipeline-split{mode=FThenB|1F1B|VPP|ZBH1 vpp=V split-bw=BOOL}` turns one
// pipeline stage's program into the programs Paddle's pipeline passes make,
// named and ordered as Paddle does (pass_utils.py, pipeline_1f1b.py,
// pipeline_vpp.py):
//   FThenB  forward, backward, optimizer
//   1F1B    recv_forward, forward, backward, send_backward, optimizer
//   VPP     recv_forward{c}, forward{c} (c = 0..V-1), backward{c},
//           send_backward{c} (c = V-1..0), optimizer
//   VPP + split-bw  forward{0..V-1}, backward_b{V-1..0}, backward_w{V-1..0}, optimizer
//   ZBH1    forward, backward, backward_b, backward_w, optimizer; `backward`
//           holds copies of every backward_b and backward_w op
// Missing op roles are completed first; in VPP missing chunks are inferred.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "core/context.h"
#include "core/huge_pages.h"
#include "core/op_table.h"
#include "core/verifier.h"
#include "passes/backward_kind.h"
#include "passes/manifest.h"
#include "passes/op_roles.h"
#include "passes/pass_registry.h"
#include "passes/program_splitter.h"

namespace pir::passes {

namespace {

using namespace pir::core;

enum class Mode { FThenB, OneFOneB, VPP, ZBH1 };

/// recv_v2 and send_v2 ops, noted while the ops are gathered: at a million
/// ops, looking at each op again later costs a cache miss per op.
enum class P2P : uint8_t { None, Recv, Send };

std::string meshIds(const ProcessMesh* m) {
  std::string s = "[";
  for (size_t i = 0; i < m->processIds().size(); ++i) s += (i ? "," : "") + std::to_string(m->processIds()[i]);
  return s + "]";
}

class PipelineSplitPass : public SplittingPass {
 public:
  std::string_view name() const override { return "pipeline-split"; }
  std::string_view description() const override {
    return "split a pipeline stage's training program into the per-job programs of a schedule";
  }

  /// programs.yaml's mode, vpp and split_bw, for a runner to make the schedule.
  void annotateManifest(Manifest& manifest) const override {
    static constexpr std::string_view kModeNames[] = {"FThenB", "1F1B", "VPP", "ZBH1"};
    manifest.mode = std::string(kModeNames[static_cast<size_t>(static_cast<Mode>(mode_))]);
    manifest.vpp = static_cast<int>(vpp_);
    manifest.splitBw = static_cast<bool>(splitBw_) ? 1 : 0;
  }

  Status checkOptions(const PassOptionValues& values) override {
    if (vpp_ > 1 && mode_ != Mode::VPP) return values.errorAtKey("vpp", "vpp needs mode=VPP");
    if (splitBw_ && mode_ != Mode::VPP) return values.errorAtKey("split-bw", "split-bw needs mode=VPP");
    return Status::ok();
  }

  Status split(NamedProgram& named, ProgramSet& out, DiagnosticEngine& diag) override {
    Program& program = *named.program;
    // One walk gathers the ops, their roles and checks their mesh: at a
    // million ops every walk over the IR costs a cache miss per op.
    std::vector<Operation*> ops;
    std::vector<int64_t> roles;
    std::vector<P2P> p2p;
    core::reserveOnHugePages(ops, program.body().numOps());
    core::reserveOnHugePages(roles, program.body().numOps());
    core::reserveOnHugePages(p2p, program.body().numOps());
    bool missingRole = false;
    const ProcessMesh* mesh = nullptr;
    for (Operation& op : program.body()) {
      if (Status s = checkMesh(op, mesh, diag); !s) return s;
      op.setPassIndex(static_cast<uint32_t>(ops.size()));
      ops.push_back(&op);
      roles.push_back(opRole(op));
      missingRole |= roles.back() == -1;
      p2p.push_back(op.name() == "pd_op.recv_v2" ? P2P::Recv : op.name() == "pd_op.send_v2" ? P2P::Send : P2P::None);
    }
    if (missingRole) {
      if (size_t n = completeOpRoles(program)) stats_.add("op roles completed", static_cast<int64_t>(n));
      for (size_t i = 0; i < ops.size(); ++i) roles[i] = opRole(*ops[i]);
    }
    for (size_t i = 0; i < ops.size(); ++i)
      if (roles[i] != kRoleForward && roles[i] != kRoleBackward && roles[i] != kRoleOptimize) {
        diag.error(reportLocation(ops[i]), "op '" + std::string(ops[i]->name()) + "' has op role " +
                                               std::to_string(roles[i]) +
                                               ", not forward (0), backward (1) or optimize (2)");
        return Status::error("unknown op role");
      }
    SplitPlan plan;
    if (Status s = makePlan(ops, roles, p2p, plan, diag); !s) return s;
    if (Status s = checkInplaceOrder(program, ops, plan, diag); !s) return s;
    if (Status s = splitProgram(program, ops, plan, out, diag, stats_); !s) return s;
    for (NamedProgram& job : out.programs) job.job = job.name;  // each piece is the job it is named after
    return Status::ok();
  }

 private:
  /// Several meshes in one program is several stages: `first` is the mesh
  /// of the first op that has one.
  static Status checkMesh(const Operation& op, const ProcessMesh*& first, DiagnosticEngine& diag) {
    const OpDistAttr* od = op.distAttr();
    if (!od) return Status::ok();
    if (!first) {
      first = od->mesh();
    } else if (od->mesh() != first) {
      diag.error(reportLocation(&op), "one stage per program: op '" + std::string(op.name()) + "' is on mesh " +
                                          meshIds(od->mesh()) + ", the program's first op on " + meshIds(first));
      return Status::error("several meshes");
    }
    return Status::ok();
  }

  /// The chunk of every op (VPP), inferring missing ones in reverse order
  /// as Paddle does; optimizer ops need none.
  Status chunks(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles, const std::vector<P2P>& p2p,
                std::vector<int64_t>& out, DiagnosticEngine& diag) {
    out.assign(ops.size(), 0);
    for (size_t i = ops.size(); i-- > 0;) {
      if (roles[i] == kRoleOptimize) continue;
      int64_t c = opChunk(*ops[i]);
      if (c == -1) c = inferChunk(ops, i);
      if (c == -1) {
        diag.error(reportLocation(ops[i]), "cannot infer the chunk of op '" + std::string(ops[i]->name()) + "'");
        return Status::error("cannot infer a chunk");
      }
      if (c < 0 || c >= vpp_) {
        diag.error(reportLocation(ops[i]), "op '" + std::string(ops[i]->name()) + "' is in chunk " + std::to_string(c) +
                                               ", but vpp is " + std::to_string(vpp_));
        return Status::error("chunk out of range");
      }
      out[i] = c;
    }
    sendChunks(ops, p2p, out);
    return Status::ok();
  }

  /// A send_v2 runs in the chunk of the value it sends, as Paddle's
  /// SameStatusReshardFunction gives the sending rank's op the chunk of the
  /// value's producer: the lowering here copies the reading op's chunk (the
  /// chunk of the receiving stage) onto both ends, and a send in the later
  /// chunk's job would wait on itself (rank 0 would send its chunk 1's
  /// backward output only after its chunk 0's backward, which needs it).
  static void sendChunks(const std::vector<Operation*>& ops, const std::vector<P2P>& p2p, std::vector<int64_t>& out) {
    for (size_t i = 0; i < ops.size(); ++i) {
      if (p2p[i] != P2P::Send || ops[i]->numOperands() == 0 || !ops[i]->operandValue(0)) continue;
      const Operation* producer = ops[i]->operandValue(0)->definingOp();
      if (producer && producer->parentBlock() == ops[i]->parentBlock() && producer->passIndex() < i)
        out[i] = out[producer->passIndex()];
    }
  }

  /// An op writing a value in place must still run after the ops that read
  /// the value before it in the input: a reader the plan puts in a later
  /// job (a W op after the B ops, an op of a later chunk) would read the
  /// written value. Paddle's split does not check; here it is an error.
  /// Top-level writers (passIndex() set); nothing runs after the last job.
  static Status checkInplaceOrder(const Program& program, const std::vector<Operation*>& ops, const SplitPlan& plan,
                                  DiagnosticEngine& diag) {
    const int lastJob = static_cast<int>(plan.jobs.size()) - 1;
    for (size_t w = 0; w < ops.size(); ++w) {
      const Operation& writer = *ops[w];
      if (plan.home[w] == lastJob || !writer.name().ends_with('_')) continue;
      const OpInfo* info = lookupOp(writer);
      for (const InplacePair& pair : info ? info->inplacePairs(writer.numOperands()) : std::span<const InplacePair>()) {
        const Value* v = pair.operand < writer.numOperands() ? writer.operandValue(pair.operand) : nullptr;
        for (const OpOperand* u = v ? v->firstUse() : nullptr; u; u = u->nextUse()) {
          const Operation* reader = u->owner();
          while (reader && reader->parentBlock() != &program.body()) reader = reader->parentOp();
          if (!reader || reader == &writer) continue;
          size_t r = reader->passIndex();
          if (r >= w || plan.home[r] <= plan.home[w]) continue;
          Diagnostic& d =
              diag.error(reportLocation(reader),
                         "op '" + std::string(reader->name()) + "' reads a value that op '" +
                             std::string(writer.name()) + "' writes in place after it, but goes to job '" +
                             plan.jobs[static_cast<size_t>(plan.home[r])] + "', which runs after the writer's job '" +
                             plan.jobs[static_cast<size_t>(plan.home[w])] + "': it would read the written value");
          d.notes.push_back(Diagnostic{Severity::Note, reportLocation(&writer), "written in place here", {}});
          return Status::error("a reader would run after an in-place write it preceded");
        }
      }
    }
    return Status::ok();
  }

  Status makePlan(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles, const std::vector<P2P>& p2p,
                  SplitPlan& plan, DiagnosticEngine& diag) {
    std::vector<BackwardKind> kinds;
    if (splitBw_ || mode_ == Mode::ZBH1) kinds = classifyBackward(ops, roles);
    auto isRecv = [&](size_t i) { return p2p[i] == P2P::Recv && roles[i] == kRoleForward; };
    auto isSend = [&](size_t i) { return p2p[i] == P2P::Send && roles[i] == kRoleBackward; };
    plan.home.resize(ops.size());
    switch (mode_) {
      case Mode::FThenB:
        plan.jobs = {"forward", "backward", "optimizer"};
        for (size_t i = 0; i < ops.size(); ++i) plan.home[i] = static_cast<int>(roles[i]);
        return Status::ok();
      case Mode::OneFOneB:
        plan.jobs = {"recv_forward", "forward", "backward", "send_backward", "optimizer"};
        for (size_t i = 0; i < ops.size(); ++i)
          plan.home[i] = isRecv(i)                   ? 0
                         : isSend(i)                 ? 3
                         : roles[i] == kRoleForward  ? 1
                         : roles[i] == kRoleBackward ? 2
                                                     : 4;
        return Status::ok();
      case Mode::ZBH1:
        plan.jobs = {"forward", "backward", "backward_b", "backward_w", "optimizer"};
        plan.copyJob = 1;
        plan.copyReaders = {2, 3};
        plan.copied.assign(ops.size(), 0);
        for (size_t i = 0; i < ops.size(); ++i) {
          if (roles[i] == kRoleBackward) {
            plan.home[i] = kinds[i] == BackwardKind::W ? 3 : 2;
            plan.copied[i] = 1;
          } else {
            plan.home[i] = roles[i] == kRoleForward ? 0 : 4;
          }
        }
        return Status::ok();
      case Mode::VPP:
        break;
    }
    std::vector<int64_t> chunk;
    if (Status s = chunks(ops, roles, p2p, chunk, diag); !s) return s;
    // Job indices by kind and chunk, in Paddle's job order.
    size_t v = static_cast<size_t>(vpp_);
    std::vector<int> recvForward(v), forward(v), backward(v), sendBackward(v), backwardB(v), backwardW(v);
    auto add = [&](std::string name) {
      plan.jobs.push_back(std::move(name));
      return static_cast<int>(plan.jobs.size() - 1);
    };
    if (!splitBw_) {
      for (size_t k = 0; k < v; ++k)
        recvForward[k] = add("recv_forward" + std::to_string(k)), forward[k] = add("forward" + std::to_string(k));
      for (size_t k = v; k-- > 0;)
        backward[k] = add("backward" + std::to_string(k)), sendBackward[k] = add("send_backward" + std::to_string(k));
    } else {
      for (size_t k = 0; k < v; ++k) forward[k] = add("forward" + std::to_string(k));
      for (size_t k = v; k-- > 0;) backwardB[k] = add("backward_b" + std::to_string(k));
      for (size_t k = v; k-- > 0;) backwardW[k] = add("backward_w" + std::to_string(k));
    }
    int optimizer = add("optimizer");
    for (size_t i = 0; i < ops.size(); ++i) {
      size_t k = static_cast<size_t>(chunk[i]);
      plan.home[i] = roles[i] == kRoleOptimize  ? optimizer
                     : roles[i] == kRoleForward ? (!splitBw_ && isRecv(i) ? recvForward[k] : forward[k])
                     : splitBw_                 ? (kinds[i] == BackwardKind::W ? backwardW[k] : backwardB[k])
                                                : (isSend(i) ? sendBackward[k] : backward[k]);
    }
    return Status::ok();
  }

  EnumOption<Mode> mode_{
      this,
      "mode",
      "pipeline mode",
      Mode::FThenB,
      {{"FThenB", Mode::FThenB}, {"1F1B", Mode::OneFOneB}, {"VPP", Mode::VPP}, {"ZBH1", Mode::ZBH1}}};
  Option<int> vpp_{this, "vpp", "number of virtual pipeline chunks (VPP)", 1, 1, 1024};
  Option<bool> splitBw_{this, "split-bw", "split backward into backward_b and backward_w (VPP)", false};
};

}  // namespace

void registerPipelineSplitPass() { registerPass<PipelineSplitPass>(); }

}  // namespace pir::passes
