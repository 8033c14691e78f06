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
    assert [ln.kind for ln in lines[: starts[1]]] == ["day", "header", "text", "meta", "meta", "blank"]
    assert lines[0].text == "Sunday 1 March 2026"
    assert lines[3].text == "[image] image: cat.jpg" and lines[4].text == "[attachment] cat.jpg"


def test_days_are_separated_and_one_persons_run_is_one_block():
    """No "Micah Stubbs 2015-06-09 Tue 16:34" four times in a row: one header per run of one
    person's messages in a day, the clock again after a pause, a separator per day."""
    run = [msg(0, speaker="Micah"), msg(1, speaker="Micah"), msg(2, speaker="Micah"), msg(15, speaker="Micah"),
           msg(16, speaker="Ana")]
    next_day = msg(17, speaker="Ana")
    next_day["ts"] = "2026-03-02T08:00:00Z"
    lines, starts = layout(thread_order([*run, next_day]), 40)
    kinds = [(ln.item, ln.kind) for ln in lines if ln.kind != "text"]
    assert kinds == [(0, "day"), (0, "header"), (3, "time"), (3, "blank"),  # Micah's four: one header
                     (4, "header"), (4, "blank"),
                     (5, "day"), (5, "header"), (5, "blank")]  # Ana again, but another day
    assert [ln.text for ln in lines if ln.kind in ("day", "time")] == [
        "Sunday 1 March 2026", "09:15", "Monday 2 March 2026"]
    assert starts[5] == next(i for i, ln in enumerate(lines) if ln.item == 5)  # the separator leads its message


def test_replies_group_inside_their_thread_not_with_the_root():
    messages = [msg(0), msg(1, parent="m0", speaker="Ben"), msg(2, parent="m0", speaker="Ben"), msg(3)]
    lines, _ = layout(thread_order(messages), 40)
    assert [(ln.item, ln.kind) for ln in lines if ln.kind != "text"] == [
        (0, "day"), (0, "header"), (0, "blank"), (1, "header"), (2, "blank"), (3, "header"), (3, "blank")]


def test_layout_of_20k_messages_is_fast():
    """Linear in the messages, measured against this machine's own pace (not a number of
    seconds, which a slow or busy machine misses): 20x the messages cost about 20x the
    CPU time (22-28x on a busy 2-core VM), where a quadratic layout would cost 400x."""

    def cpu_seconds(n: int) -> tuple[float, int]:
        messages = [msg(i, ("word " * (5 + i % 60)).strip(), parent=f"m{i - 1}" if i else None,
                        speaker="Ana" if i % 3 else "Ben") for i in range(n)]
        best = float("inf")
        for _ in range(3):
            started = time.process_time()  # this process's CPU time: other processes do not count
            lines, _ = layout(thread_order(messages), 76)
            best = min(best, time.process_time() - started)
        return best, len(lines)

    small, _ = cpu_seconds(1_000)
    big, lines = cpu_seconds(20_000)
    assert lines > 80_000
    assert big < 100 * max(small, 1e-4), f"1,000 messages: {small:.3f} s, 20,000: {big:.3f} s"


class Harness(App):
    def compose(self) -> ComposeResult:
        yield TranscriptView()


@run_async
async def test_scrolling_20k_messages_in_the_widget(monkeypatch):
    """Counted, not timed (a machine's speed is no test's business): showing 20k messages
    lays them out once (the layout's cost: the test above), and each key redraws one
    screen of lines, never the transcript."""
    from rawrag_tui.tui.widgets import transcript

    passes: list[int] = []
    drawn: list[int] = []
    real_layout, real_render_line = transcript.layout, TranscriptView.render_line

    def counted_layout(items, *args, **kwargs):
        passes.append(len(items))
        return real_layout(items, *args, **kwargs)

    def counted_render_line(self, y):
        drawn.append(y)
        return real_render_line(self, y)

    monkeypatch.setattr(transcript, "layout", counted_layout)
    monkeypatch.setattr(TranscriptView, "render_line", counted_render_line)
    messages = [msg(i, f"message number {i} " + "lorem ipsum " * (i % 12), speaker="Ana" if i % 2 else "Ben")
                for i in range(20_000)]
    app = Harness()
    async with app.run_test(size=(80, 24)) as pilot:
        view = app.query_one(TranscriptView)
        passes.clear()
        drawn.clear()
        view.show(messages, focus_message_id=10_000, marked={10_000, 10_001}, query="lorem")
        view.focus()
        await pilot.pause()
        assert view.current["id"] == 10_000
        assert passes == [20_000] and 0 < len(drawn) <= 2 * 24  # one layout pass, one screen drawn
        drawn.clear()
        keys = 1 + 5 + 30
        await pilot.press("G")
        assert view.current["id"] == 19_999
        await pilot.press("k", "k", "pagedown", "pageup", "g")
        assert view.cursor == 0 and view.scroll_offset.y == 0
        await pilot.press(*["j"] * 30)
        assert view.current["id"] == 30
        await pilot.pause()
        assert passes == [20_000]  # no key lays the transcript out again
        assert len(drawn) <= 2 * 24 * keys  # each key is one small redraw (24 lines a key when measured)
        view.move_to(10_000)
        await pilot.press("n")
        assert view.current["id"] == 10_001
        await pilot.press("N")
        assert view.current["id"] == 10_000
