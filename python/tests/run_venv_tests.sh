#!/bin/sh
# run_venv_tests.sh - the Python package as a user installs it: a fresh venv,
# `pip install ./python`, then the package's tests (python/tests) against the
# occ command of BUILD_DIR. `make test-python` runs it; so does `make test`.
#
# usage: python/tests/run_venv_tests.sh [BUILD_DIR]     (default: build)
#
# The install is README's command, `pip install --no-index ./python`: the
# package's own build backend needs no Python package, so it builds without
# PyPI with any python3 (tests/install/test_python.sh tries each of the
# machine's). The tests need pytest and NumPy, which Debian's interpreter
# has (python3-venv, python3-pytest, python3-numpy: scripts/deps.sh test):
# the venv sees them (--system-site-packages). The interpreter is the first
# of python3 (on PATH) and /usr/bin/python3 that has both (pyenv's python3
# has neither); PYTHON overrides it.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
if [ -z "${PYTHON:-}" ]; then
    PYTHON=/usr/bin/python3
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import pytest, numpy' 2> /dev/null; then PYTHON=$p; break; fi
    done
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "run_venv_tests.sh: $build is not a CMake build folder: run make first" >&2
    exit 1
fi
# the CLI of the same sources as the libraries pip is about to build
cmake --build "$build" --target occ >/dev/null
venv="$build/python-venv"
# fresh as a user's first install (the backend builds in a temporary folder)
rm -rf "$venv"
"$PYTHON" -m venv --system-site-packages "$venv"
if ! "$venv/bin/python" -c 'import pytest, numpy' 2> /dev/null; then
    echo "run_venv_tests.sh: $PYTHON has no pytest or NumPy: Debian python3-pytest" \
        "python3-numpy (scripts/deps.sh test), or PYTHON=an interpreter with both" >&2
    exit 1
fi
"$venv/bin/python" -m pip install --quiet --no-index "$root/python"
# the tests must see the installed package, not python/src
cd "$build"
"$venv/bin/python" -c 'import occ, sys; assert occ.__file__.startswith(sys.prefix), occ.__file__'
OCC_BINARY="$build/occ" OCC_SOURCE_DIR="$root" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
