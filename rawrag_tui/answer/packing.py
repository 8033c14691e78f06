"""Evidence packing: the kept windows' raw messages, numbered, fitted to the reader.

The reader sees whole original messages (the windows only found them), so the
expanded messages of every kept window are deduplicated, grouped by
conversation and put back in time order: a conversation reads as it was held.
Each message becomes one numbered line, ``[n] Caroline: ...``, under a line
with the day it was sent (``8 May 2023:``), and ``n`` is what the reader
cites. A date and time on every line cost more than half the evidence's
tokens (Qwen's tokenizer spends one on each digit); one line per day, no time
of day, leaves that room to messages: on LoCoMo's 152 questions at a fixed
450 tokens, F1 28.2 -> 29.9 with the same reader (docs/answers.md,
"Evidence order and form on every set").

A small reader has a small context. When the messages do not fit, whole
windows are dropped from the bottom of the rerank order (the least relevant
first) and the count is reported, never silently; the top window is kept even
when it alone is too long, by shortening its longest messages.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..search.types import EvidenceMessage, Hit
from .dates import long_date
from .evidence import EvidenceViews
from .prompts import LATEST_MARK

TokenCounter = Callable[[str], int]

#: Shown between two messages of a conversation that are not neighbours.
GAP_LINE = "..."
#: Ends a message that was shortened to fit.
CUT_MARK = " [...]"


@dataclass
class PackedEvidence:
    """The numbered evidence block and what it cost."""

    text: str
    #: ``messages[n - 1]`` is the message the reader cites as ``[n]``.
    messages: list[EvidenceMessage]
    tokens: int
    kept_windows: int
    dropped_windows: int
    #: Message ids whose text was shortened to fit (only ever the top window's).
    shortened: list[int] = field(default_factory=list)
    #: Messages of the kept windows not given to the reader (selection, budget).
    cut_messages: int = 0
    #: Message id -> id of the later message that changed what it said; the
    #: earlier one is left out of the evidence (answer/selection.py).
    superseded: dict[int, int] = field(default_factory=dict)
    #: The messages ``superseded`` left out, in time order: never numbered, never
    #: cited, but a check that reads the history of a plan needs them
    #: (answer/checks/cancelled_plans.py: the plan a shown message calls off).
    replaced: list[EvidenceMessage] = field(default_factory=list)
    #: Ids of the messages marked as the newest on their subject (answer/timeline.py).
    latest: set[int] = field(default_factory=set)
    #: Whether the question names a state earlier than the latest (answer/timeline.py).
    earlier: bool = False
    #: Whether the question asks about the past, where every version counts (answer/timeline.py).
    past: bool = False
    #: Ids of the messages the timeline found on an anchor's subject, later than it
    #: (answer/timeline.py): each says a newer state of something than its anchor.
    followed: set[int] = field(default_factory=set)

    def cite(self, n: int) -> EvidenceMessage | None:
        return self.messages[n - 1] if 1 <= n <= len(self.messages) else None


def prompt_day(timestamp: str | None) -> str:
    """``8 May 2023``: the day a message was sent, in its own clock; ``unknown date``."""
    if not timestamp:
        return "unknown date"
    try:
        return long_date(dt.datetime.fromisoformat(timestamp.replace("Z", "+00:00")))
    except ValueError:
        return timestamp


def day_line(message: EvidenceMessage) -> str:
    """``8 May 2023:``, the line the messages sent that day follow."""
    return f"{prompt_day(message.timestamp)}:"


def numbered_line(n: int, message: EvidenceMessage, body: str, latest: bool = False) -> str:
    """``[n] speaker: body`` under its day's line (:func:`day_line`); the newest
    message on a subject is ``[n] (latest) speaker: body`` (answer/timeline.py)."""
    mark = f" {LATEST_MARK}" if latest else ""
    return f"[{n}]{mark} {message.speaker}: {body}"


def conversation_header(message: EvidenceMessage) -> str:
    return f"Conversation: {message.conversation}" if message.conversation else "Conversation"


def render(messages: Sequence[EvidenceMessage], bodies: dict[int, str],
           latest: frozenset[int] | set[int] = frozenset()) -> tuple[str, list[EvidenceMessage]]:
    """Group by conversation (earliest first), time order inside, number 1..n;
    the ids in ``latest`` are marked as the newest on their subject."""
    by_conv: dict[int, list[EvidenceMessage]] = {}
    for m in messages:
        by_conv.setdefault(m.conversation_id, []).append(m)

    def conv_key(item: tuple[int, list[EvidenceMessage]]) -> tuple:
        stamps = [m.timestamp for m in item[1] if m.timestamp]
        return (min(stamps) if stamps else "\uffff", item[0])

    lines: list[str] = []
    numbered: list[EvidenceMessage] = []
    for _, group in sorted(by_conv.items(), key=conv_key):
        group.sort(key=lambda m: m.seq)
        if lines:
            lines.append("")
        lines.append(conversation_header(group[0]))
        previous: int | None = None
        day: str | None = None
        for m in group:
            if previous is not None and m.seq != previous + 1:
                lines.append(GAP_LINE)
            if day_line(m) != day:
                day = day_line(m)
                lines.append(day)
            numbered.append(m)
            lines.append(numbered_line(len(numbered), m, bodies[m.message_id], m.message_id in latest))
            previous = m.seq
    return "\n".join(lines), numbered


def _shorten(body: str, tokens: int, count: TokenCounter) -> str:
    """The longest prefix of ``body`` (plus a cut mark) within ``tokens``."""
    if count(body) <= tokens:
        return body
    lo, hi = 0, len(body)
    while lo < hi:  # binary search on characters: log2(len) token counts
        mid = (lo + hi + 1) // 2
        if count(body[:mid] + CUT_MARK) <= tokens:
            lo = mid
        else:
            hi = mid - 1
    return body[:lo].rstrip() + CUT_MARK


def pack_evidence(hits: Sequence[Hit], budget: int, count_tokens: TokenCounter,
                  views: EvidenceViews | None = None) -> PackedEvidence:
    """Fit the hits' messages into ``budget`` tokens of the reader's tokenizer.

    Windows are taken in rank order while they fit; the first that does not,
    and every one ranked below it, is dropped, except that a lower window
    whose messages are all already in costs nothing and counts as kept.
    """
    ordered = sorted(hits, key=lambda h: h.rank)
    views = views or EvidenceViews()
    bodies: dict[int, str] = {}
    line_cost: dict[int, int] = {}
    days: set[tuple[int, str]] = set()  # (conversation, day line) already paid for
    chosen: dict[int, EvidenceMessage] = {}
    used = 0
    full = False
    shortened: list[int] = []

    def cost(m: EvidenceMessage) -> int:
        if m.message_id not in line_cost:
            body = bodies.setdefault(m.message_id, views(m).body)
            # number/date/speaker prefix counted with a two-digit number
            line_cost[m.message_id] = count_tokens(numbered_line(10, m, body)) + 1  # +1: newline
        return line_cost[m.message_id]

    for hit in ordered:
        new = [m for m in hit.messages if m.message_id not in chosen]
        new = list({m.message_id: m for m in new}.values())
        if not new or full:
            continue
        # a header line per new conversation, a gap line per message at most
        extra = sum(cost(m) for m in new)
        extra += sum(
            count_tokens(conversation_header(m)) + 2
            for m in {m.conversation_id: m for m in new}.values()
            if all(c.conversation_id != m.conversation_id for c in chosen.values())
        )
        extra += len(new)  # possible gap lines ("..." is one token)
        new_days = {(m.conversation_id, day_line(m)) for m in new} - days
        extra += sum(count_tokens(d) + 1 for _, d in new_days)
        if used + extra <= budget:
            chosen.update((m.message_id, m) for m in new)
            days |= new_days
            used += extra
        elif not chosen:
            # The best window alone is too long: keep it, shortened, rather
            # than answer from nothing.
            chosen.update((m.message_id, m) for m in new)
            _fit_single_window(list(chosen.values()), bodies, budget, count_tokens, shortened)
            full = True
        else:
            full = True

    text, numbered = render(list(chosen.values()), bodies)
    tokens = count_tokens(text) if text else 0
    # Line-by-line counts approximate the block's; trust the real count and
    # drop more (whole lowest-ranked windows) in the rare case it is over.
    while tokens > budget and _drop_last_window(ordered, chosen):
        text, numbered = render(list(chosen.values()), bodies)
        tokens = count_tokens(text) if text else 0
    with_messages = [h for h in ordered if h.messages]
    kept = sum(all(m.message_id in chosen for m in h.messages) for h in with_messages)
    return PackedEvidence(text, numbered, tokens, kept, len(with_messages) - kept, shortened)


def _drop_last_window(ordered: Sequence[Hit], chosen: dict[int, EvidenceMessage]) -> bool:
    """Remove the lowest-ranked kept window that owns messages (not the top one)."""
    survivors = [h for h in ordered if h.messages and all(m.message_id in chosen for m in h.messages)]
    for idx in range(len(survivors) - 1, 0, -1):
        better = {m.message_id for h in survivors[:idx] for m in h.messages}
        owned = [m.message_id for m in survivors[idx].messages if m.message_id not in better]
        if owned:
            for mid in owned:
                chosen.pop(mid, None)
            return True
    return False


def _fit_single_window(
    messages: list[EvidenceMessage],
    bodies: dict[int, str],
    budget: int,
    count_tokens: TokenCounter,
    shortened: list[int],
) -> None:
    """Shorten the longest messages until the window's lines fit ``budget``."""
    overhead = count_tokens(conversation_header(messages[0])) + 2 + 2 * len(messages)
    overhead += sum(count_tokens(d) + 1 for d in {day_line(m) for m in messages})
    prefix_cost = {m.message_id: count_tokens(numbered_line(10, m, "")) for m in messages}
    room = max(budget - overhead - sum(prefix_cost.values()), len(messages) * 4)
    sizes = {m.message_id: count_tokens(bodies[m.message_id]) for m in messages}
    if sum(sizes.values()) <= room:
        return
    # Water-filling: every message gets an equal share, short ones give back
    # what they do not use, so only the long ones are cut.
    share_left, ids = room, sorted(sizes, key=lambda mid: sizes[mid])
    for i, mid in enumerate(ids):
        share = share_left // (len(ids) - i)
        if sizes[mid] > share:
            bodies[mid] = _shorten(bodies[mid], max(share, 4), count_tokens)
            shortened.append(mid)
            share_left -= count_tokens(bodies[mid])
        else:
            share_left -= sizes[mid]
