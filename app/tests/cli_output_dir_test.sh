#!/usr/bin/env bash
# CLI tests of pir-opt: --output-dir.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# --output-dir
#===----------------------------------------------------------------------===#

# --output-dir: one file per job and a programs.yaml, all files or none.
test_output_dir() {
  local dense=$PIR_TESTDATA/pipeline/01_dense_fthenb.pir
  run "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' --output-dir jobs
  expect_rc 0
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir optimizer.pir programs.yaml " ] ||
    { fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"; return; }
  # Each file is the program the stream form prints under its job line.
  timeout 60 "$PIR_OPT" "$dense" '--pass-pipeline=pipeline-split{mode=FThenB}' > stream 2> err
  local job
  for job in forward backward optimizer; do
    awk -v j="// ----- job: $job" '$0 == j {on=1; next} /^\/\/ ----- job:/ {on=0} on' stream > "expect_$job"
    same "expect_$job" "jobs/$job.pir" "jobs/$job.pir"
  done
  grep -qx "  - name: forward" jobs/programs.yaml || fail "programs.yaml does not list forward"
  grep -q "^    imports: \[b0, loss_0, var_4_pd_op.recv_v2_0" jobs/programs.yaml ||
    fail "programs.yaml lacks backward's imports"
  grep -q "^    exports: \[var_4_pd_op.recv_v2_0, var_5_pd_op.matmul_0, var_7_pd_op.relu_0, var_9_pd_op.relu_0, loss_0\]" \
    jobs/programs.yaml || fail "programs.yaml lacks forward's exports"
  [ "$(grep -c '^  - name:' jobs/programs.yaml)" = 3 ] || fail "programs.yaml should list 3 programs"
  grep -qx "    job: backward" jobs/programs.yaml || fail "programs.yaml does not give backward's job"
  grep -qx "    rank: null" jobs/programs.yaml || fail "programs.yaml does not say the rank is unknown"

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
  [ "$(ls jobs | tr '\n' ' ')" = "backward.pir forward.pir notes.txt optimizer.pir programs.yaml " ] ||
    fail "jobs/ holds '$(ls jobs | tr '\n' ' ')'"
  [ "$(cat jobs/forward.pir)" != "old forward" ] || fail "jobs/forward.pir was not replaced"
  no_temp_files
}

# What --output-dir writes, `schedule --check --programs` reads: every job
# type of the schedule has a program (no stage known: one serves all).
test_output_dir_manifest_read_by_schedule_check() {
  run "$PIR_TESTDATA/pipeline/02_dense_1f1b.pir" '--pass-pipeline=pipeline-split{mode=1F1B}' --output-dir made
  expect_rc 0
  run schedule --check "$PIR_TESTDATA/schedule/1f1b_p4_n8.yaml" --programs made
  expect_rc 0 "schedule --check --programs on what --output-dir wrote"
  grep -q "valid; makespan 33" out || fail "schedule --check printed '$(head -c 300 out)'"
  # A VPP schedule needs forward0 and the rest, which a 1F1B split lacks.
  run schedule --check "$PIR_TESTDATA/schedule/vpp_p4_n8_v2.yaml" --programs made
  expect_rc 1 "a VPP schedule on 1F1B programs"
  stderr_has "stage 0: job type 'recv_forward0' has no program in made/programs\\.yaml"
  # The manifest is not a schedule.
  run schedule --check made/programs.yaml
  expect_rc 1 "schedule --check on programs.yaml"
}

# With ranks (a test pass makes one program a rank, each its own stage),
# files go to DIR/rankN/JOB.pir, and the check is per stage.
test_output_dir_ranks() {
  local dense=$PIR_TESTDATA/pipeline/02_dense_1f1b.pir
  PIR_OPT_TEST_PASSES=1 run "$dense" '--pass-pipeline=test-split-ranks{ranks=4},pipeline-split{mode=1F1B}' \
    --output-dir made
  expect_rc 0
  [ "$(ls made | tr '\n' ' ')" = "programs.yaml rank0 rank1 rank2 rank3 " ] ||
    fail "made/ holds '$(ls made | tr '\n' ' ')'"
  [ "$(ls made/rank2 | tr '\n' ' ')" = "backward.pir forward.pir optimizer.pir recv_forward.pir send_backward.pir " ] ||
    fail "made/rank2 holds '$(ls made/rank2 | tr '\n' ' ')'"
  grep -A5 -x "  - name: rank2.forward" made/programs.yaml > entry
  printf '  - name: rank2.forward\n    file: rank2/forward.pir\n    rank: 2\n    stage: 2\n    job: forward\n' > want
  head -5 entry > got
  same want got "rank2.forward's entry"
  PIR_OPT_TEST_PASSES=1 timeout 60 "$PIR_OPT" "$dense" \
    '--pass-pipeline=test-split-ranks{ranks=4},pipeline-split{mode=1F1B}' > stream 2> err
  awk '$0 == "// ----- job: rank2.forward" {on=1; next} /^\/\/ ----- job:/ {on=0} on' stream > expect
  same expect made/rank2/forward.pir "made/rank2/forward.pir"
  run schedule --check "$PIR_TESTDATA/schedule/1f1b_p4_n8.yaml" --programs made
  expect_rc 0 "four stages, four ranks"

  PIR_OPT_TEST_PASSES=1 run "$dense" '--pass-pipeline=test-split-ranks{ranks=3},pipeline-split{mode=1F1B}' \
    --output-dir three
  expect_rc 0
  run schedule --check "$PIR_TESTDATA/schedule/1f1b_p4_n8.yaml" --programs three
  expect_rc 1 "four stages, three ranks"
  stderr_has "stage 3: job type 'forward' has no program in three/programs\\.yaml"
  grep -q "stage [012]:" err && fail "stages 0 to 2 have their programs: $(head -c 300 err)"
  no_temp_files
}

# A folder without programs.yaml is checked as before: DIR/TYPE.pir.
test_schedule_programs_without_manifest() {
  mkdir progs
  local t
  for t in recv_forward forward backward send_backward; do : > "progs/$t.pir"; done
  run schedule --check "$PIR_TESTDATA/schedule/1f1b_p4_n8.yaml" --programs progs
  expect_rc 1
  stderr_has "job type 'optimizer' names no program in progs \\(no optimizer.pir\\)"
  : > progs/optimizer.pir
  run schedule --check "$PIR_TESTDATA/schedule/1f1b_p4_n8.yaml" --programs progs
  expect_rc 0
}

# A hand-broken programs.yaml is a located error, one for each kind.
test_output_dir_manifest_broken() {
  run "$PIR_TESTDATA/pipeline/02_dense_1f1b.pir" '--pass-pipeline=pipeline-split{mode=1F1B}' --output-dir made
  expect_rc 0
  cp made/programs.yaml good.yaml
  local sched=$PIR_TESTDATA/schedule/1f1b_p4_n8.yaml
  # broken LINE MESSAGE SED-SCRIPT: edit a fresh copy, expect the error there.
  broken() {
    sed "$3" good.yaml > made/programs.yaml
    run schedule --check "$sched" --programs made
    expect_rc 1 "programs.yaml with $2"
    expect_located made/programs.yaml "$1"
    stderr_has "$2"
  }
  broken 6 "unknown key 'rnak' in a program entry" '6s/rank:/rnak:/'
  broken 7 "duplicate key 'file'" '7s/stage: null/file: forward.pir/'
  broken 4 "program entry lacks 'exports'" '10d'
  broken 6 "'rank' must be a whole number from 0 to" '6s/rank: null/rank: "1"/'
  broken 9 "'imports' must be a list of names" '9s/imports: \[\]/imports: b0/'
  broken 2 "this manifest's version is not 1" '2s/version: 1/version: 2/'
  rm made/recv_forward.pir
  cp good.yaml made/programs.yaml
  run schedule --check "$sched" --programs made
  expect_rc 1 "a missing program file"
  expect_located made/programs.yaml 5
  stderr_has "file 'recv_forward.pir' does not exist in made"
}

#===----------------------------------------------------------------------===#

cli_main
