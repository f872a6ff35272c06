#!/usr/bin/env python3
"""Builds the WordNet tables of crates/ragcite/src/words/wordnet/ (synonyms.txt, antonyms.txt,
derivations.txt, forms.txt) from Open English WordNet, 2025 edition
(https://github.com/globalwordnet/english-wordnet), licensed under CC BY 4.0 with the Princeton
WordNet licence.

    git clone https://github.com/globalwordnet/english-wordnet /tmp/english-wordnet
    git -C /tmp/english-wordnet checkout dc343f2683279ecbb13fab4e2fd778d7b162d287
    python3 scripts/data/build-wordnet.py /tmp/english-wordnet [crates/ragcite/src/words/wordnet]

(dc343f2683279ecbb13fab4e2fd778d7b162d287 is the commit of the tag `2025-edition`.)
scripts/data/check-wordnet.sh does this in a temporary folder and compares with the committed
tables. Python 3 standard library only: the source's YAML is read by a small reader of the
subset its files use (PyYAML's block style, as the project writes it), which fails loudly on any
line it does not expect.

What is read: src/yaml/entries-*.yaml (lemma -> part of speech -> senses in rank order, each
with its synset and its sense relations, and the lemma's irregular forms) and
src/sense-orders.csv (the rank order of the senses of a lemma spelled in several cases or split
in homographs, `bass` n-1 and n-2). The synset files are not needed: a synset's members are the
lemmas with a sense in it.

Lemmas spelled with a capital letter (names and acronyms: `Turkey`, `US`, `DNA`) are left out,
so that lower-casing them does not give `us` the senses of `US`. A lemma's senses in one part of
speech are ranked in the order of its entry, homographs (`bass` n-1, n-2) as sense-orders.csv
says. Adjective satellites (`s`) count as adjectives (`a`). Lemmas with a digit and lemmas
longer than four words are left out too.

Filters (a sense's rank is 0 for a lemma's first sense in that part of speech):
- synonyms: a group per synset of the lemmas whose FIRST sense (rank 0) it is, when the group
  has two lemmas or more. Ranks 0 and 1 let `rule in` (its only sense) and `rule out` (its
  second sense, "include or exclude judicially") through, which are opposites in use.
- antonyms: WordNet's sense-level `antonym` relations between senses of rank < 3 of both lemmas.
- derivations: `derivation` sense relations (symmetric, kept once as an unordered pair) and
  `pertainym` relations (directed: the adjective or adverb, then the word it pertains to)
  between senses of rank < 2 of both lemmas, when the two lemmas differ; derivations only across
  parts of speech (`construct` v ~ `construction` n, not `actor` n ~ `acting` n).
- forms: the irregular inflections WordNet lists (`buy` v: `bought`), all of them.
"""

import argparse
import csv
import glob
import os
import re
import sys

COMMIT = "dc343f2683279ecbb13fab4e2fd778d7b162d287"
SOURCE = "Open English WordNet 2025 (https://github.com/globalwordnet/english-wordnet)"
SYNONYM_RANK = 1
ANTONYM_RANK = 3
DERIVATION_RANK = 2
MAX_WORDS = 4
RELATIONS = ("antonym", "derivation", "pertainym")


def unquote(value, where):
    """A YAML scalar of the subset used: plain, or single-quoted ('' for a quote)."""
    if value.startswith("'"):
        if len(value) < 2 or not value.endswith("'"):
            raise ValueError(f"{where}: unterminated quoted scalar {value!r}")
        return value[1:-1].replace("''", "'")
    if value.startswith('"'):
        raise ValueError(f"{where}: double-quoted scalars are not read: {value!r}")
    return value


KEY = re.compile(r"^([^\s'\"][^:]*|'(?:[^']|'')*'):$")
FIELD = re.compile(r"^(- )?([a-z_]+):(?: (.*))?$")


