"""``x`` in the app: the open conversation exported (md, html, jsonl) through the real store, 0600,
never over a file without a yes, in a worker the app keeps answering keys beside."""

from __future__ import annotations

import html
import json
import os
import stat
import threading
from pathlib import Path

from textual.widgets import Input

from rawrag_tui.tui import keys
from rawrag_tui.tui.screens.conversation import ConversationScreen
from rawrag_tui.tui.screens.dialogs import HelpScreen
from rawrag_tui.tui.screens.export import ConfirmReplace, ExportDialog, default_path, downloads_folder
from rawrag_tui.tui.screens.library import LibraryScreen
from tests.tui_fixtures import app_for, filled, run_async, settle, tui_template, until  # noqa: F401

SIZE = (100, 30)


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def notes(app) -> list[str]:
    return [n.message for n in app._notifications]


def stored(mem, title: str) -> tuple[int, list[dict]]:
    conversation = next(c for c in mem.conversations() if c["title"] == title)
    return conversation["id"], mem.messages(conversation["id"])


async def open_dialog(app, pilot) -> ExportDialog:
    await pilot.press("x")
    await settle(pilot, 1)
    assert isinstance(app.screen, ExportDialog)
    return app.screen


async def export_to(app, pilot, path: Path) -> None:
    """Type ``path`` in the open dialog's box and press enter."""
    box = app.screen.query_one("#export-path", Input)
    box.focus()
    box.value = str(path)
    await pilot.press("enter")


def test_the_default_file_is_named_after_the_title_and_first_date(tmp_path):
    assert default_path("Lisbon trip", "2026-03-01T09:00:00Z", "md", tmp_path) == tmp_path / "lisbon-trip-2026-03-01.md"
    assert default_path("Café ☕ / plans?", None, "html", tmp_path).name == "café-plans.html"
    assert default_path("///", "2015-06-09T16:34:00Z", "jsonl", tmp_path).name == "conversation-2015-06-09.jsonl"


def test_the_default_folder_is_downloads_or_home_without_one(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no user-dirs.dirs there
    monkeypatch.delenv("XDG_DOWNLOAD_DIR", raising=False)
    assert downloads_folder() == tmp_path
    (tmp_path / "Downloads").mkdir()
    assert downloads_folder() == tmp_path / "Downloads"


@run_async
async def test_x_in_the_library_exports_the_shown_conversation_as_markdown_0600(filled, tmp_path):
    cid, messages = stored(filled, "Lisbon trip")
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        library = app.screen
        assert isinstance(library, LibraryScreen) and library.shown_conversation == cid
        titles = [c.title for c in app.get_system_commands(library)]
        assert titles.count("Export conversation") == 1  # the palette lists it once
        assert [k.id for k in keys.KEYS if k.action == "export"] == ["export.open"]  # and the help once
        dialog = await open_dialog(app, pilot)
        box = dialog.query_one("#export-path", Input)
        assert box.has_focus and box.value.endswith("lisbon-trip-2026-03-01.md")
        target = tmp_path / "trip.md"
        await export_to(app, pilot, target)
        await until(pilot, lambda: any(n.startswith("exported") for n in notes(app)))
        assert f"exported {len(messages)} messages to {target}" in notes(app)
        assert app.screen is library
    assert mode_of(target) == 0o600
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Lisbon trip")
    assert text.count("\n**") == len(messages) == 6  # one header line per message
    for m in messages:
        assert all(f"> {line}" in text for line in m["text"].split("\n") if line)
        assert f"`{m['external_id']}`" in text


@run_async
async def test_x_on_a_conversation_opened_from_a_hit_exports_html_with_day_headings(filled, tmp_path):
    cid, messages = stored(filled, "Lisbon trip")
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"renew passport", "enter")
        await until(pilot, lambda: getattr(app.screen.result, "query", None) == "renew passport")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        opened = app.screen
        assert isinstance(opened, ConversationScreen) and opened.conversation_id == cid
        dialog = await open_dialog(app, pilot)
        await pilot.press("shift+tab", "down", "enter")  # the formats: md -> html
        await settle(pilot, 1)
        assert dialog.fmt == "html"
        box = dialog.query_one("#export-path", Input)
        assert box.value.endswith("lisbon-trip-2026-03-01.html")
        assert box.has_focus  # back in the path box, where enter exports
        target = tmp_path / "trip.html"
        await export_to(app, pilot, target)
        await until(pilot, lambda: any(n.startswith("exported") for n in notes(app)))
        assert f"exported {len(messages)} messages to {target}" in notes(app)
        assert app.screen is opened
    assert mode_of(target) == 0o600
    page = target.read_text(encoding="utf-8")
    assert page.count('<div class="m') == len(messages)
    assert page.count("<h3>") == 2 and "<h3>2026-03-01 Sun</h3>" in page and "<h3>2026-03-02 Mon</h3>" in page
    assert all(html.escape(m["text"]) in page for m in messages)
    assert "http://" not in page and "https://" not in page and "<script" not in page  # reads offline


