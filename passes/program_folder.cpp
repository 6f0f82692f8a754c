//===- program_folder.cpp - a folder pir-opt --output-dir wrote ------------===//
#include "passes/program_folder.h"

#include <algorithm>
#include <filesystem>

namespace pir::passes {

core::Status loadProgramFolder(const std::string& dir, ProgramFolder& out) {
  out.dir = dir;
  auto manifest = loadManifest((std::filesystem::path(dir) / kManifestName).string());
  if (!manifest) return manifest.status();
  out.manifest = std::move(manifest.value());
  std::string layoutPath = (std::filesystem::path(dir) / kRankLayoutName).string();
  std::error_code ec;
  if (std::filesystem::exists(layoutPath, ec)) {
    auto layout = loadRankLayout(layoutPath);
    if (!layout) return layout.status();
    out.layout = std::move(layout.value());
  }
  for (const ManifestProgram& mp : out.manifest.programs) {
    auto file = std::make_unique<parser::ProgramFile>();
    if (core::Status s = parser::loadProgramFile((std::filesystem::path(dir) / mp.file).string(), *file); !s) return s;
    out.files.push_back(std::move(file));
  }
  return core::Status::ok();
}

FolderComm folderComm(const ProgramFolder& folder) {
  FolderComm fc;
  int64_t world = 0;
  for (size_t i = 0; i < folder.manifest.programs.size(); ++i) {
    const ManifestProgram& mp = folder.manifest.programs[i];
    schedule::CommProgram p;
    p.rank = mp.rank < 0 ? 0 : mp.rank;
    p.stage = mp.stage;
    if (p.stage < 0 && folder.layout)
      for (size_t k = 0; k < folder.layout->ranks.size() && k < folder.layout->stages.size(); ++k)
        if (folder.layout->ranks[k] == p.rank) p.stage = int(folder.layout->stages[k]);
    p.stage = std::max(p.stage, 0);
    p.job = mp.job;
    p.program = folder.files[i]->program.get();
    p.source = folder.files[i]->source.get();
    world = std::max(world, p.rank + 1);
    fc.programs.push_back(std::move(p));
  }
  if (folder.layout) {
    fc.rings = folder.layout->rings;
    world = std::max(world, folder.layout->worldSize);
  }
  fc.rings.addWorld(world);
  return fc;
}

}  // namespace pir::passes
