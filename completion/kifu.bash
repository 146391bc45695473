# bash completion for kifu. Installed as share/bash-completion/completions/kifu; or
# `source completion/kifu.bash` by hand.
#
# Commands, options and formats are read from the installed tool's own --help texts, so
# the completion always matches the binary it completes for.

_kifu_formats()
{
    "$1" convert --help 2>/dev/null | sed -n 's/.*FMT: *//p' | head -n 1
}

_kifu_extensions()
{
    # The extensions listed in `kifu convert --help` (".kif .kifu ..."), as a glob body.
    "$1" convert --help 2>/dev/null | grep -o '(\.[a-z0-9 .]*)' | head -n 1 |
        tr -d '().' | tr ' ' '|'
}

_kifu()
{
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion || return
    else
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    fi
    local kifu=${words[0]}
    local cmd=${words[1]:-}

    if [ "$cword" -eq 1 ]; then
        local cmds
        cmds=$("$kifu" --help 2>/dev/null | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
        COMPREPLY=($(compgen -W "$cmds help --help --version -V" -- "$cur"))
        return
    fi
    case $prev in
        -f | --from | -t | --to)
            COMPREPLY=($(compgen -W "$(_kifu_formats "$kifu")" -- "$cur"))
            return ;;
        --encoding | --input-encoding)
            COMPREPLY=($(compgen -W "utf-8 cp932 euc-jp" -- "$cur"))
            return ;;
        --format)
            local f
            f=$("$kifu" "$cmd" --help 2>/dev/null | grep -o -- '--format [a-z|]*' | head -n 1 | cut -d' ' -f2 | tr '|' ' ')
            COMPREPLY=($(compgen -W "$f" -- "$cur"))
            return ;;
        --out-dir)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        -o | --output | --css | --bod | --from-file)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --ply | --path | --sfen | --usi | --regex | --bd | -j | --jobs | --size)
            return ;;
        --index)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --export | --color)
            # The words after the option in the command's help: "--export yane2016|apery".
            local w
            w=$("$kifu" "$cmd" --help 2>/dev/null | grep -oE -- "$prev [a-z0-9]+(\|[a-z0-9]+)+" | head -n 1 | cut -d' ' -f2 | tr '|' ' ')
            COMPREPLY=($(compgen -W "$w" -- "$cur"))
            return ;;
    esac
    if [ "$cmd" = index ] && [ "$cword" -eq 2 ]; then
        COMPREPLY=($(compgen -W "build add compact info players schema" -- "$cur"))
        return
    fi
    if { [ "$cmd" = explore ] || { [ "$cmd" = index ] && [ "${words[2]:-}" != build ]; }; } &&
        [[ $cur != -* ]] && [ "$cword" -eq $([ "$cmd" = index ] && echo 3 || echo 2) ]; then
        COMPREPLY=($(compgen -f -X '!*.kdb' -- "$cur") $(compgen -d -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
    fi
    if [[ $cur == -* ]]; then
        local opts
        opts=$("$kifu" "$cmd" --help 2>/dev/null | grep -oE -- '(^|[ ,\[])--?[a-zA-Z0-9][a-zA-Z0-9-]*' | sed 's/^[ ,[]//' | sort -u)
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
        return
    fi
    # Records: directories and files with an extension kifu reads.
    local ext
    ext=$(_kifu_extensions "$kifu")
    [ -n "$ext" ] || ext='kif|kifu|ki2|ki2u|csa|jkf|json|sfen|usi|sfenlist'
    local IFS=$'\n'
    COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X "!*.@($ext)" -- "$cur"))
    compopt -o filenames 2>/dev/null
}
complete -F _kifu kifu
