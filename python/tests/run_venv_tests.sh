#!/bin/sh
# run_venv_tests.sh - the Python package as a user installs it: a fresh venv,
# `pip install ./python`, then the package's tests (python/tests) against the
# occ command of BUILD_DIR. `make test-python` runs it; so does `make test`.
#
# usage: python/tests/run_venv_tests.sh [BUILD_DIR]     (default: build)
#
# Debian's Python and packages (python3-venv, python3-pip, python3-setuptools,
# python3-wheel, python3-pytest, python3-numpy: scripts/deps.sh test): the venv
# sees them (--system-site-packages) and pip builds without PyPI
# (--no-build-isolation --no-index). PYTHON overrides the interpreter.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
if [ -z "${PYTHON:-}" ]; then
    # Debian's interpreter: the one that sees python3-numpy and python3-pytest
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "run_venv_tests.sh: $build is not a CMake build folder: run make first" >&2
    exit 1
fi
# the CLI of the same sources as the libraries pip is about to build
cmake --build "$build" --target occ >/dev/null
venv="$build/python-venv"
# fresh as a user's first install: no venv, no build left by an earlier one
rm -rf "$venv" "$root/python/build" "$root/python/src/occ.egg-info"
"$PYTHON" -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install --quiet --no-index --no-build-isolation "$root/python"
# the tests must see the installed package, not python/src
cd "$build"
"$venv/bin/python" -c 'import occ, sys; assert occ.__file__.startswith(sys.prefix), occ.__file__'
OCC_BINARY="$build/occ" OCC_SOURCE_DIR="$root" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/python/tests"
