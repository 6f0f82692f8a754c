#!/usr/bin/env bash
# CLI tests of pir-opt: hostile input: huge, deep, binary and endless inputs.
# Each test_NAME runs the real binary; see cli_lib.sh for how to run one.
source "$(dirname "${BASH_SOURCE[0]}")/cli_lib.sh" "$@"

#===----------------------------------------------------------------------===#
# 15. hardening
#===----------------------------------------------------------------------===#

# huge_array N CLOSE: one op whose shape attribute holds N numbers on one line.
huge_array_program() {
  printf '{\n    (%%0) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)['
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%d,", i; printf "7" }'
  printf '%s,stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xf32>\n}\n' "$2"
}

test_long_line_1mb() {
  huge_array_program 200000 ']' > big.pir
  [ "$(wc -c < big.pir)" -gt 1000000 ] || fail "generator made a file under 1 MB"
  run big.pir
  expect_rc 0 "a 1 MB valid line"
  same big.pir out "1 MB line round trip"

  # The same line with an error at its end: the printed line is clipped.
  huge_array_program 200000 '}' > bad.pir
  run bad.pir
  expect_rc 1 "a 1 MB line with an error at its end"
  expect_located bad.pir 2
  local col len
  col=$(error_col)
  len=$(sed -n 2p bad.pir | wc -c)
  [ "$col" -gt $((len - 100)) ] || fail "the error column $col is not near the end of the line ($len bytes)"
  local longest
  longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' err)
  [ "$longest" -le 300 ] || fail "stderr has a line of $longest bytes"

  # An error at the start of the long line.
  { printf '{\n    (%%0) = "pd_op.full" () {shape:[1,2}'; awk 'BEGIN { for (i = 0; i < 300000; i++) printf "%d,", i }'; printf '\n}\n'; } > bad2.pir
  run bad2.pir
  expect_rc 1
  expect_located bad2.pir 2
}

test_deep_nesting_attribute() {
  { printf '{\n    (%%0) = "pd_op.full" () {shape:'
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "["; for (i = 0; i < 10000; i++) printf "]" }'
    printf ',stop_gradient:[true]} : () -> builtin.tensor<1xf32>\n}\n'; } > deep.pir
  run deep.pir
  expect_rc 1
  expect_located deep.pir 2
  stderr_has "kMaxNestingDepth"

  # Opaque dialect values nest too.
  { printf '{\n    (%%0) = "pd_op.full" () {place:(pd_op.Place)Place'
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "("; for (i = 0; i < 10000; i++) printf ")" }'
    printf ',stop_gradient:[true]} : () -> builtin.tensor<1xf32>\n}\n'; } > deep2.pir
  run deep2.pir
  expect_rc 1
  expect_located deep2.pir 2
  stderr_has "kMaxNestingDepth"

  # Nested types.
  { printf '{\n    (%%0) = "pd_op.full" () {} : () -> '
    awk 'BEGIN { for (i = 0; i < 10000; i++) printf "vec["; printf "builtin.tensor<1xf32>"; for (i = 0; i < 10000; i++) printf "]" }'
    printf '\n}\n'; } > deep3.pir
  run deep3.pir
  expect_rc 1
  expect_located deep3.pir 2
  stderr_has "kMaxNestingDepth"
}

test_deep_nesting_regions() {
  awk 'BEGIN {
    print "{"
    for (i = 0; i < 10000; i++) { print "() = \"test.region\" () {} : () -> "; print "{" }
    for (i = 0; i < 10000; i++) print "}"
    print "}"
  }' > deep.pir
  run deep.pir
  expect_rc 1
  expect_located deep.pir
  stderr_has "kMaxNestingDepth"

  # pd_op.if regions, nested 10,000 deep.
  awk 'BEGIN {
    print "{"
    print "    (%0) = \"pd_op.full\" () {dtype:(pd_op.DataType)bool,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Float)1} : () -> builtin.tensor<1xb>"
    for (i = 0; i < 10000; i++) print "() = \"pd_op.if\" (%0) {} : (builtin.tensor<1xb>) -> {"
    for (i = 0; i < 10000; i++) print "} else {\n}"
    print "}"
  }' > deep_if.pir
  run deep_if.pir
  expect_rc 1
  expect_located deep_if.pir
  stderr_has "kMaxNestingDepth"

  # Just under the limit is fine.
  awk 'BEGIN {
    print "{"
    for (i = 0; i < 100; i++) { print "() = \"test.region\" () {} : () -> "; print "{" }
    for (i = 0; i < 100; i++) print "}"
    print "}"
  }' > ok.pir
  run ok.pir
  expect_rc 0 "100 nested regions"
}