@run_async
async def test_an_existing_file_is_replaced_only_after_a_yes(filled, tmp_path):
    cid, messages = stored(filled, "Lisbon trip")
    target = tmp_path / "trip.jsonl"
    target.write_text("keep me\n")
    target.chmod(0o644)
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await open_dialog(app, pilot)
        await pilot.press("shift+tab", "down", "down", "enter")  # jsonl
        await export_to(app, pilot, target)
        await settle(pilot, 1)
        assert isinstance(app.screen, ConfirmReplace)
        await pilot.press("n")  # keep it: back in the dialog, nothing written
        await settle(pilot)
        assert app.screen is dialog and target.read_text() == "keep me\n"
        await pilot.press("enter")
        await settle(pilot, 1)
        assert isinstance(app.screen, ConfirmReplace)
        await pilot.press("y")
        await until(pilot, lambda: any(n.startswith("exported") for n in notes(app)))
    assert mode_of(target) == 0o600  # the older file's mode does not survive
    lines = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [(r["message_id"], r["text"]) for r in lines] == [(m["id"], m["text"]) for m in messages]
    assert {r["conversation_id"] for r in lines} == {cid}


@run_async
async def test_x_typed_in_the_filter_box_types_an_x(filled):
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f", "x")
        await settle(pilot, 1)
        assert isinstance(app.screen, LibraryScreen)
        assert app.screen.query_one("#conv-filter", Input).value == "x"


@run_async
async def test_errors_are_one_line_and_the_dialog_stays(filled, tmp_path):
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await open_dialog(app, pilot)
        await export_to(app, pilot, tmp_path / "no" / "such" / "folder.md")
        await settle(pilot, 1)
        assert app.screen is dialog
        assert notes(app)[-1] == f"{tmp_path / 'no' / 'such'}: no such folder."
        await export_to(app, pilot, tmp_path)
        await settle(pilot, 1)
        assert app.screen is dialog and notes(app)[-1] == f"{tmp_path}: is a folder; give a file name in it."
        # the conversation goes while the dialog is open: one line, nothing written
        cid = app.screen_stack[0].shown_conversation
        filled.delete_conversation(cid)
        await export_to(app, pilot, tmp_path / "gone.md")
        await settle(pilot)
        assert notes(app)[-1] == f"no conversation with id {cid}"
        assert not (tmp_path / "gone.md").exists()
        assert "Traceback" not in "".join(notes(app))


@run_async
async def test_the_app_answers_keys_while_a_long_export_runs(filled, tmp_path):
    """The export is held mid-render (a slow double around the real one): the app still opens
    the help and closes it, then the export finishes and says so."""
    app = app_for(filled)
    started, release = threading.Event(), threading.Event()
    real = app.gate.export

    def held(fmt, conversation_id):
        started.set()
        assert release.wait(60), "never let go"  # a guard against a hang only
        return real(fmt, conversation_id)

    app.gate.export = held  # type: ignore[method-assign]
    target = tmp_path / "slow.md"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await open_dialog(app, pilot)
        await export_to(app, pilot, target)
        while not started.is_set():
            await pilot.pause(0.05)
        await pilot.press("question_mark")
        await pilot.pause(0.1)
        assert isinstance(app.screen, HelpScreen) and not target.exists()
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert isinstance(app.screen, LibraryScreen)
        release.set()
        await until(pilot, lambda: any(n.startswith("exported") for n in notes(app)))
    assert target.exists() and mode_of(target) == 0o600
    assert os.path.getsize(target) > 0
