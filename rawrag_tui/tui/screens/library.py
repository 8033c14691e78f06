"""Library: sources, their conversations (filterable), and the selected conversation's transcript."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from .. import keys
from ..fmt import plural, short_date, source_label
from ..widgets.lists import VimOptionList
from ..widgets.transcript import TranscriptView
from .base import RawragScreen
from .export import start_export


def span(first: str | None, last: str | None) -> str:
    """2026-01→10, or 2025-11→2026-02 across years."""
    if not first or not last:
        return "?"
    if first[:7] == last[:7]:
        return first[:7]
    return f"{first[:7]}→{last[5:7] if first[:4] == last[:4] else last[:7]}"


class LibraryScreen(RawragScreen):
    PLACE = "library"
    BINDINGS = keys.scope_bindings("library") + keys.bindings("export.open")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"library--title", "library--meta"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.source_ids: list[int | None] = [None]
        self.sources: list[dict] = []
        self.conversations: dict[int, dict] = {}
        self.shown_conversation: int | None = None
        self._preview_timer = None
        self._filter_timer = None

    def body(self) -> ComposeResult:
        with Horizontal(id="library"):
            with Vertical(id="library-left"):
                yield Label("Sources", classes="pane-title", id="sources-title")
                yield VimOptionList(id="sources")
                yield Input(placeholder="filter conversations (f)", id="conv-filter", compact=True)
                yield Label("Conversations", classes="pane-title", id="conversations-title")
                yield VimOptionList(id="conversations")
            with Vertical(id="library-right"):
                yield Label("", id="transcript-title", classes="pane-title")
                yield TranscriptView(id="transcript")

    def on_mount(self) -> None:
        self.query_one("#conv-filter", Input).cursor_blink = self.host.cursor_blink
        self.focus_main()

    def focus_main(self) -> None:
        self.query_one("#conversations").focus()

    # -- loading -------------------------------------------------------------

    def refresh_data(self) -> None:
        self.load_lists(self.selected_source(), self.query_one("#conv-filter", Input).value)

    def selected_source(self) -> int | None:
        index = self.query_one("#sources", OptionList).highlighted
        return self.source_ids[index] if index is not None and index < len(self.source_ids) else None

    @work(thread=True, exclusive=True, group="library-lists")
    def load_lists(self, source_id: int | None, text_filter: str) -> None:
        sources = self.gate.sources()
        if source_id is not None and all(s["id"] != source_id for s in sources):
            source_id = None
        conversations = self.gate.conversations(source_id, text_filter or None)
        self.app.call_from_thread(self.show_lists, sources, source_id, conversations)

    def show_lists(self, sources: list[dict], source_id: int | None, conversations: list[dict]) -> None:
        self.sources = sources
        option_list = self.query_one("#sources", OptionList)
        total = sum(s.get("messages", 0) for s in sources)
        options = [Option(f"All sources · {total:,} msgs")] + [Option(source_label(s)) for s in sources]
        self.source_ids = [None] + [s["id"] for s in sources]
        with self.prevent(OptionList.OptionHighlighted):
            option_list.set_options(options)
            option_list.highlighted = self.source_ids.index(source_id) if source_id in self.source_ids else 0
        self.show_conversations(conversations)
        self.call_after_refresh(self.title_sources)

    def on_resize(self) -> None:
        if self.sources:
            self.call_after_refresh(self.title_sources)

    def title_sources(self) -> None:
        """"Sources (6)", and how many the pane hides when they do not all fit: no silent cut."""
        option_list = self.query_one("#sources", OptionList)
        shown = option_list.scrollable_content_region.height
        hidden = option_list.option_count - shown if shown else 0
        title = f"Sources ({len(self.sources):,})"
        if hidden > 0:
            title += f" · +{hidden} more, scroll (j/k)"
        self.query_one("#sources-title", Label).update(title)

    def conversation_prompt(self, c: dict, width: int) -> Text:
        """Two lines: the title (cut to one line) and months · count · kind."""
        style = self.get_component_rich_style
        title = c["title"] or "(untitled)"
        if len(title) > width:
            title = title[: width - 1] + "…"
        prompt = Text(title, style=style("library--title"))
        count = c["messages"]
        # the dates first: a narrow pane cuts the end of the line, and the kind matters least
        meta = f"{span(c['first_ts'], c['last_ts'])} · {count:,} msg{'s' if count != 1 else ''} · {c['kind'] or '?'}"
        prompt.append("\n" + (meta if len(meta) <= width else meta[: width - 1] + "…"), style=style("library--meta"))
        return prompt

    def show_conversations(self, conversations: list[dict]) -> None:
        option_list = self.query_one("#conversations", OptionList)
        previous = self.shown_conversation
        self.conversations = {c["id"]: c for c in conversations}
        self.query_one("#conversations-title", Label).update(f"Conversations ({len(conversations):,})")
        with self.prevent(OptionList.OptionHighlighted):
            width = max(option_list.scrollable_content_region.width - 2, 20)
            option_list.set_options(Option(self.conversation_prompt(c, width), id=str(c["id"])) for c in conversations)
            if conversations:
                row = next((n for n, c in enumerate(conversations) if c["id"] == previous), 0)
                option_list.highlighted = row
        if not conversations:
            self.show_transcript(None, [])
            return
        self.preview(conversations[option_list.highlighted or 0]["id"])

    @on(OptionList.OptionHighlighted, "#sources")
    def source_changed(self, event: OptionList.OptionHighlighted) -> None:
        self.load_lists(self.selected_source(), self.query_one("#conv-filter", Input).value)

    @on(Input.Changed, "#conv-filter")
    def filter_changed(self, event: Input.Changed) -> None:
        if self._filter_timer:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(0.15, lambda: self.load_lists(self.selected_source(), event.value))

    @on(Input.Submitted, "#conv-filter")
    def filter_done(self) -> None:
        self.query_one("#conversations").focus()

    @on(OptionList.OptionHighlighted, "#conversations")
    def row_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        cid = int(event.option.id)  # type: ignore[arg-type]  # every option here is built with an id
        if cid == self.shown_conversation:
            return
        if self._preview_timer:
            self._preview_timer.stop()
        self._preview_timer = self.set_timer(0.12, lambda: self.preview(cid))

    @on(OptionList.OptionSelected, "#conversations")
    def row_selected(self, event: OptionList.OptionSelected) -> None:
        self.query_one(TranscriptView).focus()

    def preview(self, conversation_id: int) -> None:
        self.shown_conversation = conversation_id
        self.load_transcript(conversation_id)

    @work(thread=True, exclusive=True, group="library-transcript")
    def load_transcript(self, conversation_id: int) -> None:
        messages = self.gate.messages(conversation_id)
        self.app.call_from_thread(self.show_transcript, conversation_id, messages)

    def show_transcript(self, conversation_id: int | None, messages: list[dict]) -> None:
        if conversation_id != self.shown_conversation and conversation_id is not None:
            return  # a newer selection is loading
        title = self.query_one("#transcript-title", Label)
        c = self.conversations.get(conversation_id) if conversation_id is not None else None
        if c is None:
            self.shown_conversation = None
            title.update("No conversations" if not self.conversations else "")
        else:
            # the dates before the kind, and the line wraps in a narrow pane: the dates are never cut
            title.update(f"{c['title'] or '(untitled)'} · {short_date(c['first_ts'])} → {short_date(c['last_ts'])}"
                         f" · {plural(c['messages'], 'message')} · {c['kind']}")
        self.query_one(TranscriptView).show(messages)

    def highlighted_conversation(self) -> int | None:
        option = self.query_one("#conversations", OptionList).highlighted_option
        return int(option.id) if option is not None else None  # type: ignore[arg-type]  # built with an id

    # -- actions -------------------------------------------------------------

    def action_focus_filter(self) -> None:
        self.query_one("#conv-filter").focus()

    def action_back(self) -> None:
        self.query_one("#conversations").focus()

    def action_delete(self) -> None:
        if self.focused is self.query_one("#sources"):
            source_id = self.selected_source()
            if source_id is not None:
                source = next(s for s in self.sources if s["id"] == source_id)
                self.host.confirm_delete("source", source_id, source_label(source),
                                         f"{source.get('messages', 0):,} messages from this import")
                return
        cid = self.highlighted_conversation()
        if cid is not None and cid in self.conversations:
            c = self.conversations[cid]
            self.host.confirm_delete("conversation", cid, c["title"] or "(untitled)", f"{c['messages']:,} messages")

    def action_export(self) -> None:
        """The conversation whose transcript is shown (the highlighted row's, once its preview loads)."""
        c = self.conversations.get(self.shown_conversation) if self.shown_conversation is not None else None
        if c is None:
            self.app.notify("No conversation to export.", severity="warning")
            return
        start_export(self, c["id"], c["title"] or "(untitled)", c["first_ts"])
