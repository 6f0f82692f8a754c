//===- explain_command.cpp - `pir-opt explain-reshard` ---------------------===//
//
// Flags -> one reshard (built from the flags, or found in a program) -> the
// plans of both planners, costed -> text or YAML. A program without
// dist_op.reshard ops goes through apply-partition first.
//
//===----------------------------------------------------------------------===//
#include "app/explain_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>

#include "app/cli_checks.h"
#include "core/attr_access.h"
#include "core/diagnostics.h"
#include "core/mesh_math.h"
#include "core/operation.h"
#include "parser/program_file.h"
#include "passes/lowering/explain.h"
#include "passes/pass_manager.h"
#include "passes/pass_pipeline.h"
#include "passes/pass_registry.h"

namespace pir::app {

namespace {

namespace lw = passes::lowering;
using core::Result;
using core::Status;
constexpr const char* kTool = "pir-opt explain-reshard";

struct Options {
  std::string program, src, dst, mesh, ids, dstMesh, dstIds, shape, dtype = "float32", path, costModel;
  std::string format = "text";
  int64_t at = -1;
  bool batch = false;
};

/// One line of --batch: `--key value` pairs of the flags form (values
/// without spaces) into `o`; false on anything else.
bool readBatchLine(const std::string& line, Options& o) {
  std::vector<std::string> words;
  size_t at = 0;
  while ((at = line.find_first_not_of(' ', at)) != std::string::npos) {
    size_t end = line.find(' ', at);
    words.push_back(line.substr(at, end == std::string::npos ? std::string::npos : end - at));
    at = end;
  }
  if (words.size() % 2) return false;
  for (size_t i = 0; i < words.size(); i += 2) {
    const std::string& k = words[i];
    std::string* field = k == "--src"        ? &o.src
                         : k == "--dst"      ? &o.dst
                         : k == "--mesh"     ? &o.mesh
                         : k == "--ids"      ? &o.ids
                         : k == "--dst-mesh" ? &o.dstMesh
                         : k == "--dst-ids"  ? &o.dstIds
                         : k == "--shape"    ? &o.shape
                         : k == "--dtype"    ? &o.dtype
                         : k == "--path"     ? &o.path
                                             : nullptr;
    if (!field) return false;
    *field = words[i + 1];
  }
  return true;
}

Result<std::vector<int64_t>> numbers(const std::string& text, char sep, const char* what) {
  std::vector<int64_t> out;
  size_t at = 0;
  while (at <= text.size() && !text.empty()) {
    size_t end = text.find(sep, at);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(at, end - at);
    char* stop = nullptr;
    long long v = std::strtoll(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || v < 0)
      return Status::error(std::string(what) + " '" + text + "' is not a list of numbers");
    out.push_back(v);
    at = end + 1;
  }
  if (out.empty()) return Status::error(std::string(what) + " is empty");
  return out;
}

Result<const core::ProcessMesh*> meshOf(core::Context& ctx, const std::string& shapeText, const std::string& idsText,
                                        int64_t firstId) {
  auto shape = numbers(shapeText, 'x', "--mesh");
  if (!shape) return shape.takeStatus();
  int64_t n = 1;
  for (int64_t d : *shape) n *= std::max<int64_t>(d, 1);
  std::vector<int64_t> ids;
  if (idsText.empty()) {
    for (int64_t i = 0; i < n; ++i) ids.push_back(firstId + i);
  } else {
    auto given = numbers(idsText, ',', "--ids");
    if (!given) return given.takeStatus();
    ids = *given;
  }
  if (int64_t(ids.size()) != n || std::any_of(shape->begin(), shape->end(), [](int64_t d) { return d < 1; }))
    return Status::error("mesh " + shapeText + " needs " + std::to_string(n) + " ids, given " +
                         std::to_string(ids.size()));
  return ctx.processMesh(*shape, ids);
}

void print(const Options& o, std::span<const lw::Explained> plans, std::span<const int64_t> dims) {
  std::string text = o.format == "yaml" ? lw::explainYaml(plans, dims) : lw::explainText(plans, dims);
  std::fputs(text.c_str(), stdout);
}

/// Both planners' plans of one reshard, and a given path's.
Result<std::vector<lw::Explained>> explainOne(core::Context& ctx, const core::TensorDistAttr* src,
                                              const core::TensorDistAttr* dst, std::span<const int64_t> dims,
                                              uint64_t elementBytes, const lw::CostModel& model,
                                              std::span<const core::TensorDistAttr* const> path) {
  std::vector<lw::Explained> plans;
  for (lw::Planner p : {lw::Planner::Cost, lw::Planner::Paddle}) {
    Result<lw::Explained> e = lw::explainPlan(ctx, src, dst, dims, {p, elementBytes, &model});
    if (!e) return e.takeStatus();
    plans.push_back(std::move(*e));
  }
  if (!path.empty()) {
    Result<lw::Explained> e = lw::explainPath(ctx, path, dims, elementBytes, model);
    if (!e) return e.takeStatus();
    plans.push_back(std::move(*e));
  }
  return plans;
}

int fromFlags(const Options& o, const lw::CostModel& model) {
  core::Context ctx;
  auto dims = numbers(o.shape, 'x', "--shape");
  if (!dims) return cliError(kTool, dims.status().message());
  auto dtype = core::parsePaddleDataType(o.dtype);
  if (!dtype) dtype = core::parseDataType(o.dtype);
  if (!dtype || core::dataTypeBytes(*dtype) == 0) return cliError(kTool, "--dtype '" + o.dtype + "' is no dtype");
  auto sm = meshOf(ctx, o.mesh, o.ids, 0);
  if (!sm) return cliError(kTool, sm.status().message());
  const core::ProcessMesh* dm = *sm;
  if (!o.dstMesh.empty() || !o.dstIds.empty()) {
    auto m = meshOf(ctx, o.dstMesh.empty() ? o.mesh : o.dstMesh, o.dstIds, int64_t((*sm)->processIds().size()));
    if (!m) return cliError(kTool, m.status().message());
    dm = *m;
  }
  auto src = lw::parseLayout(ctx, o.src, *sm, dims->size());
  if (!src) return cliError(kTool, "--src: " + src.status().message());
  auto dst = lw::parseLayout(ctx, o.dst, dm, dims->size());
  if (!dst) return cliError(kTool, "--dst: " + dst.status().message());
  std::vector<const core::TensorDistAttr*> path;
  if (!o.path.empty()) {
    // Layouts on the source mesh, then after a '|' those on the destination's.
    const core::ProcessMesh* mesh = *sm;
    size_t at = 0;
    while (at <= o.path.size()) {
      size_t end = o.path.find_first_of(";|", at);
      if (end == std::string::npos) end = o.path.size();
      auto l = lw::parseLayout(ctx, o.path.substr(at, end - at), mesh, dims->size());
      if (!l) return cliError(kTool, "--path: " + l.status().message());
      path.push_back(*l);
      if (end < o.path.size() && o.path[end] == '|') mesh = dm;
      at = end + 1;
    }
    if (path.front() != *src || path.back() != *dst)
      return cliError(kTool, "--path must start at --src and end at --dst");
  }
  auto plans = explainOne(ctx, *src, *dst, *dims, core::dataTypeBytes(*dtype), model, path);
  if (!plans) return cliError(kTool, plans.status().message());
  if (o.format == "text")
    std::printf("reshard %s[%s] from %s on %s to %s on %s\n", o.dtype.c_str(), o.shape.c_str(),
                lw::layoutText(*src).c_str(), lw::meshText(*sm).c_str(), lw::layoutText(*dst).c_str(),
                lw::meshText(dm).c_str());
  print(o, *plans, *dims);
  return stdoutWritten(kTool) ? 0 : 1;
}

int fromProgram(const Options& o, const lw::CostModel& model) {
  parser::ProgramFile f;
  if (Status s = parser::loadProgramFile(o.program, f); !s) {
    std::fputs(core::renderStatus(s).c_str(), stderr);
    return 1;
  }
  bool any = false;
  core::walk(f.program->body(), [&](const core::Operation& op) { any = any || op.name() == "dist_op.reshard"; });
  if (!any) {  // a program before apply-partition: insert its reshards
    core::ProgramSet set;
    set.programs.emplace_back("", std::move(f.program));
    core::DiagnosticEngine diag(f.source.get());
    std::vector<passes::PassSpec> specs;
    passes::PassManager pm;
    if (!passes::parsePassPipeline("apply-partition", specs, diag) || !pm.addPipeline(specs, diag) ||
        !pm.run(set, diag)) {
      std::fputs(diag.render().c_str(), stderr);
      return 1;
    }
    f.program = std::move(set.programs[0].program);
  }
  struct Row {
    uint64_t line;
    std::vector<lw::Explained> plans;
    std::vector<int64_t> dims;
    std::string text;
  };
  std::vector<Row> rows;
  Status failed = Status::ok();
  core::walk(f.program->body(), [&](const core::Operation& op) {
    if (!failed || op.name() != "dist_op.reshard" || op.numOperands() != 1 || op.numResults() != 1) return;
    const core::Value* in = op.operandValue(0);
    const core::TensorDistAttr* src = core::distAttrOf(in->type());
    const core::TensorDistAttr* dst = core::distAttrOf(op.result(0)->type());
    auto shape = core::tensorShape(in->type());
    if (!src || !dst || !shape) return;
    // A reshard apply-partition inserted has no place in the text: the line of the op that reads it.
    int64_t at = op.location();
    if (at < 0 && op.result(0)->firstUse()) at = op.result(0)->firstUse()->owner()->location();
    uint64_t line = at >= 0 ? f.source->lineCol(uint64_t(at)).line : 0;
    if (o.at >= 0 && int64_t(line) != o.at) return;
    std::vector<int64_t> dims(shape->dims.begin(), shape->dims.end());
    size_t bytes = core::dataTypeBytes(shape->dtype);
    auto plans = explainOne(f.ctx, src, dst, dims, bytes ? bytes : 4, model, {});
    if (!plans) {
      failed = plans.takeStatus().withMessage(o.program + ":" + std::to_string(line) + ": " + plans.status().message());
      return;
    }
    std::string d;
    for (size_t i = 0; i < dims.size(); ++i) d += (i ? "x" : "") + std::to_string(dims[i]);
    rows.push_back({line, std::move(*plans), dims,
                    std::string(core::dataTypeName(shape->dtype)) + "[" + d + "] " + lw::layoutText(src) + " on " +
                        lw::meshText(src->mesh()) + " -> " + lw::layoutText(dst) +
                        (src->mesh() == dst->mesh() ? "" : " on " + lw::meshText(dst->mesh()))});
  });
  if (!failed) return cliError(kTool, failed.message());
  if (o.at >= 0) {
    if (rows.empty())
      return cliError(kTool, o.program + ":" + std::to_string(o.at) + ": no dist_op.reshard on that line");
    if (o.format == "text")
      std::printf("%s:%lld: reshard %s\n", o.program.c_str(), (long long)o.at, rows[0].text.c_str());
    print(o, rows[0].plans, rows[0].dims);
    return stdoutWritten(kTool) ? 0 : 1;
  }
  // Every reshard, then the totals: each rank's bytes summed over the
  // reshards (one step of the program), the busiest rank's, and the time.
  std::map<std::string, std::map<int64_t, uint64_t>> perRank;
  std::map<std::string, double> micros;
  std::string yaml = "reshards:\n";
  for (const Row& r : rows) {
    if (o.format == "text") std::printf("%s:%llu: %s:", o.program.c_str(), (unsigned long long)r.line, r.text.c_str());
    yaml += "  - {line: " + std::to_string(r.line);
    for (const lw::Explained& e : r.plans) {
      for (const auto& [rank, b] : e.cost.bytes) perRank[e.planner][rank] += b.total();
      micros[e.planner] += e.cost.micros;
      if (o.format == "text") std::printf(" %s %llu", e.planner.c_str(), (unsigned long long)e.cost.maxBytes);
      yaml += ", " + e.planner + ": " + std::to_string(e.cost.maxBytes);
    }
    yaml += "}\n";
    if (o.format == "text") std::printf(" bytes\n");
  }
  if (rows.empty()) yaml = "reshards: []\n";
  yaml += "totals:\n";
  for (const char* planner : {"cost", "paddle"}) {
    uint64_t most = 0, all = 0;
    for (const auto& [rank, b] : perRank[planner]) most = std::max(most, b), all += b;
    if (o.format == "text")
      std::printf("total %s: %llu bytes on the busiest rank, %llu on all ranks, %.4g us, %zu reshards\n", planner,
                  (unsigned long long)most, (unsigned long long)all, micros[planner], rows.size());
    yaml += "  " + std::string(planner) + ": {max_rank_bytes: " + std::to_string(most) +
            ", all_ranks_bytes: " + std::to_string(all) + ", reshards: " + std::to_string(rows.size()) + "}\n";
  }
  if (o.format == "yaml") std::fputs(yaml.c_str(), stdout);
  return stdoutWritten(kTool) ? 0 : 1;
}

}  // namespace

int runExplainReshard(int argc, char** argv) {
  CLI::App app{"pir-opt explain-reshard: the plans of a reshard with each planner, their steps, bytes and time"};
  app.name("pir-opt explain-reshard");
  Options o;
  app.add_option("PROGRAM", o.program, "a program: every reshard (after apply-partition when it has none)")
      ->check(nonEmptyPath());
  app.add_option("--at", o.at, "the reshard of PROGRAM on this line")->check(CLI::PositiveNumber);
  app.add_option("--src", o.src, "the source layout, per mesh dim: R, S(i), P or P(TYPE), comma-separated");
  app.add_option("--dst", o.dst, "the destination layout");
  app.add_option("--mesh", o.mesh, "the mesh shape, e.g. 2x4 (ids 0..n-1 unless --ids)");
  app.add_option("--ids", o.ids, "the mesh's process ids, comma-separated");
  app.add_option("--dst-mesh", o.dstMesh, "the destination's mesh shape (another mesh: cross-mesh)");
  app.add_option("--dst-ids", o.dstIds, "the destination mesh's ids (default: after the source's)");
  app.add_option("--shape", o.shape, "the tensor's global shape, e.g. 8x6");
  app.add_option("--dtype", o.dtype, "the element type (float32)");
  app.add_option("--path", o.path,
                 "also cost this plan: layouts separated by ';', a '|' before the first on the destination mesh");
  app.add_option("--cost-model", o.costModel, "the alpha-beta model (YAML; lower-reshard's cost-model)")
      ->check(nonEmptyPath());
  app.add_option("--format", o.format, "text or yaml")->check(CLI::IsMember({"text", "yaml"}));
  app.add_flag("--batch", o.batch,
               "read one reshard per stdin line (its --src/--dst/--mesh/--ids/--dst-mesh/--dst-ids/--shape/--dtype/"
               "--path) and print each's YAML, a `---` line before each");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return exitAfterParse(kTool, app, e);
  }
  try {
    passes::registerAllPasses();
    lw::CostModel model;
    if (!o.costModel.empty()) {
      auto m = lw::loadCostModel(o.costModel);
      if (!m) return cliError(kTool, m.status().message());
      model = *m;
    }
    if (o.batch) {
      if (!o.program.empty()) return cliError(kTool, "--batch reads reshards from stdin, not a PROGRAM");
      std::string line;
      for (int c; (c = std::getchar()) != EOF || !line.empty();) {
        if (c != '\n' && c != EOF) {
          line += char(c);
          continue;
        }
        Options one;
        one.format = "yaml";
        one.costModel = o.costModel;
        if (!readBatchLine(line, one)) return cliError(kTool, "--batch: cannot read the line '" + line + "'");
        line.clear();
        std::fputs("---\n", stdout);
        if (int rc = fromFlags(one, model); rc != 0) return rc;
        if (c == EOF) break;
      }
      return stdoutWritten(kTool) ? 0 : 1;
    }
    bool flags = !o.src.empty() || !o.dst.empty() || !o.mesh.empty() || !o.shape.empty();
    if (!o.program.empty()) {
      if (flags || !o.path.empty()) return cliError(kTool, "give PROGRAM or --src/--dst/--mesh/--shape, not both");
      return fromProgram(o, model);
    }
    if (o.at >= 0) return cliError(kTool, "--at needs a PROGRAM");
    if (o.src.empty() || o.dst.empty() || o.mesh.empty() || o.shape.empty())
      return cliError(kTool, "give PROGRAM, or all of --src, --dst, --mesh and --shape");
    return fromFlags(o, model);
  } catch (const std::exception& e) {
    return cliError(kTool, std::string("internal: ") + e.what(), 2);
  }
}

}  // namespace pir::app
