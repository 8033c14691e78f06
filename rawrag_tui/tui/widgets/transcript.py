"""A conversation as a readable transcript, virtualised: only visible lines are rendered.

A Line-API ScrollView over precomputed lines (see layout.py), so a
conversation of tens of thousands of messages costs one layout pass per
width and nothing per scroll step; no widget per message is ever mounted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...display import match_spans
from .. import keys
from .layout import Item, Line, header_text, layout, thread_order

GUTTER = 2
INDENT = 4


class TranscriptView(ScrollView, can_focus=True):
    BINDINGS = keys.scope_bindings("transcript")

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "transcript--speaker",
        "transcript--time",
        "transcript--text",
        "transcript--meta",
        "transcript--match",
        "transcript--cursor",
        "transcript--marked",
        "transcript--thread",
        "transcript--other-branch",
        "transcript--day",
    }

    cursor: reactive[int] = reactive(0, always_update=True)

    class CursorMoved(Message):
        def __init__(self, view: TranscriptView, message: dict | None):
            super().__init__()
            self.view = view
            self.message = message

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None):
        super().__init__(name=name, id=id, classes=classes)
        self.items: list[Item] = []
        self.marked: set[int] = set()
        self.query_text = ""
        self._lines: list[Line] = []
        self._starts: list[int] = []
        self._width = 0
        self._spans: dict[int, list[tuple[int, int]]] = {}
        self._style_cache: dict[str, Style] = {}

    def notify_style_update(self) -> None:
        self._style_cache.clear()
        super().notify_style_update()

    def _style(self, name: str) -> Style:
        """A component style, looked up once per theme/CSS change rather than once per line."""
        style = self._style_cache.get(name)
        if style is None:
            style = self.rich_style if name == "base" else self.get_component_rich_style(name)
            self._style_cache[name] = style
        return style

    # -- content -------------------------------------------------------------

    def show(self, messages: Sequence[dict], *, focus_message_id: int | None = None,
             marked: Iterable[int] = (), query: str = "") -> None:
        """Replace the transcript; put the cursor on ``focus_message_id`` (else the first message)."""
        self.items = thread_order(messages)
        self.marked = set(marked)
        self.query_text = query
        self._spans.clear()
        self._relayout(force=True)
        target = 0
        if focus_message_id is not None:
            target = next((n for n, it in enumerate(self.items) if it.message["id"] == focus_message_id), 0)
        self.move_to(target, top=focus_message_id is not None)

    def clear(self) -> None:
        self.show([])

    @property
    def current(self) -> dict | None:
        return self.items[self.cursor].message if self.items else None

    def _relayout(self, force: bool = False) -> None:
        width = max(self.scrollable_content_region.width - GUTTER, 10)
        if not force and width == self._width:
            return
        self._width = width
        self._lines, self._starts = layout(self.items, width, INDENT)
        self.virtual_size = Size(width + GUTTER, len(self._lines))
        self.refresh()

    def on_resize(self) -> None:
        keep = self.cursor
        self._relayout()
        if self.items:
            self._scroll_to_item(keep)

    # -- movement ------------------------------------------------------------

    def move_to(self, index: int, top: bool = False) -> None:
        if not self.items:
            self.cursor = 0
            self.scroll_to(y=0, animate=False)
            self.post_message(self.CursorMoved(self, None))
            return
        index = max(0, min(index, len(self.items) - 1))
        self.cursor = index
        self._scroll_to_item(index, top)
        self.post_message(self.CursorMoved(self, self.items[index].message))

    def _item_span(self, index: int) -> tuple[int, int]:
        start = self._starts[index]
        end = self._starts[index + 1] if index + 1 < len(self._starts) else len(self._lines)
        return start, end

    def _scroll_to_item(self, index: int, top: bool = False) -> None:
        if not self._starts:
            return
        start, end = self._item_span(index)
        height = self.scrollable_content_region.height or 1
        y = self.scroll_offset.y
        if top:
            y = max(start - 1, 0)
        elif start < y:
            y = start
        elif end > y + height:
            y = min(start, end - height)
        self.scroll_to(y=y, animate=False, immediate=True)

    def action_next_message(self) -> None:
        self.move_to(self.cursor + 1)

    def action_previous_message(self) -> None:
        self.move_to(self.cursor - 1)

    def action_first_message(self) -> None:
        self.move_to(0)

    def action_last_message(self) -> None:
        self.move_to(len(self.items) - 1)

    def _item_at_line(self, line: int) -> int:
        if not self._lines:
            return 0
        return self._lines[max(0, min(line, len(self._lines) - 1))].item

    def action_page_down(self) -> None:
        height = self.scrollable_content_region.height
        self.scroll_to(y=self.scroll_offset.y + height, animate=False, immediate=True)
        self.cursor = self._item_at_line(self.scroll_offset.y)
        self.post_message(self.CursorMoved(self, self.current))

    def action_page_up(self) -> None:
        height = self.scrollable_content_region.height
        self.scroll_to(y=self.scroll_offset.y - height, animate=False, immediate=True)
        self.cursor = self._item_at_line(self.scroll_offset.y)
        self.post_message(self.CursorMoved(self, self.current))

    def _marked_indexes(self) -> list[int]:
        return [n for n, it in enumerate(self.items) if it.message["id"] in self.marked]

    def action_next_mark(self) -> None:
        after = [n for n in self._marked_indexes() if n > self.cursor]
        if after:
            self.move_to(after[0])

    def action_previous_mark(self) -> None:
        before = [n for n in self._marked_indexes() if n < self.cursor]
        if before:
            self.move_to(before[-1])

    async def _on_click(self, event) -> None:
        line = self.scroll_offset.y + event.y
        if 0 <= line < len(self._lines):
            self.move_to(self._lines[line].item)

    # -- rendering -----------------------------------------------------------

    def _matches(self, item: int) -> list[tuple[int, int]]:
        if item not in self._spans:
            text = self.items[item].message.get("text") or ""
            self._spans[item] = match_spans(self.query_text, text) if self.query_text else []
        return self._spans[item]

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self._style("base")
        index = self.scroll_offset.y + y
        if index >= len(self._lines):
            return Strip.blank(width, base)
        line = self._lines[index]
        item = self.items[line.item]
        message = item.message
        style = self._style
        if line.kind == "day":  # a separator belongs to no message: never lit by the cursor
            rule = f"── {line.text} "
            rule += "─" * max(width - GUTTER - len(rule), 0)
            return Strip([Segment(" " * GUTTER, base), Segment(rule, base + self._style("transcript--day"))]
                         ).crop_extend(0, width, base)
        is_cursor = line.item == self.cursor and line.kind != "blank"
        is_marked = message["id"] in self.marked and line.kind != "blank"
        line_style = base
        if is_marked:
            line_style = base + style("transcript--marked")
        if is_cursor:
            line_style = base + style("transcript--cursor")
        if not message.get("on_main_branch", 1):
            line_style = line_style + style("transcript--other-branch")
        gutter = "▌ " if is_cursor else ("┃ " if is_marked else "  ")
        gutter_style = style("transcript--cursor") if is_cursor else style("transcript--marked")
        segments = [Segment(gutter, base + Style(color=gutter_style.bgcolor or gutter_style.color))]
        if item.depth and line.kind != "blank":
            segments.append(Segment("│" + " " * (INDENT - 1), line_style + style("transcript--thread")))
        segments.extend(self._content(line, line_style))
        return Strip(segments).crop_extend(0, width, line_style if line.kind != "blank" else base)

    def _content(self, line: Line, line_style: Style) -> list[Segment]:
        style = self._style
        if line.kind == "header":
            message = self.items[line.item].message
            speaker = message.get("speaker") or "?"
            rest = header_text(message)[len(speaker):]
            return [Segment(speaker, line_style + style("transcript--speaker")),
                    Segment(rest, line_style + style("transcript--time"))]
        if line.kind == "time":
            return [Segment(line.text, line_style + style("transcript--time"))]
        if line.kind == "meta":
            return [Segment(line.text, line_style + style("transcript--meta"))]
        if line.kind == "blank":
            return []
        text_style = line_style + style("transcript--text")
        match_style = text_style + style("transcript--match")
        start, end = line.start, line.start + len(line.text)
        segments, pos = [], start
        for a, b in self._matches(line.item):
            if b <= start or a >= end:
                continue
            a, b = max(a, start), min(b, end)
            if a > pos:
                segments.append(Segment(line.text[pos - start:a - start], text_style))
            segments.append(Segment(line.text[a - start:b - start], match_style))
            pos = b
        if pos < end:
            segments.append(Segment(line.text[pos - start:], text_style))
        return segments
