#!/usr/bin/env bash
# CLI tests of pir-opt: stdin, stdout, -o FILE and special outputs (/dev/*, pipes, read-only places).
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 1. stdin and stdout
#===----------------------------------------------------------------------===#

test_stdin_roundtrip() {
  run_stdin "$SEED"
  expect_rc 0 "no input argument"
  same "$SEED" out "stdin to stdout"
  [ -s err ] && fail "stderr is not empty: $(head -c 300 err)"

  run_stdin "$SEED" -
  expect_rc 0 "input '-'"
  same "$SEED" out "'-' to stdout"

  run_stdin "$SEED" - -o -
  expect_rc 0 "'-o -'"
  same "$SEED" out "'-' to '-o -'"

  # A pipe, not a file, on stdin.
  timeout 60 "$PIR_OPT" - < <(cat "$SEED_AFTER") > out 2> err
  rc=$?
  expect_rc 0 "stdin from a pipe"
  same "$SEED_AFTER" out "pipe to stdout"
}

#===----------------------------------------------------------------------===#
# 2-4. -o FILE
#===----------------------------------------------------------------------===#

test_output_file() {
  run "$SEED" -o result.pir
  expect_rc 0
  [ -f result.pir ] || fail "-o did not create result.pir"
  same "$SEED" result.pir "-o FILE"
  [ -s out ] && fail "stdout is not empty with -o"
  no_temp_files

  # Overwriting an existing file, and --output= spelling.
  echo old > result.pir
  run "$SEED_AFTER" --output=result.pir
  expect_rc 0
  same "$SEED_AFTER" result.pir "--output= over an existing file"
  no_temp_files
}

# With a core to spare (--threads 1 on a machine with more), the file is
# made before the input is read; a thread of its own allocates as many bytes
# as the input and then writes the text as it is printed
# (OutputFile::writeBehind): the file must still end where the text does,
# shorter or longer than the input, and nothing may be left when the run
# fails.
test_output_file_reserved() {
  [ "$(nproc)" -gt 1 ] || skip "one core: nothing is reserved"
  # Shorter than the input: a comment line the printer drops.
  { cat "$SEED"; for i in $(seq 2000); do echo "// a comment the printer drops, $i"; done; } > long.pir
  run long.pir --threads 1 -o result.pir
  expect_rc 0
  same "$SEED" result.pir "a text shorter than its input"
  no_temp_files
  # Longer than the input: the newest era spells every mesh out.
  run "$SEED" --print-era=newest
  mv out newest.txt
  run "$SEED" --threads 1 --print-era=newest -o result.pir
  expect_rc 0
  same newest.txt result.pir "a text longer than its input"
  no_temp_files
  # A failed run leaves the old file and no reserved one.
  printf 'old content\n' > target.pir
  cp target.pir expected.pir
  write_syntax_error bad.pir
  run bad.pir --threads 1 -o target.pir
  expect_rc 1
  same expected.pir target.pir "target after a syntax error"
  no_temp_files
}

# A text of many of the writing thread's buffers (4 MB each, four at most)
# comes out whole and in order, whichever thread writes it.
test_output_file_written_behind() {
  [ "$(nproc)" -gt 1 ] || skip "one core: nothing is written behind"
  "$GEN" --ops 40000 --seed 5 -o big.pir || fail "gen-program failed"
  for threads in 1 2; do
    run big.pir --threads "$threads" -o result.pir
    expect_rc 0 "--threads $threads"
    same big.pir result.pir "a 20 MB text with --threads $threads"
    no_temp_files
  done
}

# A write that fails (here: past the file size limit, with SIGXFSZ ignored so
# that write() says EFBIG) is reported once, exit 1, whichever thread made
# it; the old file stays and no temporary file is left.
test_output_file_write_error() {
  [ "$(nproc)" -gt 1 ] || skip "one core: nothing is written behind"
  "$GEN" --ops 40000 --seed 5 -o big.pir || fail "gen-program failed"
  printf 'old content\n' > target.pir
  cp target.pir expected.pir
  for threads in 1 2; do
    (trap '' XFSZ; ulimit -f 2048; exec timeout 60 "$PIR_OPT" big.pir --threads "$threads" -o target.pir > out 2> err)
    rc=$?
    expect_rc 1 "a write past the file size limit, --threads $threads"
    stderr_has "^pir-opt: error: error writing 'target.pir': File too large$"
    [ "$(wc -l < err)" = 1 ] || fail "more than one line on stderr: $(head -c 300 err)"
    same expected.pir target.pir "target after a failed write, --threads $threads"
    no_temp_files
  done
}

