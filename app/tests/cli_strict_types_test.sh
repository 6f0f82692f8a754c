#!/usr/bin/env bash
# CLI tests of pir-opt: what Paddle refuses in types, meshes and placements
# is a located error with its caret on the offending text; Paddle's fixtures
# with stale operand types load under --no-verify.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

# caret_on FILE TEXT: the first error's line and column in FILE start TEXT.
caret_on() {
  local file=$1 text=$2 line col at
  line=$(error_line) col=$(error_col)
  at=$(sed -n "${line}p" "$file" | cut -c"${col}-")
  [[ $at == "$text"* ]] || fail "the caret (line $line, column $col) is on '${at:0:40}', not on '$text'"
}

# errors_on FILE LINE...: stderr holds one located error per LINE, in that order, and no other.
errors_on() {
  local file=$1 got want
  shift
  got=$(grep -Eo "^$file:[0-9]+:[0-9]+: error: " err | cut -d: -f2 | tr '\n' ' ')
  want="$* "
  [ "$got" = "$want" ] || fail "errors on lines '$got', expected '$want'"
}

# one_op FILE TYPE: a program whose one op has the result type TYPE.
one_op() {
  printf '{\n    (%%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,16],stop_gradient:[true]} : () -> %s\n}\n' "$2" > "$1"
}

#===----------------------------------------------------------------------===#
# Type names
#===----------------------------------------------------------------------===#

test_strict_misspelled_type_at_definition_only() {
  cp "$TESTDATA/errors/45_misspelled_builtin_tensor_at_definition.pir" t.pir
  run t.pir
  expect_rc 1
  expect_located t.pir 2
  caret_on t.pir "builtin.tenosr<"
  stderr_has "unknown type 'builtin.tenosr'; did you mean 'builtin.tensor'\?"
  errors_on t.pir 2  # the two uses, spelled right, do not mismatch
  [ -s out ] && fail "stdout is not empty"
}

test_strict_misspelled_dist_tensor_is_not_silent() {
  # The issue's case: read as an opaque type, the partial value fed the relu
  # with no reshard, and --verify-dist and apply-partition passed.
  cp "$TESTDATA/errors/46_misspelled_dist_tensor.pir" t.pir
  local args
  for args in --verify-dist --pass-pipeline=apply-partition; do
    run t.pir "$args"
    expect_rc 1 "$args"
    expect_located t.pir 3
    caret_on t.pir "pd_dist.tensr<"
    stderr_has "did you mean 'pd_dist.tensor'\?"
  done
}

test_strict_pd_dist_has_one_type() {
  one_op t.pir "pd_dist.shard_tensor<4x16xf32, mesh_shape:[2],process_ids:[0,1],dims_mappings:[-1,-1]>"
  run t.pir
  expect_rc 1
  expect_located t.pir 2
  caret_on t.pir "pd_dist.shard_tensor<"
  stderr_has "the pd_dist dialect has one type, 'pd_dist.tensor'"
}

test_strict_near_registered_pd_op_type() {
  one_op t.pir "pd_op.selectedrow<10x4xf32>"
  run t.pir
  expect_rc 1
  expect_located t.pir 2
  caret_on t.pir "pd_op.selectedrow<"
  stderr_has "did you mean 'pd_op.selectedrows'\?"
}

test_strict_unmodelled_and_unknown_types_print_back() {
  local type
  for type in "pd_op.selectedrows<10x4xf32>" "pd_op.tensor_array<f32>" "pd_op.sparsecootensor<4x4xf32>" \
    "cf.stack<>" "my_dialect.tenosr_like<4, \"a>b\">"; do
    one_op t.pir "$type"
    run t.pir
    expect_rc 0 "$type"
    same t.pir out "$type"
  done
}

#===----------------------------------------------------------------------===#
# Meshes and placements
#===----------------------------------------------------------------------===#

