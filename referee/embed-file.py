#!/usr/bin/env python3
"""Turns a file into a C source defining `const char NAME[]` with its bytes
and a final NUL. Run by meson at build time (referee/meson.build), so the
viewer stays a real HTML file that can be edited and opened on its own.

A byte array rather than a string literal: ISO C only promises 4095
characters per literal, and -Wpedantic says so for longer ones.

usage: embed-file.py INPUT NAME OUTPUT
"""
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: embed-file.py INPUT NAME OUTPUT")
    source, name, output = sys.argv[1:]
    data = open(source, "rb").read() + b"\0"
    lines = [f"/* Generated from {source.split('/')[-1]} by embed-file.py: do not edit. */",
             f"extern const char {name}[];",
             f"const char {name}[] = {{"]
    for i in range(0, len(data), 16):
        lines.append("    " + ", ".join(str(b) for b in data[i:i + 16]) + ",")
    lines.append("};")
    with open(output, "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
