#!/bin/sh
# Host test of wlseal-wait-line: finds a line written later, gives up at its
# timeout, and gives up as soon as the --pid writer exits.
set -u
W=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A line appended after the wait started (the file does not exist yet).
(sleep 0.2; echo "first" >"$d/f"; echo "x READY y" >>"$d/f") &
out=$("$W" "$d/f" READY 10) || fail "line not found"
[ "$out" = "x READY y" ] || fail "printed '$out'"
wait

# Timeout: exit 1 after about a second, not before.
start=$(date +%s%N)
"$W" "$d/f" NEVER 1 2>/dev/null && fail "found a line that is not there"
took=$((($(date +%s%N) - start) / 1000000))
[ "$took" -ge 900 ] || fail "timed out after $took ms, expected 1000"

# --pid: the writer exits without the line; the wait ends with it, long
# before the 30 s timeout.
(echo "no match here" >"$d/g"; sleep 0.3) &
pid=$!
start=$(date +%s%N)
"$W" --pid "$pid" "$d/g" NEVER 30 2>/dev/null && fail "found a line that is not there"
took=$((($(date +%s%N) - start) / 1000000))
[ "$took" -lt 10000 ] || fail "--pid did not end the wait ($took ms)"
echo "ok"
