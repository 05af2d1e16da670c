#!/bin/sh
# What help2man reads as collide's --help when it makes the man page (cli/CMakeLists.txt):
# `collide --help`, then each subcommand's --help, laid out as help2man expects: a line
# *Name* starts a section, a line ending in ':' before an indented one a sub-section, an
# indented "tag   text" line a tagged paragraph. Every word comes from the program.
#   sh man_help.sh COLLIDE --help|--version
set -e
bin=$1
[ "$2" = --version ] && exec "$bin" --version
# The exit statuses and examples that end each --help are the man page's own sections
# (collide.h2m), so each help is cut at "Exit status:".
top=$("$bin" --help | sed '/^Exit status:$/,$d')
printf '%s\n' "$top" | sed '/^Subcommands:$/,$d'
printf '*Subcommands*\n'
printf '%s\n' "$top" | sed '1,/^Subcommands:$/d'
for sub in $(printf '%s\n' "$top" | sed '1,/^Subcommands:$/d' | awk 'NF { print $1 }'); do
    # A sub-section: the description (indented, under the heading), the usage line, then
    # the arguments and options a paragraph each, without the "Positionals:" and "Options:"
    # lines (help2man would start an OPTIONS section).
    printf '\ncollide %s:\n' "$sub"
    "$bin" "$sub" --help | sed '/^Exit status:$/,$d' | sed -e '1s/^/ /' -e '/^[A-Z][a-z]*:$/d' -e '/^$/d' -e 's/$/\n/'
done
