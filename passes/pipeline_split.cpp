//===- pipeline_split.cpp - a training program into per-job programs ------===//
//
// `pipeline-split{mode=FThenB|1F1B|VPP|ZBH1|ZBVPP|ZB1P|ZBV|DualPipeV vpp=V split-bw=BOOL}`
// turns one pipeline stage's program (a rank's from split-ranks, or one
// written so) into the programs Paddle's pipeline passes make,
// named and ordered as Paddle does (pass_utils.py, pipeline_1f1b.py,
// pipeline_vpp.py):
//   FThenB  forward, backward, optimizer
//   1F1B    recv_forward, forward, backward, send_backward, optimizer
//   VPP     recv_forward{c}, forward{c} (c = 0..V-1), backward{c},
//           send_backward{c} (c = V-1..0), optimizer
//   VPP + split-bw  forward{0..V-1}, backward_b{V-1..0}, backward_w{V-1..0}, optimizer
//   ZBH1    forward, backward, backward_b, backward_w, optimizer; `backward`
//           holds copies of every backward_b and backward_w op
//   ZB1P    ZBH1's programs (only its schedule differs)
//   ZBVPP   VPP + split-bw with V = 2, the chunks placed in a V
//   ZBV, DualPipeV  ZBVPP's programs (only their schedules differ)
// send_v2/recv_v2 go where Paddle's passes put them: a forward recv_v2 to
// recv_forward(c) and a backward send_v2 to send_backward(c) (1F1B, VPP),
// every other one with its role's ops (a backward send is backward_b); a
// send_v2 is in the chunk of the value it sends.
// Missing op roles are completed first; in VPP missing chunks are inferred.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "core/context.h"
#include "core/huge_pages.h"
#include "core/op_table.h"
#include "core/verifier.h"
#include "passes/backward_kind.h"
#include "passes/comm_placement.h"
#include "passes/manifest.h"
#include "passes/op_roles.h"
#include "passes/pass_registry.h"
#include "passes/program_splitter.h"

namespace pir::passes {

namespace {

using namespace pir::core;

enum class Mode { FThenB, OneFOneB, VPP, ZBH1, ZBVPP, ZB1P, ZBV, DualPipeV };

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

  Status checkOptions(const PassOptionValues& values) override {
    if (vShaped() && vpp_ > 2)
      return values.errorAtKey("vpp", modeName() + " places exactly 2 chunks on each stage, in a V: vpp must be 2");
    if (vpp_ > 1 && mode_ != Mode::VPP && !vShaped()) return values.errorAtKey("vpp", "vpp needs mode=VPP");
    if (splitBw_ && mode_ != Mode::VPP) return values.errorAtKey("split-bw", "split-bw needs mode=VPP");
    return Status::ok();
  }

