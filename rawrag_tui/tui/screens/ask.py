"""Ask: a question, the answer streaming in, its citations openable, the evidence on demand."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Input, Label, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from ... import toolkit
from ...display import message_line
from ...errors import UserError
from .. import keys, service
from ..fmt import readable_math, when
from ..widgets.lists import VimOptionList
from .base import RawragScreen

CITATION = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")


class AskScreen(RawragScreen):
    PLACE = "ask"
    BINDINGS = keys.scope_bindings("ask")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"ask--citation", "ask--speaker", "ask--note"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.answer = None
        self.streamed = ""
        self.citations: list = []
        self.showing_all = False  # the evidence box holds the search's every message, not the reader's

    def body(self) -> ComposeResult:
        yield Input(placeholder="ask a question about your history, then enter", id="question")
        yield ProgressBar(id="reading", total=1, show_eta=True, classes="hidden")
        with VerticalScroll(id="answer-box"):
            yield Static("", id="answer")
        yield Label("Citations", classes="pane-title", id="citations-title")
        yield VimOptionList(id="citations")
        with VerticalScroll(id="evidence-box", classes="hidden"):
            yield Static("", id="evidence")

    def on_mount(self) -> None:
        self.query_one("#question", Input).cursor_blink = self.host.cursor_blink
        missing = toolkit.reader_missing(self.host.settings.home)
        if missing:
            self.set_answer(Text(missing, style=self.get_component_rich_style("ask--note")))
        self.focus_main()

    def focus_main(self) -> None:
        self.query_one("#question").focus()

    def set_answer(self, text: Text | str) -> None:
        self.query_one("#answer", Static).update(text)

    def styled_answer(self, text: str) -> Text:
        out = Text(readable_math(text))  # \( \frac{1}{3} \) reads as 1/3
        out.highlight_regex(CITATION, self.get_component_rich_style("ask--citation"))
        return out

    # -- asking ------------------------------------------------------------------

    @on(Input.Submitted, "#question")
    def submitted(self, event: Input.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        self.streamed = ""
        self.answer = None
        self.citations = []
        self.refresh_bindings()
        self.query_one("#citations", OptionList).clear_options()
        self.query_one("#citations-title", Label).update("Citations")  # none of the last answer's stay
        self.showing_all = False
        self.query_one("#evidence", Static).update("")
        self.set_answer(Text("searching…", style=self.get_component_rich_style("ask--note")))
        self.run_ask(question)

    @work(thread=True, exclusive=True, group="ask")
    def run_ask(self, question: str) -> None:
        def on_piece(piece: str) -> None:
            self.app.call_from_thread(self.add_piece, piece)

        def on_evidence(packed) -> None:
            if packed.text:
                self.app.call_from_thread(self.show_evidence, packed.text)

        def on_progress(stage: str, done: int, total: int | None) -> None:
            self.app.call_from_thread(self.show_reading, done, total)

        try:
            answer = self.gate.ask(question, on_piece, on_evidence, on_progress)
        except UserError as exc:
            # Also a reader that crashed or hung: one line here, and the next
            # question starts a fresh reader process.
            self.app.call_from_thread(self.show_error, str(exc))
            return
        self.app.call_from_thread(self.show_answer, answer)

    def show_reading(self, done: int, total: int | None) -> None:
        """The prompt being read: on a CPU this is most of the wait."""
        bar = self.query_one("#reading", ProgressBar)
        bar.remove_class("hidden")
        bar.update(total=total, progress=done)
        if not self.streamed:
            self.set_answer(Text(f"reading {total or 0:,} tokens of evidence…",
                                 style=self.get_component_rich_style("ask--note")))

    def hide_reading(self) -> None:
        self.query_one("#reading", ProgressBar).add_class("hidden")

    def show_evidence(self, text: str) -> None:
        self.query_one("#evidence", Static).update(text)

    def add_piece(self, piece: str) -> None:
        if not self.streamed:
            self.hide_reading()
        self.streamed += piece
        if self.host.settings.answer.checks:  # a draft: a check may still replace it, so it is not the answer
            self.set_answer(Text(f"the reader is writing: {self.streamed}",
                                 style=self.get_component_rich_style("ask--note")))
        else:
            self.set_answer(self.styled_answer(self.streamed))
        self.query_one("#answer-box", VerticalScroll).scroll_end(animate=False)

    def show_error(self, message: str) -> None:
        self.hide_reading()
        self.set_answer(Text(message, style=self.get_component_rich_style("ask--note")))

    def show_answer(self, answer) -> None:
        self.hide_reading()
        self.answer = answer
        self.refresh_bindings()
        shown = self.styled_answer(answer.answer or self.streamed or "(no answer)")
        if answer.reader_said:  # the final answer first; what the reader said, under it
            shown.append(f"\n{answer.correction}", style=self.get_component_rich_style("ask--note"))
        self.set_answer(shown)
        self.citations = list(answer.citations)
        options = []
        width = max(self.size.width - 10, 30)
        for c in self.citations:
            text = " ".join(c.text.split())
            prompt = Text(f"[{c.n}] ", style=self.get_component_rich_style("ask--citation"))
            prompt.append(f"{c.speaker} · {when(c.timestamp)} · {c.conversation}",
                          style=self.get_component_rich_style("ask--speaker"))
            prompt.append("\n    " + (text if len(text) <= width else text[: width - 1] + "…"))
            options.append(Option(prompt))
        citations = self.query_one("#citations", OptionList)
        citations.set_options(options)
        notes = ""
        if answer.unsupported:
            notes += " · no message says this: it may be a guess"
        if answer.superseded:
            notes += f" · {answer.superseded} older message(s) left out: a later one changed them"
        if answer.budget_note():  # the CLI's sentence, and the key that shows what was left out
            notes += f" · {answer.budget_note()} (E: all evidence)"
        if answer.reader:
            notes += f" · {answer.read_by()}"
        self.query_one("#citations-title", Label).update(
            f"Citations ({len(options)}) · enter opens one in its conversation · e: evidence{notes}")
        self.query_one("#evidence", Static).update(self.evidence_text(answer))
        if options:
            citations.highlighted = 0
            citations.focus()

    @staticmethod
    def evidence_text(answer) -> str:
        if answer.evidence_text:
            return answer.evidence_text
        return "\n".join(
            f"[{n}] " + message_line(m.timestamp, m.speaker, m.text, m.captions)
            for n, m in enumerate(answer.evidence, 1)
        ) or "(the reader saw no evidence)"

    @on(OptionList.OptionSelected, "#citations")
    def open_citation(self, event: OptionList.OptionSelected) -> None:
        if self.answer is None:
            return
        citation = self.citations[event.option_index]
        target = service.citation_target(self.answer, citation)
        if target is None:
            self.app.notify("This citation does not say which message it is.", severity="warning")
            return
        conversation_id, message_id = target
        self.host.open_conversation(conversation_id, focus_message_id=message_id, marked=(message_id,))

    # -- actions -------------------------------------------------------------------

    def action_toggle_evidence(self) -> None:
        if self.showing_all and self.answer is not None:  # back to what the reader read
            self.showing_all = False
            self.query_one("#evidence", Static).update(self.evidence_text(self.answer))
            self.query_one("#evidence-box").remove_class("hidden")
            return
        self.query_one("#evidence-box").toggle_class("hidden")

    def action_all_evidence(self) -> None:
        """Every message the question's search found, beside the few the reader's budget kept."""
        if self.answer is not None:
            self.query_one("#evidence", Static).update("searching…")
            self.query_one("#evidence-box").remove_class("hidden")
            self.run_all_evidence(self.answer)

    @work(thread=True, exclusive=True, group="all-evidence")
    def run_all_evidence(self, answer) -> None:
        try:
            found = self.gate.search_for_answer(answer.question).evidence()
        except UserError as exc:
            self.app.call_from_thread(self.query_one("#evidence", Static).update, str(exc))
            return
        read = {m.message_id for m in answer.evidence}
        lines = [f"All {len(found):,} messages the search found; the reader read the {len(read):,} marked *"
                 " (e: only those)"]
        lines += [("* " if m.message_id in read else "  ") + message_line(m.timestamp, m.speaker, m.text, m.captions)
                  for m in found]
        self.app.call_from_thread(self.show_all_evidence, "\n".join(lines))

    def show_all_evidence(self, text: str) -> None:
        self.showing_all = True
        self.query_one("#evidence", Static).update(Text(text))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """E (all the search's evidence) only once there is an answer to show it for."""
        if action == "all_evidence":
            return self.answer is not None
        return super().check_action(action, parameters)

    def after_box(self):
        """Esc from the question box: to the citations when there are some."""
        citations = self.query_one("#citations", OptionList)
        return citations if citations.option_count else None
