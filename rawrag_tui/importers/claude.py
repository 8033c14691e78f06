"""Claude.ai data export (Settings > Privacy > Export data).

``conversations.json`` is one array of conversations, each with a flat list
of ``chat_messages``. Edits and retries sit in that same list; the tree is
rebuilt from ``parent_message_uuid`` and the branch ending at the newest leaf
is the one the user saw (main branch); the others are kept and marked.
Newer exports leave ``text`` empty and put the words in ``content`` blocks:
``text`` blocks are the message, ``thinking`` is skipped, tool use and tool
results are hidden turns (counted, not imported). Streamed with ijson.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "claude"

_MEMBER = re.compile(r"(?:^|/)conversations\.json$")
ROOT_PARENT = "00000000-0000-4000-8000-000000000000"
_SPEAKERS = {"human": ("User", "user"), "assistant": ("Claude", "assistant")}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


#: Ties with another format are broken toward files named like Claude's.
NAME_HINT = _MEMBER


def sniff(source: ExportSource, name: str) -> float:
    """1.0 for conversations with ``chat_messages`` (a list of them, or one)."""
    head = _sniff.head_of(source, name)
    where = _sniff.conversations_at(head)
    if where is None or head.has(where, "mapping"):
        return 0.0
    return 1.0 if head.has(where, "chat_messages") else 0.0


def _members(source: ExportSource, forced: bool = False) -> list[str]:
    found = _sniff.json_members(source, sniff, forced)
    if not found and source.kind != "file":
        found = [n for n in source.names() if _MEMBER.search(n) and "__MACOSX" not in n]
    return sorted(found, key=lambda n: (not _MEMBER.search(n), n))


def detect(source: ExportSource) -> float:
    return _sniff.best_json_score(source, sniff)


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = _members(source, forced=True)
    if not members:
        raise ImportFormatError(source.path, NAME, "no JSON member holds Claude conversations (with 'chat_messages')")
    salvage = c.Salvage(source, NAME, stats)
    for member in members:
        cursor.at(member)
        prefix = _sniff.conversations_at(_sniff.head_of(source, member))
        if prefix is None:
            lead = c.first_char(source, member)
            raise ImportFormatError(
                source.display(member), NAME,
                "expected a JSON array of conversations" if lead else "empty file",
            )
        for index, raw in enumerate(c.stream_items(source, member, NAME, prefix, "conversations")):
            where = f"conversations[{index}]" if prefix else "conversation"
            cursor.at(member, where)
            conv = salvage.take(
                raw, where, member, lambda r, local, w=where, m=member: _conversation(r, local, source, m, w), "uuid"
            )
            if conv is not None:
                yield conv
    salvage.finish(members[0])


def _conversation(
    raw: Any, stats: ParseStats, source: ExportSource | None = None, member: str | None = None,
    where: str = "conversation",
) -> Conversation:
    conv = c.dict_of(raw, "conversation")
    conv_id = c.id_of(conv.get("uuid"), "uuid")
    raw_messages = c.list_of(conv.get("chat_messages"), "chat_messages")
    by_id: dict[str, dict] = {}
    parent_of: dict[str, str | None] = {}
    previous: str | None = None
    linear = not any(isinstance(m, dict) and "parent_message_uuid" in m for m in raw_messages)
    places: dict[str, str] = {}
    for i, raw_msg in enumerate(raw_messages):
        try:
            raw_msg = c.dict_of(raw_msg, f"chat_messages[{i}]")
            mid = c.id_of(raw_msg.get("uuid"), f"chat_messages[{i}].uuid")
        except (TypeError, ValueError) as exc:
            if source is None:  # a direct caller without a place to report: the old strict path
                raise
            stats.bad(source.display(member or ""), NAME, f"{where}.chat_messages[{i}]", c.describe(exc))
            continue
        places[mid] = f"{where}.chat_messages[{i}]"
        if mid in by_id:
            stats.skip("duplicate")
            continue
        by_id[mid] = raw_msg
        parent = previous if linear else raw_msg.get("parent_message_uuid")
        parent_of[mid] = parent if isinstance(parent, str) and parent != ROOT_PARENT else None
        previous = mid
    order, main = c.tree_order(list(by_id), parent_of, _newest_leaf(by_id, parent_of))

    messages: list[Message] = []
    kept: dict[str, str | None] = {}
    for mid in order:
        parent = parent_of.get(mid)
        inherited = kept.get(parent) if parent is not None else None
        built: Message | None
        if source is None:
            built = _message(mid, by_id[mid], mid in main, inherited, stats)
        else:
            built = c.read_one(stats, source, member, NAME, places[mid], _message, mid, by_id[mid], mid in main,
                               inherited, stats)
        kept[mid] = built.external_id if built is not None else inherited
        if built is not None:
            messages.append(built)
    title = c.text_of(conv.get("name"), "name").strip() or c.fallback_title(
        [m for m in messages if m.on_main_branch]
    )
    return Conversation(external_id=conv_id, title=title, kind="chat", messages=messages)


def _newest_leaf(by_id: dict[str, dict], parent_of: dict[str, str | None]) -> str | None:
    parents = {p for p in parent_of.values() if p is not None}
    best_key, best = None, None
    for pos, (mid, msg) in enumerate(by_id.items()):
        if mid in parents:
            continue
        try:
            when = c.from_iso(msg.get("created_at"), "created_at") or _EPOCH
        except ValueError:
            when = _EPOCH
        key = (when, pos)
        if best_key is None or key > best_key:
            best_key, best = key, mid
    return best


def _message(mid: str, msg: dict, on_main: bool, parent: str | None, stats: ParseStats) -> Message | None:
    sender = c.text_of(msg.get("sender"), "sender")
    speaker, role = _SPEAKERS.get(sender, (sender or "unknown", "other"))
    text = c.text_of(msg.get("text"), "text")
    blocks = c.list_of(msg.get("content"), "content")
    if blocks:
        pieces = []
        for block in blocks:
            block = c.maybe_dict(block)
            kind = block.get("type")
            if kind == "text":
                pieces.append(c.text_of(block.get("text"), "content.text"))
            elif kind in ("thinking", "redacted_thinking"):
                stats.skip("thoughts")
            elif kind in ("tool_use", "tool_result", "server_tool_use", "web_search_tool_result"):
                stats.skip("tool")
        from_blocks = "\n\n".join(p for p in pieces if p)
        if from_blocks.strip() or not text.strip():
            text = from_blocks
    attachments: list[str] = []
    for key in ("attachments", "files"):
        for item in c.list_of(msg.get(key), key):
            name = c.maybe_dict(item).get("file_name")
            if isinstance(name, str) and name and name not in attachments:
                attachments.append(c.text_of(name, "file_name"))
    if not text.strip() and not attachments:
        stats.skip("empty")
        return None
    return Message(
        external_id=mid,
        speaker=speaker,
        text=text,
        timestamp=c.from_iso(msg.get("created_at"), "created_at"),
        role=role,
        attachments=tuple(attachments),
        parent_external_id=parent,
        on_main_branch=on_main,
    )
