#!/bin/sh
# test-version.sh - `twixt-arena --version` and `twixt-arena version` print
# the same line: the version, and the git revision when the source tree is a
# git checkout (meson's vcs_tag at build time), else that there is none.
#
#   test-version.sh TWIXT_ARENA SOURCE_DIR
set -eu
arena=$1
source_dir=$2
a=$("$arena" --version)
b=$("$arena" version)
echo "--version: $a"
[ "$a" = "$b" ] || { echo "FAIL: 'version' says '$b'"; exit 1; }
# Asked as referee/meson.build asks git: the source tree's own .git, not a
# repository around it (a tarball unpacked inside one has no revision).
if rev=$(git --git-dir="$source_dir/.git" describe --always --abbrev=12 2>/dev/null); then
    case $a in
    "twixt-arena "*" (git $rev)" | "twixt-arena "*" (git $rev-dirty)") ;;
    *) echo "FAIL: expected the revision $rev"; exit 1 ;;
    esac
else
    case $a in
    "twixt-arena "*" (no git revision: not built from a git checkout)") ;;
    *) echo "FAIL: not a git checkout, but '$a'"; exit 1 ;;
    esac
fi
echo ok
