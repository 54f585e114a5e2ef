#!/usr/bin/env bash
# test_uninstall.sh ROOT SOURCE - after the install tests: removes the
# installed tree as `make uninstall` does (packaging/uninstall.cmake over
# the install's manifest) and checks that no file of it is left, nor occ's
# own directories; then removes ROOT.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_uninstall.sh ROOT SOURCE}
source_dir=${2:?usage: test_uninstall.sh ROOT SOURCE}
prefix=$root/prefix
[ -f "$root/manifest.txt" ] || fail "no manifest: install_tree did not run"
cmake -DMANIFEST="$root/manifest.txt" -P "$source_dir/packaging/uninstall.cmake" > "$root/uninstall.log" 2>&1 ||
    { cat "$root/uninstall.log"; fail "uninstall"; }
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left files behind: $left"
for own in share/occ lib/cmake/occ; do
    [ ! -e "$prefix/$own" ] || fail "uninstall left $own"
done
rm -rf "$root"
echo "test_uninstall: every installed file removed"
