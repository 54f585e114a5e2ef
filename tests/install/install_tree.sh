#!/usr/bin/env bash
# install_tree.sh BUILD SOURCE ROOT - installs BUILD into ROOT/prefix (the
# fixture the other install tests read) and checks the tree: every file the
# install promises (README.md, "Install") is there, the manifest lists
# exactly what is there, the libraries carry their sonames, the pkg-config
# files name the prefix. Before that, `make install PREFIX=... DESTDIR=...`
# stages an install and `make uninstall` removes it again; after it, the
# build `make install` runs is checked to build nothing but what it installs.
#
# cmake --install writes BUILD/install_manifest.txt, which `make uninstall`
# reads: the one a user's install left there is put back on exit.
. "$(dirname "$0")/lib.sh"
build=$(cd "${1:?usage: install_tree.sh BUILD SOURCE ROOT}" && pwd)
source_dir=$(cd "${2:?usage: install_tree.sh BUILD SOURCE ROOT}" && pwd)
root=${3:?usage: install_tree.sh BUILD SOURCE ROOT}

manifest=$build/install_manifest.txt
rm -rf "$root"
mkdir -p "$root"
root=$(cd "$root" && pwd)
if [ -f "$manifest" ]; then
    cp -p "$manifest" "$root/user-manifest.txt"
    trap 'cp -p "$root/user-manifest.txt" "$manifest"' EXIT
else
    trap 'rm -f "$manifest"' EXIT
fi

# 1. make install with PREFIX and DESTDIR: files land under DESTDIR/PREFIX,
#    the pkg-config file names PREFIX alone; make uninstall with the same
#    DESTDIR removes them all.
stage=$root/stage
# a make of its own, not a job of one that runs the tests (`make test`)
unset MAKEFLAGS MFLAGS MAKELEVEL
# (-o install-build: install what the build holds, build nothing while
# other tests run from it)
make -s -C "$source_dir" -o install-build install BUILD="$build" PREFIX=/opt/occ-staged DESTDIR="$stage" \
    > "$root/make-install.log" 2>&1 || { cat "$root/make-install.log"; fail "make install"; }
[ -x "$stage/opt/occ-staged/bin/occ" ] || fail "make install DESTDIR: no $stage/opt/occ-staged/bin/occ"
[ ! -e /opt/occ-staged ] || fail "make install DESTDIR wrote outside DESTDIR: /opt/occ-staged exists"
grep -qx 'prefix=/opt/occ-staged' "$stage/opt/occ-staged/lib/pkgconfig/occ.pc" ||
    fail "occ.pc under DESTDIR: prefix is not /opt/occ-staged: $(grep '^prefix=' "$stage"/opt/occ-staged/lib/pkgconfig/occ.pc)"
grep -qx "/opt/occ-staged/bin/occ" "$manifest" || fail "the manifest does not list bin/occ"
make -s -C "$source_dir" uninstall BUILD="$build" DESTDIR="$stage" > "$root/make-uninstall.log" 2>&1 ||
    { cat "$root/make-uninstall.log"; fail "make uninstall"; }
