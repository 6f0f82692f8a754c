#!/usr/bin/env bash
# CLI tests of pir-opt: --threads. A program big enough to be read, verified
# and printed on threads (gen-program, ~10 MB) gives the bytes one thread
# gives, on stdout and in files; broken copies of it give one thread's
# diagnostics and exit code; so do the shared corpus, the round-trip
# goldens and the error cases. Each test_NAME runs the real binary; see
# cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

# big.pir: 20000 ops, cut into several 4 MB chunks.
write_big() {
  "$GEN" --ops 20000 --seed 3 "$@" -o big.pir || fail "gen-program failed"
}

# threads_agree FILE ARGS...: --threads 1, 2 and 3 print the same stdout,
# stderr and exit code.
threads_agree() {
  local file=$1
  shift
  run "$file" --threads 1 "$@"
  local rc1=$rc
  mv out out1
  mv err err1
  for t in 2 3; do
    run "$file" --threads "$t" "$@"
    [ "$rc" = "$rc1" ] || fail "--threads $t: exit code $rc, one thread's $rc1 ($file $*)"
    same out1 out "--threads $t stdout ($file $*)"
    same err1 err "--threads $t stderr ($file $*)"
  done
  rc=$rc1
}

test_threads_round_trip() {
  write_big
  threads_agree big.pir
  expect_rc 0
  same big.pir out "round trip"
  # It was read on threads (so scripts/compare-outputs.sh's 20000-op inputs are too); a small one is not.
  run big.pir --threads 2 --log-level=debug -o /dev/null
  grep -q "parsed chunk 1 in .* ms on threads" err || fail "big.pir was not read on threads: $(cat err)"
  run "$SIMPLE" --threads 2 --log-level=debug -o /dev/null
  grep -q "on threads" err && fail "a small program was read on threads: $(cat err)"
  run big.pir --threads 2 -o file.pir
  expect_rc 0
  same big.pir file.pir "-o FILE"
}

test_threads_pipeline_stages() {
  # Values read across stages on other meshes: types read with the producer's mesh.
  write_big --stages 2 --mesh 2
  threads_agree big.pir
  expect_rc 0
  same big.pir out "round trip"
  threads_agree big.pir --pass-pipeline=apply-partition --print-era=newest
  expect_rc 0
  # (In the program's own era a reshard across meshes cannot be printed: exit 1, on any thread count.)
  threads_agree big.pir --pass-pipeline=apply-partition
  expect_rc 1
}

test_threads_diagnostics() {
  write_big
  local n
  n=$(wc -l < big.pir)
  # A value used before it is defined, defined twice, never defined; a
  # syntax error late in the text; a changed type.
  awk -v n="$n" 'NR == int(n / 2) { held = $0; next } NR == int(n / 2) + 50 { print; print held; next } { print }' \
    big.pir > moved.pir
  awk -v n="$n" 'NR == int(n * 3 / 4) { print } { print }' big.pir > twice.pir
  awk -v n="$n" 'NR == int(n / 3) { next } { print }' big.pir > dropped.pir
  awk -v n="$n" 'NR == n - 5 { sub(/ = /, " == ") } { print }' big.pir > syntax.pir
  awk -v n="$n" 'NR == int(n * 2 / 3) { sub(/xf32/, "xf64") } { print }' big.pir > typed.pir
  # An op_dist_attr entry on another mesh, which the dims_maping era cannot
  # print (found by the verifier's walk when no pass runs, else before printing).
  awk -v n="$n" 'NR >= int(n * 3 / 4) && !done && /result\(0\):\{dims_maping:\[/ {
      sub(/result\(0\):\{dims_maping:/, "result(0):{mesh_shape:[2],process_ids:[8,9],dims_mappings:"); done = 1 }
    { print }' big.pir > unspellable.pir
  for f in moved twice dropped syntax typed unspellable; do
    threads_agree $f.pir
    expect_rc 1 "$f.pir"
    grep -q "error:" err || fail "$f.pir: no error reported"
  done
  grep -q "dims_maping era cannot print" err || fail "unspellable.pir: not the era's error"
  threads_agree unspellable.pir --print-era=newest
  expect_rc 0 "unspellable.pir printed newest"
  # --no-verify turns a stale operand type into a warning: one thread's too.
  threads_agree typed.pir --no-verify
}

