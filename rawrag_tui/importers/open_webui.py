"""Open WebUI chat export (Settings > Data Controls > Export Chats, or the
admin's export of all users' chats from Admin Panel > Settings > Database).

The file is a JSON array of chat rows (``id``, ``user_id``, ``title``,
``chat``, epoch-second ``created_at``...). Inside ``chat``, the message tree
is ``history.messages`` (id -> message with ``parentId``/``childrenIds``)
and ``history.currentId`` is the leaf the user last looked at; ``messages``
is only that branch, flat, and is read only when ``history`` is missing. Very
old exports have the chat object itself as the row. Streamed one chat at a
time with ijson. A chat exported on its own (the chat's menu > Download >
Export chat) is one such row, or the bare chat object, at the top level.

Kept: user and assistant words on every branch (edits, regenerations and
parallel answers of several models), the shown branch marked main; the
model's name as the speaker; uploaded file names. Assistant content embeds
``<details type="reasoning">`` and ``<details type="tool_calls">`` blocks:
they are cut out and counted (tool names kept in ``extra["tools"]``), as are
newer structured ``output`` items. Base64 images become an ``image``
caption, never text. Skipped, counted: system messages, failed answers,
empty ones. A message that cannot be read is skipped and reported with its
JSON path; a chat that cannot be read at all is reported and skipped; a file
whose messages are mostly unreadable is refused.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import partial
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .gemini import tolerant_items
from .records import UNREADABLE_SHARE, Conversation, Message, ParseStats, TooManyUnreadable
from .source import ExportSource

NAME = "open_webui"
#: A file name that breaks a tie between equally sure detectors (content decides first).
NAME_HINT = re.compile(r"chat-export-\d+\.json$")


_DETAILS = re.compile(r"<details\b([^>]*)>.*?</details>\s*", re.S | re.I)
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_DATA_IMAGE_MD = re.compile(r"!\[[^\]]*\]\(data:[^)]*\)")
_DATA_URL = re.compile(r"data:[\w.+-]+/[\w.+-]+;base64,[A-Za-z0-9+/=\s]{16,}")
_DEFAULT_TITLES = {"", "New Chat"}


# -- detection --------------------------------------------------------------------

#: Keys of ChatGPT (and DeepSeek) and Claude.ai conversations: not ours.
_OTHER_KEYS = frozenset({"mapping", "chat_messages", "current_node"})


def _sniff_head(head: _sniff.JsonHead) -> bool:
    """An array of chat rows (``id`` and ``user_id``/``title``/``created_at``,
    a ``chat`` holding ``history`` or ``messages``), or of bare chat objects
    with both ``history`` and ``messages`` (the oldest exports); or one chat
    on its own, as a row or as the bare chat object (the per-chat export)."""
    if head.top == "map":
        return _is_chat(head, "")
    if head.top != "array":
        return False
    return _is_chat(head, "item")


def _is_chat(head: _sniff.JsonHead, at: str) -> bool:
    """A chat row or a bare chat object at ``at``. A bare object must show
    Open WebUI's own tree (``history`` with ``messages``/``currentId``) or the
    model list beside its messages: ``messages`` of ``{role, content}`` alone
    is what many tools write."""
    if head.any_key(at, _OTHER_KEYS):
        return False
    inner = f"{at}.chat" if at else "chat"
    if head.has(at, "id", "chat") and head.any_key(at, {"user_id", "title", "created_at"}):
        return head.any_key(inner, {"history", "messages"})
    if head.has(at, "history", "messages"):
        return True
    tree = f"{at}.history" if at else "history"
    return head.any_key(tree, {"messages", "currentId"}) or head.has(at, "messages", "models")


def _candidates(source: ExportSource, limit: int | None = _sniff.MAX_MEMBERS) -> list[str]:
    names = _sniff.candidates(source, (".json",), limit=limit)
    return sorted(names, key=lambda n: not NAME_HINT.search(n))


def _is_export(source: ExportSource, name: str) -> bool:
    return _sniff_head(_sniff.head_of(source, name))


def detect(source: ExportSource) -> bool:
    return any(_is_export(source, n) for n in _candidates(source))


# -- parse ------------------------------------------------------------------------


class _Tally:
    """Messages of one member, read or unreadable, for the refusal of a file
    that is mostly unreadable. Each is also counted, with its JSON path, in
    the chat's own stats, which the file's stats take over when the chat is
    read (``Salvage``); a chat that cannot be read at all counts as one."""

    def __init__(self, source: ExportSource, member: str) -> None:
        self.source, self.member = source, member
        self.good = self.bad = 0
        self.first: str | None = None

    def ok(self, stats: ParseStats) -> None:
        self.good += 1
        stats.ok()

    def fail(self, stats: ParseStats, where: str, reason: str) -> None:
        self.bad += 1
        self.first = self.first or f"{where}: {reason}"
        stats.bad(self.source.display(self.member), NAME, where, reason)

    def finish(self) -> None:
        total = self.good + self.bad
        if self.bad and self.bad > UNREADABLE_SHARE * total:
            raise TooManyUnreadable(
                self.source.display(self.member), NAME,
                f"{self.bad} of {total} messages unreadable, so this is probably not an Open WebUI export "
                f"(first: {self.first})",
            )


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = [n for n in _candidates(source, limit=None) if _is_export(source, n)]
    if not members:
        raise ImportFormatError(source.path, NAME, "no Open WebUI chat export found (a JSON array of chats)")
    salvage = c.Salvage(source, NAME, stats)
    for member in members:
        cursor.at(member, None)
        tally = _Tally(source, member)
        for where, raw in _chats(source, member, stats):
            cursor.at(member, where)
            conv = salvage.take(raw, where, member, partial(_conversation, where=where, tally=tally), "id")
            if conv is not None:
                yield conv
        tally.finish()
    salvage.finish(members[0])


def _chats(source: ExportSource, member: str, stats: ParseStats) -> Iterator[tuple[str, Any]]:
    """(place, chat) for each chat of a member: the items of an export's
    array (``chats[3]``), or the one chat of a per-chat export, a top-level
    object (``chat``)."""
    if _sniff.head_of(source, member).top == "map":
        for raw in c.stream_items(source, member, NAME, "", "chat"):
            yield "chat", raw
        return
    for index, raw in enumerate(tolerant_items(source, member, NAME, "chats", stats)):
        yield f"chats[{index}]", raw


def _conversation(raw: Any, stats: ParseStats, *, where: str, tally: _Tally) -> Conversation:
    row = c.dict_of(raw, "chat row")
    chat = row.get("chat")
    if isinstance(chat, dict):
        path = f"{where}.chat"
    else:  # the legacy export: the row is the chat
        chat, path = row, where
    conv_id = row.get("id") or chat.get("id")
    conv_id = c.id_of(conv_id, "id") if conv_id else c.stable_id(NAME, chat.get("title"), chat.get("timestamp"))
    history = c.maybe_dict(chat.get("history"))
    raw_nodes = history.get("messages")
    nodes: dict[str, dict] = {}
    parent_of: dict[str, str | None] = {}
    if isinstance(raw_nodes, dict) and raw_nodes:
        for key, node in raw_nodes.items():
            if not isinstance(node, dict):
                tally.fail(stats, f"{path}.history.messages[{key!r}]", f"a {type(node).__name__}, not a message")
                continue
            nodes[key] = node
            parent = node.get("parentId")
            parent_of[key] = parent if isinstance(parent, str) else None
        current = history.get("currentId") or row.get("current_message_id")
        if not isinstance(current, str) or current not in nodes:
            current = _last_descendant(nodes, parent_of)
        order, main = c.tree_order(list(nodes), parent_of, current)
        base = f"{path}.history.messages"
    else:
        previous = None
        for i, node in enumerate(c.list_of(chat.get("messages"), "messages")):
            if not isinstance(node, dict):
                tally.fail(stats, f"{path}.messages[{i}]", f"a {type(node).__name__}, not a message")
                continue
            own = node.get("id")
            key = own if isinstance(own, str) and own else c.stable_id(conv_id, i)
            nodes[key] = node
            parent_of[key] = previous
            previous = key
        order, main = list(nodes), set(nodes)
        base = f"{path}.messages"

    messages: list[Message] = []
    kept: dict[str, str | None] = {}
    for key in order:
        parent = parent_of.get(key)
        inherited = kept.get(parent) if parent is not None else None
        try:
            msg = _message(key, nodes[key], key in main, inherited, stats)
        except c.STRUCTURAL_ERRORS as exc:
            tally.fail(stats, f"{base}[{key!r}]", c.describe(exc))
            msg = None
        else:
            tally.ok(stats)
        kept[key] = msg.external_id if msg is not None else inherited
        if msg is not None:
            messages.append(msg)
    title = c.text_of(row.get("title") if "title" in row else chat.get("title"), "title").strip()
    if title in _DEFAULT_TITLES:
        title = c.fallback_title([m for m in messages if m.on_main_branch])
    return Conversation(external_id=conv_id, title=title, kind="chat", messages=messages)


def _last_descendant(nodes: dict[str, dict], parent_of: dict[str, str | None]) -> str | None:
    """Where the shown branch ends when ``currentId`` is missing: follow the last child."""
    roots = [k for k in nodes if parent_of.get(k) not in nodes]
    if not roots:
        return None
    node, seen = roots[-1], set()
    while node not in seen:
        seen.add(node)
        children = c.list_of(nodes[node].get("childrenIds"), "childrenIds")
        kids = [k for k in children if isinstance(k, str) and k in nodes]
        if not kids:
            break
        node = kids[-1]
    return node


def _message(key: str, node: dict, on_main: bool, parent: str | None, stats: ParseStats) -> Message | None:
    role = node.get("role")
    if role == "system":
        stats.skip("system")
        return None
    if role not in ("user", "assistant"):
        raise ValueError(f"role {role!r:.20} is neither user nor assistant")
    text, captions, tools = _content(node.get("content"), stats)
    for item in c.list_of(node.get("output"), "output"):
        item = c.maybe_dict(item)
        kind = item.get("type")
        if kind in ("function_call", "tool_call"):
            stats.skip("tool")
            if isinstance(item.get("name"), str):
                tools.append(item["name"])
        elif kind == "reasoning":
            stats.skip("thoughts")
        elif kind == "message" and not text:
            parts = [
                c.text_of(c.maybe_dict(p).get("text"), "output.text")
                for p in c.list_of(item.get("content"), "output.content")
            ]
            text = "\n".join(p for p in parts if p).strip()
    attachments: list[str] = []
    for f in c.list_of(node.get("files"), "files"):
        f = c.maybe_dict(f)
        if f.get("type") == "image" or str(f.get("url", "")).startswith("data:image"):
            captions.append("image")
            continue
        inner = c.maybe_dict(f.get("file"))
        name = f.get("name") or inner.get("filename") or c.maybe_dict(inner.get("meta")).get("name")
        if isinstance(name, str) and name and name not in attachments:
            attachments.append(name)
    if role == "assistant" and node.get("error") and not text:
        stats.skip("error")
        return None
    if not text and not captions and not attachments:
        stats.skip("empty")
        return None
    model = node.get("model") if isinstance(node.get("model"), str) else None
    if role == "user":
        speaker = "User"
    else:
        name = node.get("modelName")
        speaker = name if isinstance(name, str) and name else (model or "Assistant")
    extra: dict[str, Any] = {}
    if role == "assistant" and model:
        extra["model"] = model
    if tools:
        extra["tools"] = list(dict.fromkeys(tools))
    return Message(
        external_id=c.id_of(node.get("id") or key, "message id"),
        speaker=speaker,
        text=text,
        timestamp=_time(node.get("timestamp")),
        role=role,
        attachments=tuple(attachments),
        captions=tuple(captions),
        parent_external_id=parent,
        on_main_branch=on_main,
        extra=extra or None,
    )


def _time(value: Any):
    """Epoch seconds; a millisecond value (some builds) is recognised by its size."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 1e11:
        value = value / 1000
    return c.from_unix(value, "timestamp")


