#!/usr/bin/env bash
# Each kind of knowledge has one home (README "Where things go"). This fails
# on a second copy of the facts issue 26 gave one home, listing FILE:LINE:
#   - an op's scope access by name in the runtime (the op table's ScopeAccess);
#   - the @GRAD@ value names outside passes/value_naming.cpp;
#   - a second reduce-type enum, ring table or persistable test;
#   - control flow on a message's text (kStoppedMessage, "duplicate key");
#   - the tolerance formula outside runtime/runner/compare.cpp.
# Tests, testdata and docs may say anything.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bad=0
check() {  # check DESCRIPTION REGEX ALLOWED_FILE_REGEX
  local what=$1 pattern=$2 allowed=$3 hit
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    [[ ${hit%%:*} =~ $allowed ]] && continue
    echo "$hit: $what"
    bad=1
  done < <(grep -rnE --include='*.h' --include='*.cpp' "$pattern" core parser passes runtime app | grep -v '/tests/' || true)
}
# program_splitter.cpp keeps its interned-name compare: it runs per op at a million ops.
check "an op's scope access by name: ask the op table (core::ScopeAccess)" \
  'name\(\) *[!=]= *"(pd_op\.data|builtin\.(parameter|shadow_output|set_parameter))"' \
  '^(core/|parser/|passes/program_splitter\.cpp$)'
check "a value name with @GRAD@: passes/value_naming.h has them" '"@GRAD@' '^passes/value_naming\.cpp$'
check "a second reduce-type enum: core::ReduceType is the one" 'enum class Reduce(Op|Type)\b' '^core/attributes\.h$'
check "a second ring table: core::RingTable is the one" 'using RingTable = std::map' '^$'
check "a persistable test: core::isPersistable is the one" 'attr\("persistable"\)|a\.key == "persistable"' '^core/attr_access\.cpp$'
check "control flow on a message's text" 'kStoppedMessage|rfind\("duplicate key"|message\(\)\.starts_with' '^$'
check "the f32 tolerance: runtime/runner/compare.h has it" '1e-6 \+ 1e-5 \*' '^runtime/runner/compare\.cpp$'
if [ "$bad" -eq 0 ]; then echo "one-home: every checked fact has one definition"; fi
exit "$bad"
