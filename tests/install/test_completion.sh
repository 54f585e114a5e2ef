#!/usr/bin/env bash
# test_completion.sh ROOT - drives the installed bash completion
# (share/bash-completion/completions/occ) as bash does on TAB: COMP_WORDS and
# COMP_CWORD set, _occ called, COMPREPLY read. The installed occ is first on
# PATH, as after `make install`. Checks the commands, every command's
# options (against `occ CMD --help`), GPU names after --gpu (each one offered
# must work with --gpu), files after a FILE option and for occ inspect, and
# sweep's axes and lab's experiments.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_completion.sh ROOT}
prefix=$root/prefix
export PATH=$prefix/bin:$PATH
dir=$root/completion
rm -rf "$dir"
mkdir -p "$dir"
touch "$dir/kernels.cubin" "$dir/kernels.log" "$dir/other.txt"

# shellcheck disable=SC1091
. "$prefix/share/bash-completion/completions/occ"
[ "$(complete -p occ)" = "complete -F _occ occ" ] || fail "complete -p occ: $(complete -p occ)"

# What TAB offers after the words given (the last one is being completed), one a line.
offered()
{
    COMP_WORDS=(occ "$@")
    COMP_CWORD=$#
    COMPREPLY=()
    _occ
    printf '%s\n' "${COMPREPLY[@]}" | sort -u | sed '/^$/d'
}

# $1: what was asked; $2: the lines wanted; $3: the lines offered.
same()
{
    [ "$(printf '%s\n' "$2" | sort -u)" = "$3" ] || fail "$1: wanted [$(echo $2)], offered [$(echo $3)]"
}

contains()
{
    grep -qxF -- "$2" <<< "$3" || fail "$1: '$2' not offered (offered: $(echo $3))"
}

commands=$(occ_commands occ)
same "occ TAB" "$commands"$'\n'"help"$'\n'"version" "$(offered '')"
same "occ ca TAB" "calc" "$(offered ca)"
same "occ help TAB" "$commands" "$(offered help '')"

for command in $commands; do
    options=$(occ "$command" --help | grep -oE '^  --[a-z0-9-]+' | sed 's/^  //')
    same "occ $command --TAB" "$options" "$(offered "$command" --)"
done
same "occ latency --loaded TAB" "--loaded-latency-factor" "$(offered latency --loaded)"

# occ gpus --names: every entry's name and aliases, as occ gpus --json has them
# (jansson's layout: an entry's fields 6 spaces in, an alias 8).
json_names=$(occ gpus --json | awk '
    /^      "name": / { sub(/^      "name": "/, ""); sub(/",?$/, ""); print }
    /^      "aliases": \[$/ { on = 1; next }
    on && /^        "/ { sub(/^        "/, ""); sub(/",?$/, ""); print; next }
    { on = 0 }' | sort)
[ -n "$json_names" ] || fail "no name read from occ gpus --json"
[ "$(occ gpus --names | sort)" = "$json_names" ] ||
    fail "occ gpus --names differs from the names and aliases of occ gpus --json"
status=0
err=$(occ gpus --json --names 2>&1 > /dev/null) || status=$?
[ "$status" -eq 2 ] && grep -q -- '--json and --names' <<< "$err" ||
    fail "occ gpus --json --names: wanted exit 2 and a line naming both, got $status: $err"

# GPU names: one for each name and alias (spaces as '-'); each one offered is one occ takes.
gpus=$(offered calc --gpu '')
same "occ calc --gpu TAB" "$(echo "$json_names" | tr ' ' -)" "$gpus"
contains "occ calc --gpu H2 TAB" H200 "$(offered calc --gpu H2)"
contains "occ calc --gpu h2 TAB (any case)" H200 "$(offered calc --gpu h2)"
contains "occ calc --gpu h1 TAB" h100 "$(offered calc --gpu h1)"
contains "occ calc --gpu RTX-2 TAB (a name with spaces)" RTX-2080-Ti "$(offered calc --gpu RTX-2)"
contains "occ calc --gpu=H2 TAB" H200 "$(offered calc --gpu = H2)"
for gpu in $(offered calc --gpu h) $(offered calc --gpu r); do
    occ calc --gpu "$gpu" --threads 256 > /dev/null || fail "--gpu $gpu (offered by TAB) is refused"
done

# Files and directories.
same "occ calc --batch DIR/k TAB" "$dir/kernels.cubin"$'\n'"$dir/kernels.log" "$(offered calc --batch "$dir/k")"
same "occ inspect DIR/k TAB" "$dir/kernels.cubin"$'\n'"$dir/kernels.log" "$(offered inspect "$dir/k")"
same "occ inspect --gpu H200 a DIR/o TAB" "$dir/other.txt" "$(offered inspect --gpu H200 a "$dir/o")"
same "occ lab --out ROOT/comp TAB" "$root/completion" "$(offered lab --out "$root/comp")"
same "occ calc --threads TAB (a number)" "" "$(offered calc --threads '')"

# Positional words from the usage line and help.
# each axis offered is one occ sweep takes
axes=$(offered sweep '')
contains "occ sweep TAB" regs "$axes"
contains "occ sweep TAB" smem "$axes"
for axis in $axes; do
    occ sweep "$axis" --gpu H200 --threads 256 --csv > /dev/null || fail "occ sweep $axis (offered by TAB) is refused"
done
same "occ sweep --gpu H200 s TAB" "smem" "$(offered sweep --gpu H200 s)"
same "occ sweep regs TAB (one axis only)" "" "$(offered sweep regs '')"
contains "occ lab TAB" residency "$(offered lab '')"
contains "occ lab TAB" verify "$(offered lab '')"
echo "test_completion: commands, options of $(echo "$commands" | wc -l) commands, $(echo "$gpus" | wc -l) GPU names, files and positional words completed"
