#!/usr/bin/env python3
"""Check the local links of the repository's Markdown files.

Usage: scripts/ci/check-links.py [FILE.md ...]

Without arguments, checks README.md, ARCHITECTURE.md, CONTRIBUTING.md, CHANGELOG.md and every *.md file under
docs/, fuzz/, python/ and testdata/ (paths relative to the repository's root). For every link
`[text](target)`, image `![alt](target)` and reference definition `[label]: target` outside code
(fenced blocks and inline code spans), it checks that:

- a relative target names a file or directory that exists, inside the repository;
- an anchor (`#anchor`, `file.md#anchor`) names a heading of that Markdown file, by GitHub's
  rules (lower case; punctuation other than `-` and `_` removed; each space a `-`; a repeated
  heading gets `-1`, `-2`, ...), or an `<a id="...">` / `<a name="...">` in it.

Links with a scheme (`https:`, `mailto:`, ...) are not fetched. Exit status: 0 when every link
resolves, 1 when one does not (each listed as `file:line: target: why`), 2 on a usage error.
Only the standard library is used.
"""

import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
INLINE_CODE = re.compile(r"(`+)(?:.+?)\1")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def default_files():
    files = [f for f in ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md")
             if os.path.exists(os.path.join(ROOT, f))]
    for top in ("docs", "fuzz", "python", "testdata"):
        for folder, dirs, names in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs
                         if d not in ("target", "corpus") and not d.startswith("."))
            files += sorted(os.path.relpath(os.path.join(folder, n), ROOT)
                            for n in names if n.endswith(".md"))
    return files


def outside_fences(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        if fence is None:
            match = FENCE.match(line)
            if match:
                fence = match.group(1)
            else:
                yield number, line
        elif re.fullmatch(r" {0,3}" + re.escape(fence[0]) + "{%d,}\\s*" % len(fence), line):
            fence = None


def prose_lines(text):
    """The lines outside fenced code blocks, with inline code blanked."""
    for number, line in outside_fences(text):
        yield number, INLINE_CODE.sub(lambda m: " " * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text)  # HTML tags
    text = text.replace("`", "")
    out = []
    for ch in text.lower():
        if ch in "-_ " or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            out.append("-" if ch == " " else ch)
    return "".join(out)


_anchors = {}


def anchors(path):
    """The anchors a Markdown file defines: its headings' slugs and its HTML anchors."""
    if path not in _anchors:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        found, seen = set(), {}
        for _, line in outside_fences(text):
            found.update(HTML_ANCHOR.findall(line))
            heading = HEADING.match(line)
            if heading:
                base = slug(heading.group(2))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        _anchors[path] = found
    return _anchors[path]


def check(rel):
    path = os.path.join(ROOT, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    problems = []
    for number, line in prose_lines(text):
        targets = INLINE_LINK.findall(line)
        reference = REFERENCE.match(line)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            if not target or SCHEME.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            if file_part:
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if os.path.relpath(resolved, ROOT).startswith(".."):
                    problems.append((number, target, "points outside the repository"))
                    continue
                if not os.path.exists(resolved):
                    problems.append((number, target, "no such file"))
                    continue
            else:
                resolved = path
            if anchor:
                if not resolved.endswith(".md") or os.path.isdir(resolved):
                    problems.append((number, target, "an anchor into a file that is not Markdown"))
                elif anchor not in anchors(resolved):
                    problems.append((number, target, "no such heading"))
    return [f"{rel}:{n}: {t}: {why}" for n, t, why in problems]


def main(args):
    if any(a.startswith("-") for a in args):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    files = args or default_files()
    problems = []
    for rel in files:
        if not os.path.isfile(os.path.join(ROOT, rel)):
            print(f"check-links: {rel}: no such file", file=sys.stderr)
            return 2
        problems += check(rel)
    for problem in problems:
        print(problem)
    print(f"check-links: {len(files)} files, {len(problems)} broken links", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
