"""Pure layout for the transcript: thread order and word wrap with offsets.

No textual here: these decide what a conversation looks like as lines, and are
tested on their own (a 10k-message conversation must lay out in well under a
second, since it is redone when the terminal width changes).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
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
    kind: str  # header (text filled in when drawn) | text | meta | blank
    text: str
    start: int = 0  # offset of ``text`` in the message text (for highlights)


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


def layout(items: Sequence[Item], width: int, indent: int = 4) -> tuple[list[Line], list[int]]:
    """All lines for ``width`` columns, and the first line of each item."""
    lines: list[Line] = []
    starts: list[int] = []
    append = lines.append
    for n, item in enumerate(items):
        m = item.message
        room = width - item.depth * indent
        starts.append(len(lines))
        append(Line(n, "header", ""))  # formatted only when on screen
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
        lines.append(Line(n, "blank", ""))
    return lines, starts
