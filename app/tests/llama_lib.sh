#!/usr/bin/env bash
# What the Llama CLI tests share (cli_run_llama_test.sh, cli_run_llama_mpi_test.sh; issue 30), sourced after
# cli_lib.sh: gen-program --model llama at tiny sizes (2 layers, hidden 16, 2 heads, sequence 8, vocabulary 32),
# its inputs, and the line a passing pir-run --check prints.
SIZES="--layers 2 --hidden 16 --heads 2 --seq 8 --vocab 32"

# llama OUT ARGS... : writes the program (tiny sizes unless ARGS override them) to OUT.
llama() { gen_model llama "$@"; }

# inputs DIR BATCH [ARGS...] : every feed and parameter as DIR/NAME.npy, the feeds BATCH rows (a pipeline's feed
# holds every micro-batch), weights x 0.3 so that attention is far from uniform.
inputs() {
  local dir=$1 batch=$2
  shift 2
  "$GEN" --model llama $SIZES --batch "$batch" --init-std 0.3 --write-inputs "$dir" "$@" -o /dev/null ||
    fail "gen-program --write-inputs"
}

# check_ok : the last pir-run (rc, out, err) passed --check with gradients and updates compared.
check_ok() {
  [ "$rc" = 0 ] || { fail "pir-run --check exit $rc: $(head -5 err)"; return; }
  grep -Eq '^check: [0-9]+ tensors match, and [0-9]+ gradients and [0-9]+ updates' out ||
    fail "no check line: $(cat out)"
}