test_nul_bytes() {
  { head -n 2 "$SIMPLE"; printf '    \0\0garbage\n'; tail -n +3 "$SIMPLE"; } > nul.pir
  run nul.pir
  expect_rc 1
  expect_located nul.pir 3
  stderr_has "NUL"

  # A NUL inside a token.
  { head -c 50 "$SIMPLE"; printf '\0'; tail -c +51 "$SIMPLE"; } > nul2.pir
  run nul2.pir
  expect_rc 1
  expect_located nul2.pir 2

  # A NUL inside a string.
  sed 's/name:"x"/name:"x\x00y"/' "$SIMPLE" > nul3.pir
  run nul3.pir
  [ "$rc" -le 1 ] || fail "NUL in a string: exit $rc"
  if [ "$rc" = 1 ]; then expect_located nul3.pir 2; else same nul3.pir out "NUL in a string"; fi

  # Only NULs, and a NUL after the program.
  head -c 1000 /dev/zero > zeros.pir
  run zeros.pir
  expect_rc 1
  expect_located zeros.pir 1
  { cat "$SIMPLE"; printf '\0'; } > trailing.pir
  run trailing.pir
  expect_rc 1
  expect_located trailing.pir
}

test_invalid_utf8_outside_string() {
  { head -n 2 "$SIMPLE"; printf '    \xff\xfe bad\n'; tail -n +3 "$SIMPLE"; } > bad.pir
  run bad.pir
  expect_rc 1
  expect_located bad.pir 3
  # Invalid UTF-8 in an op name position and an attribute name.
  sed '2s/"pd_op.data"/pd_op.d\xc3ta/' "$SIMPLE" > bad2.pir
  run bad2.pir
  expect_rc 1
  expect_located bad2.pir 2
  sed '2s/dtype:/dt\x80ype:/' "$SIMPLE" > bad3.pir
  run bad3.pir
  expect_rc 1
  expect_located bad3.pir 2
}

test_invalid_utf8_in_string() {
  sed '2s/name:"x"/name:"x\xff\xc3(\xe2\x82 \xed\xa0\x80y"/' "$SIMPLE" > s.pir
  grep -q $'\xff' s.pir || fail "test data lacks the invalid byte"
  run s.pir
  expect_rc 0
  same s.pir out "invalid UTF-8 in a string attribute"
  # Through stdin and -o too.
  run_stdin s.pir - -o result.pir
  expect_rc 0
  same s.pir result.pir "invalid UTF-8 in a string, via -o"
}

test_utf8_bom() {
  { printf '\xef\xbb\xbf'; cat "$SIMPLE"; } > bom.pir
  run bom.pir
  expect_rc 0
  same "$SIMPLE" out "the BOM is dropped"
  run_stdin bom.pir
  expect_rc 0
  same "$SIMPLE" out "the BOM on stdin is dropped"
  # A BOM followed by an error still gets the right column.
  { printf '\xef\xbb\xbf'; echo 'bogus'; } > bombad.pir
  run bombad.pir
  expect_rc 1
  expect_located bombad.pir 1
}

test_crlf() {
  sed 's/$/\r/' "$SIMPLE" > crlf.pir
  grep -q $'\r' crlf.pir || fail "test data lacks CR"
  run crlf.pir
  expect_rc 0
  same "$SIMPLE" out "CRLF becomes LF"
  # With split markers.
  { cat "$SIMPLE"; echo '// ----- job: b'; cat "$SIMPLE"; } > multi.pir
  sed 's/$/\r/' multi.pir > multi_crlf.pir
  run multi_crlf.pir --split-input-file
  expect_rc 0
  same multi.pir out "CRLF split input"
}

test_missing_final_newline() {
  head -c -1 "$SIMPLE" > nonl.pir
  [ "$(tail -c 1 nonl.pir | od -An -c | tr -d ' ')" = '}' ] || fail "test data still ends in a newline"
  run nonl.pir
  expect_rc 0
  same "$SIMPLE" out "a final newline is added"
  sed 's/$/\r/' "$SIMPLE" | head -c -2 > nonl_crlf.pir
  run nonl_crlf.pir
  expect_rc 0
  same "$SIMPLE" out "CRLF without a final newline"
}

