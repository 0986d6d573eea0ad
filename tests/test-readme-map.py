#!/usr/bin/env python3
"""test-readme-map.py - README's "Where things live" names every file.

   test-readme-map.py SOURCE_DIR

Every file git tracks under protocol/, referee/, bots/, scripts/ and tests/
must be named in the block under README.md's "## Where things live": by its
name, by a glob of the block (cmd-*.c, bench-*.c, thing.[ch]), or by a
directory of the block that holds it (rules/, man/). A file added without a
line there fails this test, so the map a newcomer reads stays the tree.
"""
import fnmatch
import os
import re
import subprocess
import sys

FOLDERS = ("protocol/", "referee/", "bots/", "scripts/", "tests/")


def map_block(readme):
    text = open(readme, encoding="utf-8").read()
    at = text.index("## Where things live")
    block = re.search(r"```\n(.*?)```", text[at:], re.S)
    return block.group(1)


def named(path, tokens, dirs):
    base = os.path.basename(path)
    for t in tokens:
        if fnmatch.fnmatch(base, t) or fnmatch.fnmatch(path, t) or fnmatch.fnmatch(path, "*/" + t):
            return True
    parts = path.split("/")
    # a directory named in the block ("viewer/", "referee/man/") holds it
    for i in range(1, len(parts) - 1):
        if parts[i] + "/" in dirs or "/".join(parts[: i + 1]) + "/" in dirs:
            return True
    return False


def main():
    src = sys.argv[1]
    block = map_block(os.path.join(src, "README.md"))
    tokens = set()
    dirs = set()
    for word in re.split(r"[\s,]+", block):
        word = word.strip("`'\"():;")
        if not word:
            continue
        if word.endswith("/"):
            dirs.add(word)
        tokens.add(word)
    listed = subprocess.run(["git", "-C", src, "ls-files"], capture_output=True, text=True)
    if listed.returncode != 0:
        print("not a git checkout: skipped")
        sys.exit(77)
    files = listed.stdout.split()
    missing = [f for f in files if f.startswith(FOLDERS) and not named(f, tokens, dirs)]
    for f in missing:
        print(f"README.md \"Where things live\" does not name {f}")
    if missing:
        sys.exit(1)
    print(f"README.md names all {sum(f.startswith(FOLDERS) for f in files)} files")


main()
