#!/bin/sh
# Run the JS API tests with node's test runner and record "<passed> <failed>" in build/test-results/js.txt for
# tests/tools/summary.sh. A skipped test counts as failed: a missing C function fails the tests that use it.
mkdir -p build/test-results
out=$(node --expose-gc --test --test-reporter=tap tests/js/*.test.mjs 2>&1); rc=$?
printf '%s\n' "$out" | grep -E '^# (tests|pass|fail|skipped)|^not ok|^ *not ok' | head -40
if [ $rc -ne 0 ]; then printf '%s\n' "$out" | grep -B2 -A25 'not ok' | head -120; fi
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass //p' | tail -n 1)
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail //p' | tail -n 1)
skipped=$(printf '%s\n' "$out" | sed -n 's/^# skipped //p' | tail -n 1)
[ -n "$pass" ] || pass=0; [ -n "$fail" ] || fail=1
# a skipped test counts as failed: nothing may turn green by not running
if [ -n "$skipped" ] && [ "$skipped" != 0 ]; then echo "js: $skipped skipped"; fail=$((fail + skipped)); rc=1; fi
[ $rc -ne 0 ] && [ "$fail" = 0 ] && fail=1
echo "$pass $fail" > build/test-results/js.txt
echo "js: $pass passed, $fail failed"
exit $rc
