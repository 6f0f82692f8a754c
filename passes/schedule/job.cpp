//===- job.cpp - job names ------------------------------------------------===//
#include "passes/schedule/job.h"

#include <array>
#include <charconv>
#include <utility>

namespace pir::passes::schedule {

namespace {

// Longest stems first so "backward_b" is not read as "backward" + "_b".
constexpr std::array<std::pair<std::string_view, JobKind>, 7> kStems = {{
    {"recv_forward", JobKind::RecvForward},
    {"send_backward", JobKind::SendBackward},
    {"backward_b", JobKind::BackwardB},
    {"backward_w", JobKind::BackwardW},
    {"optimizer", JobKind::Optimizer},
    {"backward", JobKind::Backward},
    {"forward", JobKind::Forward},
}};

bool parseInt(std::string_view text, int& out) {
  if (text.empty()) return false;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

}  // namespace

std::string_view kindName(JobKind kind) {
  for (const auto& [stem, k] : kStems)
    if (k == kind) return stem;
  return "?";
}

std::string Job::type() const {
  std::string text(kindName(kind));
  if (chunk >= 0) text += std::to_string(chunk);
  return text;
}

std::string Job::name() const { return type() + ":" + std::to_string(microBatch); }

core::Result<Job> parseJob(std::string_view text) {
  std::string_view type = text;
  Job job;
  if (size_t colon = text.find(':'); colon != std::string_view::npos) {
    type = text.substr(0, colon);
    if (!parseInt(text.substr(colon + 1), job.microBatch))
      return core::Status::error("bad micro-batch in job '" + std::string(text) + "'");
  }
  for (const auto& [stem, kind] : kStems) {
    if (type.substr(0, stem.size()) != stem) continue;
    std::string_view rest = type.substr(stem.size());
    if (!rest.empty() && !parseInt(rest, job.chunk)) continue;
    job.kind = kind;
    return job;
  }
  return core::Status::error("unknown job type '" + std::string(type) +
                             "' (expected recv_forward, forward, backward, backward_b, "
                             "backward_w, send_backward or optimizer, with an optional chunk)");
}

}  // namespace pir::passes::schedule