def read_entries(path):
    """Yields (lemma, pos, senses, forms) of an entries file; a sense is a dict with `id`,
    `synset` and the relations of RELATIONS (lists of sense ids); forms are the irregular
    inflections (`bought` for `buy` v)."""
    lemma = pos = None
    senses = None  # the current part of speech's sense list
    forms = None  # its irregular forms
    sense = None  # the current sense
    rel = None  # the current sense's list key
    block = None  # the key at indent 4 (sense, pronunciation, form)
    with open(path, encoding="utf-8") as inp:
        for number, line in enumerate(inp, 1):
            where = f"{path}:{number}"
            line = line.rstrip("\n")
            if not line.strip():
                continue
            indent = len(line) - len(line.lstrip(" "))
            body = line[indent:]
            if indent == 0:
                if pos is not None:
                    yield lemma, pos, senses, forms
                m = KEY.match(body)
                if not m:
                    raise ValueError(f"{where}: not a lemma key: {line!r}")
                lemma = unquote(m.group(1), where)
                pos = senses = forms = sense = rel = block = None
            elif indent == 2:
                if lemma is None or not re.fullmatch(r"[nvars](-\d+)?:", body):
                    raise ValueError(f"{where}: not a part of speech: {line!r}")
                if pos is not None:
                    yield lemma, pos, senses, forms
                pos, senses, forms, sense, rel, block = body[:-1], [], [], None, None, None
            elif pos is None:
                raise ValueError(f"{where}: outside a part of speech: {line!r}")
            elif indent == 4 and not body.startswith("- "):
                m = FIELD.match(body)
                if not m or m.group(3) is not None:
                    raise ValueError(f"{where}: unexpected line: {line!r}")
                block, sense, rel = m.group(2), None, None
            elif indent == 4 and block == "form":
                if not body.startswith("- "):
                    raise ValueError(f"{where}: unexpected form: {line!r}")
                forms.append(unquote(body[2:], where))
            elif indent == 4 and block != "sense":
                continue  # pronunciation items
            elif indent == 6 and block != "sense":
                continue
            elif indent in (4, 6):
                # `    - key: value` starts a sense; `      key: value` continues it;
                # `      - value` is an item of the list key above.
                if indent == 6 and body.startswith("- "):
                    if rel is None:
                        raise ValueError(f"{where}: list item outside a list: {line!r}")
                    if rel in RELATIONS:
                        sense[rel].append(unquote(body[2:], where))
                    continue
                m = FIELD.match(body)
                if not m:
                    raise ValueError(f"{where}: unexpected line: {line!r}")
                if m.group(1):
                    if indent != 4:
                        raise ValueError(f"{where}: unexpected item: {line!r}")
                    sense = {r: [] for r in RELATIONS}
                    senses.append(sense)
                elif indent != 6 or sense is None:
                    raise ValueError(f"{where}: unexpected line: {line!r}")
                key, value = m.group(2), m.group(3)
                if value is None:
                    rel = key
                else:
                    rel = None
                    if key in ("id", "synset"):
                        sense[key] = unquote(value, where)
            else:
                raise ValueError(f"{where}: unexpected indentation: {line!r}")
    if pos is not None:
        yield lemma, pos, senses, forms


def keep(lemma):
    return not any(c.isdigit() for c in lemma) and len(lemma.split()) <= MAX_WORDS


def load(source):
    yaml_dir = os.path.join(source, "src", "yaml")
    files = sorted(glob.glob(os.path.join(yaml_dir, "entries-*.yaml")))
    if not files:
        sys.exit(f"build-wordnet: no entries-*.yaml under {yaml_dir}")
    # (lemma, pos) -> [(lemma, pos or homograph key, index in the entry, sense)]
    groups = {}
    names = set()  # the ids of the senses of names
    forms = set()  # (lemma, pos, irregular form)
    for path in files:
        for lemma, pos, senses, irregular in read_entries(path):
            p = "a" if pos[0] == "s" else pos[0]
            if lemma == lemma.lower():
                forms.update((lemma, p, f.lower()) for f in irregular if f.lower() != lemma)
            for index, sense in enumerate(senses):
                if "id" not in sense or "synset" not in sense:
                    sys.exit(f"build-wordnet: {path}: a sense of {lemma!r} lacks its id or synset")
                if lemma != lemma.lower():
                    names.add(sense["id"])
                    continue
                groups.setdefault((lemma, p), []).append((lemma, pos, index, sense))
    orders = {}
    orders_csv = os.path.join(source, "src", "sense-orders.csv")
    with open(orders_csv, encoding="utf-8", newline="") as inp:
        for row in csv.reader(inp):
            if len(row) != 3:
                sys.exit(f"build-wordnet: sense-orders.csv: unexpected row {row!r}")
            lemma, p, synsets = row
            orders[(lemma.replace("_", " ").lower(), "a" if p == "s" else p)] = synsets.split()
    # sense id -> (lemma, pos, rank, sense); synset -> [(lemma, rank)]
    senses_by_id = {}
    members = {}
    for (lemma, p), senses in groups.items():
        order = orders.get((lemma, p))

        def position(item, order=order):
            _, pos, index, sense = item
            offset = sense["synset"].split("-")[0]
            listed = order.index(offset) if order and offset in order else len(order or ())
            return (listed, pos, index)

        rank = 0
        seen = {}
        for item in sorted(senses, key=position):
            synset = item[3]["synset"]
            if synset not in seen:
                seen[synset] = rank
                rank += 1
            senses_by_id[item[3]["id"]] = (lemma, p, seen[synset], item[3])
        for synset, r in seen.items():
            members.setdefault(synset, []).append((lemma, r))
    return senses_by_id, members, names, forms


