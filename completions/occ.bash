# bash completion for occ: the commands, each command's options, GPU names
# after --gpu, files and directories where an option (FILE, DIR) or the
# command (occ inspect FILE..., occ diff OLD NEW) takes them, sweep's axes
# and lab's experiments. Installed as share/bash-completion/completions/occ; or source
# this file.
#
# Everything is asked of the occ being completed (the first word of the
# line), so the completion follows that occ's version and needs no list of
# its own: `occ --help` names the commands; `occ help CMD` the options, in
# its "  %-24s %s" layout (the option and its value's name, then the help),
# and the usage line the positional arguments; `occ gpus --names` the GPUs.
# tests/install/test_completion.sh drives it.

# The commands, one a line.
_occ_commands()
{
    "$1" --help 2>/dev/null | awk '
        /^commands:/ { on = 1; next }
        on && /^  [a-z]/ { print $1; next }
        on { exit }'
}

# A command's options, one a line: "--name VALUE" ("--name" for a flag).
_occ_options()
{
    "$1" help "$2" 2>/dev/null | awk '
        /^options:/ { on = 1; next }
        on && /^  --/ {
            # The option column is 24 wide and a space follows it; a longer
            # option and value are followed by one space.
            s = substr($0, 3)
            i = index(substr(s, 25), " ")
            left = i ? substr(s, 1, 23 + i) : s
            sub(/ +$/, "", left)
            print left
            next
        }
        on { exit }'
}

# The command's positional arguments, from its usage line: first "@count N"
# (N of them) or "@many" (FILE...), then what completes them: "@files",
# "@dirs", or the words themselves, one a line (an axis list regs|smem|...,
# or the entries a section of the help lists for a name: "experiments:" for
# EXPERIMENT). A name with no such section (FILE, OLD, NEW) is a file.
# Nothing for a command without positional arguments.
_occ_positionals()
{
    "$1" help "$2" 2>/dev/null | awk '
        /^usage: / && usage == "" { usage = substr($0, 8) }
        { line[NR] = $0 }
        END {
            n = split(usage, w, " ")
            for (i = 3; i <= n; i++) {
                t = w[i]
                gsub(/[][()]/, "", t)
                if (t ~ /^--/) {
                    v = w[i + 1]
                    gsub(/[][()]/, "", v)
                    if (v ~ /^[A-Z]/) i++
                    continue
                }
                if (t ~ /^[a-z_]+(\|[a-z_]+)+$/) {
                    count++
                    if (kind == "") { kind = t; gsub(/\|/, "\n", kind) }
                } else if (t ~ /^[A-Z][A-Z_]*(\.\.\.)?$/) {
                    count++
                    if (t ~ /\.\.\.$/) many = 1
                    sub(/\.\.\.$/, "", t)
                    if (kind != "") continue
                    kind = t == "DIR" ? "@dirs" : "@files"
                    section = tolower(t) "s:"
                    words = ""
                    for (l = 1; l <= NR; l++) {
                        if (line[l] == section) on = 1
                        else if (on && line[l] ~ /^  [a-z]+  /) { split(line[l], f, " "); words = words f[1] "\n" }
                        else if (on && line[l] !~ /^   /) break
                    }
                    if (words != "") kind = substr(words, 1, length(words) - 1)
                }
            }
            if (count == 0) exit
            print many ? "@many" : "@count " count
            print kind
        }'
}

# GPU names and aliases as --gpu takes them (look-up ignores case, spaces
# and '-': "RTX 2080 Ti" is offered as RTX-2080-Ti), those starting with $2
# whatever the case.
_occ_gpus()
{
    "$1" gpus --names 2>/dev/null | awk -v p="$2" '
        { gsub(/ /, "-") }
        index(tolower($0), tolower(p)) == 1'
}

_occ()
{
    local cur=${COMP_WORDS[COMP_CWORD]} cword=$COMP_CWORD
    local occ=${COMP_WORDS[0]} IFS=$'\n'
    COMPREPLY=()
    # "--gpu=H2": bash splits at '=' ("--gpu" "=" "H2", or "--gpu" "=").
    local prev=""
    if [[ $cur == "=" ]]; then
        prev=${COMP_WORDS[cword - 1]}
        cur=""
    elif ((cword >= 2)) && [[ ${COMP_WORDS[cword - 1]} == "=" ]]; then
        prev=${COMP_WORDS[cword - 2]}
    elif ((cword >= 1)); then
        prev=${COMP_WORDS[cword - 1]}
    fi

    if ((cword == 1)); then
        COMPREPLY=($(compgen -W "$(_occ_commands "$occ")"$'\n'"help"$'\n'"version" -- "$cur"))
        return 0
    fi
    local command=${COMP_WORDS[1]}
    if [[ $command == help ]]; then
        ((cword == 2)) && COMPREPLY=($(compgen -W "$(_occ_commands "$occ")" -- "$cur"))
        return 0
    fi

    local options option value
    options=$(_occ_options "$occ" "$command")
    [[ -z $options ]] && return 0

    # The value of an option: GPU names, files, directories, else nothing.
    if [[ $prev == --* ]]; then
        for option in $options; do
            [[ $option == "$prev "* ]] || continue
            value=${option#* }
            if [[ $prev == --gpu ]]; then
                COMPREPLY=($(_occ_gpus "$occ" "$cur"))
            elif [[ $value == FILE ]]; then
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
            elif [[ $value == DIR ]]; then
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -d -- "$cur"))
            fi
            return 0
        done
    fi

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(printf '%s\n' $options | sed 's/ .*//')" -- "$cur"))
        return 0
    fi

    # A positional argument: count those already given (words that are not
    # options or option values) unless the command takes any number.
    local kinds limit given=0 i word
    kinds=$(_occ_positionals "$occ" "$command")
    [[ -z $kinds ]] && return 0
    limit=${kinds%%$'\n'*}
    kinds=${kinds#*$'\n'}
    if [[ $limit != @many ]]; then
        for ((i = 2; i < cword; i++)); do
            word=${COMP_WORDS[i]}
            if [[ $word == -* ]]; then
                # an option that takes a value: skip the value ("--gpu H200",
                # "--gpu = H200")
                if [[ $'\n'$options$'\n' == *$'\n'"$word "* ]]; then
                    [[ ${COMP_WORDS[i + 1]} == "=" ]] && ((i += 1))
                    ((i += 1))
                fi
            else
                ((given += 1))
            fi
        done
        ((given >= ${limit#@count })) && return 0
    fi
    case $kinds in
    @files)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
    @dirs)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
        ;;
    *) COMPREPLY=($(compgen -W "$kinds" -- "$cur")) ;;
    esac
    return 0
}
complete -F _occ occ
