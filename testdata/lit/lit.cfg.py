# lit configuration of pir-opt's FileCheck tests (MLIR style: `// RUN:` lines).
#
# Run by ctest (testdata/CMakeLists.txt configures lit.site.cfg.py with the
# built pir-opt), or by hand from the source tree:
#   python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv testdata/lit
# which finds pir-opt in $PIR_OPT, `--param pir_opt=PATH`, or build/app/.
# A new test is a file here ending in .pir (or .test) with a RUN line;
# nothing needs registering.
import os
import shutil

import lit.formats

config.name = "pir-opt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".pir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "README.md"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(config.test_source_root))

pir_opt = getattr(config, "pir_opt", None) or lit_config.params.get("pir_opt") or os.environ.get("PIR_OPT")
if not pir_opt:
    for candidate in ("build/app/pir-opt", "build/pir-opt"):
        if os.path.exists(os.path.join(repo, candidate)):
            pir_opt = os.path.join(repo, candidate)
            break
if not pir_opt or not os.path.exists(pir_opt):
    lit_config.fatal("pir-opt not found: build it (scripts/build.sh), or set PIR_OPT or --param pir_opt=PATH")
if getattr(config, "test_exec_root", None) is None:
    config.test_exec_root = os.path.join(os.path.dirname(pir_opt), "lit-out")

# Debian 12's llvm-14-tools names the tools with a -14 suffix.
def tool(name):
    for candidate in (name + "-14", name):
        if shutil.which(candidate):
            return shutil.which(candidate)
    lit_config.fatal(name + " not found: install llvm-14-tools (scripts/install-deps.sh)")

config.environment["PATH"] = os.path.dirname(os.path.abspath(pir_opt)) + os.pathsep + config.environment.get("PATH", os.environ["PATH"])
config.environment["PIR_OPT_TEST_PASSES"] = "1"  # test-* passes (failures on demand)
# Word-bounded so that `not` inside a pass name or a CHECK line is left alone.
config.substitutions.append((r"\bFileCheck\b(?!-)", tool("FileCheck")))
config.substitutions.append((r"\bnot\b(?=\s)", tool("not")))
config.substitutions.append((r"\bsplit-file\b(?!-)", tool("split-file")))
config.substitutions.append(("%testdata", os.path.join(repo, "testdata")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# Paddle's documentation dumps, when the shared corpus is there
# (../shared/corpus, or $PIR_CORPUS); tests that need it say `REQUIRES: corpus`.
corpus = os.environ.get("PIR_CORPUS") or os.path.join(os.path.dirname(repo), "shared", "corpus")
if os.path.isdir(corpus):
    config.available_features.add("corpus")
    config.substitutions.append(("%corpus", corpus))
