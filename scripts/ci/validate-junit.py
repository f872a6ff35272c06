#!/usr/bin/env python3
"""Reads JUnit XML files with junitparser (the JUnit reader of PyPI) and checks what test
report consumers rely on: every suite's `tests`, `failures`, `errors` and `skipped` equal to
its cases' results, `time` on suites and cases, and no two cases with the same suite,
classname and name (GitLab keeps one of such duplicates).

Usage: python3 scripts/ci/validate-junit.py FILE.xml...

Exit codes: 0 every file is right; 1 some file is not (each problem listed with its file);
2 a file cannot be read, or junitparser is not installed (`pip install junitparser`).
"""

import sys

try:
    from junitparser import Error, Failure, JUnitXml, Skipped
except ImportError:
    print(
        "validate-junit: the junitparser package is missing: pip install junitparser",
        file=sys.stderr,
    )
    sys.exit(2)


def problems_of(path):
    problems = []
    xml = JUnitXml.fromfile(path)
    suites = list(xml) if isinstance(xml, JUnitXml) else [xml]
    totals = {"tests": 0, "failures": 0, "errors": 0}
    for suite in suites:
        cases = list(suite)
        counted = {
            "tests": len(cases),
            "failures": sum(any(isinstance(r, Failure) for r in c.result) for c in cases),
            "errors": sum(any(isinstance(r, Error) for r in c.result) for c in cases),
            "skipped": sum(any(isinstance(r, Skipped) for r in c.result) for c in cases),
        }
        for key, value in counted.items():
            if getattr(suite, key) != value:
                problems.append(
                    f"suite {suite.name!r}: {key}={getattr(suite, key)}, its cases say {value}"
                )
            if key in totals:
                totals[key] += value
        if suite.time is None:
            problems.append(f"suite {suite.name!r} has no time")
        seen = set()
        for case in cases:
            key = (suite.name, case.classname, case.name)
            if key in seen:
                problems.append(f"duplicate case {key!r}")
            seen.add(key)
            if case._elem.get("time") is None:
                problems.append(f"case {case.name!r} has no time")
    if isinstance(xml, JUnitXml):
        for key, value in totals.items():
            if getattr(xml, key) != value:
                problems.append(f"testsuites: {key}={getattr(xml, key)}, its suites say {value}")
    return problems, sum(len(list(s)) for s in suites)


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        try:
            problems, cases = problems_of(path)
        except Exception as error:  # a file junitparser cannot read
            print(f"{path}: cannot be read: {error}", file=sys.stderr)
            return 2
        if problems:
            failed = True
            for problem in problems:
                print(f"{path}: {problem}")
        else:
            print(f"{path}: read by junitparser ({cases} cases)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