test_strict_mesh_repeated_negative_and_empty() {
  one_op t.pir "pd_dist.tensor<4x16xf32, mesh_shape:[2,2],process_ids:[0,1,2,1],dims_mappings:[-1,-1]>"
  run t.pir
  expect_rc 1
  expect_located t.pir 2
  caret_on t.pir "1],dims"
  stderr_has "process id 1 appears twice in the mesh"
  one_op t.pir "pd_dist.tensor<4x16xf32, mesh_shape:[2],process_ids:[0,-3],dims_mappings:[-1,-1]>"
  run t.pir
  expect_rc 1
  caret_on t.pir "-3]"
  stderr_has "process id -3 is negative"
  cp "$TESTDATA/errors/52_mesh_dim_not_positive.pir" t.pir
  run t.pir
  expect_rc 1
  caret_on t.pir "0],process_ids:[]"
  stderr_has "mesh dimension 1 has size 0"
}

test_strict_placements_contradicting_dist_attr() {
  local m="mesh_shape:[2,2],process_ids:[0,1,2,3]"
  one_op t.pir "pd_dist.tensor<4x16xf32, $m,dims_mappings:[0,-1], placements:[Replicate(), Replicate()]>"
  run t.pir
  expect_rc 1
  expect_located t.pir 2
  caret_on t.pir "Replicate(), Replicate()]"
  stderr_has "dims_mapping shards tensor dim 0 on it"
  one_op t.pir "pd_dist.tensor<4x16xf32, $m,dims_mappings:[0,-1], placements:[Shard(dim=0)]>"
  run t.pir
  expect_rc 1
  caret_on t.pir "[Shard(dim=0)]"
  stderr_has "1 placement for a mesh of rank 2"
  one_op t.pir "pd_dist.tensor<4x16xf32, $m,dims_mappings:[0,-1], placements:[Shard(dim=0), Partial(reduce_type=SUM)]>"
  run t.pir
  expect_rc 1
  caret_on t.pir "Partial(reduce_type=SUM)]"
  stderr_has "on mesh dim 1, which is not partial"
}

test_strict_placements_dims_mapping_cannot_express() {
  local m="mesh_shape:[2,2],process_ids:[0,1,2,3]"
  one_op t.pir "pd_dist.tensor<4x16xf32, $m,dims_mappings:[0,-1], placements:[Shard(dim=0), Shard(dim=0)]>"
  run t.pir
  expect_rc 0 "co-shard"
  same t.pir out "co-shard"
  one_op t.pir "pd_dist.tensor<4x48xf32, $m,dims_mappings:[-1,1], placements:[Replicate(), Shard(dim=1, split_factor=3)]>"
  run t.pir --verify-dist
  expect_rc 0 "split_factor"
  same t.pir out "split_factor"
}

#===----------------------------------------------------------------------===#
# Paddle's fixtures with stale operand types
#===----------------------------------------------------------------------===#

test_strict_stale_operand_types_are_errors_by_default() {
  cp "$TESTDATA/errors/58_stale_operand_types_paddle_fixture.pir" t.pir
  run t.pir
  expect_rc 1
  expect_located t.pir 4
  errors_on t.pir 4 4 5
  caret_on t.pir "%1, %0)"
}

test_strict_stale_operand_types_load_with_no_verify() {
  cp "$TESTDATA/fixedpoint/10_stale_operand_types_no_verify.pir" t.pir
  run t.pir --no-verify
  expect_rc 0
  [ "$(grep -c '^t.pir:[0-9]*:[0-9]*: warning: type of operand' err)" = 3 ] ||
    fail "expected 3 located warnings, got: $(head -c 600 err)"
  grep -q ': error: ' err && fail "an error under --no-verify"
  same out "$TESTDATA/fixedpoint/10_stale_operand_types_no_verify.expected"
  # A fixed point: the output reads back unchanged and with no warning, verified or not.
  cp out once.pir
  run once.pir
  expect_rc 0
  same once.pir out "verified"
  [ -s err ] && fail "stderr is not empty reading the output back: $(head -c 300 err)"
  run once.pir --no-verify
  expect_rc 0
  same once.pir out "--no-verify"
  [ -s err ] && fail "stderr is not empty reading the output back with --no-verify"
}

cli_main
