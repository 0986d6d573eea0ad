#!/usr/bin/env python3
"""Bash and zsh completion for twixt-arena, generated at build time from the
program's own --help output, so they cannot drift from its options.

    completion.py bash|zsh PROGRAM OUTPUT

Reads `PROGRAM --help` (the subcommands) and `PROGRAM COMMAND --help` (each
one's usage line and option lines). An option line has the shape that
referee/options.h promises, one option per line, help after two spaces:

    -o, --output FILE   append one JSON record per game
    --format text|svg|html   what to print
    --soft-timeouts   CodinGame mode

The value is an upper-case placeholder (N, K/M, PLAYER=COMMAND,
KEY=VALUE,...) or `|`-separated literal choices.
What a value completes to follows from its placeholder: FILE and OUT are
files, BOT, CMD and COMMAND are programs, choices are themselves, the rest
(N, MS, K/M, ...) nothing. tests/test-man.py reads --help with the same
functions to compare the man pages' option lists with it.
"""
import re
import subprocess
import sys

# -x, --long-name, or a single-dash word where CodinGame's referees spell an
# option so (-p1, -seed).
OPTION_NAME = r"(?:-[A-Za-z0-9]+|--[a-z0-9][a-z0-9-]*)"
# As options.h says: N, MS, K/M, FILE, PLAYER=COMMAND, KEY=VALUE,..., WxH
PLACEHOLDER = r"[A-Z][A-Z0-9/=,._-]*(?:x[A-Z][A-Z0-9]*)?"
CHOICES = r"[a-z0-9][a-z0-9-]*(?:\|[a-z0-9][a-z0-9-]*)*"
OPTION_LINE = re.compile(
    rf"^ {{1,8}}(?P<names>{OPTION_NAME}(?:, {OPTION_NAME})*)"
    rf"(?: (?P<value>{PLACEHOLDER}|{CHOICES}))?(?: {{2,}}(?P<help>\S.*))?$"
)
FILE_PLACEHOLDERS = {"FILE", "OUT", "DIR"}
PROGRAM_PLACEHOLDERS = {"BOT", "CMD", "COMMAND"}
# Subcommands with no options of their own: `help [COMMAND]` completes a
# subcommand, `version` nothing.
NO_OPTIONS = {"help", "version"}


class Option:
    """One option line of --help: its names, its value (None for a flag) and
    the first line of its help text."""

    def __init__(self, names, value, help_text):
        self.names, self.value, self.help = names, value, help_text

    def kind(self):
        """'flag', 'file', 'program', 'choices' or 'value' (not completed)."""
        if self.value is None:
            return "flag"
        if self.value[0].islower():
            return "choices"
        base = re.sub(r"[0-9]*(,?\.\.\.)?$", "", self.value)
        if base in FILE_PLACEHOLDERS:
            return "file"
        if base in PROGRAM_PLACEHOLDERS:
            return "program"
        return "value"

    def choices(self):
        return self.value.split("|")


def parse_options(help_text, strict=True):
    """The options of one --help output, in order. Lines that start like an
    option (a dash after at most 8 spaces) must have the shape above: one
    that does not raises ValueError, or with strict=False is left out with a
    warning (the build goes on; tests/test-man.py, strict, fails). The same
    option on several lines (one line per choice) is merged."""
    options = {}
    for line in help_text.splitlines():
        if not re.match(r"^ {1,8}-", line):
            continue
        m = OPTION_LINE.match(line)
        if not m and not strict:
            print(f"completion.py: warning: not completed, not an option line of the"
                  f" expected shape: {line!r}", file=sys.stderr)
            continue
        if not m:
            raise ValueError(f"not an option line of the expected shape: {line!r}")
        names = m["names"].split(", ")
        key = names[-1]
        if key in options:
            old = options[key]
            if not (old.value and m["value"] and old.kind() == "choices"):
                raise ValueError(f"option {key} listed twice: {line!r}")
            merged = old.choices() + [c for c in m["value"].split("|") if c not in old.choices()]
            old.value = "|".join(merged)
        else:
            options[key] = Option(names, m["value"], m["help"] or "")
    return list(options.values())


