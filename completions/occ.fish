# fish completion for occ: the commands, each command's options with their
# help, GPU names after --gpu, files and directories where an option (FILE,
# DIR) or the command (occ inspect FILE...) takes them, sweep's axes and
# lab's experiments. Installed as share/fish/vendor_completions.d/occ.fish.
#
# As in occ.bash, everything is asked of the occ being completed: `occ
# --help` names the commands, `occ help CMD` gives the options (its
# "  %-24s %s" layout: the option and its value's name, then the help) and
# the usage line, `occ gpus --names` the GPUs.

# "name<TAB>summary" for each command.
function __occ_commands
    set -l words (commandline -opc)
    $words[1] --help 2>/dev/null | awk '
        /^commands:/ { on = 1; next }
        on && /^  [a-z]/ { name = $1; sub(/^  [a-z]+ +/, ""); print name "\t" $0; next }
        on { exit }'
end

# "--name<TAB>VALUE<TAB>help" for each option of the command on the line.
function __occ_option_lines
    set -l words (commandline -opc)
    test (count $words) -ge 2; or return 1
    $words[1] help $words[2] 2>/dev/null | awk '
        /^options:/ { on = 1; next }
        on && /^  --/ {
            s = substr($0, 3)
            i = index(substr(s, 25), " ")
            left = i ? substr(s, 1, 23 + i) : s
            help = i ? substr(s, 25 + i) : ""
            sub(/ +$/, "", left); sub(/^ +/, "", help)
            n = index(left, " ")
            printf "%s\t%s\t%s\n", n ? substr(left, 1, n - 1) : left, n ? substr(left, n + 1) : "", help
            next
        }
        on { exit }'
end

# The positional arguments from the usage line, as occ.bash reads them:
# "@count N" or "@many", then "@files", "@dirs" or the words.
function __occ_positional_lines
    set -l words (commandline -opc)
    $words[1] help $words[2] 2>/dev/null | awk '
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
end

# True when the line holds a command (not help or version) and the word
# being completed is an option's value: prints that value's name (FILE, N)
# and, for --gpu, "GPU".
function __occ_value_of_previous
    set -l words (commandline -opc)
    test (count $words) -ge 3; or return 1
    set -l previous $words[-1]
    string match -q -- '--*' $previous; or return 1
    test "$previous" = --gpu; and echo GPU; and return 0
    __occ_option_lines | awk -F '\t' -v o="$previous" '
        $1 == o && $2 != "" { print $2; found = 1 }
        END { exit !found }'
end

function __occ_value_is
    set -l value (__occ_value_of_previous)
    test "$value" = "$argv[1]"
end

# True when the word being completed is an option of the command.
function __occ_wants_option
    test (count (commandline -opc)) -ge 2; or return 1
    string match -q -- '-*' (commandline -ct); or return 1
    not __occ_value_of_previous >/dev/null
end

function __occ_options
    __occ_option_lines | awk -F '\t' '{ print $1 "\t" $3 }'
end

# The positional kind ("@files", "@dirs", or "words") when the word being
# completed is a positional argument the command still takes.
function __occ_positional_kind
    set -l words (commandline -opc)
    test (count $words) -ge 2; or return 1
    contains -- $words[2] help version; and return 1
    string match -q -- '-*' (commandline -ct); and return 1
    __occ_value_of_previous >/dev/null; and return 1
    set -l kinds (__occ_positional_lines)
    test (count $kinds) -ge 2; or return 1
    set -l limit $kinds[1]
    set -e kinds[1]
    if test "$limit" != @many
        # fewer than N positionals on the line yet (skipping option values)
        set -l options (__occ_option_lines | awk -F '\t' '$2 != "" { print $1 }')
        set -l given 0
        set -l i 3
        while test $i -le (count $words)
            if string match -q -- '-*' $words[$i]
                contains -- $words[$i] $options; and set i (math $i + 1)
            else
                set given (math $given + 1)
            end
            set i (math $i + 1)
        end
        test $given -lt (string replace '@count ' '' -- $limit); or return 1
    end
    switch $kinds[1]
        case @files @dirs
            echo $kinds[1]
        case '*'
            echo words
    end
end

function __occ_positional_is
    set -l kind (__occ_positional_kind)
    test "$kind" = "$argv[1]"
end

function __occ_positional_words
    __occ_positional_lines | string match -v -- '@*'
end

function __occ_gpu_names
    set -l words (commandline -opc)
    $words[1] gpus --names 2>/dev/null | string replace -a ' ' -
end

complete -c occ -f
complete -c occ -n 'test (count (commandline -opc)) -eq 1' -a '(__occ_commands)'
complete -c occ -n 'test (count (commandline -opc)) -eq 1' -a help -d "print a command's help"
complete -c occ -n 'test (count (commandline -opc)) -eq 1' -a version -d 'print the version'
complete -c occ -n 'test (count (commandline -opc)) -eq 2; and test (commandline -opc)[2] = help' -a '(__occ_commands)'
complete -c occ -n __occ_wants_option -a '(__occ_options)'
complete -c occ -n '__occ_value_is GPU' -a '(__occ_gpu_names)'
complete -c occ -n '__occ_value_is FILE' -F
complete -c occ -n '__occ_value_is DIR' -a '(__fish_complete_directories (commandline -ct))'
complete -c occ -n '__occ_positional_is @files' -F
complete -c occ -n '__occ_positional_is @dirs' -a '(__fish_complete_directories (commandline -ct))'
complete -c occ -n '__occ_positional_is words' -a '(__occ_positional_words)'
