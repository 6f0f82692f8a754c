#!/usr/bin/env bash
# CLI tests of pir-opt: kill -9, SIGINT, SIGTERM and SIGHUP while writing.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 16. kill -9 while writing
#===----------------------------------------------------------------------===#

test_kill_during_write() {
  gen_relu_chain 200000 > big.pir
  printf 'old content\n' > target.pir
  cp target.pir old.pir

  # How long does a full run take?
  local start full
  start=$(now_ms)
  "$PIR_OPT" big.pir -o full.pir 2> err || fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  same big.pir full.pir "full run"
  rm -f full.pir

  # Kill at 50 ms, then across the run, most often near its end (writing).
  local delay pid outcome killed=0 finished=0 pct
  for pct in 0 30 60 78 86 91 94 97; do
    delay=$(( pct == 0 ? 50 : full * pct / 100 ))
    cp old.pir target.pir
    "$PIR_OPT" big.pir -o target.pir 2> /dev/null &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    if cmp -s old.pir target.pir; then
      outcome=old
      killed=$((killed + 1))
    elif cmp -s big.pir target.pir; then
      outcome=new
      finished=$((finished + 1))
    else
      fail "after kill -9 at ${delay} ms target.pir is neither old nor new ($(wc -c < target.pir) bytes)"
      outcome=broken
    fi
    # A run killed while writing leaves its (partial) temporary file beside
    # the target; kill -9 cannot be cleaned up after, but it never replaced
    # the target.
    local tmp_bytes
    tmp_bytes=$(cat .pir-opt-tmp-* 2> /dev/null | wc -c)
    [ "$tmp_bytes" -gt 0 ] && [ "$outcome" = old ] && outcome="old (killed while writing: $tmp_bytes bytes in the temporary file)"
    echo "kill at ${delay} ms (of ${full}): $outcome" >&2
    rm -f .pir-opt-tmp-*
  done
  [ "$killed" -gt 0 ] || fail "no run was killed before it finished (full run ${full} ms)"
}

# SIGINT or SIGTERM while writing: the target is old or new, and the
# temporary file is removed before the process dies of the signal.
test_interrupt_during_write() {
  gen_relu_chain 200000 > big.pir
  printf 'old content\n' > old.pir
  local start full sig pct delay pid
  start=$(now_ms)
  "$PIR_OPT" big.pir -o full.pir 2> err || fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  for sig in INT TERM; do
    for pct in 40 70 90; do
      delay=$(( full * pct / 100 ))
      cp old.pir target.pir
      "$PIR_OPT" big.pir -o target.pir 2> /dev/null &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
      kill -s "$sig" "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      cmp -s old.pir target.pir || cmp -s big.pir target.pir ||
        fail "after SIG$sig at ${delay} ms target.pir is neither old nor new"
      no_temp_files
    done
  done
}

# SIGINT or SIGTERM while --print-ir-tree-dir and --output-dir are staged:
# the staging folders go too, and each target folder is absent (or as it
# was), or whole.
test_interrupt_staged_folders() {
  gen_relu_chain 100000 > big.pir
  mkdir old_jobs && printf 'old\n' > old_jobs/program.pir
  local args=(big.pir --pass-pipeline=fold-reshard,fold-reshard,fold-reshard --print-ir-tree-dir=tree)
  local start full sig pct delay pid
  start=$(now_ms)
  "$PIR_OPT" "${args[@]}" --output-dir full_jobs 2> err || fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  mv tree full_tree
  for sig in INT TERM; do
    for pct in 20 50 80 95; do
      delay=$(( full * pct / 100 ))
      rm -rf jobs && cp -r old_jobs jobs
      "$PIR_OPT" "${args[@]}" --output-dir jobs 2> /dev/null &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
      kill -s "$sig" "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      no_temp_files
      if [ -e tree ]; then
        diff -r full_tree tree > /dev/null || fail "after SIG$sig at ${delay} ms tree/ is partial"
        rm -rf tree
      fi
      diff -r old_jobs jobs > /dev/null || diff -r full_jobs jobs > /dev/null ||
        fail "after SIG$sig at ${delay} ms jobs/ is neither old nor new: $(ls jobs | tr '\n' ' ')"
    done
  done
}

# The same with rank folders (DIR/rankN/JOB.pir) staged: the signal handler
# empties and removes the staged folder's own folders too.
test_interrupt_staged_rank_folders() {
  gen_relu_chain 50000 | sed 's/stop_gradient:/op_role:(Int32)0,stop_gradient:/' > big.pir
  local args=(big.pir '--pass-pipeline=test-split-ranks{ranks=4},pipeline-split,fold-reshard')
  local start full sig pct delay pid
  start=$(now_ms)
  PIR_OPT_TEST_PASSES=1 "$PIR_OPT" "${args[@]}" --output-dir full_jobs 2> err ||
    fail "a full run failed: $(head -c 300 err)"
  full=$(( $(now_ms) - start ))
  [ -f full_jobs/rank3/forward.pir ] || fail "no full_jobs/rank3/forward.pir: $(ls full_jobs | tr '\n' ' ')"
  for sig in INT TERM; do
    for pct in 50 80 95; do
      delay=$(( full * pct / 100 ))
      rm -rf jobs
      PIR_OPT_TEST_PASSES=1 "$PIR_OPT" "${args[@]}" --output-dir jobs 2> /dev/null &
      pid=$!
      sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
      kill -s "$sig" "$pid" 2> /dev/null
      wait "$pid" 2> /dev/null
      no_temp_files
      [ ! -e jobs ] || diff -r full_jobs jobs > /dev/null ||
        fail "after SIG$sig at ${delay} ms jobs/ is partial: $(ls -R jobs | tr '\n' ' ' | head -c 300)"
    done
  done
}

cli_main