test_output_new_file_mode() {
  (umask 027 && timeout 60 "$PIR_OPT" "$SEED" -o new.pir 2> err)
  rc=$?
  expect_rc 0
  local mode
  mode=$(stat -c %a new.pir)
  [ "$mode" = 640 ] || fail "a new file under umask 027 has mode $mode, expected 640"
}

test_output_keeps_old_on_syntax_error() {
  printf 'old content\n' > target.pir
  cp target.pir expected.pir
  write_syntax_error bad.pir
  run bad.pir -o target.pir
  expect_rc 1
  expect_located bad.pir 3
  same expected.pir target.pir "target after a syntax error"
  [ -s out ] && fail "stdout is not empty"
  no_temp_files
}

test_output_keeps_old_on_verify_error() {
  printf 'old content\n' > target.pir
  cp target.pir expected.pir
  # reshard_before.pir parses but fails the dist check after fold-reshard (partial
  # operand fed to a relu that wants it replicated).
  run "$SEED" --pass-pipeline=fold-reshard --verify-dist -o target.pir
  expect_rc 1 "verification after fold-reshard"
  expect_located "$SEED"
  stderr_has "error: after pass 'fold-reshard': operand 0 of 'pd_op.relu' is distributed as"
  same expected.pir target.pir "target after a verification error"
  no_temp_files

  # --verify-dist checks right after parsing too.
  run "$SEED" --verify-dist -o target.pir
  expect_rc 1 "--verify-dist"
  same expected.pir target.pir "target after --verify-dist failed"
  no_temp_files
}

test_output_keeps_permissions() {
  echo old > target.pir
  chmod 640 target.pir
  run "$SEED" -o target.pir
  expect_rc 0
  same "$SEED" target.pir
  local mode
  mode=$(stat -c %a target.pir)
  [ "$mode" = 640 ] || fail "target mode is $mode after -o, expected 640"

  chmod 604 target.pir
  run "$SEED_AFTER" -o target.pir
  expect_rc 0
  mode=$(stat -c %a target.pir)
  [ "$mode" = 604 ] || fail "target mode is $mode after -o, expected 604"
  no_temp_files
}

test_output_through_symlink() {
  mkdir real links
  echo old > real/target.pir
  ln -s ../real/target.pir links/link.pir
  run "$SEED" -o links/link.pir
  expect_rc 0
  [ -L links/link.pir ] || fail "the symlink was replaced by a regular file"
  [ "$(readlink links/link.pir)" = ../real/target.pir ] || fail "the symlink now points to '$(readlink links/link.pir)'"
  [ -f real/target.pir ] && [ ! -L real/target.pir ] || fail "the target is no longer a regular file"
  same "$SEED" real/target.pir "the symlink's target"
  same "$SEED" links/link.pir "read through the link"
  no_temp_files real
  no_temp_files links

  # Same folder, relative link.
  echo old > t.pir
  ln -s t.pir l.pir
  run "$SEED_AFTER" -o l.pir
  expect_rc 0
  [ -L l.pir ] || fail "l.pir is no longer a symlink"
  same "$SEED_AFTER" t.pir "same-folder link target"

  # A failure through the link leaves the target alone.
  cp t.pir before.pir
  write_syntax_error bad.pir
  run bad.pir -o l.pir
  expect_rc 1
  [ -L l.pir ] || fail "l.pir is no longer a symlink after a failure"
  same before.pir t.pir "link target after a failure"
  no_temp_files
}

test_output_is_directory() {
  mkdir d
  run "$SEED" -o d
  expect_rc 1
  stderr_has "directory"
  [ -d d ] || fail "the folder is gone"
  [ -z "$(ls -A d)" ] || fail "something was written into the folder: $(ls -A d)"
  no_temp_files
}

test_output_readonly_dir() {
  skip_if_root
  mkdir ro
  echo old > ro/target.pir
  chmod 555 ro
  run "$SEED" -o ro/target.pir
  chmod 755 ro
  expect_rc 1
  stderr_has "^pir-opt: error: "
  [ "$(cat ro/target.pir)" = old ] || fail "the target in a read-only folder changed"
  no_temp_files ro
}

test_input_unreadable() {
  skip_if_root
  cp "$SEED" in.pir
  chmod 000 in.pir
  run in.pir
  expect_rc 1
  stderr_has "^pir-opt: error: cannot open 'in.pir': Permission denied"
}

test_input_is_directory() {
  mkdir d
  run d
  expect_rc 1
  stderr_has "^pir-opt: error: .*directory"
}

#===----------------------------------------------------------------------===#
# 10-11. special outputs
#===----------------------------------------------------------------------===#

test_output_fifo() {
  mkfifo fifo
  timeout 20 cat fifo > received &
  local reader=$!
  run "$SEED" -o fifo
  expect_rc 0
  wait "$reader"
  same "$SEED" received "what the FIFO's reader received"
  [ -p fifo ] || fail "fifo is no longer a FIFO"
  no_temp_files
}

