#!/usr/bin/env python3
"""Prints the library's module graph (top-level modules, test code left out) and fails when it
has a cycle. Usage: python3 scripts/module-graph.py"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
MODULES = [
    f[:-3] if f.endswith(".rs") else f
    for f in os.listdir(ROOT)
    if f not in ("lib.rs", "bin") and (f.endswith(".rs") or os.path.isdir(os.path.join(ROOT, f)))
]
MODULES = sorted(set(MODULES))


def code(path):
    text = open(path, encoding="utf-8").read()
    if os.path.basename(path) == "tests.rs" or os.path.basename(path) == "testing.rs":
        return ""
    cut = re.search(r"#\[cfg\(test\)\]\s*mod tests\s*\{", text)
    return text[: cut.start()] if cut else text


# What the crate root re-exports, by the module that defines it.
ROOT_NAMES = {}
for line in open(os.path.join(ROOT, "lib.rs"), encoding="utf-8"):
    found = re.match(r"pub use (\w+)::\{?([^};]*)\}?;", line)
    if found:
        for name in re.findall(r"\w+", found.group(2)):
            ROOT_NAMES[name] = found.group(1)

graph = {m: set() for m in MODULES}
for module in MODULES:
    paths = [os.path.join(ROOT, module + ".rs")]
    folder = os.path.join(ROOT, module)
    for dirpath, _, files in os.walk(folder):
        paths += [os.path.join(dirpath, f) for f in files if f.endswith(".rs")]
    for path in paths:
        if not os.path.exists(path):
            continue
        text = code(path)
        # Comments and doc links do not make a dependency.
        text = re.sub(r"//.*", "", text)
        for used in re.findall(r"crate::(\w+)", text):
            used = ROOT_NAMES.get(used, used)
            if used in graph and used != module:
                graph[module].add(used)
        for group in re.findall(r"crate::\{([^}]*)\}", text):
            for used in re.findall(r"\b(\w+)\b", group):
                used = ROOT_NAMES.get(used, used)
                if used in graph and used != module:
                    graph[module].add(used)

for module in MODULES:
    print(f"{module} -> {', '.join(sorted(graph[module])) or '-'}")

state = {}


def visit(module, path):
    state[module] = "open"
    for used in sorted(graph[module]):
        if state.get(used) == "open":
            cycle = path[path.index(used):] + [used]
            sys.exit("cycle: " + " -> ".join(cycle))
        if used not in state:
            visit(used, path + [used])
    state[module] = "done"


for module in MODULES:
    if module not in state:
        visit(module, [module])
print("no cycles")
