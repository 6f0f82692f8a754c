//===- formats.h - schedule output formats ----------------------*- C++ -*-===//
//
// YAML (the job-list file, read back by `--check`), a stage x time text grid,
// Chrome-trace JSON (open in Perfetto) and an SVG timeline with one colour
// per job kind.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

#include "core/status.h"
#include "passes/schedule/job.h"
#include "passes/schedule/simulator.h"

namespace pir::passes::schedule {

/// mode, stages, micro_batches, vpp, stage_jobs and, with `sim`, simulation.
std::string scheduleToYaml(const Schedule& schedule, const Simulation* sim);
/// Reads what scheduleToYaml writes (simulation is ignored; mode optional).
core::Result<Schedule> scheduleFromYaml(const std::string& text, const std::string& what);
/// scheduleFromYaml of the file at `path` (`cannot read 'PATH'` when it cannot be read).
core::Result<Schedule> loadScheduleFile(const std::string& path);

std::string renderTimeGrid(const Schedule& schedule, const Simulation& sim);
std::string renderChromeTrace(const Schedule& schedule, const Simulation& sim);
std::string renderSvg(const Schedule& schedule, const Simulation& sim);

/// A short cell label: F forward, B backward, I backward_b, W backward_w,
/// O optimizer, R recv_forward, S send_backward; then the micro-batch and,
/// when vpp > 1, ".chunk".
std::string shortLabel(const Job& job, int vpp);

}  // namespace pir::passes::schedule
