#!/usr/bin/env python3
"""Writes texts in many languages, from this machine's own files, as eval-shaped records.

For the language detector's tests (crates/ragcite/src/words/detect.rs): text that is not
English, and text that mixes English in (loan words, option names, untranslated paragraphs), in
the shape of the development records (`answer`, `chunks[].text`) so that the same test reads
both. Two sources, both installed by the system's packages (nothing downloaded):

  man      translated manual pages (/usr/share/man/LANG/man*/*.gz): each page's text with its
           roff requests and escapes taken out, whole (its first 4 KiB) and paragraph by
           paragraph (one, and three together), each with the next paragraph as its chunk.
  gettext  message catalogs (/usr/share/locale/LANG/LC_MESSAGES/*.mo): each catalog's
           translations, one by one (its first 200 of 40 characters or more) and run together
           into texts of about 1 KiB (its first 40); and the English originals, the same way,
           with language `en`.

Each record: `id`, `lang` (the folder's language, which a paragraph left untranslated does not
follow), `answer`, `chunks` (one). Stdlib only.

    python3 scripts/dev/language-samples.py /tmp/lang-samples/samples.jsonl
    RAGCITE_DEV=/work/shared/eval/dev:/tmp/lang-samples cargo test -p ragcite --lib \\
        words::detect -- --ignored --nocapture

Write the output outside the repository: the texts are not ours to commit.
"""

import glob
import gzip
import json
import os
import re
import struct
import sys

MAN_LANGS = ["da", "de", "es", "fi", "fr", "hu", "id", "it", "nl", "pl", "pt", "pt_BR", "ro",
             "sv", "tr", "ru", "uk", "ja", "ko", "zh_CN", "zh_TW", "cs", "hr", "sl", "sr"]
MO_LANGS = ["da", "de", "es", "fi", "fr", "hu", "it", "nl", "nb", "pt", "pt_BR", "ro", "sv",
            "tr", "ru", "el", "ar", "ta", "ja", "ko", "zh_CN", "pl", "cs", "ca", "gl", "id", "vi",
            "eo", "af", "et", "lt"]

# At most these of a catalog's messages and runs: the big catalogs (of place names) would
# outweigh the rest.
MESSAGES = 200
RUNS = 40

ESCAPES = {
    "(:a": "ä", "(:o": "ö", "(:u": "ü", "(:A": "Ä", "(:O": "Ö", "(:U": "Ü", "(ss": "ß",
    "('e": "é", "(`e": "è", "(^e": "ê", "(`a": "à", "(^a": "â", "(,c": "ç", "(^o": "ô",
    "('a": "á", "('i": "í", "('o": "ó", "('u": "ú", "(~n": "ñ", "(~a": "ã", "(~o": "õ",
    "(^i": "î", "(:e": "ë", "(:i": "ï", "(^u": "û", "(`u": "ù", "(aq": "'", "(dq": '"',
    "(em": "—", "(en": "–", "(lq": "“", "(rq": "”", "(Fo": "«", "(Fc": "»", "(bu": "•",
}


def roff_text(source):
    """The words of a manual page: its text lines, and the arguments of its font requests."""
    paragraphs, current = [], []
    for line in source.splitlines():
        if line.startswith(('.\\"', "'\\\"")):
            continue
        if line.startswith((".SH", ".SS", ".PP", ".P", ".LP", ".IP", ".TP", ".sp", ".RS", ".br")):
            if current:
                paragraphs.append(" ".join(current))
                current = []
            rest = (line.split(None, 1) + [""])[1]
            if line.startswith((".SH", ".SS")) and rest:
                paragraphs.append(rest.strip('"'))
            continue
        if line.startswith((".B", ".I", ".R")):
            line = (line.split(None, 1) + [""])[1]
        elif line.startswith((".", "'")):
            continue
        current.append(line)
    if current:
        paragraphs.append(" ".join(current))
    out = []
    for p in paragraphs:
        for escape, char in ESCAPES.items():
            p = p.replace("\\" + escape, char)
        p = re.sub(r"\\\[([a-z]+)\]", " ", p)
        p = re.sub(r"\\f(\[[A-Z]*\]|[A-Z])", "", p)
        p = re.sub(r"\\[-&e|^]", lambda m: "-" if m.group(0) == "\\-" else "", p)
        p = re.sub(r"\\\(..", " ", p)
        p = re.sub(r"\\[*n]\(..|\\[*n].", "", p)
        p = p.replace("\\ ", " ")
        p = re.sub(r"\s+", " ", p).strip()
        if p:
            out.append(p)
    return out


