#!/usr/bin/env bash
# test_symbols.sh ROOT SOURCE - the installed shared libraries export the
# public API and nothing else. libocc.so.0 exports exactly the functions
# include/occ.h declares, libocc-inspect.so.0 exactly those of
# include/occ_inspect.h, include/occ_diff.h and include/occ_regs.h: none missing (a public
# function hidden), none more
# (the core's occ__ helpers, the readers' insp_ functions, libiberty's
# demangler). The declared names come from the preprocessed headers, not
# from the libraries.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_symbols.sh ROOT SOURCE}
source_dir=${2:?usage: test_symbols.sh ROOT SOURCE}
lib=$root/prefix/lib

# Functions the headers declare: "name (" in their preprocessed text, comments gone
# (<stdio.h> first: the functions that take a FILE are declared only then).
declared()
{
    { printf '#include <stdio.h>\n'; for header in $1; do printf '#include "%s"\n' "$header"; done; } |
        ${CC:-cc} -E -P -I "$root/prefix/include" -x c - |
        grep -oE '\b(occ|occ_inspect)_[a-z0-9_]+ *\(' | sed 's/ *($//' | sort -u
}

# Defined dynamic symbols: "TYPE NAME".
exported()
{
    nm -D --defined-only "$1" | awk '{ print $(NF - 1), $NF }'
}

check()
{
    local library=$1 header=$2 prefix_pattern=$3
    local symbols names want
    symbols=$(exported "$lib/$library")
    names=$(echo "$symbols" | awk '{ print $2 }' | sort -u)
    want=$(declared "$header" | grep -E "^$prefix_pattern" || true)
    [ -n "$want" ] || fail "no function found in $header"
    local outside
    outside=$(echo "$names" | grep -vE "^$prefix_pattern" || true)
    [ -z "$outside" ] || fail "$library exports names outside the API ($prefix_pattern): $outside"
    local extra absent
    extra=$(missing_from "$names" "$want")
    absent=$(missing_from "$want" "$names")
    [ -z "$extra" ] || fail "$library exports what $header does not declare: $extra"
    [ -z "$absent" ] || fail "$library does not export what $header declares: $absent"
    local data
    data=$(echo "$symbols" | awk '$1 != "T" { print }')
    [ -z "$data" ] || fail "$library exports something other than functions: $data"
    echo "$library: $(echo "$names" | wc -l) symbols exported, all declared in $header"
}

check libocc.so.0 occ.h 'occ_[a-z]'
# occ_diff.h and occ_regs.h include occ_inspect.h, which includes occ.h:
# libocc-inspect's own functions are the occ_inspect_, occ_diff_ and occ_regs_ ones.
check libocc-inspect.so.0 "occ_diff.h occ_regs.h" 'occ_(inspect|diff|regs)_'