  Status split(NamedProgram& named, ProgramSet& out, DiagnosticEngine& diag) override {
    // programs.yaml's mode, vpp and split_bw, for a runner to make the schedule.
    publish(PipelineSplitResult{modeName(), chunkCount(), static_cast<bool>(splitBw_)});
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
    if (size_t n = writeMessageIndices(program, ops)) stats_.add("message indices written", static_cast<int64_t>(n));
    SplitPlan plan;
    StepJobs stepJobs;
    if (Status s = makePlan(ops, roles, p2p, named.stage, plan, stepJobs, diag); !s) return s;
    if (size_t n = placeReshardSteps(ops, stepJobs, plan))
      stats_.add("reshard steps placed by their data", static_cast<int64_t>(n));
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

  /// A mode without chunks has one per stage (vpp 1): an op marked with
  /// another chunk was made for an interleaved schedule, and its jobs
  /// would wait on each other (a deadlock, not an error, at run time).
  Status checkOneChunk(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles, DiagnosticEngine& diag) {
    for (size_t i = 0; i < ops.size(); ++i) {
      int64_t c = roles[i] == kRoleOptimize ? -1 : opChunk(*ops[i]);
      if (c == -1 || c == 0) continue;
      diag.error(reportLocation(ops[i]), "op '" + std::string(ops[i]->name()) + "' is in chunk " + std::to_string(c) +
                                             ", but mode " + modeName() +
                                             " has one chunk per stage (chunk 0; give mode=VPP vpp=V for more)");
      return Status::error("chunk out of range");
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
      if (c < 0 || c >= chunkCount()) {
        diag.error(reportLocation(ops[i]), "op '" + std::string(ops[i]->name()) + "' is in chunk " + std::to_string(c) +
                                               ", but vpp is " + std::to_string(chunkCount()));
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

  /// ZBVPP's V (Paddle's VScheduleCreator): chunk 0 of stage s holds layer
  /// group s, chunk 1 group 2P-1-s. What one stage's program shows of it,
  /// in its forward: chunk 0 receives its input unless on stage 0; chunk 1
  /// sends its output on unless on stage 0 (which holds the loss); chunk 0
  /// sends its output on exactly when chunk 1 receives one (the last stage
  /// keeps it). Stage -1 (unknown): the last rule only. The first op that
  /// contradicts it is the error.
  static Status checkVPlacement(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles,
                                const std::vector<P2P>& p2p, const std::vector<int64_t>& chunk, int stage,
                                const std::string& mode, DiagnosticEngine& diag) {
    constexpr size_t kNo = SIZE_MAX;
    size_t first[2] = {kNo, kNo}, recv[2] = {kNo, kNo}, send[2] = {kNo, kNo};
    for (size_t i = 0; i < ops.size(); ++i) {
      if (roles[i] != kRoleForward || chunk[i] > 1) continue;
      auto c = static_cast<size_t>(chunk[i]);
      if (first[c] == kNo && p2p[i] == P2P::None) first[c] = i;
      if (p2p[i] == P2P::Recv && recv[c] == kNo) recv[c] = i;
      if (p2p[i] == P2P::Send && send[c] == kNo) send[c] = i;
    }
    std::string at = stage >= 0 ? "stage " + std::to_string(stage) : "this stage";
    // At `i` (kNo: the chunk has no forward op; the program's first op). A
    // lowered send_v2 or recv_v2 stands where the value it moves is made or read.
    auto fail = [&](size_t i, const std::string& why) {
      const Operation* op = ops[i == kNo ? 0 : i];
      std::string which = p2p[i == kNo ? 0 : i] == P2P::Send   ? " (the pd_op.send_v2 of what this op makes)"
                          : p2p[i == kNo ? 0 : i] == P2P::Recv ? " (the pd_op.recv_v2 this op reads)"
                                                               : "";
      diag.error(reportLocation(op), mode +
                                         " places chunks in a V (chunk 0 of stage s holds layer group s, chunk 1 "
                                         "group 2P-1-s), but on " +
                                         at + " " + why + which);
      return Status::error("chunks not placed in a V");
    };
    if (stage == 0 && recv[0] != kNo) return fail(recv[0], "chunk 0 (group 0, the first) receives a forward input");
    if (stage == 0 && send[1] != kNo)
      return fail(send[1], "chunk 1 (the last group, with the loss) sends its forward output on");
    if (stage > 0 && recv[0] == kNo)
      return fail(first[0], "chunk 0 (group " + std::to_string(stage) + ") receives no forward input from stage " +
                                std::to_string(stage - 1));
    if (stage > 0 && send[1] == kNo)
      return fail(first[1], "chunk 1 sends no forward output on to stage " + std::to_string(stage - 1) +
                                " (the loss is on stage 0)");
    if ((send[0] == kNo) != (recv[1] == kNo))
      return send[0] != kNo ? fail(send[0],
                                   "chunk 0 sends its forward output to another stage, but chunk 1 "
                                   "receives none")
                            : fail(recv[1],
                                   "chunk 1 receives its forward input from another stage, but chunk 0 "
                                   "sends none (only the last stage keeps chunk 0's output for chunk 1)");
    return Status::ok();
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

  /// The jobs and each op's home by its marks; `steps` where a job's
  /// sends and receives go (comm_placement.h).
  Status makePlan(const std::vector<Operation*>& ops, const std::vector<int64_t>& roles, const std::vector<P2P>& p2p,
                  int stage, SplitPlan& plan, StepJobs& steps, DiagnosticEngine& diag) {
    auto identity = [&] {
      steps.sendJob.resize(plan.jobs.size());
      for (size_t j = 0; j < plan.jobs.size(); ++j) steps.sendJob[j] = static_cast<int>(j);
      steps.recvJob = steps.sendJob;
    };
    std::vector<BackwardKind> kinds;
    if (splitBackward() || mode_ == Mode::ZBH1 || mode_ == Mode::ZB1P) kinds = classifyBackward(ops, roles);
    auto isRecv = [&](size_t i) { return p2p[i] == P2P::Recv && roles[i] == kRoleForward; };
    auto isSend = [&](size_t i) { return p2p[i] == P2P::Send && roles[i] == kRoleBackward; };
    plan.home.resize(ops.size());
    if (mode_ != Mode::VPP && !vShaped())
      if (Status s = checkOneChunk(ops, roles, diag); !s) return s;
    switch (mode_) {
      case Mode::FThenB:
        plan.jobs = {"forward", "backward", "optimizer"};
        for (size_t i = 0; i < ops.size(); ++i) plan.home[i] = static_cast<int>(roles[i]);
        identity();
        return Status::ok();
      case Mode::OneFOneB:
        plan.jobs = {"recv_forward", "forward", "backward", "send_backward", "optimizer"};
        for (size_t i = 0; i < ops.size(); ++i)
          plan.home[i] = isRecv(i)                   ? 0
                         : isSend(i)                 ? 3
                         : roles[i] == kRoleForward  ? 1
                         : roles[i] == kRoleBackward ? 2
                                                     : 4;
        identity();
        steps.recvJob[1] = 0;  // forward's receives in recv_forward
        steps.sendJob[2] = 3;  // backward's sends in send_backward
        return Status::ok();
      case Mode::ZBH1:
      case Mode::ZB1P:  // ZBH1's programs; only the schedule differs
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
        identity();
        return Status::ok();
      case Mode::VPP:
      case Mode::ZBVPP:
      case Mode::ZBV:
      case Mode::DualPipeV:
        break;
    }
    std::vector<int64_t> chunk;
    if (Status s = chunks(ops, roles, p2p, chunk, diag); !s) return s;
    // Job indices by kind and chunk, in Paddle's job order.
    if (vShaped())
      if (Status s = checkVPlacement(ops, roles, p2p, chunk, stage, modeName(), diag); !s) return s;
    const bool splitBw = splitBackward();
    size_t v = static_cast<size_t>(chunkCount());
    std::vector<int> recvForward(v), forward(v), backward(v), sendBackward(v), backwardB(v), backwardW(v);
    auto add = [&](std::string name) {
      plan.jobs.push_back(std::move(name));
      return static_cast<int>(plan.jobs.size() - 1);
    };
    if (!splitBw) {
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
    identity();
    if (!splitBw)
      for (size_t k = 0; k < v; ++k) {
        steps.recvJob[static_cast<size_t>(forward[k])] = recvForward[k];
        steps.sendJob[static_cast<size_t>(backward[k])] = sendBackward[k];
      }
    for (size_t i = 0; i < ops.size(); ++i) {
      size_t k = static_cast<size_t>(chunk[i]);
      plan.home[i] = roles[i] == kRoleOptimize  ? optimizer
                     : roles[i] == kRoleForward ? (!splitBw && isRecv(i) ? recvForward[k] : forward[k])
                     : splitBw                  ? (kinds[i] == BackwardKind::W ? backwardW[k] : backwardB[k])
                                                : (isSend(i) ? sendBackward[k] : backward[k]);
    }
    return Status::ok();
  }

  /// The mode as `pir-opt schedule --mode` names it.
  std::string modeName() const {
    static constexpr std::string_view kModeNames[] = {"FThenB", "1F1B", "VPP", "ZBH1",
                                                      "ZBVPP",  "ZB1P", "ZBV", "DualPipeV"};
    return std::string(kModeNames[static_cast<size_t>(static_cast<Mode>(mode_))]);
  }
  /// ZBVPP, ZBV and DualPipeV: two chunks a stage, placed in a V.
  bool vShaped() const { return mode_ == Mode::ZBVPP || mode_ == Mode::ZBV || mode_ == Mode::DualPipeV; }
  int chunkCount() const { return vShaped() ? 2 : static_cast<int>(vpp_); }
  bool splitBackward() const { return splitBw_ || vShaped(); }

  EnumOption<Mode> mode_{this,
                         "mode",
                         "pipeline mode",
                         Mode::FThenB,
                         {{"FThenB", Mode::FThenB},
                          {"1F1B", Mode::OneFOneB},
                          {"VPP", Mode::VPP},
                          {"ZBH1", Mode::ZBH1},
                          {"ZBVPP", Mode::ZBVPP},
                          {"ZB1P", Mode::ZB1P},
                          {"ZBV", Mode::ZBV},
                          {"DualPipeV", Mode::DualPipeV}}};
  Option<int> vpp_{this, "vpp", "number of virtual pipeline chunks (VPP; ZBVPP, ZBV, DualPipeV: 2)", 1, 1, 1024};
  Option<bool> splitBw_{this, "split-bw", "split backward into backward_b and backward_w (VPP)", false};
};

}  // namespace

void registerPipelineSplitPass() { registerPass<PipelineSplitPass>(); }

}  // namespace pir::passes