test_output_dev_full() {
  [ -c /dev/full ] || skip "no /dev/full"
  local before
  before=$(ls -a /dev | grep pir-opt)
  run "$SEED" -o /dev/full
  expect_rc 1
  stderr_has "^pir-opt: error: error writing '/dev/full': No space left on device"
  [ -c /dev/full ] || fail "/dev/full is no longer a character device"
  [ -c /dev/null ] || fail "/dev/null is no longer a character device"
  [ -z "$(ls -a /dev | grep pir-opt)" ] || fail "files left in /dev: $(ls -a /dev | grep pir-opt)"
  [ -z "$before" ] || echo "note: /dev held pir-opt files before the test: $before" >&2
  # Through stdout too.
  timeout 60 "$PIR_OPT" "$SEED" > /dev/full 2> err
  rc=$?
  expect_rc 1 "stdout to /dev/full"
  stderr_has "error writing '<stdout>'"
}

# `-o /dev/stdout` (and /dev/stderr, /dev/fd/N) writes into the open stream
# where it stands, as a redirect would: it never replaces the file behind it,
# nor the /dev link when the stream is closed.
test_output_dev_stdout() {
  { echo HEADER; timeout 60 "$PIR_OPT" "$SEED" -o /dev/stdout 2> err; } > whole.txt
  rc=$?
  expect_rc 0 "-o /dev/stdout inside a redirect"
  { echo HEADER; cat "$SEED"; } > want.txt
  same want.txt whole.txt "what went before the run is kept"
  echo PRE > appended.txt
  timeout 60 "$PIR_OPT" "$SEED" -o /dev/fd/1 >> appended.txt 2> err
  rc=$?
  expect_rc 0 "-o /dev/fd/1 appending"
  { echo PRE; cat "$SEED"; } > want.txt
  same want.txt appended.txt "an appending stream is appended to"
  timeout 60 "$PIR_OPT" "$SEED" -o /dev/stdout >&- 2> err
  rc=$?
  check_no_crash
  expect_rc 1 "-o /dev/stdout with stdout closed"
  stderr_has "^pir-opt: error: cannot write '/dev/stdout': Bad file descriptor"
  [ -L /dev/stdout ] || fail "/dev/stdout is no longer a symbolic link"
  [ -z "$(ls -a /dev | grep pir-opt)" ] || fail "files left in /dev: $(ls -a /dev | grep pir-opt)"
  run "$SEED" -o /dev/no-such-device
  expect_rc 1 "a missing /dev path"
  stderr_has "^pir-opt: error: cannot open '/dev/no-such-device': No such file or directory"
  [ ! -e /dev/no-such-device ] || fail "-o made /dev/no-such-device"
}

# /dev's subdirectories are file systems of their own: `-o /dev/shm/F` makes F
# there, through a temporary file, as anywhere else (it once refused to
# create a file anywhere under /dev).
test_output_dev_shm() {
  [ -d /dev/shm ] && [ -w /dev/shm ] || skip "no writable /dev/shm"
  local dir
  dir=$(mktemp -d /dev/shm/pir-opt-cli.XXXXXX) || skip "cannot make a directory in /dev/shm"
  run "$SEED" -o "$dir/result.pir"
  local got=$rc
  cp "$dir/result.pir" result.pir 2> /dev/null
  local left
  left=$(ls -A "$dir" | grep -F 'pir-opt-tmp' || true)
  local top
  top=$(mktemp -u /dev/shm/pir-opt-cli-top.XXXXXX)
  timeout 60 "$PIR_OPT" "$SEED_AFTER" -o "$top" 2> err
  local topRc=$?
  cp "$top" top.pir 2> /dev/null
  rm -rf "$dir" "$top"
  rc=$got
  expect_rc 0 "-o into a directory under /dev/shm"
  same "$SEED" result.pir "-o /dev/shm/.../result.pir"
  [ -z "$left" ] || fail "temporary files left under /dev/shm: $left"
  rc=$topRc
  expect_rc 0 "-o /dev/shm/FILE"
  same "$SEED_AFTER" top.pir "-o /dev/shm/FILE"
}

test_output_dev_null() {
  run "$SEED" -o /dev/null
  expect_rc 0
  [ -c /dev/null ] || fail "/dev/null is no longer a character device"
  [ -z "$(ls -a /dev | grep pir-opt)" ] || fail "files left in /dev: $(ls -a /dev | grep pir-opt)"
  [ -s out ] && fail "stdout is not empty"
  [ "$(head -c 10 /dev/null | wc -c)" = 0 ] || fail "/dev/null is not empty"
}

cli_main