left=$(find "$stage" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left files behind: $left"
[ ! -e "$stage/opt/occ-staged/share/occ" ] && [ ! -e "$stage/opt/occ-staged/lib/cmake/occ" ] ||
    fail "make uninstall left occ's own directories (share/occ, lib/cmake/occ)"
[ ! -e "$manifest" ] || fail "make uninstall kept the manifest of what it removed"

# 2. cmake --install --prefix: the tree the other tests use. The page is
#    installed where it was built; the web tests may be building it now, so
#    what was there before the install decides what must be installed.
prefix=$root/prefix
web_built=false
[ -f "$build/web/index.html" ] && web_built=true
cmake --install "$build" --prefix "$prefix" > "$root/install.log" 2>&1 ||
    { cat "$root/install.log"; fail "cmake --install"; }
cp "$manifest" "$root/manifest.txt"

occ=$prefix/bin/occ
"$occ" --version | grep >/dev/null '^occ [0-9]' || fail "the installed occ does not run: $("$occ" --version 2>&1)"
expected="bin/occ
include/occ.h
include/occ_cuda.h
include/occ_inspect.h
lib/libocc.so
lib/libocc.so.0
lib/libocc.a
lib/libocc-inspect.so
lib/libocc-inspect.so.0
lib/libocc-inspect.a
lib/pkgconfig/occ.pc
lib/pkgconfig/occ-inspect.pc
lib/cmake/occ/occConfig.cmake
lib/cmake/occ/occConfigVersion.cmake
lib/cmake/occ/occTargets.cmake
share/man/man1/occ.1
share/bash-completion/completions/occ
share/zsh/site-functions/_occ
share/fish/vendor_completions.d/occ.fish"
for command in $(occ_commands "$occ"); do
    expected+=$'\n'"share/man/man1/occ-$command.1"
done
# the guides the pages cite, with their images and occ lab's example records
for doc in "$source_dir"/docs/*.md "$source_dir"/docs/img/*; do
    expected+=$'\n'"share/doc/occ/${doc#"$source_dir"/docs/}"
done
expected+=$'\n'"share/doc/occ/results/h200/lab-all.jsonl"
# occ-lab, occ-regs-bench (with occ lab regs's kernels' table) and the page only where the
# build made them
[ -x "$build/occ-lab" ] && expected+=$'\n'"bin/occ-lab"
[ -x "$build/occ-regs-bench" ] &&
    expected+=$'\n'"bin/occ-regs-bench"$'\n'"share/occ/lab/regs/kernels.tsv"
$web_built && expected+=$'\n'"share/occ/web/index.html"

present=$(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||')
absent=$(missing_from "$expected" "$present")
[ -z "$absent" ] || fail "not installed under $prefix: $absent"
$web_built || [ -d "$build/web" ] || [ ! -e "$prefix/share/occ/web" ] ||
    fail "share/occ/web installed although the page was not built"
[ -x "$build/occ-lab" ] || [ ! -e "$prefix/bin/occ-lab" ] ||
    fail "bin/occ-lab installed although it was not built"
[ -x "$build/occ-regs-bench" ] || [ ! -e "$prefix/bin/occ-regs-bench" ] ||
    fail "bin/occ-regs-bench installed although it was not built"

# The manifest (what make uninstall removes) is exactly the tree.
listed=$(sed "s|^$prefix/||" "$manifest")
[ -z "$(missing_from "$present" "$listed")" ] ||
    fail "installed but not in the manifest: $(missing_from "$present" "$listed")"
[ -z "$(missing_from "$listed" "$present")" ] ||
    fail "in the manifest but not installed: $(missing_from "$listed" "$present")"

# Sonames and links: libocc.so -> libocc.so.0 -> the file whose soname is libocc.so.0.
for lib in occ occ-inspect; do
    [ -L "$prefix/lib/lib$lib.so" ] && [ -L "$prefix/lib/lib$lib.so.0" ] ||
        fail "lib$lib.so and lib$lib.so.0 must be symbolic links"
    [ "$(readlink "$prefix/lib/lib$lib.so")" = "lib$lib.so.0" ] || fail "lib$lib.so does not point at lib$lib.so.0"
    soname=$(readelf -d "$prefix/lib/lib$lib.so.0" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    [ "$soname" = "lib$lib.so.0" ] || fail "lib$lib.so.0: soname is '$soname'"
done
readelf -d "$prefix/lib/libocc-inspect.so.0" | grep >/dev/null 'Shared library: \[libocc.so.0\]' ||
    fail "libocc-inspect.so.0 does not name libocc.so.0 as a dependency"

grep -qx "prefix=$prefix" "$prefix/lib/pkgconfig/occ.pc" || fail "occ.pc: prefix is not $prefix"

# 3. What `make install` builds: the target occ_install_files, which must
#    compile nothing of the tests, benchmarks or fuzz replays (a fresh
#    configuration with the tests on, asked what it would do).
make -s -C "$source_dir" -n install BUILD="$build" | grep >/dev/null -- '--target occ_install_files' ||
    fail "make install does not build the target occ_install_files"
dry=$root/install-targets
cmake -S "$source_dir" -B "$dry" -DOCC_TESTS=ON -DOCC_BENCH=ON > "$root/install-targets.log" 2>&1 ||
    { cat "$root/install-targets.log"; fail "configuring $dry"; }
# (a dry run goes on past the files it did not make: -k)
keep_going=-k
grep >/dev/null '^CMAKE_GENERATOR:INTERNAL=Ninja' "$dry/CMakeCache.txt" && keep_going="-k 0"
compiled=$({ cmake --build "$dry" --target occ_install_files -- -n $keep_going 2>&1 || true; } |
    grep -oE '[A-Za-z0-9_/.-]*CMakeFiles/[A-Za-z0-9_.+-]+\.dir/' | sort -u)
grep >/dev/null 'CMakeFiles/occ\.dir/' <<< "$compiled" ||
    fail "building occ_install_files would not build occ: $compiled"
extra=$(grep -E '(^|/)(tests|bench|fuzz)/' <<< "$compiled" || true)
[ -z "$extra" ] || fail "building occ_install_files would build what is not installed: $extra"
rm -rf "$dry"
echo "install_tree: $(wc -l < "$manifest") files under $prefix; make install DESTDIR and make uninstall checked"