def _content(value: Any, stats: ParseStats) -> tuple[str, list[str], list[str]]:
    """(text, captions, tool names): the words, with embedded blocks cut out and counted."""
    captions: list[str] = []
    if isinstance(value, list):  # some builds store content parts
        texts = []
        for part in value:
            part = c.maybe_dict(part)
            if part.get("type") == "text":
                texts.append(c.text_of(part.get("text"), "content.text"))
            elif part.get("type") in ("image_url", "image"):
                captions.append("image")
        value = "\n".join(t for t in texts if t)
    text = c.text_of(value, "content")
    tools: list[str] = []

    def cut(match: re.Match) -> str:
        attrs = dict(_ATTR.findall(match.group(1)))
        kind = attrs.get("type", "")
        if kind == "reasoning":
            stats.skip("thoughts")
        elif kind in ("tool_calls", "code_interpreter"):
            stats.skip("tool")
            if attrs.get("name"):
                tools.append(html.unescape(attrs["name"]))
        else:
            stats.skip("details")
        return ""

    if "<details" in text:
        text = _DETAILS.sub(cut, text)
    if "data:" in text:
        text, n = _DATA_IMAGE_MD.subn("", text)
        text, m = _DATA_URL.subn("", text)
        captions.extend(["image"] * (n + m))
    return text.strip(), captions, tools
