#!/usr/bin/env bash
# test-completion.sh - the generated shell completions, as a shell uses them.
#
#   test-completion.sh BASH_COMPLETION ZSH_COMPLETION
#
# Bash: the completion is sourced and its function called the way bash calls
# it on TAB (COMP_WORDS, COMP_CWORD), and COMPREPLY checked: subcommands,
# options, choices of --format, files where a file is expected, programs
# where a BOT is expected. Zsh, when it is installed: the same lines typed
# into an interactive zsh (zsh-complete.zsh) give the same matches.
set -u -o pipefail
bash_completion=$(realpath "$1")
zsh_completion=$(realpath "$2")
zsh_complete=$(realpath "$(dirname "$0")/zsh-complete.zsh")
failures=0

dir=$(mktemp -d /tmp/tx-completion-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
touch games.jsonl f.jsonl notes.txt
mkdir sub

# shellcheck source=/dev/null
source "$bash_completion" || { echo "FAIL: cannot source $bash_completion"; exit 1; }
complete -p twixt-arena >/dev/null || { echo "FAIL: no completion for twixt-arena"; exit 1; }

# bash_complete "COMMAND LINE ENDING AT THE CURSOR": what the completion
# offers, sorted, on one line. The line is split on spaces; a trailing space
# means an empty word being completed.
bash_complete()
{
    local line=$1
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _twixt_arena
    printf "%s\n" "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//'
}

check()
{
    local shell=$1 line=$2 want=$3 got
    if [[ $shell == bash ]]; then
        got=$(bash_complete "$line")
    else
        got=$(zsh "$zsh_complete" "$(dirname "$zsh_completion")" "$line" | sort -u |
            tr '\n' ' ' | sed 's/ $//') || got="(zsh-complete.zsh failed)"
    fi
    if [[ $got == "$want" ]]; then
        echo "ok: $shell '$line' -> $got"
    else
        echo "FAIL: $shell '$line' -> '$got', expected '$want'"
        failures=$((failures + 1))
    fi
}

shells=(bash)
if command -v zsh >/dev/null 2>&1; then
    shells+=(zsh)
else
    echo "zsh is not installed: its completion is not checked"
fi
for shell in "${shells[@]}"; do
    check "$shell" "twixt-arena pl" "play"
    check "$shell" "twixt-arena replay f.jsonl --format " "html svg text"
    check "$shell" "twixt-arena replay f.jsonl --format s" "svg"
    check "$shell" "twixt-arena st" "standings"
    check "$shell" "twixt-arena play a b --gam" "--games"
    check "$shell" "twixt-arena tournament a b --games-p" "--games-per-pair"
    check "$shell" "twixt-arena replay g" "games.jsonl"
    check "$shell" "twixt-arena standings games.jsonl n" "notes.txt"
    check "$shell" "twixt-arena play a b --output n" "notes.txt"
    check "$shell" "twixt-arena --v" "--version"
    check "$shell" "twixt-arena play a b --games " "" # a number: nothing to offer
    # league takes the sandbox's options as tournament does
    check "$shell" "twixt-arena league --bots p.json --sandbox " "auto off on"
    check "$shell" "twixt-arena league --pin" "--pin-cores"
    check "$shell" "twixt-arena league a b --pin" "--pin-cores" # after its optional BOTs
    check "$shell" "twixt-arena league -o l.jsonl --bot-" "--bot-cpus --bot-env --bot-memory-mb --bot-network --bot-writable"
    # Programs in PATH where a BOT is expected (bash also offers this
    # script's functions, zsh external commands only).
    check "$shell" "twixt-arena validate bas" "$(
        if [[ $shell == bash ]]; then compgen -c -- bas; else bash --norc -c 'compgen -c -- bas'; fi |
            sort -u | tr '\n' ' ' | sed 's/ $//')"
done
# What differs in form: zsh's match for a path is the part after the last /.
check bash "twixt-arena validate --opponent ./su" "./sub"
[[ ${shells[*]} == *zsh* ]] && check zsh "twixt-arena validate --opponent ./su" "sub"
check bash "twixt-arena replay f.jsonl -o su" "sub"

echo "$failures failures"
[ "$failures" -eq 0 ]
