# bash completion for kifu. Installed as share/bash-completion/completions/kifu; or
# `source completion/kifu.bash` by hand.
#
# Commands, options and formats are read from the installed tool's own --help texts, so
# the completion always matches the binary it completes for: options from the lines that
# define them (an option at the start of a line indented at most six spaces) and the
# usage lines, never from prose ("`kifu search --index`" in index's help is no option of
# index).

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

_kifu_commands()
{
    "$1" --help 2>/dev/null | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}'
}

# The options of a command: its usage lines, and its option lines.
_kifu_options()
{
    "$1" "$2" --help 2>/dev/null |
        grep -E '^(usage: |       kifu |Usage: )|^ {1,6}(-[a-zA-Z0-9], )?--?[a-zA-Z0-9]' |
        sed -E 's/^ {1,6}((-[a-zA-Z0-9], )?--?[a-zA-Z0-9][a-zA-Z0-9-]*).*/\1/' |
        grep -oE -- '(^|[ ,\[|(])--?[a-zA-Z0-9][a-zA-Z0-9-]*' | sed 's/^[ ,[|(]//' | sort -u
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
        COMPREPLY=($(compgen -W "$(_kifu_commands "$kifu") help --help --version -V" -- "$cur"))
        return
    fi
    if [ "$cmd" = help ]; then
        [ "$cword" -eq 2 ] && COMPREPLY=($(compgen -W "$(_kifu_commands "$kifu")" -- "$cur"))
        return
    fi
    case $prev in
        -f | --from | -t | --to)
            COMPREPLY=($(compgen -W "$(_kifu_formats "$kifu")" -- "$cur"))
            return ;;
        --encoding | --input-encoding)
            COMPREPLY=($(compgen -W "utf-8 shift_jis sjis ms932 cp932 windows-31j euc-jp utf-16 utf-16le utf-16be" -- "$cur"))
            return ;;
        --pattern)
            # Pattern files (docs/patterns/*.txt) and directories to find them in.
            local IFS=$'\n'
            COMPREPLY=($(compgen -d -- "$cur") $(compgen -f -X '!*.txt' -- "$cur"))
            compopt -o filenames 2>/dev/null
            return ;;
        --format)
            local f
            f=$("$kifu" "$cmd" --help 2>/dev/null | grep -o -- '--format [a-z|]*' | head -n 1 | cut -d' ' -f2 | tr '|' ' ')
            COMPREPLY=($(compgen -W "$f" -- "$cur"))
            return ;;
        --out-dir)
            COMPREPLY=($(compgen -d -- "$cur"))
            return ;;
        -o | --output | --css | --bod | --from-file | --readsfen | --replay | --tag-file)
            COMPREPLY=($(compgen -f -- "$cur"))
            return ;;
        --ply | --path | --sfen | --usi | --regex | --bd | -j | --jobs | --size | --listen | --game)
            return ;;
        --index | --ca-file | --clickhouse-credentials)
            COMPREPLY=($(compgen -f -- "$cur"))
            compopt -o filenames 2>/dev/null
            return ;;
        --tag)
            # The names kifu knows (kifu tags --list), after sente:/gote: too. Bash splits
            # words at ':' unless COMP_WORDBREAKS was changed: then the prefix is kept.
            local IFS=$'\n' names pre=
            names=$("$kifu" tags --list 2>/dev/null | cut -f2)
            [[ $cur == *:* && $COMP_WORDBREAKS != *:* ]] && pre=${cur%%:*}:
            COMPREPLY=($(compgen -P "$pre" -W "$names" -- "${cur#*:}"))
            return ;;
        --clickhouse | --database | --table | --cluster | --timeout | --cache)
            # A URL, a name, seconds or megabytes: nothing to offer, unless an option is begun
            # (index schema's --clickhouse takes no URL).
            [[ $cur == -* ]] || return ;;
        --export | --color)
            # The words after the option in the command's help: "--export yane2016|apery".
            local w
            w=$("$kifu" "$cmd" --help 2>/dev/null | grep -oE -- "$prev [a-z0-9]+(\|[a-z0-9]+)+" | head -n 1 | cut -d' ' -f2 | tr '|' ' ')
            COMPREPLY=($(compgen -W "$w" -- "$cur"))
            return ;;
    esac
    if [ "$cmd" = index ] && [ "$cword" -eq 2 ]; then
        COMPREPLY=($(compgen -W "build add compact info check players schema" -- "$cur"))
        return
    fi
    if { [ "$cmd" = explore ] || [ "$cmd" = serve ] || { [ "$cmd" = index ] && [ "${words[2]:-}" != build ]; }; } &&
        [[ $cur != -* ]] && [ "$cword" -eq $([ "$cmd" = index ] && echo 3 || echo 2) ]; then
        COMPREPLY=($(compgen -f -X '!*.kdb' -- "$cur") $(compgen -d -- "$cur"))
        compopt -o filenames 2>/dev/null
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_kifu_options "$kifu" "$cmd")" -- "$cur"))
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
