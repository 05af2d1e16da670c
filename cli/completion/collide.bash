# Bash completion for collide: subcommands, each subcommand's options, the values of
# --format, --broadphase and --color, and file names. Plain bash is enough (no bash-completion
# helpers), so `source collide.bash` works anywhere. tests/cli/test_completion.py holds
# these lists to what `collide SUBCOMMAND --help` prints: change both together.

_collide() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local subcommands="check validate import schema render help"
    local common="-h --help --help-all"
    local shared_options="-o --output --pairs --rules --broadphase --no-touch --no-points
        --fail-on-collision --threads --max-collisions --near --separation --color -q --quiet -v --verbose"
    local check_only="-f --format --locations --strict --baseline --write-baseline --config --no-config --exclude"
    COMPREPLY=()

    # `--format=js`: bash splits the word at '=' (COMP_WORDBREAKS), into `--format` `=` `js`.
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = && COMP_CWORD -ge 2 ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi

    if ((COMP_CWORD == 1)); then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$common --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
        fi
        return 0
    fi

    local options files=1
    case ${COMP_WORDS[1]} in
        check) options="$common $check_only $shared_options" ;;
        render) options="$common $shared_options" ;;  # render writes SVG only
        validate) options="$common --exclude --color -q --quiet -v --verbose" ;;
        import) options="$common -o --output --color -q --quiet" ;;
        schema) options=$common files= ;;
        help)
            if ((COMP_CWORD == 2)); then
                [[ $cur == -* ]] && COMPREPLY=($(compgen -W "$common" -- "$cur")) ||
                    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
            fi
            return 0 ;;
        *) return 0 ;;
    esac

    # The value of the option before the cursor, when it takes one.
    if [[ " ${options//$'\n'/ } " == *" $prev "* ]]; then
        case $prev in
            -f|--format) COMPREPLY=($(compgen -W "json jsonl csv text gcc github sarif junit" -- "$cur")); return 0 ;;
            --broadphase) COMPREPLY=($(compgen -W "auto grid sweep brute" -- "$cur")); return 0 ;;
            --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return 0 ;;
            -o|--output|--rules|--baseline|--write-baseline|--config) _collide_files; return 0 ;;
            --pairs|--threads|--max-collisions|--near|--exclude) return 0 ;;  # free text: nothing to offer
        esac
    fi

    # After `--` every word is a file.
    local i
    for ((i = 2; i < COMP_CWORD; i++)); do
        [[ ${COMP_WORDS[i]} == -- ]] && { [[ -n $files ]] && _collide_files; return 0; }
    done
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [[ -n $files ]]; then
        _collide_files
    fi
    return 0
}

# File and directory names, one per line so that spaces survive; `compopt` (a bash builtin)
# adds the slash after directories and quotes what needs it.
_collide_files() {
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "$cur"))
}

complete -F _collide collide
