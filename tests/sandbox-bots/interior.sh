#!/bin/sh
# interior.sh - a Twixt-PP bot in POSIX sh, for the sandbox tests: the first
# empty hole of the interior (B2..K11, legal for both players), then of its
# own border lines. Never swaps.
me=
while read -r last; do
    [ -n "$me" ] || { [ "$last" = FIRST ] && me=1 || me=2; }
    taken=" "
    for list in 1 2 3 4; do
        read -r n
        i=0
        while [ "$i" -lt "$n" ]; do
            read -r line
            case $list in 1 | 3) taken="$taken$line " ;; esac
            i=$((i + 1))
        done
    done
    if [ "$me" = 1 ]; then
        holes="B C D E F G H I J K"
        rows="2 3 4 5 6 7 8 9 10 11 1 12"
        cols="$holes"
    else
        rows="2 3 4 5 6 7 8 9 10 11"
        cols="B C D E F G H I J K A L"
    fi
    move=
    for col in $cols; do
        for row in $rows; do
            case "$taken" in *" $col$row "*) continue ;; esac
            case "$col$row" in A1 | A12 | L1 | L12) continue ;; esac
            move=$col$row
            break 2
        done
    done
    echo "$move"
done
