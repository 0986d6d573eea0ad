#!/usr/bin/env zsh
# zsh-complete.zsh DIR LINE: what zsh offers on TAB after LINE, with the
# completion functions of DIR first in fpath, one match per line (for
# test-completion.sh). Runs an interactive zsh in a pseudo-terminal
# (zsh/zpty) whose compadd also prints each match it adds; the markers are
# built at run time, so the terminal echo of this set-up never matches.
zmodload zsh/zpty || exit 77
dir=$1 line=$2
zpty z zsh -f -i
zpty -w z "fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd() { local -a m; builtin compadd -O m "$@"; print -rl -- ${m/#/${(U):-match}:}; builtin compadd "$@"; }'
zpty -w z 'comppostfuncs=(_tx_end); _tx_end() { print -r -- ${(U):-match}-END; }'
zpty -w z "bindkey '^I' complete-word"
zpty -n -w z "$line"$'\t'
zmodload zsh/datetime zsh/zselect
float deadline=$(( EPOCHREALTIME + 20 ))
integer ended=0
while (( EPOCHREALTIME < deadline )); do
    if zpty -r -t z out 2>/dev/null; then
        out=${out%$'\r\n'}; out=${out%$'\n'}; out=${out%$'\r'}
        [[ $out == *MATCH-END* ]] && { ended=1; break; }
        [[ $out == *MATCH:* ]] && print -r -- ${out##*MATCH:}
    else
        zselect -t 2
    fi
done
zpty -d z
(( ended )) || { print -u2 "zsh-complete.zsh: no completion within 20 s"; exit 1; }
