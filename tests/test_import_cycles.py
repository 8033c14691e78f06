"""No module of rawrag_tui imports itself back, however far round.

An import circle makes the order modules load in matter (a name is missing
while its module is half done), hides which layer depends on which, and is
usually "fixed" by moving an import into a function or under
``TYPE_CHECKING``, where it is still a circle. So these tests read every
module's imports with ``ast`` - also those inside functions and under
``TYPE_CHECKING`` - build the module import graph and fail on any strongly
connected component of more than one module, or a module that imports
itself, naming the import lines that close the circle.

Edges: ``import a.b`` and ``from a.b import c`` import ``a.b``; when ``c`` is
itself a module (``from . import keys``) the edge goes to ``a.b.c`` instead
(Python loads ``a.b`` first either way, but a package is not counted as
importing whoever imports from it). A package's ``__init__.py`` is the
module named after the package.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rawrag_tui"


@dataclass(frozen=True)
class Edge:
    source: str  # importing module
    target: str  # imported module
    where: str  # path:line
    code: str  # the import statement as written


def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(package: Path) -> dict[str, Path]:
    return {module_name(p, package): p for p in sorted(package.rglob("*.py"))}


def import_edges(path: Path, package: Path, modules: dict[str, Path]) -> list[Edge]:
    """The modules of ``modules`` that ``path`` imports, one edge per import and target."""
    source = path.read_text(encoding="utf-8")
    name = module_name(path, package)
    # the package relative imports start from: the module's own name for an __init__
    here = name if path.name == "__init__.py" else name.rpartition(".")[0]
    where = path.relative_to(package.parent).as_posix()
    edges: list[Edge] = []
    for node in ast.walk(ast.parse(source, str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = here.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in modules else base)
        else:
            continue
        code = ast.get_source_segment(source, node) or ast.unparse(node)
        for target in dict.fromkeys(targets):
            if target in modules:
                edges.append(Edge(name, target, f"{where}:{node.lineno}", " ".join(code.split())))
    return edges


def import_graph(package: Path) -> dict[str, list[Edge]]:
    modules = package_modules(package)
    return {name: import_edges(path, package, modules) for name, path in modules.items()}


def strongly_connected(graph: dict[str, list[Edge]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit on a deep chain)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for edge in edges:
                nxt = edge.target
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph.get(nxt, []))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    found.append(sorted(component))
    return found


def one_cycle(graph: dict[str, list[Edge]], component: list[str]) -> list[Edge]:
    """A shortest circle through the component's first module (breadth-first, inside the component)."""
    members = set(component)
    start = component[0]
    came: dict[str, Edge] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for edge in graph[node]:
            if edge.target not in members:
                continue
            if edge.target == start:
                path = [edge]
                while path[0].source != start:
                    path.insert(0, came[path[0].source])
                return path
            if edge.target not in came:
                came[edge.target] = edge
                queue.append(edge.target)
    return []


def cycles(package: Path) -> list[str]:
    """One message per circle: its modules and the import lines that close it."""
    graph = import_graph(package)
    problems = []
    for component in strongly_connected(graph):
        if len(component) == 1 and not any(e.target == component[0] for e in graph[component[0]]):
            continue
        lines = [f"  {e.where}: {e.code}    ({e.source} -> {e.target})" for e in one_cycle(graph, component)]
        problems.append(f"circle of {len(component)} module(s): {', '.join(component)}\n" + "\n".join(lines))
    return problems


def test_the_modules_are_found():
    names = set(package_modules(PACKAGE))
    assert {"rawrag_tui", "rawrag_tui.memory", "rawrag_tui.tui", "rawrag_tui.tui.app",
            "rawrag_tui.tui.screens.base"} <= names


def test_no_import_cycles():
    problems = cycles(PACKAGE)
    assert not problems, "import cycles in rawrag_tui:\n" + "\n".join(problems)


def _write(root: Path, files: dict[str, str]) -> Path:
    package = root / "rawrag_tui"
    for rel, text in files.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return package


@pytest.mark.parametrize("files", [
    {"__init__.py": "", "a.py": "from . import b\n", "b.py": "from .a import thing\n"},
    {"__init__.py": "", "a.py": "import rawrag_tui.b\n", "b.py": "def f():\n    import rawrag_tui.a\n"},
    {"__init__.py": "", "a.py": "from .b import x\n",
     "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n"},
    {"__init__.py": "", "tui/__init__.py": "from .screens import base\n", "tui/screens/__init__.py": "",
     "tui/screens/base.py": "from ..app import App\n", "tui/app.py": "from .. import tui\n"},
    {"__init__.py": "", "a.py": "from . import a\n"},
])
def test_the_checker_catches_a_cycle(tmp_path, files):
    """The checker itself can fail: each spelling of a circle is caught and its lines named."""
    problems = cycles(_write(tmp_path, files))
    assert len(problems) == 1, problems
    assert "import" in problems[0].splitlines()[1]


def test_the_checker_passes_a_chain(tmp_path):
    package = _write(tmp_path, {
        "__init__.py": "from .a import f\n",
        "a.py": "from . import b\nfrom .b import g\n",
        "b.py": "import sys\nfrom .c import h\n",
        "c.py": "from rawrag_tui import d\n",
        "d.py": "",
        # `from . import sub` in a package imports the submodule, not the package back
        "pkg/__init__.py": "from .x import y\n",
        "pkg/x.py": "from . import z\n",
        "pkg/z.py": "",
    })
    assert cycles(package) == []


def test_a_cycle_names_its_lines(tmp_path):
    package = _write(tmp_path, {"__init__.py": "", "a.py": "import os\nfrom .b import x\n",
                                "b.py": "def f():\n    from . import a\n"})
    (problem,) = cycles(package)
    assert "rawrag_tui/a.py:2: from .b import x" in problem
    assert "rawrag_tui/b.py:2: from . import a" in problem
