"""Snapshots of every screen at fixed sizes, on deterministic data (fixed timestamps,
a pinned data location). Update with ``pytest tests/test_tui_snapshots.py --snapshot-update``
after a deliberate change, and look at the SVGs before committing them."""

from __future__ import annotations

from rawrag_tui import toolkit
from tests.tui_fixtures import app_for, fake_ask, filled, settle, tui_template, until  # noqa: F401

SMALL = (80, 24)
MEDIUM = (100, 30)


def test_welcome_on_first_run(snap_compare, open_memory):
    assert snap_compare(app_for(open_memory()), terminal_size=SMALL, run_before=settle)


def test_library(snap_compare, filled):
    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=settle)


def test_search_results(snap_compare, filled):
    async def run_before(pilot):
        await pilot.press("slash", *"renew passport")
        await until(pilot, lambda: getattr(pilot.app.screen.result, "query", None) == "renew passport")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=MEDIUM, run_before=run_before)


def test_conversation_opened_at_a_hit(snap_compare, filled):
    async def run_before(pilot):
        await pilot.press("slash", *"renew passport", "enter")
        await until(pilot, lambda: getattr(pilot.app.screen.result, "query", None) == "renew passport")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=run_before)


def test_ask_with_answer_and_evidence(snap_compare, filled):
    filled.ask = fake_ask(filled)

    async def run_before(pilot):
        await pilot.press("a", *"What must Ben renew?", "enter")
        await until(pilot, lambda: pilot.app.screen.answer is not None)
        await pilot.press("e")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=MEDIUM, run_before=run_before)


def test_import(snap_compare, filled):
    async def run_before(pilot):
        await pilot.press("i")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=run_before)


def test_status(snap_compare, filled, monkeypatch):
    # The device and the file size depend on the machine, the fingerprint on embedder settings:
    # pin what the facade reports (the screen's own formatting still runs; test_tui_app checks the real row).
    monkeypatch.setattr(filled, "device",
                        lambda: {"device": "CPUExecutionProvider", "reason": "pinned for the snapshot"})
    # with or without the reader (a call that needs no home: toolkit, as the screen calls it)
    monkeypatch.setattr(toolkit, "reader_missing", lambda home=None: "not in this picture")
    # and no reader server found on this machine's loopback ports, whatever runs here
    monkeypatch.setattr(toolkit, "reader_servers", lambda ports=None: [])
    real_status = filled.status
    monkeypatch.setattr(filled, "status", lambda: {**real_status(), "embedding_fingerprint": "all-MiniLM-L6-v2-int8",
                                                   "database_bytes": 1024 * 1024})

    async def run_before(pilot):
        await pilot.press("s")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=run_before)


def test_help(snap_compare, filled):
    assert snap_compare(app_for(filled), terminal_size=SMALL, press=["question_mark"], run_before=settle)


def test_confirm_delete(snap_compare, filled):
    async def run_before(pilot):
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=run_before)
