#!/bin/sh
# Run the browser tests (headless Debian chromium via playwright-core) and record "<passed> <failed>" in
# build/test-results/browser.txt for tests/tools/summary.sh.
mkdir -p build/test-results
out=$(node --test --test-concurrency=1 --test-reporter=tap tests/browser/*.test.mjs 2>&1); rc=$?
printf '%s\n' "$out" | grep -E '^# (tests|pass|fail|skipped)|^ok|^not ok|# SKIP' | head -40
if [ $rc -ne 0 ]; then printf '%s\n' "$out" | grep -A30 'not ok' | head -120; fi
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass //p' | tail -n 1)
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail //p' | tail -n 1)
[ -n "$pass" ] || pass=0; [ -n "$fail" ] || fail=1
[ $rc -ne 0 ] && [ "$fail" = 0 ] && fail=1
echo "$pass $fail" > build/test-results/browser.txt
echo "browser: $pass passed, $fail failed"
exit $rc
