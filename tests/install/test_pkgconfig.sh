#!/usr/bin/env bash
# test_pkgconfig.sh ROOT SOURCE - builds consumer.c against the installed
# prefix the way a Makefile would, through pkg-config, and runs it:
#  - shared: `pkg-config --cflags --libs occ-inspect` (which brings occ);
#    the program must load libocc.so.0 and libocc-inspect.so.0 from the prefix;
#  - static: the archives, with `pkg-config --static --libs` naming their
#    dependencies (liblz4, libzstd, libiberty, threads); the program must
#    need no libocc at run time.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_pkgconfig.sh ROOT SOURCE}
source_dir=${2:?usage: test_pkgconfig.sh ROOT SOURCE}
prefix=$root/prefix
dir=$root/pkgconfig
rm -rf "$dir"
mkdir -p "$dir"
consumer_inputs "$dir" "$source_dir"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cc=${CC:-cc}
flags=${OCC_CONSUMER_FLAGS:-}

[ "$(pkg-config --modversion occ)" = "$("$prefix/bin/occ" --version | awk '{ print $2 }')" ] ||
    fail "pkg-config --modversion occ is not the installed occ's version"
[ "$(pkg-config --variable=prefix occ)" = "$prefix" ] || fail "pkg-config found an occ.pc outside $prefix"

# shared
# shellcheck disable=SC2046,SC2086
$cc -std=c11 -Wall -Werror $flags -o "$dir/consumer" "$source_dir/tests/install/consumer.c" \
    $(pkg-config --cflags --libs occ-inspect) || fail "cc with pkg-config occ-inspect (shared)"
loaded=$(LD_LIBRARY_PATH=$prefix/lib ldd "$dir/consumer")
echo "$loaded" | grep >/dev/null "libocc.so.0 => $prefix/lib/libocc.so.0" ||
    fail "the shared consumer does not load $prefix/lib/libocc.so.0: $loaded"
echo "$loaded" | grep >/dev/null "libocc-inspect.so.0 => $prefix/lib/libocc-inspect.so.0" ||
    fail "the shared consumer does not load $prefix/lib/libocc-inspect.so.0"
LD_LIBRARY_PATH=$prefix/lib run_consumer "$dir/consumer" "$dir"

# A libocc-only program needs only `pkg-config occ`.
printf '#include "occ.h"\n#include <stdio.h>\nint main(void) { puts(occ_version()); return 0; }\n' \
    > "$dir/version.c"
# shellcheck disable=SC2046,SC2086
$cc -std=c11 $flags -o "$dir/version" "$dir/version.c" $(pkg-config --cflags --libs occ) ||
    fail "cc with pkg-config occ"
[ "$(LD_LIBRARY_PATH=$prefix/lib "$dir/version")" = "$(pkg-config --modversion occ)" ] ||
    fail "a program linked with pkg-config occ prints another version"

# static: the archives (-Bstatic for what pkg-config names), the C library shared.
# shellcheck disable=SC2046,SC2086
$cc -std=c11 -Wall -Werror $flags -o "$dir/consumer-static" "$source_dir/tests/install/consumer.c" \
    $(pkg-config --cflags occ-inspect) -Wl,-Bstatic $(pkg-config --static --libs occ-inspect) \
    -Wl,-Bdynamic || fail "cc with pkg-config --static occ-inspect"
needed=$(readelf -d "$dir/consumer-static" | grep NEEDED || true)
echo "$needed" | grep >/dev/null -E 'libocc|liblz4|libzstd' && fail "the static consumer still needs: $needed"
run_consumer "$dir/consumer-static" "$dir"
echo "test_pkgconfig: shared and static consumers built with pkg-config give the driver's answers"