test_threads_corpus() {
  # Paddle's documentation dumps (../shared/corpus, read in place) and the
  # round-trip goldens, as they are and with a line dropped: one thread's
  # bytes and diagnostics on every thread count.
  local corpus=${PIR_CORPUS:-$HERE/../../../shared/corpus} f n=0
  for f in "$corpus"/*.pir "$TESTDATA"/roundtrip/*.pir; do
    [ -f "$f" ] || continue
    threads_agree "$f"
    threads_agree "$f" --print-era=newest
    awk 'NR == 3 { next } { print }' "$f" > dropped.pir
    threads_agree dropped.pir
    n=$((n + 1))
  done
  [ "$n" -ge 20 ] || fail "only $n files compared"
}

test_threads_read_ahead_real_dumps() {
  # Paddle's documentation dumps joined with `// -----` into 40 MB, past the
  # one-thread reader's 32 MB read-ahead window, so the helper maps pages in
  # ahead and drops them behind across chunk offsets. A syntax error near
  # the front and one at the end are quoted at the end of the run, the
  # first from pages dropped long before. The same bytes on stdin (read into
  # a buffer: no mapping, no read-ahead) give the same output and
  # diagnostics, and so do two threads.
  local corpus=${PIR_CORPUS:-$HERE/../../../shared/corpus} f first
  [ -d "$corpus" ] || { skip "no corpus at $corpus"; return; }
  printf '{\n    (%%0) = "pd_op.full" () {broken\n}\n' > broken.pir  # an error on its line 3
  first=$TESTDATA/roundtrip/$(ls "$TESTDATA/roundtrip" | head -n 1)
  { cat "$first"; printf '// -----\n'; cat broken.pir; } > many.pir
  for f in "$corpus"/*.pir; do
    printf '// -----\n'
    cat "$f"
  done > block.pir
  while [ "$(stat -c %s block.pir)" -lt $((1 << 20)) ]; do cat block.pir block.pir > twice.pir && mv twice.pir block.pir; done
  while [ "$(stat -c %s many.pir)" -lt $((40 << 20)) ]; do cat block.pir >> many.pir; done
  { printf '// -----\n'; cat broken.pir; } >> many.pir
  run many.pir --threads 1 --split-input-file
  local rc1=$rc
  mv out out1
  sed 's|^many\.pir:|INPUT:|' err > err1
  # The first and the last diagnostics are the two broken chunks' (the dumps
  # between hold some of Paddle's `.....(省略)` elisions, reported too).
  [ "$rc1" = 1 ] || fail "exit code $rc1, expected 1"
  grep -q "^INPUT:$(($(wc -l < "$first") + 4)):1: error: expected ':'" <(head -n 1 err1) ||
    fail "the front's broken chunk not reported first: $(head -n 1 err1)"
  grep "error:" err1 | tail -n 1 | grep -q "^INPUT:$(wc -l < many.pir):1: error: expected ':'" ||
    fail "the last broken chunk not reported last: $(grep 'error:' err1 | tail -n 1)"
  run_stdin many.pir --threads 1 --split-input-file
  [ "$rc" = "$rc1" ] || fail "stdin: exit code $rc, the mapped file's $rc1"
  same out1 out "stdin's output"
  sed 's|^<stdin>:|INPUT:|' err > err2
  same err1 err2 "stdin's diagnostics"
  run many.pir --threads 2 --split-input-file
  [ "$rc" = "$rc1" ] || fail "--threads 2: exit code $rc, one thread's $rc1"
  same out1 out "--threads 2 output"
}

test_threads_errors() {
  # The error cases: one thread's diagnostics and exit code on every thread count.
  local f n=0
  for f in "$TESTDATA"/errors/*.pir; do
    threads_agree "$f"
    n=$((n + 1))
  done
  [ "$n" -ge 50 ] || fail "only $n files compared"
}

test_threads_option() {
  write_big
  run big.pir --threads 0
  expect_rc 1 "--threads 0"
  run big.pir --threads 2 --pass-pipeline=apply-partition,split-ranks --output-dir d2
  expect_rc 0
  run big.pir --threads 1 --pass-pipeline=apply-partition,split-ranks --output-dir d1
  expect_rc 0
  diff -r d1 d2 > /dev/null || fail "split-ranks output differs between --threads 1 and 2"
}

test_threads_split_ranks_errors() {
  # split-ranks without apply-partition on a program whose ranks 2 and 3 both
  # fail: one thread stops at rank 2 and reports its errors alone, so every
  # thread count must, in every run, whichever thread fails first (before,
  # some runs on two threads reported rank 3's errors too).
  local f=$TESTDATA/reshard/20_error_cross_mesh_dims_maping.pir i
  for i in $(seq 10); do
    threads_agree "$f" --pass-pipeline=split-ranks --output-dir d
    expect_rc 1 "split-ranks of a cross-mesh reshard left in"
  done
  [ "$(grep -o 'rank [0-9]*' err1 | sort -u)" = "rank 2" ] || fail "not rank 2's errors alone: $(head -3 err1)"
}

cli_main
