"""The package's import graph: its depth, its loops and its function-local imports.

Reads every module under `superchess/` (or the folder given) with `ast`, without importing it.
An edge A -> B is an import of B at A's top level (imports under `if TYPE_CHECKING:` excluded: they
never run); `from P import name` counts as an import of the module `P.name` when that is a module,
else of `P`. Printed:

- the depth: the most modules on one chain of top-level imports (loops collapsed to one node), and
  that chain;
- the loops: groups of modules that reach each other through imports, top-level and function-local
  together (a function-local import that closes a loop only hides it until the function runs), and
  how many elementary cycles they hold;
- the function-local imports, each with its place.

Run from the project root: `.venv/bin/python tools/import_graph.py [folder]`.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, node: ast.ImportFrom | ast.Import, modules: set[str]) -> list[str]:
    """The package's modules an import statement loads."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in modules]
    base = current.split(".") if is_package else current.split(".")[:-1]
    if node.level:
        base = base[:len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    out = []
    for a in node.names:
        sub = f"{target}.{a.name}"
        if sub in modules:
            out.append(sub)
        elif target in modules:
            out.append(target)
    return out


def is_type_checking(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING" or \
        isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"


def collect(root: Path):
    """(modules, top-level edges, function-local edges with their places)."""
    files = {module_name(root, p): p for p in sorted(root.rglob("*.py"))}
    modules = set(files)
    top: dict[str, set[str]] = {m: set() for m in modules}
    local: list[tuple[str, str, int]] = []
    for name, path in files.items():
        tree = ast.parse(path.read_text(), str(path))
        package = path.name == "__init__.py"

        def visit(node: ast.AST, in_function: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.If) and is_type_checking(child):
                    continue
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    for target in resolve(name, package, child, modules):
                        if target == name:
                            continue
                        if in_function:
                            local.append((name, target, child.lineno))
                        else:
                            top[name].add(target)
                visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

        visit(tree, False)
    return modules, top, local


def strongly_connected(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's components, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def cycles(comps: list[list[str]], edges: dict[str, set[str]]) -> int:
    """How many elementary cycles the loops hold (each loop is small: a plain search will do)."""
    total = 0
    for comp in comps:
        order = {m: i for i, m in enumerate(comp)}
        for start in comp:
            def walk(v: str, seen: set[str]) -> int:
                found = 0
                for w in edges[v]:
                    if w == start:
                        found += 1
                    elif w in order and order[w] > order[start] and w not in seen:
                        found += walk(w, seen | {w})
                return found
            total += walk(start, {start})
    return total


def longest_chain(nodes: set[str], edges: dict[str, set[str]]) -> list[str]:
    """The longest chain of imports (its modules, the importer first), each loop counted as one node."""
    comps = strongly_connected(nodes, edges)
    comp_of = {m: i for i, c in enumerate(comps) for m in c}
    dag = {i: {comp_of[w] for m in c for w in edges[m]} - {i} for i, c in enumerate(comps)}
    memo: dict[int, list[int]] = {}

    def longest(i: int) -> list[int]:
        if i not in memo:
            memo[i] = [i] + max((longest(j) for j in sorted(dag[i])), key=len, default=[])
        return memo[i]

    return [comps[i][0] for i in max((longest(i) for i in sorted(dag)), key=len)]


def main(folder: str = "superchess") -> None:
    root = Path(folder).resolve()
    modules, top, local = collect(root)
    every = {m: set(top[m]) for m in modules}
    for a, b, _ in local:
        every[a].add(b)
    loops = [c for c in strongly_connected(modules, every) if len(c) > 1]
    print(f"modules: {len(modules)}")
    chain = longest_chain(modules, top)
    print(f"depth of the top-level import graph: {len(chain)} ({' -> '.join(chain)})")
    print(f"import loops (top-level and function-local imports): {len(loops)}, "
          f"holding {cycles(loops, every)} elementary cycles")
    for c in loops:
        print("  " + " <-> ".join(c))
    print(f"function-local imports: {len(local)}")
    for a, b, line in local:
        print(f"  {a}:{line} -> {b}")


if __name__ == "__main__":
    main(*sys.argv[1:])
