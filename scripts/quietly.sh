#!/bin/sh
# quietly.sh LOG COMMAND... - runs COMMAND with its output in LOG; prints the
# log's last 40 lines and fails only when COMMAND fails. `make run` uses it so
# that building says nothing unless something goes wrong.
set -u
log=${1:?usage: quietly.sh LOG COMMAND...}
shift
mkdir -p "$(dirname "$log")"
if "$@" > "$log" 2>&1; then
    exit 0
fi
status=$?
tail -n 40 "$log" >&2
echo "make: '$*' failed (exit $status); the whole output is in $log" >&2
exit $status
