#!/usr/bin/env python3
"""test-man.py - the man pages cannot drift from the program.

usage: test-man.py TWIXT_ARENA MAN_DIR COMPLETION_PY    (meson runs it)

For each subcommand of `twixt-arena --help`, MAN_DIR/twixt-arena-COMMAND.1.scd
must exist and its OPTIONS section must list exactly the options of
`twixt-arena COMMAND --help`, with the same value (placeholder or choices),
and every number an option's help line states (a default, a range: the
program takes them from the constants it applies) must be in the page's
description of that option, so a changed default fails here until the page
says it too; twixt-arena.1.scd's COMMANDS section must name exactly the
subcommands.
The --help output is read by completion.py's parser, the one that
generates the shell completions, so a help line it cannot read fails here.
An scdoc option item is a line such as

    *-o*, *--output* _FILE_
    *--format* text|svg|html

followed by its tab-indented description.
"""
import importlib.util
import os
import re
import sys

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def load_completion(path):
    spec = importlib.util.spec_from_file_location("completion", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def section(text, title):
    """The lines of the scdoc section `# TITLE`."""
    m = re.search(rf"^# {title}\n(.*?)(?=^# |\Z)", text, re.M | re.S)
    return m[1].splitlines() if m else []


def page_options(text):
    """{last name: (all names, value)} of the OPTIONS section's items."""
    options = {}
    for line in section(text, "OPTIONS"):
        if not line.startswith("*-"):
            continue
        names = re.findall(r"\*(-[^*]+)\*", line)
        rest = re.sub(r"\*-[^*]+\*(, )?", "", line).strip()
        value = rest.replace("_", "").replace("*", "") or None
        options[names[-1]] = (names, value)
    return options


def page_descriptions(text):
    """{last name: the item's description, one line} of the OPTIONS section."""
    descriptions, key = {}, None
    for line in section(text, "OPTIONS"):
        if line.startswith("*-"):
            key = re.findall(r"\*(-[^*]+)\*", line)[-1]
            descriptions[key] = ""
        elif key and line.startswith("\t"):
            descriptions[key] += " " + line.strip()
    return descriptions


NUMBER = re.compile(r"\d+(?:\.\d+)?")


def compare(command, page, help_options):
    expected = {o.names[-1]: (o.names, o.value) for o in help_options}
    found = page_options(page)
    where = f"twixt-arena-{command}.1.scd"
    descriptions = page_descriptions(page)
    for o in help_options:
        in_page = set(NUMBER.findall(descriptions.get(o.names[-1], "")))
        for number in NUMBER.findall(o.help):
            if o.names[-1] in descriptions and number not in in_page:
                fail(f"{where}: {o.names[-1]}: `{command} --help` says {number}"
                     f" ({o.help!r}), the page's description does not")
    for key, (names, value) in expected.items():
        if key not in found:
            fail(f"{where}: {', '.join(names)} {value or ''} is in `{command} --help`"
                 " but not in the page's OPTIONS")
        elif found[key] != (names, value):
            fail(f"{where}: the page has {', '.join(found[key][0])} {found[key][1] or ''},"
                 f" `{command} --help` has {', '.join(names)} {value or ''}")
    for key, (names, value) in found.items():
        if key not in expected:
            fail(f"{where}: {', '.join(names)} {value or ''} is in the page's OPTIONS"
                 f" but not in `{command} --help`")


def main():
    arena, man_dir, completion_py = sys.argv[1:4]
    completion = load_completion(completion_py)
    commands = [name for name, _ in completion.parse_commands(completion.run_help(arena))]
    if not commands:
        fail("no subcommand found in `twixt-arena --help`")

    with open(os.path.join(man_dir, "twixt-arena.1.scd"), encoding="utf-8") as f:
        main_page = f.read()
    listed = [m[1] for line in section(main_page, "COMMANDS")
              for m in [re.match(r"^\*([a-z-]+)\*", line)] if m]
    if sorted(listed) != sorted(commands):
        fail(f"twixt-arena.1.scd: COMMANDS lists {listed}, `twixt-arena --help` {commands}")

    checked = 0
    for command in commands:
        if command in completion.NO_OPTIONS:
            continue
        path = os.path.join(man_dir, f"twixt-arena-{command}.1.scd")
        if not os.path.exists(path):
            fail(f"no man page {path} for the subcommand {command}")
            continue
        with open(path, encoding="utf-8") as f:
            page = f.read()
        if not page.startswith(f"twixt-arena-{command}(1)"):
            fail(f"{path}: does not start with its title twixt-arena-{command}(1)")
        help_options = completion.parse_options(completion.run_help(arena, command))
        if not help_options:
            fail(f"`{command} --help` lists no option")
        compare(command, page, help_options)
        checked += 1
    # A page the program has no subcommand for is drift too.
    for name in sorted(os.listdir(man_dir)):
        m = re.match(r"twixt-arena-(.+)\.1\.scd$", name)
        if m and m[1] not in commands:
            fail(f"{name}: no subcommand {m[1]} in `twixt-arena --help`")

    print(f"{checked} subcommand pages checked, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
