#!/usr/bin/env python3
"""Checks the import graphs of the code: no cycle anywhere, and the library's pipeline in order.

    python3 scripts/ci/module-graph.py [--print]

- Rust, for the library (crates/ragcite/src), the command line (src/) and xtask
  (crates/xtask/src): at every depth, the modules that share a parent
  (`input/chunks/markdown.rs` and `input/chunks/text.rs`, or `quote` and `words` at the top)
  must not use each other in a cycle. A module uses another when
  one of its files names it by path (`use crate::a::b`, `super::b::f`, `crate::a::b::C`); test
  code (tests.rs, testing.rs, `#[cfg(test)] mod tests`) is left out.
- The library's pipeline: each stage that crates/ragcite/src/lib.rs declares under "The
  pipeline, in order" uses only the stages declared before it, and none of the modules that run
  the pipeline (check, batch, compare, eval, api, emit).
- Python, for the package python/ragcite: its modules' imports (`from . import x`,
  `from .x import y`, `import ragcite.x`) form no cycle.

Prints each cycle or out-of-order use and exits 1; with --print, also every graph.
"""
import argparse
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUST_CRATES = {
    "ragcite": os.path.join(REPO, "crates", "ragcite", "src"),
    "ragcite-cli": os.path.join(REPO, "src"),
    "xtask": os.path.join(REPO, "crates", "xtask", "src"),
}
PYTHON_PACKAGE = os.path.join(REPO, "python", "ragcite")
RUNNERS = {"check", "batch", "compare", "eval", "api", "emit"}


# ---------------------------------------------------------------------------------------------
# Rust


def rust_modules(src):
    """Every module of the crate rooted at `src`, as a path tuple, with its non-test files."""
    modules = {(): []}
    for dirpath, _, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        parts = () if rel == "." else tuple(rel.split(os.sep))
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(dirpath, f)
            stem = f[:-3]
            if parts == () and stem in ("lib", "main"):
                modules[()].append(path)
            elif stem == "mod":
                modules.setdefault(parts, []).append(path)
            elif stem in ("tests", "testing"):
                continue  # test code
            else:
                modules.setdefault(parts + (stem,), []).append(path)
    # A folder without its own file (a module declared as `mod x;` with x/mod.rs is covered
    # above; one whose parent file is `x.rs` gets its files from there).
    for parts in list(modules):
        for k in range(1, len(parts)):
            modules.setdefault(parts[:k], [])
    return modules


