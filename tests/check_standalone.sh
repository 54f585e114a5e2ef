#!/bin/sh
# check_standalone.sh SOURCE_DIR - fails if a file of the repository names a
# directory outside it. A user's clone has only the repository: tests, docs and
# builds must find everything they use inside it (tests/data/, docs/). The
# patterns are written so that this file does not match itself.
set -u
src=${1:?usage: check_standalone.sh SOURCE_DIR}
cd "$src" || exit 2
parent='\.\./shar''ed'
variable='OCC_SHARED''_DIR'
if [ -d .git ] && command -v git >/dev/null 2>&1; then
    hits=$(git grep --untracked -n -I -e "$parent" -e "$variable" -- . 2>/dev/null)
else
    # a release tarball: every file but build output and downloaded packages
    hits=$(grep -rnI -e "$parent" -e "$variable" . \
        --exclude-dir=.git --exclude-dir='build*' --exclude-dir=node_modules 2>/dev/null)
fi
if [ -n "$hits" ]; then
    echo "check_standalone: these lines name a directory outside the repository:" >&2
    echo "$hits" >&2
    exit 1
fi
echo "check_standalone: no file names a directory outside the repository"