def parse_positionals(help_text):
    """The kind of the positional arguments named on the usage line
    ("usage: twixt-arena play BOT1 BOT2 [OPTIONS]" -> 'program'): 'file',
    'program' or None. Words inside brackets are options and their values,
    but for one placeholder bracketed alone, optional ("league [BOT...]"); an
    option named on it is one with its value ("referee -p1 CMD -p2 CMD")."""
    first = help_text.splitlines()[0] if help_text else ""
    words = first.split()[3:]  # after "usage: twixt-arena COMMAND"
    depth, kinds, after_option = 0, set(), False
    for word in words:
        if depth == 0 and (word.startswith("-") or after_option):
            after_option = word.startswith("-")
            continue
        alone = re.fullmatch(r"\[([A-Z][A-Z0-9]*(?:\.\.\.)?)\]", word)
        if depth == 0 and (alone or not word.startswith("[")):
            base = re.sub(r"[0-9]*(\.\.\.)?$", "", alone[1] if alone else word)
            if base in FILE_PLACEHOLDERS:
                kinds.add("file")
            elif base in PROGRAM_PLACEHOLDERS:
                kinds.add("program")
        depth += word.count("[") - word.count("]")
    return kinds.pop() if len(kinds) == 1 else None


def parse_commands(help_text):
    """The subcommands of `twixt-arena --help`: (name, summary) for each line
    indented by exactly two spaces that starts with a lower-case word."""
    commands = []
    for line in help_text.splitlines():
        m = re.match(r"^  ([a-z][a-z-]+)(?: +(.*))?$", line)
        if m:
            summary = re.split(r" {2,}", m[2] or "")[-1]
            commands.append((m[1], summary))
    return commands


def run_help(program, *args):
    return subprocess.run([program, *args, "--help"], check=True, capture_output=True,
                          text=True).stdout


def read_program(program):
    """{command: (summary, positional kind, [Option])} from the program."""
    spec = {}
    for name, summary in parse_commands(run_help(program)):
        if name in NO_OPTIONS:
            spec[name] = (summary, "command" if name == "help" else None, [])
        else:
            text = run_help(program, name)
            spec[name] = (summary, parse_positionals(text), parse_options(text, strict=False))
    return spec


def bash(spec):
    commands = " ".join(spec)
    out = [
        "# bash completion for twixt-arena: subcommands, options and their values.",
        "# Generated from the program's --help by referee/completion/completion.py.",
        "",
        "_twixt_arena_files()",
        "{",
        "    compopt -o filenames 2>/dev/null",
        '    mapfile -t COMPREPLY < <(compgen -f -- "$1")',
        "}",
        "",
        "# A bot is a command line: a program in PATH, or a path to one.",
        "_twixt_arena_programs()",
        "{",
        '    if [[ $1 == */* ]]; then',
        '        _twixt_arena_files "$1"',
        "    else",
        '        mapfile -t COMPREPLY < <(compgen -c -- "$1")',
        "    fi",
        "}",
        "",
        "_twixt_arena()",
        "{",
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}",
        f"    local commands='{commands}'",
        "    local options='' positional='' value=''",
        "    COMPREPLY=()",
        "    if ((COMP_CWORD == 1)); then",
        '        mapfile -t COMPREPLY < <(compgen -W "$commands --help --version" -- "$cur")',
        "        return",
        "    fi",
        "    case ${COMP_WORDS[1]} in",
    ]
    for name, (_, positional, options) in spec.items():
        out.append(f"    {name})")
        names = " ".join(n for o in options for n in o.names)
        out.append(f"        options='{names}'")
        if positional:
            out.append(f"        positional={positional}")
        by_kind = {}
        for o in options:
            if o.kind() == "choices":
                by_kind.setdefault("=" + " ".join(o.choices()), []).extend(o.names)
            elif o.kind() != "flag":
                by_kind.setdefault(o.kind(), []).extend(o.names)
        if by_kind:
            out.append("        case $prev in")
            for kind, names in by_kind.items():
                out.append(f"        {'|'.join(names)}) value='{kind}' ;;")
            out.append("        esac")
        out.append("        ;;")
    out += [
        "    esac",
        "    case $value in",
        "    file) _twixt_arena_files \"$cur\" ;;",
        "    program) _twixt_arena_programs \"$cur\" ;;",
        "    =*) mapfile -t COMPREPLY < <(compgen -W \"${value#=}\" -- \"$cur\") ;;",
        "    ?*) ;; # a number or another value that cannot be completed",
        "    *)",
        "        if [[ $cur == -* ]]; then",
        "            mapfile -t COMPREPLY < <(compgen -W \"$options\" -- \"$cur\")",
        "        else",
        "            case $positional in",
        "            file) _twixt_arena_files \"$cur\" ;;",
        "            program) _twixt_arena_programs \"$cur\" ;;",
        "            command) mapfile -t COMPREPLY < <(compgen -W \"$commands\" -- \"$cur\") ;;",
        "            esac",
        "        fi",
        "        ;;",
        "    esac",
        "}",
        "complete -F _twixt_arena twixt-arena",
        "",
    ]
    return "\n".join(out)


