"""Pure layout for the transcript: thread order and word wrap with offsets.

No textual here: these decide what a conversation looks like as lines, and are
tested on their own (a 10k-message conversation must lay out in well under a
second, since it is redone when the terminal width changes).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from ...display import format_timestamp


@dataclass(frozen=True)
class Item:
    """One message in display order."""

    message: dict
    depth: int  # 1 for a reply shown inside its thread


class Line(NamedTuple):
    """A NamedTuple, not a dataclass: a long conversation makes hundreds of thousands."""

    item: int  # index into the display items
    #: day (a separator before the first message of a day) | header (text filled in when
    #: drawn) | time (a grouped message's clock, after a pause) | text | meta | blank
    kind: str
    text: str
    start: int = 0  # offset of ``text`` in the message text (for highlights)


#: A message by the same person as the one before, the same day, joins its group (no header
#: of its own); after this many minutes of silence the group shows the clock again.
GROUP_PAUSE_MINUTES = 10


def json_list(value) -> list[str]:
    if not value or value == "[]":
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return [value]
    return [str(v) for v in value]


def thread_order(messages: Sequence[dict]) -> list[Item]:
    """Messages in time order, with thread replies moved under their thread's root.

    Two shapes of export name parents. In threaded chats (Slack) most
    messages have no parent and a reply names its thread: every message whose
    parent is earlier in the conversation is a reply. In chains (ChatGPT,
    Claude) nearly every message names its predecessor: there a message is a
    reply only when its parent is not the message just before it on the shown
    branch, or has several replies, so a linear chain stays flat.
    """
    index = {m["external_id"]: i for i, m in enumerate(messages)}
    with_parent = sum(1 for m in messages if m.get("parent_external_id") in index)
    threaded = with_parent <= len(messages) / 2
    main = [m for m in messages if m.get("on_main_branch", 1)]
    children: dict[str, int] = {}
    for m in main:
        parent = m.get("parent_external_id")
        if parent:
            children[parent] = children.get(parent, 0) + 1
    previous: dict[str, str | None] = {}
    prev = None
    for m in main:
        previous[m["external_id"]] = prev
        prev = m["external_id"]

    root_of: dict[str, str] = {}
    replies: dict[str, list[int]] = {}
    roots: list[int] = []
    for i, m in enumerate(messages):
        ext, parent = m["external_id"], m.get("parent_external_id")
        if (
            parent is not None
            and m.get("on_main_branch", 1)
            and parent in index
            and index[parent] < i
            and (threaded or previous.get(ext) != parent or children.get(parent, 0) > 1)
        ):
            root = root_of.get(parent, parent)
            root_of[ext] = root
            replies.setdefault(root, []).append(i)
        else:
            root_of[ext] = ext
            roots.append(i)
    items: list[Item] = []
    for i in roots:
        items.append(Item(messages[i], 0))
        items.extend(Item(messages[j], 1) for j in replies.get(messages[i]["external_id"], ()))
    return items


def wrap(text: str, width: int) -> list[tuple[int, int]]:
    """(start, end) offsets of ``text`` cut into lines of at most ``width`` characters at spaces."""
    width = max(width, 8)
    spans: list[tuple[int, int]] = []
    offset = 0
    for para in text.split("\n"):
        pos, n = 0, len(para)
        if n == 0:
            spans.append((offset, offset))
        while pos < n:
            if n - pos <= width:
                spans.append((offset + pos, offset + n))
                break
            cut = para.rfind(" ", pos, pos + width + 1)
            if cut <= pos:
                cut, nxt = pos + width, pos + width
            else:
                nxt = cut + 1
            spans.append((offset + pos, offset + cut))
            pos = nxt
            while pos < n and para[pos] == " ":
                pos += 1
        offset += n + 1
    return spans


def header_text(message: dict) -> str:
    text = f"{message.get('speaker') or '?'}  {format_timestamp(message.get('ts'))}"
    if not message.get("on_main_branch", 1):
        text += "  (other branch)"
    return text


def day_label(ts: str | None) -> str:
    """``Sunday 1 March 2026`` (the message's own clock, as its header shows it)."""
    try:
        when = datetime.fromisoformat((ts or "").replace("Z", "+00:00"))
    except ValueError:
        return ""
    return f"{when:%A} {when.day} {when:%B %Y}"


def _minutes(ts: str | None) -> int | None:
    """Minutes since midnight on the message's clock (enough to compare two messages of one day)."""
    if not ts or len(ts) < 16:
        return None
    try:
        return int(ts[11:13]) * 60 + int(ts[14:16])
    except ValueError:
        return None


def grouped(items: Sequence[Item]) -> list[bool]:
    """For each item: does it continue the previous one's group (same person, thread level,
    branch and day)? Its header is then left out, so a run of one person's messages reads
    as one block instead of repeating "Micah Stubbs 2015-06-09 Tue 16:34" for each."""
    out = [False] * len(items)
    for n in range(1, len(items)):
        a, b = items[n - 1], items[n]
        ma, mb = a.message, b.message
        out[n] = (a.depth == b.depth and ma.get("speaker") == mb.get("speaker")
                  and ma.get("on_main_branch", 1) == mb.get("on_main_branch", 1)
                  and bool(ma.get("ts")) and (ma.get("ts") or "")[:10] == (mb.get("ts") or "")[:10])
    return out


def layout(items: Sequence[Item], width: int, indent: int = 4) -> tuple[list[Line], list[int]]:
    """All lines for ``width`` columns, and the first line of each item.

    A day separator comes before the first top-level message of each day (a
    reply sits under its thread, and keeps its own full date); a message that
    continues its author's group has no header (its clock after a pause).
    """
    lines: list[Line] = []
    starts: list[int] = []
    append = lines.append
    continues = grouped(items)
    last_day = None
    for n, item in enumerate(items):
        m = item.message
        room = width - item.depth * indent
        starts.append(len(lines))
        day = (m.get("ts") or "")[:10]
        if item.depth == 0 and day and day != last_day:
            last_day = day
            label = day_label(m.get("ts"))
            if label:
                append(Line(n, "day", label))
        if not continues[n]:
            append(Line(n, "header", ""))  # formatted only when on screen
        else:
            now, before = _minutes(m.get("ts")), _minutes(items[n - 1].message.get("ts"))
            if now is not None and before is not None and now - before >= GROUP_PAUSE_MINUTES:
                append(Line(n, "time", (m.get("ts") or "")[11:16]))
        text = m.get("text") or ""
        if len(text) <= room and "\n" not in text:
            append(Line(n, "text", text, 0))
        else:
            for start, end in wrap(text, room):
                append(Line(n, "text", text[start:end], start))
        for caption in json_list(m.get("captions")):
            for start, end in wrap(f"[image] {caption}", room):
                lines.append(Line(n, "meta", f"[image] {caption}"[start:end]))
        for attachment in json_list(m.get("attachments")):
            lines.append(Line(n, "meta", f"[attachment] {attachment}"[:room]))
        if n + 1 == len(items) or not continues[n + 1]:
            lines.append(Line(n, "blank", ""))
    return lines, starts
