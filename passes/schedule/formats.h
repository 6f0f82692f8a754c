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
/// The file at `path`: torch's CSV when it ends in `.csv` (`mode` names the
/// program set, "" to infer it), else our YAML (`cannot read 'PATH'` when
/// it cannot be read).
core::Result<Schedule> loadScheduleFile(const std::string& path, const std::string& mode = "");

/// torch.distributed.pipelining's schedule CSV (torch_csv.cpp): one row per
/// stage of torch actions (`2F0`, `7I3`, `(0F7;7B3)OVERLAP_F_B`); the
/// optimizer and recv_forward/send_backward have no action.
std::string scheduleToTorchCsv(const Schedule& schedule);
/// Reads it (or its comms form, SEND_F/RECV_F/SEND_B/RECV_B too) for
/// `mode`'s program set ("" infers it from the actions), re-adding the
/// optimizer and, in the compute-only form, the communication jobs.
core::Result<Schedule> scheduleFromTorchCsv(const std::string& text, const std::string& what, const std::string& mode);
bool isTorchCsvPath(const std::string& path);

std::string renderTimeGrid(const Schedule& schedule, const Simulation& sim);
std::string renderChromeTrace(const Schedule& schedule, const Simulation& sim);
std::string renderSvg(const Schedule& schedule, const Simulation& sim);

/// A short cell label: F forward, B backward, I backward_b, W backward_w,
/// O optimizer, R recv_forward, S send_backward; then the micro-batch and,
/// when vpp > 1, ".chunk".
std::string shortLabel(const Job& job, int vpp);

}  // namespace pir::passes::schedule
