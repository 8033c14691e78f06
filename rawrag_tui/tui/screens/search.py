"""Search as you type: debounced, run in a thread worker, hits with their matching lines lit.

The box also takes filters (``after:2016-01 before:2016-06 from:Neeraj in:#general
source:slack kind:channel``, toolkit.parse_query): each shows as a chip under the box,
and pressing a chip takes its filter out of the line.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from ... import errors, toolkit
from ...display import match_spans
from ...search.types import EvidenceMessage, Hit, ParsedQuery, SearchResult
from .. import keys
from ..fmt import plural, snippet, when
from ..widgets.lists import VimOptionList
from .base import RawragScreen

MODES = ("hybrid", "dense", "lexical")
HELP = ("Type to search; enter on a hit opens the conversation. Filters: after:2016-03 before:2016 "
        "from:NAME in:#room source:slack kind:chat")
FILTERS_ONLY = "Type words to search within these filters."
DEBOUNCE_S = 0.25
LINES_PER_HIT = 2


def lead_message(hit: Hit, query: str, speakers: tuple[str, ...] = ()) -> EvidenceMessage | None:
    """The message the hit is about: the one with the most matching words (the earliest on a
    tie), among those by the ``from:`` person when the search names one."""
    named = [m for m in hit.messages if any(toolkit.speaker_named(s, m.speaker) for s in speakers)]
    candidates = named or hit.messages
    return min(candidates, key=lambda m: (-len(match_spans(query, m.text)), m.seq), default=None)


def best_in_hit(hit: Hit, query: str, n: int, speakers: tuple[str, ...] = ()) -> list[EvidenceMessage]:
    """The hit's lead message and the next ``n - 1`` with the most matching words, in time order."""
    lead = lead_message(hit, query, speakers)
    if lead is None:
        return []
    rest = sorted((m for m in hit.messages if m is not lead), key=lambda m: (-len(match_spans(query, m.text)), m.seq))
    return sorted([lead, *rest[: n - 1]], key=lambda m: m.seq)


def embedding_note(result: SearchResult, embedding_now: bool) -> str:
    """What the meaning channel cannot see yet, and what is doing something about it."""
    pending = result.pending_embeddings
    if not pending:
        return ""
    if embedding_now:
        return f"embedding under way: {plural(pending, 'window')} to go, search by meaning sees each as it lands"
    return f"{plural(pending, 'window')} wait for embeddings, unseen by meaning (Status: x embeds them)"