test_eof_mid_token() {
  local n last_line last_len
  # Ends inside an attribute name: the error is at the end of the file.
  n=$(grep -bo 'stop_grad' "$SIMPLE" | head -n 1 | cut -d: -f1)
  head -c $((n + 6)) "$SIMPLE" > mid.pir
  run mid.pir
  expect_rc 1
  last_line=$(wc -l < mid.pir); last_line=$((last_line + 1))
  last_len=$(tail -n 1 mid.pir | wc -c)
  expect_located mid.pir "$last_line"
  [ "$(error_col)" = $((last_len + 1)) ] || fail "error at column $(error_col), expected $((last_len + 1)) (end of input)"
  stderr_has "end of input"

  # Cut at many places: always a located error on the last line.
  local size cut
  size=$(wc -c < "$SIMPLE")
  for cut in 1 12 27 66 170 400 $((size - 2)); do
    head -c "$cut" "$SIMPLE" > cut.pir
    run cut.pir
    expect_rc 1 "cut after $cut bytes"
    last_line=$(( $(wc -l < cut.pir) + 1 ))
    expect_located cut.pir "$last_line"
  done
}

test_huge_line_100mb() {
  local n=104857600
  { printf '{\n    (%%0) = "pd_op.full" () {name:"'
    head -c $n /dev/zero | tr '\0' 'a'
    printf '",oops:} : () -> builtin.tensor<1xf32>\n}\n'; } > huge.pir
  local size start elapsed
  size=$(wc -c < huge.pir)
  start=$(now_ms)
  if [ -x /usr/bin/time ]; then
    timeout 60 /usr/bin/time -v -o time.txt "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  else
    timeout 60 "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  fi
  elapsed=$(( $(now_ms) - start ))
  check_no_crash
  expect_rc 1
  expect_located huge.pir 2
  [ "$(error_col)" -gt $n ] || fail "the error is at column $(error_col), not at the end of the line"
  [ "$elapsed" -lt 20000 ] || fail "took ${elapsed} ms (limit 20 s)"
  if [ -f time.txt ]; then
    local rss_kb
    rss_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' time.txt)
    echo "100 MB line: ${elapsed} ms, max RSS ${rss_kb} kB for a $((size / 1024)) kB file" >&2
    [ -n "$rss_kb" ] && [ "$rss_kb" -gt $((size * 3 / 1024)) ] && fail "max RSS ${rss_kb} kB is over 3x the file size"
  fi
  rm -f huge.pir

  # A 100 MB line of garbage with no program around it.
  head -c $n /dev/zero | tr '\0' 'a' > garbage.pir
  run garbage.pir
  expect_rc 1
  expect_located garbage.pir 1
}

test_huge_line_numbers() {
  # One op whose IntArray holds 12 million numbers on one 25 MB line, broken
  # at its end. Reports memory; fails only on time, exit code or location.
  local n=26214400
  { printf '{\n    (%%0) = "pd_op.full" () {shape:(pd_op.IntArray)['
    yes 1, | tr -d '\n' | head -c $n
    printf '1}\n}\n'; } > huge.pir
  local size start elapsed
  size=$(wc -c < huge.pir)
  start=$(now_ms)
  if [ -x /usr/bin/time ]; then
    timeout 60 /usr/bin/time -v -o time.txt "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  else
    timeout 60 "$PIR_OPT" huge.pir > out 2> err
    rc=$?
  fi
  elapsed=$(( $(now_ms) - start ))
  check_no_crash
  expect_rc 1
  expect_located huge.pir 2
  # A guard against quadratic reading, not a benchmark: a few seconds here, 22 s under ASan on a loaded machine (a
  # clean-clone CI run failed at 20 s); quadratic on 12 million numbers would take hours.
  [ "$elapsed" -lt 45000 ] || fail "took ${elapsed} ms (limit 45 s)"
  if [ -f time.txt ]; then
    local rss_kb
    rss_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' time.txt)
    echo "note: 25 MB numeric line: ${elapsed} ms, max RSS ${rss_kb} kB for a $((size / 1024)) kB file" >&2
  fi
}

# An endless stream of NUL bytes is refused at its first byte, not read
# until memory runs out.
test_endless_nul_stream() {
  [ -c /dev/zero ] || skip "no /dev/zero"
  run /dev/zero
  expect_rc 1 "/dev/zero as the input"
  expect_located /dev/zero 1
  stderr_has "error: NUL byte in input"
  run_stdin /dev/zero -
  expect_rc 1 "/dev/zero on stdin"
  expect_located "<stdin>" 1
}

test_binary_garbage() {
  local bin
  for bin in /bin/ls "$PIR_OPT"; do
    [ -r "$bin" ] || continue
    head -c 4096 "$bin" > garbage.bin
    run garbage.bin
    expect_rc 1 "$bin"
    expect_located garbage.bin
    run_stdin garbage.bin
    expect_rc 1 "$bin on stdin"
    expect_located '<stdin>'
  done
  head -c 65536 /dev/urandom > random.bin
  run random.bin
  expect_rc 1 "random bytes"
}

cli_main
