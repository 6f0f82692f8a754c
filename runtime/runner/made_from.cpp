//===- made_from.cpp ------------------------------------------------------===//
#include "runtime/runner/made_from.h"

#include <set>
#include <sstream>

#include "core/clone.h"
#include "core/context.h"
#include "core/op_table.h"
#include "core/process_group.h"
#include "passes/pass_manager.h"
#include "runtime/runner/run_passes.h"

namespace pir::runtime::runner {

using core::Status;

namespace {

std::string list(const std::vector<int64_t>& v) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v[i];
  out << "]";
  return out.str();
}

/// What differs between two values of one name and kind; empty when none.
std::string difference(const passes::LayoutValue& mine, const passes::LayoutValue& theirs) {
  auto say = [](const char* what, const std::string& a, const std::string& b) {
    return std::string(what) + " " + a + " here, " + b + " in the folder";
  };
  if (mine.dtype != theirs.dtype)
    return say("dtype", std::string(core::dataTypeName(mine.dtype)), std::string(core::dataTypeName(theirs.dtype)));
  if (mine.shape != theirs.shape) return say("shape", list(mine.shape), list(theirs.shape));
  if (mine.processIds != theirs.processIds || mine.meshShape != theirs.meshShape)
    return say("mesh process_ids", list(mine.processIds) + " shape " + list(mine.meshShape),
               list(theirs.processIds) + " shape " + list(theirs.meshShape));
  if (mine.dimsMapping != theirs.dimsMapping)
    return say("dims_mapping", list(mine.dimsMapping), list(theirs.dimsMapping));
  if (mine.partial != theirs.partial) return "partial dims differ";
  if (mine.persistable != theirs.persistable)
    return say("persistable", mine.persistable ? "true" : "false", theirs.persistable ? "true" : "false");
  return {};
}

/// The byte offset of the op in `program` naming `v` (its data, parameter
/// or shadow_output), or -1.
int64_t whereNamed(const core::Program& program, const passes::LayoutValue& v) {
  using core::ScopeAccess;
  ScopeAccess want = v.kind == passes::LayoutValueKind::Data        ? ScopeAccess::ReadsData
                     : v.kind == passes::LayoutValueKind::Parameter ? ScopeAccess::ReadsParameter
                                                                    : ScopeAccess::WritesOutput;
  for (const core::Operation& op : program.body()) {
    const core::OpInfo* info = core::lookupOp(op);
    if (!info || info->scope != want) continue;
    if (auto* name = op.attrOf<core::StringAttr>(info->scopeKey); name && name->value() == v.name) return op.location();
  }
  return -1;
}

int64_t firstOp(const core::Program& program) {
  return program.body().empty() ? -1 : program.body().front()->location();
}

}  // namespace

Status checkMadeFrom(const core::Program& program, const core::SourceFile& source, const passes::RankLayout& folder,
                     const std::string& folderPath) {
  core::Context ctx;
  core::ProgramSet set;
  set.programs.emplace_back("", core::cloneProgram(program, ctx));
  // Planned as the folder's rings were: with its planner and cost model.
  std::vector<passes::PassSpec> specs(2);
  specs[0].name = "apply-partition";
  specs[1].name = "split-ranks";
  specs[1].options.values["planner"] = std::string(passes::lowering::plannerName(folder.planner));
  if (!folder.costModel.empty()) specs[1].options.values["cost-model"] = folder.costModel;
  passes::PassManager pm;
  if (Status s = runPasses(std::move(specs), set, source, "--check: ", pm); !s) return s;
  const passes::RankLayout* mine = pm.results().get<passes::RankLayout>();
  if (!mine) return Status::internal("split-ranks made no ranks.yaml");
  const std::string tail = ": PROGRAM is not the program " + folderPath + " was made from";
  auto fail = [&](const std::string& what, int64_t at) { return Status::error(what + tail, at).in(&source); };
  if (mine->ranks != folder.ranks)
    return fail("its ranks are " + list(mine->ranks) + ", the folder's " + list(folder.ranks), firstOp(program));
  if (!folder.stages.empty() && mine->stages != folder.stages)
    return fail("its ranks' stages are " + list(mine->stages) + ", the folder's " + list(folder.stages),
                firstOp(program));
  passes::LayoutIndex theirs(folder), ours(*mine);
  for (const passes::LayoutValue& v : mine->values) {
    std::string kind(passes::layoutValueKindName(v.kind));
    const passes::LayoutValue* t = theirs.find(v.name, v.kind);
    if (!t) return fail(kind + " '" + v.name + "' is not in the folder", whereNamed(program, v));
    if (std::string d = difference(v, *t); !d.empty())
      return fail(kind + " '" + v.name + "': " + d, whereNamed(program, v));
  }
  for (const passes::LayoutValue& t : folder.values)
    if (!ours.find(t.name, t.kind))
      return fail("the folder's " + std::string(passes::layoutValueKindName(t.kind)) + " '" + t.name +
                      "' is not in this program",
                  firstOp(program));
  // Rings by their ordered ranks, not their ids (numbering is the passes'
  // choice): a ring PROGRAM's plan has no such list for, a reordered one
  // above all, would gather or send in another order.
  std::set<std::vector<int64_t>> planned;
  for (const core::ProcessGroup& g : mine->rings.rings()) planned.insert(g.ranks);
  for (const core::ProcessGroup& g : folder.rings.rings())
    if (g.ringId != 0 && !planned.count(g.ranks))
      return fail("the folder's ring " + std::to_string(g.ringId) + " " + list(g.ranks) +
                      " is no ring this program's lowering plans (a ring's ranks in another order?)",
                  firstOp(program));
  return Status::ok();
}

}  // namespace pir::runtime::runner
