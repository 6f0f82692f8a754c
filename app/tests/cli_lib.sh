#!/usr/bin/env bash
# What every CLI test file shares: argument handling, helpers and the driver.
# A test file (cli_TOPIC_test.sh) sources this with its own arguments, defines
# `test_NAME()` functions and ends with `cli_main`:
#
#   cli_TOPIC_test.sh PIR_OPT TEST_NAME   run one test: exit 0 pass, 1 fail, 77 skip
#   cli_TOPIC_test.sh PIR_OPT --list      print the file's test names, one a line
#
# Every test works in its own `mktemp -d` folder (the current directory while
# it runs) and removes it afterwards. The golden data is read from
# $PIR_TESTDATA, by default ../../testdata next to this script.
set -u

if [ $# -ne 2 ]; then
  echo "usage: $0 PIR_OPT TEST_NAME|--list" >&2
  exit 2
fi
PIR_OPT=$(realpath "$1")
TEST_NAME=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TESTDATA=${PIR_TESTDATA:-$(cd "$HERE/../../testdata" && pwd)}
SEED=$TESTDATA/seeds/reshard_before.pir         # fails the dist check (--verify-dist)
SEED_AFTER=$TESTDATA/seeds/reshard_after.pir    # passes it
SIMPLE=$TESTDATA/roundtrip/01_classic_mlp_builtin_tensor.pir
PIR_RUN=$(dirname "$PIR_OPT")/pir-run  # the runner, built beside pir-opt
GEN=$HERE/../../scripts/gen-program

# gen_model MODEL OUT ARGS... : gen-program --model MODEL at the test file's $SIZES (ARGS may override them) into OUT.
gen_model() {
  local model=$1 out=$2
  shift 2
  "$GEN" --model "$model" $SIZES "$@" -o "$out" || fail "gen-program --model $model $*"
}

export LC_ALL=C
FAILED=0
T=

#===----------------------------------------------------------------------===#
# Helpers
#===----------------------------------------------------------------------===#

fail() {
  echo "FAIL: $*" >&2
  FAILED=1
}

skip() {
  echo "SKIP: $*" >&2
  exit 77
}

skip_if_root() {
  [ "$(id -u)" = 0 ] && skip "runs as root, which ignores file permissions"
  return 0
}

# run ARGS... : runs pir-opt with stdin from /dev/null (unless the caller
# redirects it), stdout into ./out, stderr into ./err, exit code into $rc.
run() {
  timeout 60 "$PIR_OPT" "$@" > out 2> err
  rc=$?
  check_no_crash
}

# prun ARGS... : runs pir-run like `run` runs pir-opt.
prun() {
  timeout 60 "$PIR_RUN" "$@" > out 2> err
  rc=$?
  check_no_crash
}

need_mpirun() {
  command -v mpirun > /dev/null || skip "no mpirun (openmpi-bin)"
}

# mpi NP ARGS... : pir-run ARGS under mpirun -np NP, like prun; the whole
# stderr in ./err.mpirun, pir-run's own lines in ./err. $MPI_TIMEOUT seconds
# (60 unless set). Every mpirun of the CLI tests goes through here.
mpi() {
  local np=$1
  shift
  # Under ASan: full stacks through OpenMPI, so scripts/lsan-mpi.supp matches.
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:fast_unwind_on_malloc=0} \
    timeout "${MPI_TIMEOUT:-60}" mpirun --allow-run-as-root --oversubscribe -np "$np" "$PIR_RUN" "$@" \
    > out 2> err.mpirun
  rc=$?
  # mpirun's own notices (blocks between dashed lines, `[host:pid] ...` help
  # lines) reach stderr in no fixed order with the ranks' lines: the checks
  # read pir-run's lines alone (err.mpirun keeps everything).
  awk '/^------------------------------*$/ { inside = !inside; next } !inside && !/^\[[^]]*:[0-9]+\] /' err.mpirun > err
  check_no_crash
}

