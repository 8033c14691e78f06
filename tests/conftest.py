"""Shared fixtures: a private tmp home per test, the real bundled embedder loaded once."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# CI lays shared/ beside the checkout; RAWRAG_SHARED points elsewhere (a worktree, say)
SHARED = Path(os.environ.get("RAWRAG_SHARED") or REPO.parent / "shared")
LOCOMO = SHARED / "data" / "locomo-conv-26.json"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """No test ever touches the real data directory."""
    monkeypatch.setenv("RAWRAG_HOME", str(tmp_path / "home"))
    for key in list(os.environ):
        if key.startswith("RAWRAG_") and key != "RAWRAG_HOME":
            monkeypatch.delenv(key)


@pytest.fixture
def home(tmp_path) -> Path:
    return tmp_path / "home"


@pytest.fixture(scope="session")
def embedder():
    from rawrag_tui.models.minilm import MiniLMEmbedder

    return MiniLMEmbedder()


@pytest.fixture
def open_memory(home, embedder):
    """Memory.open with the session's real embedder; closes what it opened."""
    from rawrag_tui.memory import Memory

    opened = []

    def factory(path: Path | None = None, **overrides):
        mem = Memory.open(path or home, embedder=embedder, **overrides)
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        with contextlib.suppress(Exception):
            mem.close()


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def run_cli(*args: str, home: Path | None = None, stdin: str | None = None, timeout: float = 300):
    """The real `rawrag` entry point in a subprocess (exit code, stdout, stderr)."""
    import subprocess

    env = dict(os.environ)
    if home is not None:
        env["RAWRAG_HOME"] = str(home)
    proc = subprocess.run(
        [sys.executable, "-m", "rawrag_tui.cli", *args],
        input=stdin, capture_output=True, text=True, env=env, cwd=REPO, timeout=timeout,
    )
    return proc.returncode, proc.stdout, proc.stderr


def reader_installed(spec=None) -> bool:
    """llama-cpp-python and the GGUF of ``spec`` (default: the SmolLM2 test reader) are installed."""
    import importlib.util

    from rawrag_tui.errors import ModelError
    from rawrag_tui.models.gguf import TEST_READER, part_paths

    if importlib.util.find_spec("llama_cpp") is None:
        return False
    try:
        part_paths(spec or TEST_READER)
    except ModelError:
        return False
    return True
