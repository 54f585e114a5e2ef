#!/usr/bin/env bash
# test_python.sh SOURCE ROOT OCC - `pip install ./python` as README.md gives
# it (`--no-index`, nothing from PyPI), with every python3 of the machine:
# the python3 first on PATH (pyenv's here) and Debian's /usr/bin/python3, in
# fresh venvs that hold no setuptools and no wheel, with and without build
# isolation, from the checkout and from the sdist, three builds at once from
# one tree; then `pip install -e`. Each installed package must compute what
# the occ command OCC computes and carry include/occ.h's version; the wheel
# must hold the three libraries with their rpath and a RECORD that matches;
# the source tree must hold no build output afterwards. An interpreter
# older than the package's Requires-Python must be refused by pip before
# anything is compiled. OCC_TEST_PYTHONS="P1 P2 ..." names the interpreters
# instead.
. "$(dirname "$0")/lib.sh"
source_dir=$(cd "${1:?usage: test_python.sh SOURCE ROOT OCC}" && pwd)
root=${2:?usage: test_python.sh SOURCE ROOT OCC}
occ=${3:?usage: test_python.sh SOURCE ROOT OCC}
package=$source_dir/python
rm -rf "$root"
mkdir -p "$root"
root=$(cd "$root" && pwd)

# The interpreters, each once (by the executable it runs).
candidates=${OCC_TEST_PYTHONS:-$(command -v python3 || true) /usr/bin/python3}
pythons=()
seen=""
for p in $candidates; do
    [ -x "$p" ] || [ -x "$(command -v "$p" 2>/dev/null)" ] || continue
    real=$("$p" -c 'import os, sys; print(os.path.realpath(sys.executable))') ||
        fail "$p does not run"
    case " $seen " in *" $real "*) continue ;; esac
    seen+=" $real"
    pythons+=("$p")
