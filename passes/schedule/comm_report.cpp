//===- comm_report.cpp - the communication check's diagnostics -------------===//
#include "passes/schedule/comm_report.h"

#include "core/attributes.h"

namespace pir::passes::schedule {

core::Diagnostic diagnosticAt(core::Severity severity, const JobSite& site, int64_t offset,
                              const std::string& message) {
  core::Diagnostic d;
  d.severity = severity;
  d.offset = offset;
  d.message = site.name() + ": " + message;
  d.source = site.code && site.code->program ? site.code->program->source : nullptr;
  return d;
}

core::Diagnostic errorAt(const JobSite& site, const CommOp& op, const std::string& message) {
  return diagnosticAt(core::Severity::Error, site, op.op ? op.op->location() : -1, message);
}

core::Diagnostic noteAt(const JobSite& site, const CommOp& op, const std::string& message) {
  return diagnosticAt(core::Severity::Note, site, op.op ? op.op->location() : -1, message);
}

std::string describe(const CommOp& op) {
  std::string name = op.op ? std::string(op.op->name()) : "?";
  std::string ring = " on ring " + std::to_string(op.ring);
  switch (op.kind) {
    case CommOpKind::Send:
    case CommOpKind::Recv: {
      std::string text =
          name + (op.kind == CommOpKind::Send ? " to rank " : " from rank ") + std::to_string(op.peer) + ring;
      return op.messageIndex < 0 ? text : text + " (message_index " + std::to_string(op.messageIndex) + ")";
    }
    case CommOpKind::Collective:
      break;
  }
  return name + ring;
}

std::string collectiveText(const CommOp& op) {
  std::string text(collectiveKindName(op.collective));
  if (op.collective == CollectiveKind::AllReduce || op.collective == CollectiveKind::ReduceScatter)
    text += " " + std::string(core::reduceTypeName(op.reduce));
  if (op.collective == CollectiveKind::Broadcast) text += " from position " + std::to_string(op.root);
  return text + " of " + typeText(op.type);
}

void CommErrors::add(core::Diagnostic d) {
  if (count_++ < kMaxCommErrors) kept_.push_back(std::move(d));
}

void CommErrors::addAll(std::vector<core::Diagnostic> ds) {
  for (core::Diagnostic& d : ds) add(std::move(d));
}

std::vector<core::Diagnostic> CommErrors::take() {
  std::vector<core::Diagnostic> out = std::move(kept_);
  if (count_ > kMaxCommErrors) {
    core::Diagnostic more;
    more.message = std::to_string(count_ - kMaxCommErrors) + " more communication error" +
                   (count_ - kMaxCommErrors == 1 ? "" : "s") + " not shown";
    out.push_back(std::move(more));
  }
  kept_.clear();
  count_ = 0;
  return out;
}

}  // namespace pir::passes::schedule
