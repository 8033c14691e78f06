"""`rawrag sync --watch`: file-system events (watchfiles) start a sync, debounced.

Paced by events, not by sleeps: the test waits (bounded) for the sync that
the append causes, then stops the watcher.
"""

from __future__ import annotations

import threading

from .sync_support import fake_home


def test_an_appended_session_is_synced_by_the_watcher(tmp_path, monkeypatch, open_memory):
    tree = fake_home(tmp_path, claude_sessions=1, codex_sessions=0)
    monkeypatch.setenv("HOME", str(tree["home"]))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    mem = open_memory()
    syncing = mem.syncing()
    assert syncing.run(embed=False).added == 4
    stop, synced = threading.Event(), threading.Event()
    added: list[int] = []

    def on_change(paths: set[str]) -> None:
        added.append(syncing.run(embed=False).added)
        if sum(added):
            synced.set()
            stop.set()

    session = tree["claude"][0]
    watcher = threading.Thread(target=syncing.watch, args=(on_change, stop), daemon=True)
    watcher.start()
    for _ in range(60):  # the watcher may start after an append: append again until it reports one
        session.write(session.turn("watched question", "watched answer"))
        if synced.wait(5):
            break
    stop.set()
    watcher.join(30)
    assert synced.is_set() and not watcher.is_alive()
    assert sum(added) >= 2