done
[ ${#pythons[@]} -gt 0 ] || fail "no python3 found (Debian python3-venv; scripts/deps.sh test)"

# What the package must give: the CLI's answer and version.
want=$("$occ" calc --gpu H200 --threads 256 --regs 64 --smem 16K --json |
    "${pythons[0]}" -c 'import json, sys; r = json.load(sys.stdin)["result"]; print(r["blocks_per_sm"], r["occupancy"])')
want_version=$("$occ" --version | awk '{ print $2 }')

check_venv()
{
    local venv=$1 what=$2 got
    got=$("$venv/bin/python" -c '
import importlib.metadata, sys
import occ
r = occ.calc("H200", 256, regs=64, smem=16 * 1024)
assert occ.__file__.startswith(sys.prefix) or "-e" in sys.argv, occ.__file__
print(r.blocks_per_sm, r.occupancy, importlib.metadata.version("occ"))' "$what" 2>&1) ||
        fail "$what: import occ: $got"
    [ "$got" = "$want $want_version" ] ||
        fail "$what: occ.calc and the version give '$got', occ calc --json and occ --version '$want $want_version'"
}

# Build outputs in the source tree: none before the installs may be new after.
outputs()
{
    find "$package" \( -name build -o -name '*.egg-info' -o -name '*.so*' -o -name _abi.py \
        -o -name CMakeCache.txt -o -name CMakeFiles -o -name '*.whl' \) -prune -print | sort
}
outputs_before=$(outputs)

# A fresh venv of interpreter $1 at $2: no setuptools (3.12 on), no wheel.
new_venv()
{
    "$1" -m venv "$2" > "$2.log" 2>&1 || fail "$1 -m venv: $(tail -1 "$2.log") (Debian python3-venv)"
    ! "$2/bin/python" -c 'import wheel' 2> /dev/null ||
        fail "$2 holds the wheel package: the test needs a venv without it"
}

supported=()
old=0
for p in "${pythons[@]}"; do
    if "$p" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
        supported+=("$p")
        continue
    fi
    # below Requires-Python: pip reads the metadata, refuses, compiles nothing
    old=$((old + 1))
    venv=$root/venv-old-$old
    new_venv "$p" "$venv"
    out=$("$venv/bin/python" -m pip install --no-index "$package" 2>&1) &&
        fail "$p: pip installed occ below its Requires-Python"
    grep >/dev/null "requires a different Python" <<< "$out" ||
        fail "$p: pip did not refuse by Requires-Python: $(tail -3 <<< "$out")"
    echo "test_python: $("$p" --version 2>&1) refused by Requires-Python"
done
[ ${#supported[@]} -gt 0 ] || fail "no python3 of 3.10 or newer among: $candidates"
first=${supported[0]}
last=${supported[${#supported[@]} - 1]}
new_venv "$first" "$root/venv-isolated"
new_venv "$last" "$root/venv-no-isolation"
new_venv "$last" "$root/venv-sdist"
new_venv "$first" "$root/venv-editable"

# The sdist, written by the backend as a frontend calls it.
mkdir -p "$root/sdist" "$root/wheel"
"$root/venv-isolated/bin/python" "$package/build_backend/occ_build.py" sdist "$root/sdist" \
    > "$root/sdist.log" 2>&1 || { cat "$root/sdist.log"; fail "build_sdist"; }
sdist=$(ls "$root"/sdist/*.tar.gz)
tar -tzf "$sdist" | grep >/dev/null -x "occ-$want_version/pyproject.toml" ||
    fail "the sdist has no occ-$want_version/pyproject.toml"
tar -tzf "$sdist" | grep >/dev/null -x "occ-$want_version/occ-source/include/occ.h" ||
    fail "the sdist has no occ-source/include/occ.h"

# Three builds at once from the one tree: a wheel with build isolation (the
# first python), an install without it (the last), the sdist (the last,
# in a venv of its own). Each builds in a temporary folder of its own.
pids=()
"$root/venv-isolated/bin/python" -m pip wheel --no-index --no-deps -w "$root/wheel" "$package" \
    > "$root/pip-wheel.log" 2>&1 &
pids+=($!)
"$root/venv-no-isolation/bin/python" -m pip install --no-index --no-build-isolation "$package" \
    > "$root/pip-no-isolation.log" 2>&1 &
pids+=($!)
"$root/venv-sdist/bin/python" -m pip install --no-index "$sdist" > "$root/pip-sdist.log" 2>&1 &
pids+=($!)
logs=(pip-wheel pip-no-isolation pip-sdist)
for j in 0 1 2; do
    wait "${pids[$j]}" || { tail -30 "$root/${logs[$j]}.log"; fail "${logs[$j]}: pip failed"; }
done
wheel=$(ls "$root"/wheel/*.whl)
"$root/venv-isolated/bin/python" -m pip install --no-index "$wheel" > "$root/pip-install.log" 2>&1 ||
    { cat "$root/pip-install.log"; fail "pip install $wheel"; }
check_venv "$root/venv-isolated" "$("$first" --version 2>&1), pip wheel with build isolation"
check_venv "$root/venv-no-isolation" "$("$last" --version 2>&1), --no-build-isolation"
check_venv "$root/venv-sdist" "$("$last" --version 2>&1), from the sdist"

# The wheel: its name's tag, every file once in RECORD with its hash and
# size, the libraries executable and finding libocc.so.0 beside them.
"$root/venv-isolated/bin/python" - "$wheel" <<'PY' || fail "the wheel $wheel is not as built"
import base64, hashlib, sys, sysconfig, zipfile
path = sys.argv[1]
platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
assert path.endswith(f"-py3-none-{platform}.whl"), path
z = zipfile.ZipFile(path)
names = z.namelist()
info = [n for n in names if n.endswith(".dist-info/RECORD")]
assert len(info) == 1, info
rows = [line.split(",") for line in z.read(info[0]).decode().splitlines()]
listed = {r[0] for r in rows}
assert listed == set(names) and len(rows) == len(names), set(names) ^ listed
for name, digest, size in rows:
    if name == info[0]:
        continue
    data = z.read(name)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert digest == want and int(size) == len(data), name
for lib in ("libocc.so.0", "libocc-inspect.so.0", "libocc-profile.so.0"):
    assert (z.getinfo("occ/" + lib).external_attr >> 16) & 0o111, lib
    assert b"occ-python-build-" not in z.read("occ/" + lib), lib + " names its build folder"
for name in ("occ/_abi.py", "occ/__init__.py", "occ/py.typed"):
    assert name in names, name
PY
site=$("$root/venv-isolated/bin/python" -c 'import os, occ; print(os.path.dirname(occ.__file__))')
for lib in libocc-inspect libocc-profile; do
    readelf -d "$site/$lib.so.0" | grep >/dev/null 'RUNPATH.*\[\$ORIGIN\]' ||
        fail "$lib.so.0 in the wheel does not look for libocc.so.0 beside itself (\$ORIGIN)"
done

# pip install -e: the modules from python/src, the libraries from the build
# (taken from the first install: OCC_PYTHON_LIBS).
OCC_PYTHON_LIBS=$site "$root/venv-editable/bin/python" -m pip install --no-index -e "$package" \
    > "$root/pip-editable.log" 2>&1 || { cat "$root/pip-editable.log"; fail "pip install -e"; }
got=$(cd "$root" && "$root/venv-editable/bin/python" -c 'import occ; print(occ.__file__)')
[ "$got" = "$package/src/occ/__init__.py" ] || fail "pip install -e: occ is $got, not python/src's"
check_venv "$root/venv-editable" -e

[ "$(outputs)" = "$outputs_before" ] ||
    fail "the installs left build output in the source tree: $(comm -13 <(echo "$outputs_before") <(outputs))"
echo "test_python: pip install ./python with $("$first" --version 2>&1) ($first, build isolation, -e)" \
    "and $("$last" --version 2>&1) ($last, no build isolation, the sdist), three builds at once"
