"""The faces (CLI commands, the app, eval, the MCP server) go through Memory.

A face that reaches into storage/, models/ or importers/ can drift from the
others (the Status screen once called a models function with the wrong
argument and always showed "unknown"). These tests read every face module's
imports with ``ast`` (also imports inside functions and ``TYPE_CHECKING``
blocks) and fail on any that crosses the line.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rawrag_tui"
FACES = ("commands", "tui", "eval", "mcp_server.py", "mcp_pool.py", "mcp_access.py", "mcp")
#: The layers below the facade: the store, the model runtimes, the importers, and the index, search
#: and answer packages (of which only the result types in ALLOWED are public).
FORBIDDEN = ("storage", "models", "importers", "index", "search", "answer")
#: What a face may import from rawrag_tui besides other faces: the facade, the calls that need no
#: home (toolkit), the status shapes, its errors and progress, the result types Memory returns, the
#: one display module, and the shipped demo data.
ALLOWED = ("memory", "toolkit", "status", "errors", "progress", "display", "search.types", "answer.types", "demo")


def face_modules() -> list[Path]:
    found: list[Path] = []
    for face in FACES:
        path = PACKAGE / face
        if path.is_dir():
            found += sorted(path.rglob("*.py"))
        elif path.is_file():
            found.append(path)
    return found


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every ``rawrag_tui`` module ``path`` imports (absolute dotted names, submodule targets included)."""
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            out.append((node.lineno, base))
            # `from .. import models` imports the subpackage itself
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in out if name == "rawrag_tui" or name.startswith("rawrag_tui.")]


def _is_under(name: str, layer: str) -> bool:
    return name == f"rawrag_tui.{layer}" or name.startswith(f"rawrag_tui.{layer}.")


def _is_public(name: str) -> bool:
    return any(_is_under(name, allowed) for allowed in ALLOWED)


def forbidden_imports(path: Path) -> list[str]:
    return [f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}" for line, name in imported_modules(path)
            if any(_is_under(name, layer) for layer in FORBIDDEN) and not _is_public(name)]


def unlisted_imports(path: Path) -> list[str]:
    faces = [f.removesuffix(".py") for f in FACES]
    bad = []
    for line, name in imported_modules(path):
        if name == "rawrag_tui":
            continue
        rest = name.removeprefix("rawrag_tui.")
        # (`from ..memory import Memory` also yields rawrag_tui.memory.Memory: under an allowed module)
        if any(rest == a or rest.startswith(a + ".") for a in (*ALLOWED, *faces)):
            continue
        bad.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}")
    return bad


def test_the_faces_are_found():
    names = {p.relative_to(PACKAGE).as_posix() for p in face_modules()}
    assert {"commands/models.py", "tui/screens/status.py", "eval/runner.py", "mcp_server.py"} <= names


def test_no_face_imports_storage_models_or_importers():
    problems = [p for path in face_modules() for p in forbidden_imports(path)]
    assert not problems, "faces must go through rawrag_tui/memory.py:\n" + "\n".join(problems)


def test_faces_import_only_the_facade_its_types_and_the_display_module():
    problems = [p for path in face_modules() for p in unlisted_imports(path)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("source", [
    "from ...storage.store import Store\n",
    "from ... import models\n",
    "import rawrag_tui.importers.slack\n",
    "def f():\n    from ...models.runtime import provider_report\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rawrag_tui.storage import db\n",
    "from ...answer.reading import answer_question\n",
    "from ...search import pipeline\n",
    "from rawrag_tui.index.pending import embed_pending\n",
])
def test_the_rule_catches_each_way_of_importing(tmp_path, source, monkeypatch):
    """The checker itself can fail: each spelling of a forbidden import is caught."""
    fake_package = tmp_path / "rawrag_tui"
    face = fake_package / "tui" / "screens" / "x.py"
    face.parent.mkdir(parents=True)
    face.write_text(source)
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake_package)
    assert forbidden_imports(face), source
    assert unlisted_imports(face), source


def test_allowed_imports_pass(tmp_path, monkeypatch):
    fake_package = tmp_path / "rawrag_tui"
    face = fake_package / "commands" / "x.py"
    face.parent.mkdir(parents=True)
    face.write_text("from ..memory import Memory\nfrom ..display import message_line\n"
                    "from ..search.types import SearchResult\nfrom ..answer.types import Answer\n"
                    "from ..toolkit import count_tokens\nfrom .common import add_common\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake_package)
    assert forbidden_imports(face) == [] and unlisted_imports(face) == []
