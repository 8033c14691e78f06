"""Many faces on one home: a writer that waits past SQLite's busy timeout
hears one line, never an apsw traceback, and the store is left as it was.

Two real processes: one is a rawrag import held open mid-transaction (its
progress callback waits), the other is the `rawrag import` command.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from .conftest import REPO, run_cli, write_jsonl

HOLDER = r"""
import sys, time
from pathlib import Path
from rawrag_tui.memory import Memory

held = []

def progress(stage, done, total):
    if stage == "import" and not held:
        held.append(1)
        print("holding", flush=True)
        sys.stdin.readline()  # keep the import's write transaction open until told

with Memory.open(sys.argv[1]) as mem:
    report = mem.import_path(sys.argv[2], "jsonl", embed=False, progress=progress)
print("imported", report.messages_added, flush=True)
"""


def rows(conversation: str, n: int) -> list[dict]:
    return [{"conversation": conversation, "speaker": "Ana" if i % 2 else "Ben", "text": f"{conversation} line {i}",
             "timestamp": f"2024-03-0{1 + i % 9}T10:00:00Z", "id": f"{conversation}-{i}"} for i in range(n)]


@pytest.mark.slow
def test_a_writer_blocked_by_another_import_gets_one_line(tmp_path):
    home = tmp_path / "home"
    first = write_jsonl(tmp_path / "first.jsonl", rows("first", 6))
    second = write_jsonl(tmp_path / "second.jsonl", rows("second", 4))
    code, _, err = run_cli("import", str(first), "--format", "jsonl", home=home)
    assert code == 0, err
    third = write_jsonl(tmp_path / "third.jsonl", rows("third", 5))

    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(home), str(third)], cwd=REPO, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert holder.stdout.readline().strip() == "holding", holder.stderr.read()
        started = time.monotonic()
        code, out, err = run_cli("import", str(second), "--format", "jsonl", home=home, timeout=120)
        waited = time.monotonic() - started
        assert code == 1, (out, err)
        assert err == "rawrag: error: another rawrag is importing into this home; try again when it finishes\n"
        assert waited > 8  # it waited out the busy timeout (10 s) for the lock, then gave up
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "imported 5"
    finally:
        holder.kill() if holder.poll() is None else None
        holder.wait(timeout=30)

    code, out, _ = run_cli("status", "--json", home=home)
    assert code == 0
    import json

    status = json.loads(out)
    assert status["messages"] == 11 and status["sources"] == 2  # first and third; nothing of second