class SearchScreen(RawragScreen):
    PLACE = "search"
    BINDINGS = keys.scope_bindings("search")
    COMPONENT_CLASSES: ClassVar[set[str]] = {"search--match", "search--head", "search--meta", "search--speaker",
                                             "search--meaning"}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.mode = "hybrid"
        self.result: SearchResult | None = None
        self._timer = None
        self._asked = 0  # increases per query typed; stale results are dropped
        self._focus_when_ready = False  # enter was pressed before the results came
        self.parsed: ParsedQuery = toolkit.parse_query("")
        self.result_text = ""  # the box's line the shown result answers

    def body(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Input(placeholder="search your history", id="query")
            yield Label("", id="search-mode")
        yield Horizontal(id="chips", classes="hidden")
        yield Label(HELP, id="search-status")
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
        current = self.result is not None and (self.result_text, self.result.mode) == (event.value, self.mode)
        if not current:
            self.schedule(0)
            self._focus_when_ready = True
        else:
            self.action_focus_results()

    def schedule(self, delay: float) -> None:
        if self._timer:
            self._timer.stop()
        self._asked += 1
        parsed = toolkit.parse_query(self.query_one("#query", Input).value)
        self.show_chips(parsed)
        if not parsed.words:
            self.show_result(self._asked, None, FILTERS_ONLY if parsed.terms else None)
            return
        self.query_one("#search-status", Label).update("searching…")
        asked = self._asked
        mode = self.mode
        if delay <= 0:
            self.run_search(asked, parsed, mode)
        else:
            self._timer = self.set_timer(delay, lambda: self.run_search(asked, parsed, mode))

    @work(thread=True, exclusive=True, group="search")
    def run_search(self, asked: int, parsed: ParsedQuery, mode: str) -> None:
        if get_current_worker().is_cancelled:
            return  # a newer query replaced this one while it waited
        try:
            result, error = self.gate.search(parsed.words, mode=mode, filters=parsed.filters or None), None
        except errors.UserError as exc:  # also a bad date or an unknown name in a filter: one line
            result, error = None, str(exc)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_result, asked, result, error, parsed.text)

    # -- filter chips ------------------------------------------------------------

    def show_chips(self, parsed: ParsedQuery) -> None:
        """One removable chip per filter in the box; redrawn only when the filters change."""
        same = [t.typed for t in parsed.terms] == [t.typed for t in self.parsed.terms]
        self.parsed = parsed
        if same:
            return
        chips = self.query_one("#chips", Horizontal)
        chips.remove_children()
        chips.mount_all(Button(f"{term.typed} ✕", name=str(n), classes="chip", compact=True,
                               tooltip="Take this filter out of the search")
                        for n, term in enumerate(parsed.terms))
        chips.set_class(not parsed.terms, "hidden")

    @on(Button.Pressed, ".chip")
    def remove_chip(self, event: Button.Pressed) -> None:
        n = int(event.button.name or 0)
        if n < len(self.parsed.terms):
            box = self.query_one("#query", Input)
            box.value = self.parsed.without(self.parsed.terms[n])
            box.cursor_position = len(box.value)
            self.schedule(0)

    def on_resize(self) -> None:
        if self.result is not None:  # the snippets are cut to the width
            self.show_result(self._asked, self.result, None, self.result_text)

    def show_result(self, asked: int, result: SearchResult | None, error: str | None, text: str = "") -> None:
        if asked != self._asked:
            return
        hits = self.query_one("#hits", OptionList)
        keep = hits.highlighted if hits.option_count and self.result is result else None
        self.result, self.result_text = result, text
        status = self.query_one("#search-status", Label)
        if error:
            hits.clear_options()
            status.update(error)
            return
        if result is None:
            hits.clear_options()
            status.update(HELP)
            return
        match = self.get_component_rich_style("search--match")
        width = max(self.size.width - 8, 30)
        options = [Option(self.hit_prompt(hit, result, width, match), id=str(n))
                   for n, hit in enumerate(result.hits)]
        hits.set_options(options)
        if options:
            hits.highlighted = keep if keep is not None and keep < len(options) else 0
            if self._focus_when_ready:
                hits.focus()
        self._focus_when_ready = False
        status.update(self.status_line(result))

    def status_line(self, result: SearchResult) -> str:
        """How many hits ("top 15" when the list is cut at the limit), and what they are not:
        no word matched, filters that pass nothing, windows meaning cannot see yet."""
        if result.nothing_passes:
            return result.nothing_passes
        # The app's own words on embedding: it knows whether it is embedding now (the core's
        # note tells a CLI user to run `rawrag index`, which is no advice inside the app).
        note = embedding_note(result, self.gate.embedding)
        summary = result.summary()
        if result.lexical_only:
            summary, note = f"matched by words only: {note}", ""
        shown = len(result.hits)
        count = f"top {shown}" if shown >= self.host.settings.retrieval.top_k else plural(shown, "hit")
        line = (summary if summary and result.words_found is False
                else f"{count} for “{result.query}” ({result.mode})" + (f" · {summary}" if summary else ""))
        return line + (f" · {note}" if note else "")

    def hit_prompt(self, hit: Hit, result: SearchResult, width: int, match) -> Text:
        query = result.query
        speakers = self.parsed.filters.speakers if self.result_text == self.parsed.text else ()
        best = best_in_hit(hit, query, LINES_PER_HIT, speakers)
        lead = lead_message(hit, query, speakers)  # the header names who wrote the matching message
        style = self.get_component_rich_style
        head = Text(f"{hit.rank}. {hit.conversation or '(untitled)'}", style=style("search--head"))
        if lead is not None:
            head.append(f"  ·  {when(lead.timestamp)}  ·  {lead.speaker}", style=style("search--meta"))
        if hit.match == "meaning" and result.words_found is not None:  # as the CLI marks it
            head.append("  ·  by meaning", style=style("search--meaning"))
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
        lead = lead_message(hit, self.result.query, self.parsed.filters.speakers)
        focus = lead.message_id if lead is not None else None
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

    def after_box(self):
        """Esc from the box: to the hits when there are some."""
        hits = self.query_one("#hits", OptionList)
        return hits if hits.option_count else None
