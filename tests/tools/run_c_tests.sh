#!/bin/sh
# Run C test binaries of one flavour (native, asan or wasm), print each one's closing line and record the sum
# in build/test-results/<flavour>.txt for tests/tools/summary.sh. Exit non-zero on any failure or crash.
flavour=$1; shift
mkdir -p build/test-results
passed=0; failed=0; status=0
for t in "$@"; do
  case "$t" in *.cjs) cmd="node $t" ;; *) cmd="$t" ;; esac
  out=$($cmd 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
  if [ -z "$line" ] || [ $rc -ne 0 ]; then
    printf "%s\n" "$out" | tail -n 40 | cut -c 1-400
    echo "$flavour $(basename "$t"): exit $rc"
    status=1
  fi
  p=$(printf '%s' "$line" | sed -E 's/^([0-9]+) passed.*/\1/'); f=$(printf '%s' "$line" | sed -E 's/.*passed, ([0-9]+) failed.*/\1/')
  [ -n "$p" ] || p=0; [ -n "$f" ] || f=1
  [ $rc -ne 0 ] && [ "$f" = 0 ] && f=1
  passed=$((passed + p)); failed=$((failed + f))
  echo "  $flavour $(basename "$t"): ${line:-no result line}"
done
echo "$passed $failed" > build/test-results/$flavour.txt
echo "$flavour: $passed passed, $failed failed"
exit $status
