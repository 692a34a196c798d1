#!/bin/sh
# Run the JS API tests with node's test runner and record "<passed> <failed>" in build/test-results/js.txt for
# tests/tools/summary.sh. Skipped tests (C functions not linked yet) count as neither.
mkdir -p build/test-results
out=$(node --expose-gc --test --test-reporter=tap tests/js/*.test.mjs 2>&1); rc=$?
printf '%s\n' "$out" | grep -E '^# (tests|pass|fail|skipped)|^not ok|^ *not ok' | head -40
if [ $rc -ne 0 ]; then printf '%s\n' "$out" | grep -B2 -A25 'not ok' | head -120; fi
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass //p' | tail -n 1)
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail //p' | tail -n 1)
[ -n "$pass" ] || pass=0; [ -n "$fail" ] || fail=1
[ $rc -ne 0 ] && [ "$fail" = 0 ] && fail=1
echo "$pass $fail" > build/test-results/js.txt
echo "js: $pass passed, $fail failed"
exit $rc
