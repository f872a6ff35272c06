#!/usr/bin/env python3
"""Validates SARIF files against the SARIF 2.1.0 JSON schema, and against what GitHub code
scanning adds to it (no empty strings, a rule id and a location on every result).

Usage: python3 scripts/ci/validate-sarif.py --schema PATH/sarif-schema-2.1.0.json FILE.sarif...

Exit codes: 0 every file is valid; 1 some file is not (each problem is listed with its file
and JSON path); 2 the schema or a file cannot be read, or jsonschema is not installed.
Needs the `jsonschema` package (`pip install jsonschema`).
"""

import argparse
import json
import sys

try:
    import jsonschema
except ImportError:
    print(
        "validate-sarif: the jsonschema package is missing: pip install jsonschema",
        file=sys.stderr,
    )
    sys.exit(2)

# Problems listed per file before the rest are counted.
SHOWN = 20


def json_path(parts):
    """`$.runs[0].results[3].message` from a path of keys and indices."""
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def load(path, what):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        print(f"validate-sarif: {path}: cannot read the {what}: {error}", file=sys.stderr)
    except (ValueError, UnicodeDecodeError) as error:
        # Not JSON at all is a failure of the file, not of this script.
        return error
    sys.exit(2)


def github_problems(document):
    """What GitHub code scanning rejects although the schema allows it."""
    problems = []

    def walk(value, parts):
        if isinstance(value, str) and value == "":
            problems.append((parts, "empty string (GitHub rejects empty strings)"))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, parts + [key])
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, parts + [index])

    walk(document, [])
    for r, run in enumerate(document.get("runs") or []):
        if not isinstance(run, dict):
            continue
        driver = (run.get("tool") or {}).get("driver") or {}
        if not driver.get("name"):
            problems.append((["runs", r, "tool", "driver"], "no tool name"))
        for i, result in enumerate(run.get("results") or []):
            where = ["runs", r, "results", i]
            if not isinstance(result, dict):
                continue
            if not result.get("ruleId") and not (result.get("rule") or {}).get("id"):
                problems.append((where, "no ruleId"))
            locations = result.get("locations") or []
            if not locations:
                problems.append((where, "no location"))
                continue
            region = (locations[0].get("physicalLocation") or {}).get("region") or {}
            if region.get("startLine", 1) < 1:
                problems.append((where + ["locations", 0], "startLine below 1"))
    return problems


def main():
    parser = argparse.ArgumentParser(
        description="Validate SARIF files against the SARIF 2.1.0 JSON schema."
    )
    parser.add_argument("--schema", required=True, help="path to sarif-schema-2.1.0.json")
    parser.add_argument("files", nargs="+", metavar="FILE", help="SARIF files to validate")
    args = parser.parse_args()

    schema = load(args.schema, "schema")
    if isinstance(schema, Exception):
        print(f"validate-sarif: {args.schema}: the schema is not JSON: {schema}", file=sys.stderr)
        return 2
    validator_class = jsonschema.validators.validator_for(schema)
    try:
        validator_class.check_schema(schema)
    except jsonschema.exceptions.SchemaError as error:
        print(f"validate-sarif: {args.schema}: not a valid JSON schema: {error.message}", file=sys.stderr)
        return 2
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER)

    failed = 0
    for path in args.files:
        document = load(path, "SARIF file")
        if isinstance(document, Exception):
            print(f"{path}: not valid JSON: {document}")
            failed += 1
            continue
        # Sorted by path, so that the report reads in document order and is the same each run.
        errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
        problems = [(list(error.absolute_path), error.message) for error in errors]
        if isinstance(document, dict):
            problems += github_problems(document)
        if not problems:
            results = sum(len(run.get("results") or []) for run in document.get("runs") or [])
            print(f"{path}: valid SARIF 2.1.0 ({results} results)")
            continue
        failed += 1
        print(f"{path}: INVALID, {len(problems)} problem(s):")
        for parts, message in problems[:SHOWN]:
            print(f"  {json_path(parts)}: {message}")
        if len(problems) > SHOWN:
            print(f"  ... and {len(problems) - SHOWN} more")
    if failed:
        print(f"validate-sarif: {failed} of {len(args.files)} file(s) invalid", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
