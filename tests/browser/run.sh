#!/bin/sh
# Run tests that drive headless Debian chromium via playwright-core, one file at a time, and record
# "<passed> <failed>" in build/test-results/<suite>.txt for tests/tools/summary.sh.
# Usage: run.sh [suite [test files...]] (default: browser tests/browser/*.test.mjs).
suite=${1:-browser}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- tests/browser/*.test.mjs
mkdir -p build/test-results
out=$(node --test --test-concurrency=1 --test-reporter=tap "$@" 2>&1); rc=$?
printf '%s\n' "$out" | grep -E '^# (tests|pass|fail|skipped)|^ok|^not ok|# SKIP|^# first drag|^# drag event' | head -40
if [ $rc -ne 0 ]; then printf '%s\n' "$out" | grep -A30 'not ok' | head -120; fi
pass=$(printf '%s\n' "$out" | sed -n 's/^# pass //p' | tail -n 1)
fail=$(printf '%s\n' "$out" | sed -n 's/^# fail //p' | tail -n 1)
[ -n "$pass" ] || pass=0; [ -n "$fail" ] || fail=1
[ $rc -ne 0 ] && [ "$fail" = 0 ] && fail=1
echo "$pass $fail" > "build/test-results/$suite.txt"
echo "$suite: $pass passed, $fail failed"
exit $rc
