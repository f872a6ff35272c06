#!/usr/bin/env python3
"""Validates ragcite's JSON outputs against the committed JSON Schemas (docs/schema/): a `.json`
file as one document, a `.jsonl` file line by line.

Usage: python3 scripts/ci/validate-json.py --schema docs/schema/check.schema.json FILE...

Exit codes: 0 every file is valid; 1 some file is not (each problem is listed with its file,
line and JSON path); 2 the schema or a file cannot be read, or jsonschema is not installed.
Needs the `jsonschema` package (`pip install jsonschema`).
"""

import argparse
import json
import sys

try:
    import jsonschema
except ImportError:
    print("validate-json: the jsonschema package is missing: pip install jsonschema", file=sys.stderr)
    sys.exit(2)


def json_path(parts):
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def documents(path):
    """(where, document) for each document of the file."""
    with open(path, encoding="utf-8") as handle:
        if path.endswith(".jsonl"):
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    yield f"{path}:{number}", json.loads(line)
        else:
            yield path, json.load(handle)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    try:
        with open(args.schema, encoding="utf-8") as handle:
            schema = json.load(handle)
        validator = jsonschema.Draft202012Validator(schema)
        validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as error:
        print(f"validate-json: {args.schema}: {error}", file=sys.stderr)
        return 2
    problems = checked = 0
    for path in args.files:
        try:
            for where, document in documents(path):
                checked += 1
                for error in validator.iter_errors(document):
                    problems += 1
                    print(f"{where}: {json_path(error.absolute_path)}: {error.message}")
        except (OSError, ValueError) as error:
            print(f"validate-json: {path}: {error}", file=sys.stderr)
            return 2
    if checked == 0:
        print("validate-json: no document to validate", file=sys.stderr)
        return 2
    print(f"{checked} documents checked against {args.schema}: {problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