# write_dense_named OUT1 OUT2: p.pir, a dense program using only data-movement
# kernels: the 0-D loss 0.5 written as OUT1, t = transpose(x) as OUT2 and
# assigned into the parameter w.
write_dense_named() {
  cat > p.pir <<PIR
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true]} : () -> builtin.tensor<3x2xf32>
    (%2) = "pd_op.transpose" (%0) {perm:[(Int32)1,(Int32)0]} : (builtin.tensor<2x3xf32>) -> builtin.tensor<3x2xf32>
    (%3) = "pd_op.assign_out_" (%2, %1) {} : (builtin.tensor<3x2xf32>, builtin.tensor<3x2xf32>) -> builtin.tensor<3x2xf32>
    (%4) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[],value:(Double)0.5} : () -> builtin.tensor<f32>
    () = "builtin.shadow_output" (%4) {output_name:"$1"} : (builtin.tensor<f32>) -> 
    () = "builtin.shadow_output" (%2) {output_name:"$2"} : (builtin.tensor<3x2xf32>) -> 
}
PIR
}

# write_split: d.pir, a distributed program (x sharded on a 2-rank mesh,
# resharded to replicated: an all_gather once split, written out as y), and
# dd/, its split by pir-opt.
write_split() {
  cat > d.pir <<'PIR'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},result(0):{dims_maping:[0]}},place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4],stop_gradient:[true]} : () -> pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[0]>
    (%1) = "dist_op.reshard" (%0) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[0]},result(0):{dims_maping:[-1]}}} : (pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[0]>) -> pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[-1]>
    () = "builtin.shadow_output" (%1) {op_dist_attr:{mesh:{shape:[2],process_ids:[0,1]},operand(0):{dims_maping:[-1]}},output_name:"y"} : (pd_dist.tensor<4xf32, mesh_shape:[2],dims_mappings:[-1]>) -> 
}
PIR
  "$PIR_OPT" d.pir --pass-pipeline=apply-partition,split-ranks --output-dir dd 2> err || fail "split-ranks failed: $(cat err)"
}

# Like run, but stdin comes from file $1.
run_stdin() {
  local input=$1
  shift
  timeout 60 "$PIR_OPT" "$@" < "$input" > out 2> err
  rc=$?
  check_no_crash
}

check_no_crash() {
  if [ "$rc" -eq 124 ]; then
    fail "pir-opt timed out"
  elif [ "$rc" -ge 128 ]; then
    fail "pir-opt died of signal $((rc - 128))"
  elif [ "$rc" -eq 2 ]; then
    fail "pir-opt reported an internal error: $(head -c 300 err)"
  fi
}

expect_rc() {
  local want=$1 what=${2:-}
  if [ "$rc" -ne "$want" ]; then
    fail "${what:+$what: }exit code $rc, expected $want; stderr:"
    head -c 1500 err >&2
    echo >&2
  fi
}

# same FILE1 FILE2 [what]: byte-identical.
same() {
  if ! cmp -s "$1" "$2"; then
    fail "${3:-}${3:+: }'$1' and '$2' differ"
    diff -u "$1" "$2" 2>/dev/null | head -20 | cut -c1-200 >&2
  fi
}

# stderr_has REGEX [what]: some line of ./err matches (ERE).
stderr_has() {
  if ! grep -Eq -- "$1" err; then
    fail "${2:-stderr}: no line matches /$1/; stderr:"
    head -c 1500 err | cut -c1-300 >&2
    echo >&2
  fi
}

