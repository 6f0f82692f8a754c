#!/usr/bin/env bash
# CLI tests of pir-opt: the mlir-opt habits of issue 19 (--verify-diagnostics,
# --split-input-file chunk by chunk, --dump-pass-pipeline, --print-ir-*,
# --print-locations) where a shell says more than a FileCheck test; the rest
# are lit tests in testdata/lit.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

# A dumped pipeline reads back as --pass-pipeline and dumps the same again.
test_dump_pass_pipeline_rereads() {
  write_identity_reshard one.pir
  run one.pir --pass-pipeline='apply-partition,pipeline-split{vpp=2 mode=VPP},fold-reshard' --dump-pass-pipeline
  local first
  first=$(head -n 1 err)
  [ "$first" = "apply-partition{share=false},pipeline-split{mode=VPP vpp=2 split-bw=false},fold-reshard" ] ||
    fail "dumped pipeline: '$first'"
  run one.pir --pass-pipeline="$first" --dump-pass-pipeline -o /dev/null
  [ "$(head -n 1 err)" = "$first" ] || fail "re-read pipeline dumps '$(head -n 1 err)', not '$first'"
  # An empty pipeline dumps an empty line and runs as ever.
  run one.pir --dump-pass-pipeline
  expect_rc 0
  [ "$(cat err)" = "" ] && [ "$(wc -l < err)" = 1 ] || fail "empty pipeline dumped as '$(cat err)'"
  same one.pir out "output with --dump-pass-pipeline"
}

# --verify-diagnostics: 0 when all is as expected (even though the input is
# bad), 1 with a report when not; stdout keeps the good chunks.
test_verify_diagnostics_exit_codes() {
  write_identity_reshard one.pir
  { cat one.pir; echo '// -----'; echo '{'
    echo '    (%3) = "pd_op.relu" (%2) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32> // expected-error {{undefined value}}'
    echo '}'; } > expected.pir
  run expected.pir --split-input-file --verify-diagnostics
  expect_rc 0 "all expected"
  [ -s err ] && fail "stderr not empty: $(head -c 300 err)"
  same one.pir out "the good chunk prints"

  sed 's/undefined value/another message/' expected.pir > unmet.pir
  run unmet.pir --split-input-file --verify-diagnostics
  expect_rc 1 "unmet and unexpected"
  stderr_has "^unmet.pir:8:26: error: unexpected error: undefined value '%2'$"
  stderr_has "^unmet.pir:8:[0-9]+: error: expected error \"another message\" was not produced$"

  # A good input that expects an error fails.
  { cat one.pir | sed '3s|$| // expected-error@+1 {{never}}|'; } > never.pir
  run never.pir --verify-diagnostics
  expect_rc 1 "expectation never met"
  stderr_has "expected error \"never\" was not produced"
  same one.pir out "the program still prints"

  # Without the flag the comments are comments: the input is good.
  run never.pir
  expect_rc 0
}

# expected-error-re: exit 0 when its regex matches; 1 with a report when it
# does not; 1 with a located error (never a crash) when RE2 refuses it. The
# plain form takes {{ }} inside its text literally.
test_verify_diagnostics_regex() {
  cat > re.pir <<'EOF'
{
    (%3) = "pd_op.relu" (%2) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32> // expected-error-re {{value '%{{[0-9]+}}'}}
}
EOF
  run re.pir --verify-diagnostics
  expect_rc 0 "the regex matches"
  [ -s err ] && fail "stderr not empty: $(head -c 300 err)"

  sed 's/\[0-9\]+/[a-z]+/' re.pir > unmet.pir
  run unmet.pir --verify-diagnostics
  expect_rc 1 "the regex does not match"
  stderr_has "^unmet.pir:2:26: error: unexpected error: undefined value '%2'$"
  stderr_has "^unmet.pir:2:93: error: expected error \"value '%\{\{\[a-z\]\+\}\}'\" was not produced$"

  sed 's/expected-error-re/expected-error/' re.pir > plain.pir
  run plain.pir --verify-diagnostics
  expect_rc 1 "the plain form is not a regex"
  stderr_has "expected error \"value '%\{\{\[0-9\]\+\}\}'\" was not produced$"

  sed 's/\[0-9\]+/[0-9+/' re.pir > bad.pir
  run bad.pir --verify-diagnostics
  expect_rc 1 "an invalid regex"
  expect_located bad.pir 2
  stderr_has "^bad.pir:2:121: error: invalid regex in expected-error-re: missing \]: \[0-9\+$"
  stderr_has "^bad.pir:2:26: error: unexpected error: undefined value '%2'$"
  grep -q 'Error parsing' err && fail "RE2 logged on its own: $(grep 'Error parsing' err)"
}

