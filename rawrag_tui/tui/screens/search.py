"""Search as you type: debounced, run in a thread worker, hits with their matching lines lit."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ... import errors
from ...display import match_spans
from ...search.types import Hit, SearchResult
from .. import keys
from ..fmt import snippet, when
from ..widgets.lists import VimOptionList
from .base import RawragScreen

MODES = ("hybrid", "dense", "lexical")
DEBOUNCE_S = 0.25
LINES_PER_HIT = 2


def best_in_hit(hit: Hit, query: str, n: int):
    """The hit's ``n`` messages with the most matching words, in time order."""
    scored = sorted(hit.messages, key=lambda m: (-len(match_spans(query, m.text)), m.seq))[:n]
    return sorted(scored, key=lambda m: m.seq)


class SearchScreen(RawragScreen):
    PLACE = "search"
    BINDINGS = keys.scope_bindings("search")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"search--match", "search--head", "search--meta", "search--speaker"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mode = "hybrid"
        self.result: SearchResult | None = None
        self._timer = None
        self._asked = 0  # increases per query typed; stale results are dropped
        self._focus_when_ready = False  # enter was pressed before the results came

    def body(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Input(placeholder="search your history", id="query")
            yield Label("", id="search-mode")
        yield Label("Type to search. Enter on a hit opens the conversation.", id="search-status")
        yield VimOptionList(id="hits")

    def on_mount(self) -> None:
        self.mode = self.host.settings.retrieval.mode
        self.query_one("#query", Input).cursor_blink = self.host.cursor_blink
        self.show_mode()
        self.focus_main()

    def focus_main(self) -> None:
        self.query_one("#query").focus()

    def show_mode(self) -> None:
        self.query_one("#search-mode", Label).update(f"mode: {self.mode}")

    def refresh_data(self) -> None:
        if self.query_one("#query", Input).value.strip():
            self.schedule(0)

    # -- searching -----------------------------------------------------------

    @on(Input.Changed, "#query")
    def query_changed(self, event: Input.Changed) -> None:
        self.schedule(DEBOUNCE_S)

    @on(Input.Submitted, "#query")
    def query_submitted(self, event: Input.Submitted) -> None:
        current = self.result is not None and (self.result.query, self.result.mode) == (event.value, self.mode)
        if not current:
            self.schedule(0)
            self._focus_when_ready = True
        else:
            self.action_focus_results()

    def schedule(self, delay: float) -> None:
        if self._timer:
            self._timer.stop()
        self._asked += 1
        query = self.query_one("#query", Input).value
        if not query.strip():
            self.show_result(self._asked, None, None)
            return
        self.query_one("#search-status", Label).update("searching…")
        asked = self._asked
        mode = self.mode
        if delay <= 0:
            self.run_search(asked, query, mode)
        else:
            self._timer = self.set_timer(delay, lambda: self.run_search(asked, query, mode))

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, asked: int, query: str, mode: str) -> None:
        if get_current_worker().is_cancelled:
            return  # a newer query replaced this one while it waited
        try:
            result, error = self.gate.search(query, mode=mode), None
        except errors.UserError as exc:
            result, error = None, str(exc)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_result, asked, result, error)

    def on_resize(self) -> None:
        if self.result is not None:  # the snippets are cut to the width
            self.show_result(self._asked, self.result, None)

    def show_result(self, asked: int, result: SearchResult | None, error: str | None) -> None:
        if asked != self._asked:
            return
        hits = self.query_one("#hits", OptionList)
        keep = hits.highlighted if hits.option_count and self.result is result else None
        self.result = result
        status = self.query_one("#search-status", Label)
        if error:
            hits.clear_options()
            status.update(error)
            return
        if result is None:
            hits.clear_options()
            status.update("Type to search. Enter on a hit opens the conversation.")
            return
        match = self.get_component_rich_style("search--match")
        width = max(self.size.width - 8, 30)
        options = [Option(self.hit_prompt(hit, result.query, width, match), id=str(n))
                   for n, hit in enumerate(result.hits)]
        hits.set_options(options)
        if options:
            hits.highlighted = keep if keep is not None and keep < len(options) else 0
            if self._focus_when_ready:
                hits.focus()
        self._focus_when_ready = False
        notes = " · ".join(result.notes)
        # No word matched, or meaning is not searched yet: say so instead of "N hits".
        summary = result.summary()
        status.update((summary if summary and result.words_found is False
                       else f"{len(result.hits)} hits for “{result.query}” ({result.mode})"
                       + (f" · {summary}" if summary else ""))
                      + (f" · {notes}" if notes and not result.lexical_only else ""))

    def hit_prompt(self, hit: Hit, query: str, width: int, match) -> Text:
        best = best_in_hit(hit, query, LINES_PER_HIT)
        first = best[0] if best else None
        style = self.get_component_rich_style
        head = Text(f"{hit.rank}. {hit.conversation or '(untitled)'}", style=style("search--head"))
        if first is not None:
            head.append(f"  ·  {when(first.timestamp)}  ·  {first.speaker}", style=style("search--meta"))
        lines = [head]
        for m in best:
            line = Text("   ")
            line.append(f"{m.speaker}: ", style=style("search--speaker"))
            line.append_text(snippet(m.text, query, width - len(m.speaker) - 5, match))
            lines.append(line)
        return Text("\n").join(lines)

    @on(OptionList.OptionSelected, "#hits")
    def open_hit(self, event: OptionList.OptionSelected) -> None:
        if self.result is None:
            return
        hit = self.result.hits[int(event.option.id)]  # type: ignore[arg-type]  # every hit option has an id
        best = best_in_hit(hit, self.result.query, 1)
        focus = best[0].message_id if best else (hit.messages[0].message_id if hit.messages else None)
        self.host.open_conversation(hit.conversation_id, focus_message_id=focus,
                                    marked=tuple(m.message_id for m in hit.messages), query=self.result.query)

    # -- actions -------------------------------------------------------------

    def action_cycle_mode(self) -> None:
        self.mode = MODES[(MODES.index(self.mode) + 1) % len(MODES)] if self.mode in MODES else MODES[0]
        self.show_mode()
        self.schedule(0)

    def action_focus_results(self) -> None:
        hits = self.query_one("#hits", OptionList)
        if hits.option_count:
            hits.focus()

    def action_toggle_focus(self) -> None:
        """Escape leaves the query box (so single-letter keys work) and comes back to it."""
        if self.focused is self.query_one("#query"):
            hits = self.query_one("#hits", OptionList)
            hits.focus() if hits.option_count else self.set_focus(None)
        else:
            self.focus_main()