def zsh_quote(text):
    """text as one single-quoted zsh word."""
    return "'" + text.replace("'", "'\\''") + "'"


def zsh_escape(text):
    """text inside an _arguments spec's [description] or :message:."""
    return re.sub(r"([\\\[\]:])", r"\\\1", text)


def zsh(spec):
    actions = {"file": "_files", "program": "_twixt_arena_program", "value": " "}
    out = [
        "#compdef twixt-arena",
        "# zsh completion for twixt-arena: subcommands, options and their values.",
        "# Generated from the program's --help by referee/completion/completion.py.",
        "",
        "# A bot is a command line: a program in PATH, or a path to one.",
        "_twixt_arena_program() {",
        "  if [[ $PREFIX == */* ]]; then _files; else _command_names -e; fi",
        "}",
        "",
        "_twixt_arena() {",
        "  # Not `commands`: zsh's hash of the programs in PATH, which",
        "  # _command_names reads.",
        "  local -a subcommands",
        "  subcommands=(",
    ]
    for name, (summary, _, _) in spec.items():
        out.append("    " + zsh_quote(f"{name}:{summary}"))
    out += [
        "  )",
        "  if (( CURRENT == 2 )); then",
        "    _describe -t commands 'twixt-arena command' subcommands",
        "    _arguments '(- *)'{-h,--help}'[list the commands]' '(- *)--version[print the version]'",
        "    return",
        "  fi",
        "  local command=$words[2]",
        "  shift words",
        "  (( CURRENT-- ))",
        "  case $command in",
    ]
    for name, (_, positional, options) in spec.items():
        specs = []
        for o in options:
            for n in o.names:
                item = f"*{n}[{zsh_escape(o.help)}]"
                kind = o.kind()
                if kind == "choices":
                    item += f":{zsh_escape(o.value)}:({' '.join(o.choices())})"
                elif kind != "flag":
                    item += f":{zsh_escape(o.value)}:{actions[kind]}"
                specs.append(zsh_quote(item))
        if positional == "command":
            specs.append(zsh_quote("1:command:(" + " ".join(spec) + ")"))
        elif positional:
            specs.append(zsh_quote(f"*:{positional}:{actions[positional]}"))
        out.append(f"  ({name})")
        if specs:
            out.append("    _arguments -s \\")
            out += [f"      {s} \\" for s in specs[:-1]]
            out.append(f"      {specs[-1]}")
        out.append("    ;;")
    out += [
        "  esac",
        "}",
        "",
        '_twixt_arena "$@"',
        "",
    ]
    return "\n".join(out)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("bash", "zsh"):
        sys.exit("usage: completion.py bash|zsh PROGRAM OUTPUT")
    spec = read_program(sys.argv[2])
    text = bash(spec) if sys.argv[1] == "bash" else zsh(spec)
    with open(sys.argv[3], "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