# expect_located LABEL [LINE] : the first line of stderr is
# `LABEL:LINE:COL: error: `, followed by the source line (at most 160 bytes)
# and a caret line. LABEL is a fixed string (regex characters escaped here).
expect_located() {
  local label line=${2:-[0-9]+}
  label=$(printf '%s' "$1" | sed 's/[][\.*^$+?(){}|/]/\\&/g')
  if ! head -n 1 err | grep -Eq "^$label:$line:[0-9]+: error: "; then
    fail "expected a located error '$1:${2:-LINE}:COL: error:' first on stderr, got:"
    head -c 600 err | cut -c1-300 >&2
    echo >&2
    return
  fi
  local src_len caret
  src_len=$(sed -n 2p err | wc -c)
  caret=$(sed -n 3p err)
  [ "$src_len" -le 161 ] || fail "the error's source line is $((src_len - 1)) bytes long, more than 160"
  [[ $caret =~ ^[[:space:]]*\^$ ]] || fail "the third line of the error is not a caret line: '$(printf '%s' "$caret" | head -c 200)'"
}

# error_col : the column of the first located error on stderr.
error_col() { head -n 1 err | sed -E 's/^.*:[0-9]+:([0-9]+): error: .*$/\1/'; }
error_line() { head -n 1 err | sed -E 's/^.*:([0-9]+):[0-9]+: error: .*$/\1/'; }

# no_temp_files [DIR]: no `.pir-opt-tmp-*` file or folder is left in DIR.
no_temp_files() {
  local dir=${1:-.} left
  left=$(ls -A "$dir" | grep -F 'pir-opt-tmp' || true)
  [ -z "$left" ] || fail "temporary files left in $dir: $left"
}

# A program with one identity reshard that fold-reshard removes.
write_identity_reshard() {
  cat > "$1" <<'EOF'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "dist_op.reshard" (%0) {} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
EOF
}

# ...and what it becomes.
write_identity_reshard_folded() {
  cat > "$1" <<'EOF'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
EOF
}

# A program whose syntax is broken on line 3.
write_syntax_error() {
  cat > "$1" <<'EOF'
{
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>
    (%1) = "pd_op.relu" (%0 {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>
}
EOF
}

# gen_relu_chain N: a program of a pd_op.data and N chained pd_op.relu ops.
gen_relu_chain() {
  awk -v n="$1" 'BEGIN {
    print "{"
    print "    (%0) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[4,16],stop_gradient:[true]} : () -> builtin.tensor<4x16xf32>"
    for (i = 1; i <= n; i++)
      printf "    (%%%d) = \"pd_op.relu\" (%%%d) {stop_gradient:[false]} : (builtin.tensor<4x16xf32>) -> builtin.tensor<4x16xf32>\n", i, i - 1
    print "}"
  }'
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

#===----------------------------------------------------------------------===#
# Driver
#===----------------------------------------------------------------------===#

# Runs the test named on the command line (or lists the tests the sourcing
# file defines).
cli_main() {
  if [ "$TEST_NAME" = --list ]; then
    declare -F | sed -n 's/^declare -f test_//p'
    exit 0
  fi
  if ! declare -F "test_$TEST_NAME" > /dev/null; then
    echo "no test named '$TEST_NAME'" >&2
    exit 2
  fi
  [ -x "$PIR_OPT" ] || { echo "pir-opt not found: $PIR_OPT" >&2; exit 2; }

  T=$(mktemp -d "${TMPDIR:-/tmp}/pir-opt-cli.XXXXXX") || exit 2
  trap 'cd / && chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"' EXIT
  cd "$T" || exit 2
  "test_$TEST_NAME"
  if [ "$FAILED" -ne 0 ]; then
    echo "FAILED $TEST_NAME" >&2
    exit 1
  fi
  echo "ok $TEST_NAME"
  exit 0
}

# check_passes LABEL ARGS...: pir-run ARGS --check exits 0 with a 'check: N tensors match' line.
check_passes() {
  local label=$1
  shift
  prun "$@" --check --timeout 20
  expect_rc 0 "$label: $*"
  grep -Eq '^check: [0-9]+ tensors match' out || fail "$label $*: no 'tensors match' line: $(cat out err)"
}