def synonym_groups(members):
    groups = set()
    for synset, lemmas in members.items():
        p = synset.rsplit("-", 1)[1]
        p = "a" if p == "s" else p
        group = sorted({lemma for lemma, rank in lemmas if rank < SYNONYM_RANK and keep(lemma)})
        if len(group) >= 2:
            groups.add((p, tuple(group)))
    return sorted(groups)


def relations(senses_by_id, names, name, max_rank):
    """(lemma, pos, target lemma, target pos) of the `name` relations between kept senses."""
    pairs = set()
    for sid in sorted(senses_by_id):
        lemma, p, rank, sense = senses_by_id[sid]
        if rank >= max_rank or not keep(lemma):
            continue
        for target in sense[name]:
            if target in names:
                continue
            if target not in senses_by_id:
                print(f"build-wordnet: {sid}: {name} target {target} is no sense", file=sys.stderr)
                continue
            other, q, other_rank, _ = senses_by_id[target]
            if other_rank < max_rank and keep(other) and other != lemma:
                pairs.add((lemma, p, other, q))
    return pairs


def header(*lines):
    """The table's `#` header: what its lines are and how it was filtered (`lines`), then the
    source, its licence and the filters every table shares."""
    common = (
        f"Source: {SOURCE},",
        f"commit {COMMIT} (tag 2025-edition).",
        "Licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/), with the",
        "Princeton WordNet licence (LICENSE at the repository's root); this table is derived from",
        "it and shared under CC BY 4.0. Regenerate with scripts/data/build-wordnet.py.",
        "Lemmas lower-cased; lemmas spelled with a capital (names, acronyms), with a digit or of",
        "more than four words left out. Parts of speech n, v, a (adjectives and satellites), r.",
        "A sense's rank is its place among its lemma's senses in that part of speech, from 0.",
        "Fields separated by tabs; lines sorted by their UTF-8 bytes.",
    )
    return "".join(f"# {line}\n" for line in (*lines, *common))


def write(path, text_header, lines):
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(text_header)
        for line in sorted(set(lines), key=lambda s: s.encode("utf-8")):
            out.write(line + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a checkout of english-wordnet at commit " + COMMIT)
    parser.add_argument("output", nargs="?", default="crates/ragcite/src/words/wordnet")
    args = parser.parse_args()
    senses_by_id, members, names, forms = load(args.source)
    os.makedirs(args.output, exist_ok=True)

    write(
        os.path.join(args.output, "synonyms.txt"),
        header(
            "WordNet synonyms: `pos<TAB>lemma<TAB>lemma...`, a group per synset of the lemmas",
            f"whose sense of rank < {SYNONYM_RANK} (first sense) it is; groups of one left out.",
        ),
        ["\t".join((p, *group)) for p, group in synonym_groups(members)],
    )

    antonyms = relations(senses_by_id, names, "antonym", ANTONYM_RANK)
    write(
        os.path.join(args.output, "antonyms.txt"),
        header(
            "WordNet antonyms: `pos<TAB>lemma<TAB>lemma`, each pair once, the smaller lemma first:",
            "sense-level `antonym` relations between senses of rank",
            f"< {ANTONYM_RANK} of both lemmas.",
        ),
        ["\t".join((p, *sorted((a, b)))) for a, p, b, _ in antonyms],
    )

    derived = relations(senses_by_id, names, "derivation", DERIVATION_RANK)
    pertains = relations(senses_by_id, names, "pertainym", DERIVATION_RANK)
    lines = []
    for a, p, b, q in derived:
        if p == q:
            continue  # `actor` ~ `acting`: derivations across parts of speech only
        x, y = sorted([(a, p), (b, q)])
        lines.append("\t".join(("d", *x, *y)))
    for a, p, b, q in pertains:
        lines.append("\t".join(("p", a, p, b, q)))
    write(
        os.path.join(args.output, "derivations.txt"),
        header(
            "WordNet derivations: `kind<TAB>lemma<TAB>pos<TAB>lemma<TAB>pos`. Kind d: a",
            "derivationally related form across parts of speech (symmetric, kept once, the smaller",
            "side first); kind p: a pertainym (the adjective or adverb, then what it pertains to).",
            "Sense relations `derivation` and `pertainym` between senses of rank",
            f"< {DERIVATION_RANK} of two different lemmas.",
        ),
        lines,
    )

    write(
        os.path.join(args.output, "forms.txt"),
        header(
            "WordNet irregular forms: `pos<TAB>lemma<TAB>form` (`v<TAB>buy<TAB>bought`), every",
            "irregular form WordNet lists for a lemma (the `form` of its entry).",
        ),
        ["\t".join((p, lemma, form)) for lemma, p, form in forms if keep(lemma) and keep(form)],
    )


if __name__ == "__main__":
    main()
