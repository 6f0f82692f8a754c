#!/usr/bin/env bash
# pir-run's progress bar (app/run_progress.h): drawn on stderr when it is a
# tty and the run lasts over a second, erased at the end; never otherwise.
# The tty comes from util-linux's `script`. See cli_lib.sh for the driver.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh"

# write_chain OPS: a dense chain of OPS relus on 16k floats into c.pir.
write_chain() {
  local count=$1 i t='builtin.tensor<16384xf32>'
  {
    echo '{'
    echo "    (%0) = \"pd_op.data\" () {dtype:(pd_op.DataType)float32,name:\"x\",place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[16384],stop_gradient:[true]} : () -> $t"
    for ((i = 1; i <= count; i++)); do
      echo "    (%$i) = \"pd_op.relu\" (%$((i - 1))) {} : ($t) -> $t"
    done
    echo "    () = \"builtin.shadow_output\" (%$count) {output_name:\"y\"} : ($t) -> "
    echo '}'
  } > c.pir
}

# A progress line of a run of STEPS steps of the 202-op chain.
progress_re() {
  echo "pir-run: steps [0-9]*/$1, ops [0-9]*/$(($1 * 202)), [0-9.]* s"
}

# on_a_tty PROGRAM STDOUT STEPS...: runs pir-run PROGRAM --steps S under
# script(1), stderr on its pty copied to tty.txt and stdout to STDOUT (empty:
# the pty too), for each S in turn until the bar was drawn or a run lasted
# over 1.5 s (a faster machine, or runner, ends the short runs before the bar
# draws: since issue 33 the chain runs in place, about 2 us a relu of 16k
# floats). Sets steps, ms and rc.
on_a_tty() {
  local program=$1 stdout=$2 start
  shift 2
  for steps in "$@"; do
    start=$(date +%s%N)
    timeout 60 script -qec "'$PIR_RUN' $program --steps $steps${stdout:+ > $stdout}" /dev/null < /dev/null > tty.txt
    rc=$?
    ms=$((($(date +%s%N) - start) / 1000000))
    grep -q 'pir-run: steps [0-9]*/' tty.txt && break
    [ "$ms" -gt 1500 ] && break
  done
}

test_run_progress_bar_on_a_tty() {
  command -v script > /dev/null || skip "no util-linux script"
  write_chain 200
  local steps ms
  on_a_tty c.pir out 60 240 960 3840 15360
  expect_rc 0
  grep -q "$(progress_re $steps)" tty.txt || fail "no progress line after ${ms} ms: $(od -c tty.txt | head)"
  # The last bytes erase the line: \r, spaces, \r.
  tail -c 3 tty.txt | od -An -c | grep -q '   \\r$' || fail "the line is not erased: $(tail -c 80 tty.txt | od -c)"
  [ "$(sed "s|$(progress_re $steps)||g" tty.txt | tr -d ' \r')" = "" ] ||
    fail "stderr has more than progress lines: $(od -c tty.txt | head)"
  [ -s out ] && fail "stdout is not empty: $(head -c 300 out)"
  return 0
}

test_run_progress_none_without_tty() {
  write_chain 200
  timeout 60 "$PIR_RUN" c.pir --steps 20 > out 2> err
  rc=$?
  check_no_crash
  expect_rc 0
  [ -s err ] && fail "stderr is not empty: $(od -c err | head)"
  return 0
}

# Two ranks count one step when both finished it: the bar's total is the
# steps, not steps x ranks, and its count never passes it.
test_run_progress_counts_steps_not_ranks() {
  command -v script > /dev/null || skip "no util-linux script"
  "$HERE/../../scripts/gen-program" --ops 400 --mesh 2 -o p.pir || { fail "gen-program --mesh 2"; return; }
  local steps ms re
  on_a_tty p.pir out 40 160 640
  expect_rc 0
  re="pir-run: steps [0-9]*/$steps, ops [0-9]*/[0-9]*, [0-9.]* s"
  grep -q "$re" tty.txt || fail "no 'steps K/$steps' line after ${ms} ms: $(tr '\r' '\n' < tty.txt | head -3)"
  tr '\r' '\n' < tty.txt | grep -o 'steps [0-9]*/' | tr -d 'steps/' | while read -r k; do
    [ "$k" -le "$steps" ] || { echo "FAIL: steps $k/$steps" >&2; exit 1; }
  done || fail "a count passed the steps"
  [ "$(wc -l < out)" = "$steps" ] || fail "not one loss line per step: $(wc -l < out)"
  return 0
}

# stdout on the tty too: a loss line, printed as its step finishes, erases
# the bar first, so no line of the terminal holds both.
test_run_progress_loss_lines_above_the_bar() {
  command -v script > /dev/null || skip "no util-linux script"
  "$HERE/../../scripts/gen-program" --ops 400 -o p.pir || { fail "gen-program"; return; }
  local steps ms
  on_a_tty p.pir "" 80 320 1280
  expect_rc 0
  grep -q "pir-run: steps [0-9]*/$steps, " tty.txt || fail "no bar after ${ms} ms"
  # What each terminal line shows: the text after its last carriage return.
  sed 's/\r$//; s/.*\r//' tty.txt | grep -v '^ *$' > shown
  [ "$(grep -c '^step [0-9]*: loss_0 [-+.e0-9]*$' shown)" = "$steps" ] ||
    fail "not $steps clean loss lines: $(grep -v '^step [0-9]*: loss_0 [-+.e0-9]*$' shown | head -3 | od -c | head)"
  return 0
}

cli_main
