"""One conversation, full width, opened at a message (from a search hit or a citation)."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.widgets import Label

from .. import keys
from ..fmt import plural, short_date
from ..widgets.transcript import TranscriptView
from .base import RawragScreen
from .export import start_export


class ConversationScreen(RawragScreen):
    BINDINGS = keys.scope_bindings("conversation") + keys.bindings("export.open")

    def __init__(self, conversation_id: int, *, focus_message_id: int | None = None,
                 marked: tuple[int, ...] = (), query: str = "", place: str = ""):
        super().__init__()
        self.conversation_id = conversation_id
        self.focus_message_id = focus_message_id
        self.marked = tuple(marked)
        self.query_text = query
        self.PLACE = place
        self.info: dict | None = None
        self.first_ts: str | None = None

    def body(self) -> ComposeResult:
        yield Label("", id="conversation-title", classes="pane-title")
        yield TranscriptView(id="conversation-transcript")

    def focus_main(self) -> None:
        self.query_one(TranscriptView).focus()

    def on_mount(self) -> None:
        self.focus_main()

    def refresh_data(self) -> None:
        self.load()

    @work(thread=True, exclusive=True, group="conversation")
    def load(self) -> None:
        info = self.gate.conversation(self.conversation_id)
        messages = self.gate.messages(self.conversation_id) if info else []
        self.app.call_from_thread(self.show, info, messages)

    def show(self, info: dict | None, messages: list[dict]) -> None:
        if info is None:
            self.app.notify("That conversation is no longer in your library.", severity="warning")
            self.dismiss()
            return
        self.info = info
        first = self.first_ts = messages[0]["ts"] if messages else None
        last = messages[-1]["ts"] if messages else None
        marks = f" · {len(self.marked)} marked (n: next)" if self.marked else ""
        self.query_one("#conversation-title", Label).update(
            f"{info['title'] or '(untitled)'} · {info['kind']} · {short_date(first)} → {short_date(last)} · "
            f"{plural(len(messages), 'message')}{marks}")
        self.query_one(TranscriptView).show(messages, focus_message_id=self.focus_message_id,
                                            marked=self.marked, query=self.query_text)

    def action_back(self) -> None:
        self.dismiss()

    def action_delete(self) -> None:
        if self.info is not None:
            count = len(self.query_one(TranscriptView).items)
            self.host.confirm_delete("conversation", self.conversation_id, self.info["title"] or "(untitled)",
                                     f"{count:,} messages")

    def action_export(self) -> None:
        if self.info is not None:
            start_export(self, self.conversation_id, self.info["title"] or "(untitled)", self.first_ts)
