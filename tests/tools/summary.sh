#!/bin/sh
# Sum the per-suite results written by the test runners into the closing line CI reads.
passed=0; failed=0
for f in build/test-results/*.txt; do
  [ -f "$f" ] || continue
  read p q < "$f"
  echo "  $(basename "$f" .txt): $p passed, $q failed"
  passed=$((passed + p)); failed=$((failed + q))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