def mo_messages(path):
    """The (original, translation) pairs of a compiled message catalog."""
    with open(path, "rb") as f:
        data = f.read()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, originals, translations = struct.unpack(order + "4I", data[4:20])
    pairs = []
    for i in range(count):
        olen, ooff = struct.unpack(order + "2I", data[originals + 8 * i:originals + 8 * i + 8])
        tlen, toff = struct.unpack(order + "2I",
                                   data[translations + 8 * i:translations + 8 * i + 8])
        original = data[ooff:ooff + olen].split(b"\0")[0]
        translation = data[toff:toff + tlen].split(b"\0")[0]
        if not original:
            continue
        try:
            pairs.append((original.decode("utf-8"), translation.decode("utf-8")))
        except UnicodeDecodeError:
            continue
    return pairs


def runs(texts, size):
    """`texts` run together (a newline between) into texts of about `size` bytes."""
    out, current = [], ""
    for text in texts:
        current = current + "\n" + text if current else text
        if len(current.encode()) >= size:
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_path = sys.argv[1]
    os.makedirs(os.path.dirname(os.path.abspath(out_path)), exist_ok=True)
    written = 0
    with open(out_path, "w", encoding="utf-8") as out:

        def write(rid, lang, texts):
            nonlocal written
            texts = [t for t in texts if t.strip()]
            for i, text in enumerate(texts):
                chunk = texts[i + 1] if i + 1 < len(texts) else texts[0]
                record = {"id": f"{rid}:{i}", "lang": lang, "answer": text,
                          "chunks": [{"id": "1", "text": chunk}]}
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
                written += 1

        for lang in MAN_LANGS:
            for path in sorted(glob.glob(f"/usr/share/man/{lang}/man*/*.gz")):
                try:
                    source = gzip.open(path).read().decode("utf-8")
                except (OSError, UnicodeDecodeError):
                    continue
                paragraphs = roff_text(source)
                name = os.path.basename(path)
                write(f"man:{lang}:{name}:page", lang, ["\n\n".join(paragraphs)[:4096]])
                write(f"man:{lang}:{name}:one", lang, paragraphs)
                threes = [" ".join(paragraphs[i:i + 3]) for i in range(0, len(paragraphs), 3)]
                write(f"man:{lang}:{name}:three", lang, threes)
        for lang in MO_LANGS:
            for path in sorted(glob.glob(f"/usr/share/locale/{lang}/LC_MESSAGES/*.mo")):
                pairs = mo_messages(path)
                name = os.path.basename(path)
                translated = [t for _, t in pairs if t.strip()]
                english = [o for o, _ in pairs if o.strip()]
                long = [t for t in translated if len(t) >= 40]
                write(f"mo:{lang}:{name}:one", lang, long[:MESSAGES])
                write(f"mo:{lang}:{name}:runs", lang, runs(translated, 1024)[:RUNS])
                if lang == "fr":
                    # The originals once (every catalog has them in English).
                    long = [o for o in english if len(o) >= 40]
                    write(f"mo:en:{name}:one", "en", long[:MESSAGES])
                    write(f"mo:en:{name}:runs", "en", runs(english, 1024)[:RUNS])
    print(f"{written} records in {out_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