# One bad chunk among good ones: exit 1, stdout has the good chunks; -o and
# --output-dir are all or nothing.
test_split_chunks_output_all_or_nothing() {
  write_identity_reshard one.pir
  write_syntax_error bad.pir
  { cat one.pir; echo '// -----'; cat bad.pir; echo '// ----- job: last'; cat one.pir; } > mixed.pir
  { cat one.pir; echo '// ----- job: last'; cat one.pir; } > want.pir
  run mixed.pir --split-input-file
  expect_rc 1
  same want.pir out "good chunks on stdout"
  stderr_has "^mixed.pir:[0-9]+:[0-9]+: error: "
  run mixed.pir --split-input-file -o result.pir
  expect_rc 1
  [ -e result.pir ] && fail "-o file written although a chunk failed"
  run mixed.pir --split-input-file --output-dir dir
  expect_rc 1
  [ -e dir ] && fail "--output-dir written although a chunk failed"
  no_temp_files
  # A marker with nothing after it is its own failed chunk.
  { cat one.pir; echo '// -----'; echo '// -----'; cat one.pir; } > empty.pir
  run empty.pir --split-input-file
  expect_rc 1
  stderr_has "^empty.pir:6:1: error: '// -----' with no program after it, before the next one$"
}

# --print-ir-after-change with a pass that changes nothing and one that does;
# --print-ir-before-all; both with --print-ir-tree-dir, which still gets every pass.
test_print_ir_after_change_and_tree() {
  write_identity_reshard one.pir
  run one.pir --pass-pipeline=apply-partition,fold-reshard,fold-reshard --print-ir-after-change --print-ir-tree-dir=tree
  expect_rc 0
  [ "$(grep -c 'IR Dump' err)" = 1 ] || fail "expected one dump, got: $(grep 'IR Dump' err)"
  stderr_has '^// -----// IR Dump After fold-reshard //----- //$'
  [ "$(ls tree | wc -l)" = 4 ] || fail "tree dir holds $(ls tree | tr '\n' ' ')"
  run one.pir --pass-pipeline=fold-reshard,fold-reshard --print-ir-before-all
  [ "$(grep -c 'IR Dump Before fold-reshard' err)" = 2 ] || fail "expected two dumps before: $(cat err)"
}

# --print-locations: the comments read back; dumps carry them too.
test_print_locations_reads_back() {
  write_identity_reshard one.pir
  run one.pir --print-locations --print-ir-after-all --pass-pipeline=fold-reshard
  expect_rc 0
  grep -q '"pd_op.relu" .* // loc: one.pir:4$' out || fail "no location on the relu: $(cat out)"
  grep -q '"pd_op.relu" .* // loc: one.pir:4$' err || fail "no location in the dump: $(cat err)"
  mv out located.pir
  run located.pir
  expect_rc 0
  run one.pir --pass-pipeline=fold-reshard
  cp out plain.pir
  run located.pir
  same plain.pir out "located output read back and printed without locations"
  # From stdin the file is <stdin>.
  run_stdin one.pir --print-locations
  grep -q '// loc: <stdin>:2$' out || fail "stdin location: $(head -c 300 out)"
}

cli_main
