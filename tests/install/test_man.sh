#!/usr/bin/env bash
# test_man.sh ROOT - the installed man pages: one per command `occ --help`
# lists, plus occ.1 listing every command with its summary; each renders
# with no warning (groff -ww, man -l); each command's page holds every
# option of `occ CMD --help` with its value's name, and the same
# description and usage; `man occ` finds the page under the prefix
# (MANPATH), as it does after `make install` to /usr/local. Where --help
# cites a guide as docs/NAME, the page cites it where it is installed
# (PREFIX/share/doc/occ/NAME), and every file a page cites there exists.
. "$(dirname "$0")/lib.sh"
root=${1:?usage: test_man.sh ROOT}
prefix=$root/prefix
occ=$prefix/bin/occ
man1=$prefix/share/man/man1
docdir=$prefix/share/doc/occ
command -v groff > /dev/null || fail "groff is missing (Debian groff-base; scripts/deps.sh test)"
command -v man > /dev/null || fail "man is missing (Debian man-db; scripts/deps.sh test)"

# The page as plain text, lines 4000 columns wide: no line breaks to undo, not even inside
# a long install prefix, where the pages allow a break after each /.
render()
{
    groff -man -Tutf8 -rLL=4000n -P-cbou "$1"
}

# Text between two lines of $1 that equal $2 and $3 (section headings).
section()
{
    awk -v from="$2" -v to="$3" '$0 == to { on = 0 } on { print } $0 == from { on = 1 }' <<< "$1"
}

# Whitespace removed: troff fills lines where --help breaks them.
squeeze()
{
    tr -d ' \n\t'
}

# --help's text as the installed page gives it: docs/ at the start of a path
# is the installed guides' folder.
installed_docs()
{
    sed -E "s#(^|[^A-Za-z0-9_./-])docs/#\1$docdir/#g"
}

pages=$(ls "$man1")
for page in $pages; do
    warnings=$(groff -ww -man -Tutf8 "$man1/$page" 2>&1 > /dev/null)
    [ -z "$warnings" ] || fail "groff -ww $page: $warnings"
    warnings=$(MANWIDTH=80 man --warnings -l "$man1/$page" 2>&1 > /dev/null)
    [ -z "$warnings" ] || fail "man -l $page: $warnings"
done

commands=$(occ_commands "$occ")
index=$(render "$man1/occ.1")
while read -r command summary; do
    [ -f "$man1/occ-$command.1" ] || fail "no page occ-$command.1 for the command $command"
    squeeze <<< "$index" | grep >/dev/null -F "$(squeeze <<< "$command$summary")" ||
        fail "occ.1 does not list '$command' with its summary '$summary'"
done < <("$occ" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print } on && !/^  / { exit }')
[ "$(ls "$man1" | grep -c '^occ-')" -eq "$(echo "$commands" | wc -l)" ] ||
    fail "pages for commands that occ --help does not list: $(ls "$man1")"

checked=0
for command in $commands; do
    help=$("$occ" "$command" --help)
    text=$(render "$man1/occ-$command.1")
    # every option, with its value's name ("--gpu NAME")
    options=$(grep -oE '^  --[a-z0-9-]+( [A-Z][A-Z0-9/_]*)?' <<< "$help" | sed 's/^  //')
    [ -n "$options" ] || fail "occ $command --help lists no option"
    while read -r option; do
        section "$text" OPTIONS "EXIT STATUS" | awk -v o="       $option" '
            index($0, o) == 1 && (length($0) == length(o) || substr($0, length(o) + 1, 1) == " ") { found = 1 }
            END { exit !found }' || fail "occ-$command.1 does not list '$option' among its options"
        checked=$((checked + 1))
    done <<< "$options"
    # the description, and the usage lines as the synopsis
    want=$(awk 'NR > 1 && /^$/ && !d { if (u) d = 1; next } /^usage:/ { u = 1; next } /^options:/ { exit } d { print }' <<< "$help")
    [ "$(installed_docs <<< "$want" | squeeze)" = "$(section "$text" DESCRIPTION OPTIONS | squeeze)" ] ||
        fail "occ-$command.1: the description differs from occ $command --help's"
    usage=$(awk '/^usage:/ { sub(/^usage: /, ""); print; u = 1; next } u && /^       / { print; next } u { exit }' <<< "$help")
    [ "$(installed_docs <<< "$usage" | squeeze)" = "$(section "$text" SYNOPSIS DESCRIPTION | squeeze)" ] ||
        fail "occ-$command.1: the synopsis differs from occ $command --help's usage"
done

# The guides: every page cites them where they are installed, never as the
# repository's docs/, and each file cited is there.
cited=0
for page in $pages; do
    text=$(render "$man1/$page")
    relative=$(grep -oE '(^|[^A-Za-z0-9_./-])docs/[A-Za-z0-9_./-]*' <<< "$text" || true)
    [ -z "$relative" ] || fail "$page cites the repository's docs/, not installed: $relative"
    while read -r path; do
        [ -n "$path" ] || continue
        path=${path%.}
        [ -f "$path" ] || fail "$page cites $path, which is not installed"
        cited=$((cited + 1))
    done < <(grep -oE "$docdir/[A-Za-z0-9_./-]*" <<< "$text" | sort -u || true)
done
[ "$cited" -gt 0 ] || fail "no page cites an installed guide (under $docdir)"
render "$man1/occ.1" | grep >/dev/null -F "$docdir" || fail "occ.1 does not name $docdir (FILES)"

# man finds the pages under the prefix.
found=$(MANPATH=$prefix/share/man man -w occ) || fail "man -w occ with MANPATH=$prefix/share/man"
[ "$found" = "$man1/occ.1" ] || fail "man -w occ found $found"
found=$(MANPATH=$prefix/share/man man -w occ-calc)
[ "$found" = "$man1/occ-calc.1" ] || fail "man -w occ-calc found $found"
MANPATH=$prefix/share/man MANPAGER=cat MANWIDTH=80 man occ 2> /dev/null | grep >/dev/null '^ *occ - CUDA occupancy' ||
    fail "man occ does not show the page"
echo "test_man: $(echo "$pages" | wc -l) pages render without warnings; $checked options of $(echo "$commands" | wc -l) commands are in their pages; $cited citations of installed guides"
