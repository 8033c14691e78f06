"""`rawrag encrypt` and `rawrag decrypt` killed midway (SIGKILL, no chance to tidy up): the old
store is intact and opens as before; the partial copy (plain text, for a decrypt) is gone after the
next open. Killed right after the rename, the new store opens. The kill lands where the test chose,
whatever the machine's speed: the run stops there for good (a pause patched in, as conftest's)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import keyring
import pytest

from rawrag_tui import toolkit
from rawrag_tui.memory import Memory
from rawrag_tui.storage import encryption, keys
from tests.conftest import PAUSED, REPO, kill_at_pause, write_jsonl

PASSPHRASE = "correct horse battery staple"
CANARY = "zorbulax"

#: `rawrag ARGS` that stops for good at plan["at"]: "copy" (the new copy half written, inside
#: SQLite's VACUUM INTO) or "swapped" (the copy renamed over the store, nothing after it done).
PACED_REWRITE = r"""
import json, os, sys, threading

plan, argv = json.loads(sys.argv[1]), sys.argv[2:]


def pause():
    print(plan["paused"], file=sys.stderr, flush=True)
    threading.Event().wait(plan["orphan_s"])  # the test kills it here
    os._exit(97)


from rawrag_tui.storage import encryption

if plan["at"] == "copy":
    copy = encryption._copy

    def paced_copy(db_path, tmp, new, stage, progress):
        def held(stage_, done, total):
            pause()  # the first report comes from inside VACUUM INTO, once the copy file exists
        return copy(db_path, tmp, new, stage, held)

    encryption._copy = paced_copy
else:
    swap = encryption._swap

    def paced_swap(tmp, db_path):
        swap(tmp, db_path)
        pause()

    encryption._swap = paced_swap

from rawrag_tui.cli import main

sys.exit(main(argv))
"""


def kill_at(at: str, args: list[str], home: Path, env: dict[str, str], timeout: float = 240) -> None:
    plan = {"at": at, "paused": PAUSED, "orphan_s": timeout + 600}
    proc = subprocess.Popen([sys.executable, "-c", PACED_REWRITE, json.dumps(plan), *args], cwd=REPO,
                            env={**os.environ, **env, "RAWRAG_HOME": str(home)}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    kill_at_pause(proc, f"rawrag {' '.join(args)}", timeout)


@pytest.fixture(autouse=True)
def _fresh_keys(monkeypatch):
    monkeypatch.setattr(keys, "_given", {})
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.null.Keyring")
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.null.Keyring())  # type: ignore[attr-defined]
    yield
    keyring.set_keyring(previous)


@pytest.fixture
def plain_store(tmp_path, home) -> dict[str, int]:
    """A plain store big enough that SQLite's copy of it reports progress from inside VACUUM INTO."""
    rows = [{"conversation": f"chat-{i % 6}", "id": f"m{i}", "speaker": "Kim",
             "timestamp": f"2025-03-{1 + i % 28:02d}T10:{i % 60:02d}:00Z",
             "text": f"note {i}: the {CANARY} ledger sits in drawer {i % 17} beside the tea"}
            for i in range(600)]
    with Memory.open(home) as mem:
        mem.import_path(write_jsonl(tmp_path / "notes.jsonl", rows), embed=False)
        return mem.counts()


def header(home: Path) -> bytes:
    return (home / "rawrag.db").read_bytes()[:16]


def files_with_canary(home: Path) -> list[str]:
    return [str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and CANARY.encode() in p.read_bytes()]


def assert_intact(home: Path, counts: dict[str, int]) -> None:
    with Memory.open(home) as mem:
        assert mem.counts() == counts
        hits = mem.search(f"{CANARY} drawer", mode="lexical").hits
        assert hits and CANARY in hits[0].messages[0].text
    assert not (home / ("rawrag.db" + encryption.REWRITE_SUFFIX)).exists()  # the next open removed the copy


def test_encrypt_killed_midway_leaves_the_plain_store(home, plain_store, monkeypatch):
    kill_at("copy", ["encrypt"], home, {"RAWRAG_PASSPHRASE": PASSPHRASE})
    assert (home / ("rawrag.db" + encryption.REWRITE_SUFFIX)).exists()  # killed while the copy was written
    assert header(home) == encryption.PLAIN_HEADER
    assert_intact(home, plain_store)
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    toolkit.encrypt_home(home)  # the killed run left no lock behind
    assert files_with_canary(home) == []


def test_decrypt_killed_midway_leaves_the_encrypted_store_and_no_plain_copy(home, plain_store, monkeypatch):
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    toolkit.encrypt_home(home)
    kill_at("copy", ["decrypt"], home, {"RAWRAG_PASSPHRASE": PASSPHRASE})
    assert (home / ("rawrag.db" + encryption.REWRITE_SUFFIX)).exists()
    assert header(home) != encryption.PLAIN_HEADER
    assert_intact(home, plain_store)
    assert files_with_canary(home) == []  # the half-written plain copy went with the next open


def test_killed_right_after_the_rename_the_new_store_opens(home, plain_store, monkeypatch):
    kill_at("swapped", ["encrypt"], home, {"RAWRAG_PASSPHRASE": PASSPHRASE})
    assert header(home) != encryption.PLAIN_HEADER and files_with_canary(home) == []
    monkeypatch.setenv("RAWRAG_PASSPHRASE", PASSPHRASE)
    assert_intact(home, plain_store)
