"""The transcript: thread layout, wrapping, and a 20k-message conversation that stays quick."""

from __future__ import annotations

import time

from textual.app import App, ComposeResult

from rawrag_tui.tui.widgets.layout import layout, thread_order, wrap
from rawrag_tui.tui.widgets.transcript import TranscriptView
from tests.tui_fixtures import run_async


def msg(i: int, text: str = "hello", parent: str | None = None, main: int = 1, speaker: str = "Ana") -> dict:
    return {"id": i, "external_id": f"m{i}", "speaker": speaker, "ts": f"2026-03-01T09:{i % 60:02d}:00Z",
            "text": text, "attachments": "[]", "captions": "[]", "parent_external_id": parent,
            "on_main_branch": main}


def test_slack_style_threads_are_grouped_under_their_root():
    messages = [msg(0), msg(1), msg(2, parent="m0"), msg(3), msg(4, parent="m0"), msg(5, parent="m3")]
    order = [(it.message["external_id"], it.depth) for it in thread_order(messages)]
    assert order == [("m0", 0), ("m2", 1), ("m4", 1), ("m1", 0), ("m3", 0), ("m5", 1)]


def test_a_slack_reply_right_after_its_parent_is_still_a_reply():
    messages = [msg(0), msg(1), msg(2, parent="m1"), msg(3)]
    order = [(it.message["external_id"], it.depth) for it in thread_order(messages)]
    assert order == [("m0", 0), ("m1", 0), ("m2", 1), ("m3", 0)]


def test_linear_chains_and_other_branches_stay_flat():
    """ChatGPT: every message names its predecessor; a regeneration is off the main branch."""
    messages = [msg(0), msg(1, parent="m0"), msg(2, parent="m1", main=0), msg(3, parent="m1"), msg(4, parent="m3")]
    order = [(it.message["external_id"], it.depth) for it in thread_order(messages)]
    assert order == [("m0", 0), ("m1", 0), ("m2", 0), ("m3", 0), ("m4", 0)]


def test_wrap_keeps_offsets_into_the_text():
    text = "the quick brown fox jumps over the lazy dog\nsecond line"
    spans = wrap(text, 10)
    pieces = [text[a:b] for a, b in spans]
    assert pieces == ["the quick", "brown fox", "jumps over", "the lazy", "dog", "second", "line"]
    assert wrap("x" * 25, 10) == [(0, 10), (10, 20), (20, 25)]


def test_layout_has_header_text_meta_and_blank_lines():
    m = msg(0, "a photo", speaker="Ben")
    m["captions"] = '["image: cat.jpg"]'
    m["attachments"] = '["cat.jpg"]'
    lines, starts = layout(thread_order([m, msg(1)]), 40)
    assert [ln.kind for ln in lines[: starts[1]]] == ["header", "text", "meta", "meta", "blank"]
    assert lines[2].text == "[image] image: cat.jpg" and lines[3].text == "[attachment] cat.jpg"


def test_layout_of_20k_messages_is_fast():
    messages = [msg(i, ("word " * (5 + i % 60)).strip(), parent=f"m{i - 1}" if i else None) for i in range(20_000)]
    started = time.perf_counter()
    lines, _ = layout(thread_order(messages), 76)
    elapsed = time.perf_counter() - started
    assert len(lines) > 80_000
    assert elapsed < 3.0, f"layout took {elapsed:.2f}s"  # ~0.5 s on a loaded 2-core VM


class Harness(App):
    def compose(self) -> ComposeResult:
        yield TranscriptView()


@run_async
async def test_scrolling_20k_messages_in_the_widget():
    messages = [msg(i, f"message number {i} " + "lorem ipsum " * (i % 12), speaker="Ana" if i % 2 else "Ben")
                for i in range(20_000)]
    app = Harness()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(TranscriptView)
        started = time.perf_counter()
        view.show(messages, focus_message_id=10_000, marked={10_000, 10_001}, query="lorem")
        view.focus()
        await pilot.pause()
        assert view.current["id"] == 10_000
        assert time.perf_counter() - started < 3.0
        started = time.perf_counter()
        await pilot.press("G")
        assert view.current["id"] == 19_999
        await pilot.press("k", "k", "pagedown", "pageup", "g")
        assert view.cursor == 0 and view.scroll_offset.y == 0
        await pilot.press(*["j"] * 30)
        assert view.current["id"] == 30
        await pilot.pause()
        assert time.perf_counter() - started < 5.0  # each key is one small redraw
        view.move_to(10_000)
        await pilot.press("n")
        assert view.current["id"] == 10_001
        await pilot.press("N")
        assert view.current["id"] == 10_000
