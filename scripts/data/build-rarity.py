#!/usr/bin/env python3
"""Builds crates/ragcite/src/words/rarity.txt, the word-rarity table the support model reads, from the English
word frequencies of wordfreq (https://github.com/rspeer/wordfreq, data CC BY-SA 4.0).

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1
    /tmp/wf/bin/python scripts/data/build-rarity.py > crates/ragcite/src/words/rarity.txt

The table holds the 100,000 most frequent English words, one per line, sorted by their UTF-8
bytes so that ragcite finds a word by binary search without building anything, each with its
Zipf frequency (log10 of occurrences per billion words) times ten, rounded: `the\t77`.
"""

import sys

import wordfreq

TOP = 100_000

HEADER = """\
# Word rarity: the 100,000 most frequent English words with their Zipf frequency x 10
# (log10 of occurrences per billion words; 77 = "the", 20 = rare).
# Derived from wordfreq {version} by Robyn Speer (https://github.com/rspeer/wordfreq), whose data
# is licensed under CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/); this table
# is shared under the same licence. Regenerate with scripts/data/build-rarity.py.
"""


def main() -> None:
    words = {}
    for word in wordfreq.top_n_list("en", TOP):
        if not word or any(c.isspace() or c.isdigit() for c in word):
            continue
        words[word] = round(wordfreq.zipf_frequency(word, "en") * 10)
    out = sys.stdout
    out.write(HEADER.format(version=wordfreq.__version__ if hasattr(wordfreq, "__version__") else "3.1.1"))
    out.write("\n")
    for word in sorted(words, key=lambda w: w.encode("utf-8")):
        out.write(f"{word}\t{words[word]}\n")


if __name__ == "__main__":
    main()
