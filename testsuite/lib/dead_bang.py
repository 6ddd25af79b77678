#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Find assertions of a bats suite that cannot fail.

bats runs a test (and every function it calls) under errexit, and errexit
ignores a command whose status is inverted with "!": "! grep -q x file" on
a line that is not the last of its function or test never fails it. Only
the last command of a block gives the block its status.

Usage: dead_bang.py FILE...  prints FILE:LINE: TEXT for each "!"-prefixed
command that is not the last of its block ({ ... } of a function or a
@test) and does not carry its own "|| ..." (as "! cmd || false" does);
exits 1 if it printed any, 0 otherwise. "run ! cmd" is bats' own negation
and counts. Here-documents and comments are skipped; a command continued
on the next line (a trailing \\, &&, || or |) is one command.
"""

import re
import sys

HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")
CONTINUED = re.compile(r"(\\|&&|\|\||\|)\s*$")
BANG = re.compile(r"^\s*!\s")


def strip_comment(line):
    """The line without a trailing comment (a # that starts a word)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;"):
            return line[:i]
    return line


def commands(lines):
    """(first line number, text) of each command, continuations joined,
    here-document bodies and blank or comment lines left out."""
    out = []
    i = 0
    n = len(lines)
    while i < n:
        start = i
        text = strip_comment(lines[i]).rstrip()
        ends = []
        while True:
            ends += [m.group(2) for m in HEREDOC.finditer(strip_comment(lines[i]))
                     if "<<<" not in lines[i][max(0, m.start() - 1):m.start() + 3]]
            if CONTINUED.search(text) and i + 1 < n:
                i += 1
                text = text.rstrip("\\").rstrip() + " " + strip_comment(lines[i]).strip()
                continue
            break
        i += 1
        for end in ends:  # skip each here-document's body
            while i < n and lines[i].strip() != end:
                i += 1
            i += 1
        if text.strip():
            out.append((start + 1, text))
    return out


def dead(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    cmds = commands(lines)
    found = []
    for k, (num, text) in enumerate(cmds):
        if not BANG.match(text) or "||" in text:
            continue
        nxt = cmds[k + 1][1].strip() if k + 1 < len(cmds) else ""
        # the last command of a function or a test: its status is the block's
        if nxt.startswith("}"):
            continue
        found.append((path, num, text.strip()))
    return found


def main(argv):
    bad = []
    for path in argv[1:]:
        bad += dead(path)
    for path, num, text in bad:
        print(f"{path}:{num}: {text}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
