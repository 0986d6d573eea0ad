#!/usr/bin/env bash
# test-completion.sh - the generated shell completions, as a shell uses them.
#
#   test-completion.sh BASH_COMPLETION ZSH_COMPLETION
#
# Bash: the completion is sourced and its function called the way bash calls
# it on TAB (COMP_WORDS, COMP_CWORD), and COMPREPLY checked: subcommands,
# options, choices of --format, files where a file is expected, programs
# where a BOT is expected. Zsh: the file parses (zsh -n), when zsh is there.
set -u
bash_completion=$(realpath "$1")
zsh_completion=$(realpath "$2")
failures=0

dir=$(mktemp -d /tmp/tx-completion-XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
touch games.jsonl f.jsonl notes.txt
mkdir sub

# shellcheck source=/dev/null
source "$bash_completion" || { echo "FAIL: cannot source $bash_completion"; exit 1; }
complete -p twixt-arena >/dev/null || { echo "FAIL: no completion for twixt-arena"; exit 1; }

# expect "COMMAND LINE ENDING AT THE CURSOR" "EXPECTED COMPLETIONS": the line
# is split on spaces; a trailing space means an empty word being completed.
expect()
{
    local line=$1 want=$2
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE=$line
    COMP_POINT=${#line}
    COMPREPLY=()
    _twixt_arena
    local got
    got=$(printf "%s\n" "${COMPREPLY[@]}" | sort -u | tr '\n' ' ' | sed 's/ $//')
    if [[ $got == "$want" ]]; then
        echo "ok: '$line' -> $got"
    else
        echo "FAIL: '$line' -> '$got', expected '$want'"
        failures=$((failures + 1))
    fi
}

expect "twixt-arena pl" "play"
expect "twixt-arena replay f.jsonl --format " "html svg text"
expect "twixt-arena replay f.jsonl --format s" "svg"
expect "twixt-arena st" "standings"
expect "twixt-arena --v" "--version"
expect "twixt-arena play a b --gam" "--games"
expect "twixt-arena tournament a b --games-p" "--games-per-pair"
expect "twixt-arena replay g" "games.jsonl"
expect "twixt-arena standings games.jsonl n" "notes.txt"
expect "twixt-arena replay f.jsonl -o su" "sub"
expect "twixt-arena play a b --games " ""
expect "twixt-arena play a b --output n" "notes.txt"
expect "twixt-arena validate ./su" "./sub"
expect "twixt-arena validate bas" "$(compgen -c -- bas | sort -u | tr '\n' ' ' | sed 's/ $//')"

if command -v zsh >/dev/null 2>&1; then
    if zsh -n "$zsh_completion"; then
        echo "ok: zsh -n $zsh_completion"
    else
        echo "FAIL: zsh cannot parse $zsh_completion"
        failures=$((failures + 1))
    fi
else
    echo "zsh is not installed: its completion is not checked"
fi

echo "$failures failures"
[ "$failures" -eq 0 ]