def code(path):
    text = open(path, encoding="utf-8").read()
    cut = re.search(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod tests\s*\{", text)
    text = text[: cut.start()] if cut else text
    # Comments name paths that are no uses (strings are kept: `serialize_with = "crate::..."`).
    return re.sub(r"//[^\n]*", "", text)


USE = re.compile(r"\buse\s+((?:crate|super|self)\b[^;]*);")
INLINE = re.compile(r"\b(crate|super|self)((?:\s*::\s*\w+)+)")


def split_top_level(items):
    """`a, b::{c, d}, e` split at its top-level commas."""
    parts, depth, start = [], 0, 0
    for k, c in enumerate(items):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(items[start:k])
            start = k + 1
    parts.append(items[start:])
    return [p for p in parts if p]


def use_paths(tree):
    """The paths a use tree names, groups nested at any depth: `crate::a::{b, c::{d, self}}`
    gives crate::a::b, crate::a::c::d and crate::a::c (a glob, the module it is in)."""
    tree = re.sub(r"\s+as\s+\w+", "", tree)
    tree = re.sub(r"\s+", "", tree)

    def walk(node, prefix):
        brace = node.find("{")
        if brace < 0:
            parts = [p for p in node.split("::") if p and p != "*"]
            if parts[-1:] == ["self"]:
                parts = parts[:-1]
            yield prefix + parts
            return
        head = [p for p in node[:brace].split("::") if p]
        for item in split_top_level(node[brace + 1 : node.rindex("}")]):
            yield from walk(item, prefix + head)

    yield from walk(tree, [])


def paths_in(text):
    """Every module path a file's code names: its use trees and its inline paths."""
    for found in USE.finditer(text):
        yield from use_paths(found.group(1))
    for found in INLINE.finditer(text):
        yield [found.group(1)] + re.findall(r"\w+", found.group(2))


def resolve(segments, here, modules):
    """The module a path names (the longest known module prefix), seen from module `here`: in
    `a/b.rs` or `a/b/mod.rs` (module a::b), `self` is a::b and `super` is a."""
    head, rest = segments[0], list(segments[1:])
    if head == "crate":
        base = ()
    elif head == "self":
        base = here
    else:
        if not here:
            return None
        base = here[:-1]
        while rest and rest[0] == "super":
            if not base:
                return None
            base, rest = base[:-1], rest[1:]
    path = base + tuple(rest)
    while path not in modules and path:
        path = path[:-1]
    return path


def rust_uses(src):
    modules = rust_modules(src)
    uses = {m: set() for m in modules}
    for module, files in modules.items():
        for path in files:
            text = code(path)
            for segments in paths_in(text):
                target = resolve(segments, module, modules)
                if target is not None and target != module:
                    uses[module].add(target)
    return modules, uses


def sibling_graphs(modules, uses):
    """For each parent, the graph among its children: a child uses a sibling when a module in
    its subtree uses one in the sibling's."""
    graphs = {}
    for parent in modules:
        children = sorted(m for m in modules if len(m) == len(parent) + 1 and m[: len(parent)] == parent)
        if len(children) < 2:
            continue
        graph = {c[-1]: set() for c in children}
        for source, targets in uses.items():
            if len(source) <= len(parent) or source[: len(parent)] != parent:
                continue
            child = source[len(parent)]
            for target in targets:
                if len(target) > len(parent) and target[: len(parent)] == parent:
                    other = target[len(parent)]
                    if other != child:
                        graph[child].add(other)
        graphs[parent] = graph
    return graphs


def cycles(graph):
    """The strongly connected components of more than one node (Tarjan), sorted."""
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def pipeline_order(src):
    lib = open(os.path.join(src, "lib.rs"), encoding="utf-8").read()
    block = re.search(r"// The pipeline, in order[^\n]*\n((?:pub mod \w+;\n)+)", lib)
    if not block:
        return None
    return re.findall(r"pub mod (\w+);", block.group(1))


# ---------------------------------------------------------------------------------------------
# Python


def python_graph(package):
    name = os.path.basename(package)
    modules = sorted(f[:-3] for f in os.listdir(package) if f.endswith(".py"))
    graph = {m: set() for m in modules}
    for module in modules:
        text = open(os.path.join(package, module + ".py"), encoding="utf-8").read()
        for line in text.splitlines():
            line = line.strip()
            relative = re.match(r"from \.(\w*) import (.+)", line)
            absolute = re.match(rf"(?:from|import) {name}\.(\w+)", line)
            if relative:
                if relative.group(1):
                    targets = [relative.group(1)]
                else:  # `from . import a, b`: modules, or names of the package's __init__
                    names = re.findall(r"\w+", relative.group(2).split(" as ")[0])
                    targets = [n if n in graph else "__init__" for n in names]
            elif absolute:
                targets = [absolute.group(1)]
            else:
                continue
            for target in targets:
                if target in graph and target != module:
                    graph[module].add(target)
    return graph


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--print", action="store_true", help="print every graph")
    args = parser.parse_args()
    problems = []
    for crate, src in RUST_CRATES.items():
        modules, uses = rust_uses(src)
        for parent, graph in sorted(sibling_graphs(modules, uses).items()):
            where = "::".join((crate.replace("-", "_"),) + parent)
            if args.print:
                print(f"{where}:")
                for child in sorted(graph):
                    print(f"  {child} -> {', '.join(sorted(graph[child])) or '-'}")
            for cycle in cycles(graph):
                problems.append(f"{where}: a cycle between {', '.join(cycle)}")
        stages = pipeline_order(src) if crate == "ragcite" else None
        if crate == "ragcite" and not stages:
            problems.append("crates/ragcite/src/lib.rs: no `// The pipeline, in order` block")
        if stages:
            top = sibling_graphs(modules, uses)[()]
            for k, stage in enumerate(stages):
                later = set(stages[k + 1 :]) | RUNNERS
                for used in sorted(top.get(stage, ()) & later):
                    problems.append(
                        f"ragcite::{stage} uses ragcite::{used}, which comes after it in the pipeline"
                    )
    graph = python_graph(PYTHON_PACKAGE)
    if args.print:
        print("python ragcite:")
        for module in sorted(graph):
            print(f"  {module} -> {', '.join(sorted(graph[module])) or '-'}")
    for cycle in cycles(graph):
        problems.append(f"python/ragcite: a cycle between {', '.join(cycle)}")
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print("no cycles; the pipeline's stages use only earlier stages")


if __name__ == "__main__":
    main()
