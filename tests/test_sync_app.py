"""The app's "Sync now" (u on the Status screen) and its "Last sync" row; search goes on while a sync reads."""

from __future__ import annotations

import threading

from rawrag_tui.tui.service import MemoryGate
from tests.tui_fixtures import app_for, filled, run_async, settle, tui_template, until  # noqa: F401

from .sync_support import fake_home

SIZE = (100, 30)


@run_async
async def test_sync_now_from_the_status_screen_shows_the_last_sync(filled, tmp_path, monkeypatch):
    tree = fake_home(tmp_path, claude_sessions=2, codex_sessions=1)
    monkeypatch.setenv("HOME", str(tree["home"]))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: "Last sync" in getattr(app.screen, "rows", {}))
        assert app.screen.rows["Last sync"].startswith("never")
        await settle(pilot)  # the screen's own load done (the sync's reload would cancel it)
        await pilot.press("u")
        await until(pilot, lambda: not app.screen.indexing and "added" in app.screen.rows["Last sync"])
        await settle(pilot)
        assert " 12 messages added from 3 changed files" in app.screen.rows["Last sync"]
    assert filled.status()["last_sync"]["added"] == 12


def test_search_answers_while_a_sync_reads(filled, tmp_path, monkeypatch):
    """The sync holds the app's lock only around each file's transaction: stopped while it parses
    a file (outside the lock), a search through the same gate answers."""
    tree = fake_home(tmp_path, claude_sessions=2, codex_sessions=0)
    monkeypatch.setenv("HOME", str(tree["home"]))
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME"):
        monkeypatch.delenv(key, raising=False)
    import rawrag_tui.importers as importers

    parse, parsing, release = importers.parse, threading.Event(), threading.Event()

    def held_parse(*args, **kwargs):
        parsing.set()
        assert release.wait(120), "never released"
        yield from parse(*args, **kwargs)

    monkeypatch.setattr(importers, "parse", held_parse)
    gate = MemoryGate(filled)
    done: list = []
    worker = threading.Thread(target=lambda: done.append(gate.sync()), daemon=True)
    worker.start()
    assert parsing.wait(120)
    try:
        result = gate.search("passport")  # would wait for the lock if the sync held it
        assert result.hits and not gate.busy
    finally:
        release.set()
    worker.join(120)
    assert done and done[0].added == 8
