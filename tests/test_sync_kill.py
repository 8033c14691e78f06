"""A sync killed midway (SIGKILL), then run again, leaves the same store as one clean sync.

The test sets the pace, not the CPU: the sync runs in a subprocess whose
``runner.checkpoint`` (a no-op inside each file's transaction) stops for good
at a chosen file, with earlier files committed and this one's messages
written but not committed; the test kills it there.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

from .conftest import REPO, run_cli
from .sync_support import fake_home

PAUSED = "rawrag-test: sync paused"
PACED = r"""
import json, os, sys, threading

plan, argv = json.loads(sys.argv[1]), sys.argv[2:]
import rawrag_tui.sync.runner as runner


def checkpoint(where, files_read):
    if files_read == plan["pause_at"]:
        print(plan["paused"], where, files_read, file=sys.stderr, flush=True)
        threading.Event().wait(plan["orphan_s"])  # nothing releases it: the test kills it here
        os._exit(97)


runner.checkpoint = checkpoint
from rawrag_tui.cli import main

sys.exit(main(argv))
"""


def sync_killed_at(home, pause_at: int, timeout: float = 240) -> str:
    plan = {"pause_at": pause_at, "paused": PAUSED, "orphan_s": timeout + 600}
    env = dict(os.environ, RAWRAG_HOME=str(home))
    proc = subprocess.Popen([sys.executable, "-c", PACED, json.dumps(plan), "sync", "--no-embed", "--quiet"],
                            cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    seen = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:  # blocks until the pause line (or the end: then the test fails)
            if line.startswith(PAUSED):
                return line
            seen.append(line)
        raise AssertionError(f"the sync ended (exit {proc.wait()}) before its pause: {''.join(seen)}")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)


def store_contents(home) -> dict:
    """Everything a sync writes, without ids and times that differ between runs."""
    from rawrag_tui.memory import Memory

    with Memory.open(home) as mem:
        cur = mem.store.conn.cursor

        def rows(sql: str) -> list:
            return sorted(tuple(r) for r in cur().execute(sql))

        return {
            "messages": rows("SELECT c.format, c.external_id, m.external_id, m.seq, m.speaker, m.text, m.ts,"
                             " m.on_main_branch, m.content_hash FROM messages m JOIN conversations c"
                             " ON c.id = m.conversation_id"),
            "conversations": rows("SELECT format, external_id, title, kind, windowed_with FROM conversations"),
            "windows": rows("SELECT c.external_id, w.seq, w.text, w.content_hash FROM windows w"
                            " JOIN conversations c ON c.id = w.conversation_id"),
            "sources": rows("SELECT format, path, sha256, conversations, messages_added FROM sources"),
            "files": rows("SELECT path, format, size, read_to, lines, tail_hash, messages_added, state"
                          " FROM sync_files"),
        }


def test_sync_killed_midway_then_run_again_equals_one_clean_sync(tmp_path, monkeypatch):
    tree = fake_home(tmp_path, claude_sessions=6, codex_sessions=4, turns=3)
    monkeypatch.setenv("HOME", str(tree["home"]))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    clean, killed = tmp_path / "clean", tmp_path / "killed"
    assert run_cli("sync", "--no-embed", "--quiet", home=clean)[0] == 0

    where = sync_killed_at(killed, pause_at=4)
    assert "file 4" in where
    partial = store_contents(killed)
    assert len(partial["files"]) == 3  # three files committed, the fourth rolled back with its messages
    assert len(partial["messages"]) == sum(f[6] for f in partial["files"]) > 0

    code, out, err = run_cli("sync", "--no-embed", "--json", home=killed)
    assert code == 0, err
    assert json.loads(out)["added"] == tree["messages"] - len(partial["messages"])
    assert store_contents(killed) == store_contents(clean)
    assert len(store_contents(clean)["messages"]) == tree["messages"]
