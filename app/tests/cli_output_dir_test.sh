#!/usr/bin/env bash
# CLI tests of pir-opt: --output-dir.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# --output-dir
#===----------------------------------------------------------------------===#

# --output-dir: one file per job and a jobs.yaml, all files or none.
test_output_dir() {
  local dense=$PIR_TESTDATA/pipeline/01_dense_fthenb.pir
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 0
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir jobs.yaml optimizer.pir " ] ||
    { fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"; return; }
  # Each file is the program the stream form prints under its job line.
  timeout 60 "$PIR_OPT" "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' > stream 2> err
  local job
  for job in forward backward optimizer; do
    awk -v j="// ----- job: $job" '$0 == j {on=1; next} /^\/\/ ----- job:/ {on=0} on' stream > "expect_$job"
    same "expect_$job" "jobs/$job.pir" "jobs/$job.pir"
  done
  grep -qx "  - name: forward" jobs/jobs.yaml || fail "jobs.yaml does not list forward"
  grep -q "^    imports: \[b0, loss_0, var_4_pd_op.recv_v2_0" jobs/jobs.yaml || fail "jobs.yaml lacks backward's imports"
  grep -q "^    exports: \[var_4_pd_op.recv_v2_0, var_5_pd_op.matmul_0, var_7_pd_op.relu_0, var_9_pd_op.relu_0, loss_0\]" \
    jobs/jobs.yaml || fail "jobs.yaml lacks forward's exports"
  [ "$(grep -c '^  - name:' jobs/jobs.yaml)" = 3 ] || fail "jobs.yaml should list 3 programs"

  # A failing run creates nothing.
  run "$PIR_TESTDATA/pipeline/12_err_multi_mesh.pir" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir none
  expect_rc 1
  [ ! -e none ] || fail "a failing run created none/"
  no_temp_files
}

# Into an existing folder, all files or none: a folder named like one of the
# outputs stops the run before any file moves; otherwise old files are
# replaced and others kept.
test_output_dir_existing() {
  local dense=$PIR_TESTDATA/pipeline/01_dense_fthenb.pir
  mkdir -p jobs/backward.pir
  printf 'old forward\n' > jobs/forward.pir
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 1 "a folder in the way"
  stderr_has "^pir-opt: error: cannot write 'jobs/backward.pir': it is a directory"
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir " ] || fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"
  [ "$(cat jobs/forward.pir)" = "old forward" ] || fail "jobs/forward.pir was replaced by a failing run"
  no_temp_files
  rmdir jobs/backward.pir
  printf 'keep me\n' > jobs/notes.txt
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 0
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir jobs.yaml notes.txt optimizer.pir " ] ||
    fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"
  [ "$(cat jobs/forward.pir)" != "old forward" ] || fail "jobs/forward.pir was not replaced"
  no_temp_files
}

#===----------------------------------------------------------------------===#

cli_main
