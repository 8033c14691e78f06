"""Snapshots of every screen at fixed sizes, on deterministic data (fixed timestamps,
a pinned data location). Update with ``pytest tests/test_tui_snapshots.py --snapshot-update``
after a deliberate change, and look at the SVGs before committing them."""

from __future__ import annotations

from rawrag_tui import toolkit
from tests.tui_fixtures import app_for, fake_ask, filled, settle, tui_template, until  # noqa: F401

SMALL = (80, 24)
MEDIUM = (100, 30)
WIDE = (160, 30)


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


def test_search_with_filter_chips_at_80_columns(snap_compare, filled):
    """The footer keeps ? Keys and q Quit at 80 columns; the filters show as chips."""
    async def run_before(pilot):
        await pilot.press("slash", *"passport from:ana after:2026-03")
        await until(pilot, lambda: pilot.app.screen.result_text.endswith("after:2026-03"))
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=run_before)


def test_library_at_160_columns_says_more_sources_than_fit(snap_compare, open_memory, tmp_path):
    """Eight imports: the Sources pane shows what fits and says how many more there are."""
    from tests.tui_fixtures import write_fixture

    mem = open_memory()
    for n in range(8):
        rows = [{"conversation": f"c{n}", "title": f"Chat {n}", "kind": "dm", "id": f"m{n}", "speaker": "Ana",
                 "timestamp": f"2026-01-{n + 1:02d}T10:00:00Z", "text": f"message number {n} of the library"}]
        mem.import_path(write_fixture(tmp_path / "exports", f"export-{n}.jsonl", rows), "jsonl")
    assert snap_compare(app_for(mem), terminal_size=WIDE, run_before=settle)


def test_search_hits_at_80_columns_after_esc(snap_compare, filled):
    """Out of the box (esc), the footer at 80 columns has the screen's keys, ? Keys and q Quit."""
    async def run_before(pilot):
        await pilot.press("slash", *"renew passport")
        await until(pilot, lambda: getattr(pilot.app.screen.result, "query", None) == "renew passport")
        await pilot.press("escape")
        await settle(pilot)

    assert snap_compare(app_for(filled), terminal_size=SMALL, run_before=run_before)
