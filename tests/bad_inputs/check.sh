#!/bin/sh
# One bad-input case: check.sh EXPECTED COMMAND [ARGS...]
# Runs COMMAND (the astrolabe CLI with the case's arguments) and passes when it exits with 2, prints
# nothing on stdout (no result for bad input) and says EXPECTED (a plain substring) on stderr. A crash
# (signal, sanitizer report) or any other exit code fails; ctest's TIMEOUT catches a hang.
expected=$1
shift
out=$(mktemp) || exit 1
err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
rc=$?
status=0
if [ "$rc" -ne 2 ]; then
  echo "bad input: exit code $rc, 2 was expected" >&2
  status=1
fi
if [ -s "$out" ]; then
  echo "bad input: something was printed on stdout (a result?):" >&2
  head -5 "$out" >&2
  status=1
fi
if ! grep -qF -- "$expected" "$err"; then
  echo "bad input: stderr does not say '$expected'" >&2
  status=1
fi
if grep -qE 'Sanitizer|runtime error|terminate called|Segmentation' "$err"; then
  echo "bad input: a sanitizer or runtime report" >&2
  status=1
fi
echo "--- stderr:" >&2
head -20 "$err" >&2
exit $status
