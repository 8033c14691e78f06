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
#: The changed-facts chats of bench/data the bundled reader's tests ask: English, and two unseen English sets.
ENGLISH_CHATS = REPO / "bench" / "data" / "changed-facts.json"
UNSEEN_CHATS = REPO / "bench" / "data" / "changed-facts-fresh.json"
SECOND_CHATS = REPO / "bench" / "data" / "changed-facts-second.json"
THIRD_CHATS = REPO / "bench" / "data" / "changed-facts-third.json"
GERMAN_CHATS = REPO / "bench" / "data" / "changed-facts-de.json"


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

    def factory(path: Path | None = None, *, model=None, **overrides):
        """``model``: an embedder to use instead of the session's (a paced double wrapping it, say)."""
        mem = Memory.open(path or home, embedder=model or embedder, **overrides)
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


#: The line a paced run prints on stderr where it stops; nothing after it is ever printed.
PAUSED = "rawrag-test: paused"

#: `rawrag` with its pace set by the test, not by the machine: the real entry point
#: (pyproject's [project.scripts] rawrag = rawrag_tui.cli:main), the real store and the
#: real models, plus a point where it stops for good, so a kill there always leaves
#: work undone, however fast the CPU. argv[1] is the plan (JSON), the rest rawrag's.
PACED_CLI = r"""
import json, os, sys, threading, time, zlib

plan, argv = json.loads(sys.argv[1]), sys.argv[2:]


def pause(where):
    print(plan["paused"], where, file=sys.stderr, flush=True)
    # Nothing releases it: the test kills the process here. The timeout only
    # keeps a forgotten one from living on.
    threading.Event().wait(plan["orphan_s"])
    print("rawrag-test: never killed", file=sys.stderr, flush=True)
    os._exit(97)


if plan.get("embed_pause_after") is not None:
    import numpy as np

    import rawrag_tui.models as models

    load_embedder = models.load_embedder

    class Paced:
        # The loaded embedder, paced: it embeds at most embed_pause_after windows and
        # stops before the next batch; the embedding up to there takes at least
        # min_embed_s. "instant": vectors at once (as from a much faster CPU) under the
        # real model's fingerprint and size, so later runs share the vector space.
        def __init__(self, inner):
            self.inner, self.fingerprint, self.dims = inner, inner.fingerprint, inner.dims
            self.embedded, self.started = 0, None

        def __getattr__(self, name):
            return getattr(self.inner, name)

        def embed(self, texts, kind="document"):
            if kind != "document":
                return self.inner.embed(texts, kind)
            if self.embedded >= plan["embed_pause_after"]:
                pause(f"after embedding {self.embedded} windows")
            if self.started is None:
                self.started = time.monotonic()
            if plan["instant"]:
                rows = [np.random.default_rng(zlib.crc32(t.encode())).standard_normal(self.dims) for t in texts]
                vectors = np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dims)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            else:
                vectors = self.inner.embed(texts, kind)
            self.embedded += len(texts)
            time.sleep(max(0.0, self.started + plan["min_embed_s"] - time.monotonic()))
            return vectors

    models.load_embedder = lambda settings: Paced(load_embedder(settings))

if plan.get("import_pause_after") is not None:
    import rawrag_tui.importers as importers

    parse = importers.parse

    def paced_parse(*args, **kwargs):
        # The export, paced: import_pause_after conversations, then it stops
        # (inside the import's transaction, which has taken them).
        for n, conversation in enumerate(parse(*args, **kwargs)):
            if n == plan["import_pause_after"]:
                pause(f"after reading {n} conversations")
            yield conversation

    importers.parse = paced_parse

from rawrag_tui.cli import main

sys.exit(main(argv))
"""


def start_and_kill(args, home: Path, *, embed_pause_after: int | None = None, import_pause_after: int | None = None,
                   min_embed_s: float = 0.0, instant_embedder: bool = False, timeout: float = 240) -> str:
    """Runs `rawrag ARGS` paced (:data:`PACED_CLI`) until it stops at the pause, then SIGKILLs it there.

    The kill lands at the chosen point whatever the machine's speed: the run
    cannot get past its pause. Returns its stderr up to the pause; fails if it
    ends before reaching the pause, or has not reached it in ``timeout`` s (a hang guard).
    """
    import subprocess

    plan = {"embed_pause_after": embed_pause_after, "import_pause_after": import_pause_after,
            "min_embed_s": min_embed_s, "instant": instant_embedder, "orphan_s": timeout + 600, "paused": PAUSED}
    env = dict(os.environ, RAWRAG_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-c", PACED_CLI, json.dumps(plan), *args], cwd=REPO, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return kill_at_pause(proc, f"rawrag {' '.join(args)}", timeout)


def kill_at_pause(proc, label: str, timeout: float) -> str:
    """Reads a paced run's stderr until its :data:`PAUSED` line, then SIGKILLs it there (no
    handler, no cleanup, as a crash or a power cut). Returns its stderr up to the pause; fails
    if it ends before the pause, or has not reached it in ``timeout`` s (a hang guard)."""
    import queue
    import threading
    import time

    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"{label}: no pause in {timeout:g} s: {''.join(seen)}") from None
            if line is None:
                raise AssertionError(f"{label} ended (exit {proc.wait()}) before its pause: " + "".join(seen))
            if line.startswith(PAUSED):
                return "".join(seen)
            seen.append(line)
    finally:
        proc.kill()
        proc.wait()


def bundled_reader_installed() -> bool:
    """llama-cpp-python and the bundled reader's GGUF are installed."""
    from rawrag_tui.models.gguf import BUNDLED_READER

    return reader_installed(BUNDLED_READER)


def needs_bundled_reader(test):
    """Skips ``test`` where llama-cpp-python or the bundled reader's GGUF is not installed."""
    return pytest.mark.skipif(not bundled_reader_installed(),
                              reason="the bundled reader (llama-cpp-python, its GGUF) is not installed")(test)


def write_chat(path, conversation: str, title: str, rows) -> Path:
    """A JSONL export of one direct chat: ``rows`` are (timestamp, speaker, text)."""
    return write_jsonl(path, [{"conversation": conversation, "title": title, "kind": "dm", "id": f"m{i}",
                               "timestamp": ts, "speaker": who, "text": text}
                              for i, (ts, who, text) in enumerate(rows)])


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
