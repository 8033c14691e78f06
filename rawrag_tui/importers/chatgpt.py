"""ChatGPT data export (Settings > Data controls > Export data).

The export holds every conversation as a tree of nodes (``mapping``): edits
and regenerations are siblings, and what the user saw is the path from
``current_node`` up to the root. We import that path as the main branch and
keep the other branches marked ``on_main_branch=False``, because an answer
the user regenerated away can still be the one they remember.

Old exports have one ``conversations.json``; since 2026 they are sharded
into ``conversations-000.json``, ``-001``... Both are streamed one
conversation at a time with ijson, so a multi-GB export needs memory for one
conversation only. One broken conversation is reported in ``stats.errors``
and skipped; a file that is not JSON at all stops the import.

Custom instructions (``user_editable_context``) are the user's own words
about themselves and about how to be answered. The export copies them into
every conversation they applied to, so they are gathered into one
conversation of their own (:data:`PROFILE_ID`), each distinct text once,
dated when it was first seen: searching "what did I tell ChatGPT about me"
finds them once, not once per conversation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "chatgpt"

_MEMBER = re.compile(r"(?:^|/)conversations(?:-(\d+))?\.json$")
_FILE_ID = re.compile(r"(file[-_][A-Za-z0-9]+)")
#: Content types that are the model thinking aloud, not the conversation.
_THOUGHTS = {"thoughts", "reasoning_recap"}
_SPEAKERS = {"user": "User", "assistant": "ChatGPT", "system": "System"}
#: The conversation holding the custom instructions, one per account.
PROFILE_ID = "chatgpt:custom-instructions"
#: Fields of a ``user_editable_context`` that hold the user's words, and what each is.
_PROFILE_FIELDS = {"user_profile": "about_user", "user_instructions": "how_to_respond"}
_FENCED = re.compile(r"```(.*?)```", re.S)


#: Ties with another format are broken toward files named like ChatGPT's.
NAME_HINT = _MEMBER


def sniff(source: ExportSource, name: str) -> float:
    """1.0 for conversations with a ``mapping`` tree (Claude's have ``chat_messages``)."""
    head = _sniff.head_of(source, name)
    where = _sniff.conversations_at(head)
    if where is None or head.any_key(where, {"chat_messages"}):
        return 0.0
    if head.has(where, "mapping"):
        return 1.0
    if head.any_key(where, {"current_node", "default_model_slug"}) and head.has(where, "title"):
        return 0.9
    return 0.0


def _members(source: ExportSource, forced: bool = False) -> list[str]:
    """The members holding conversations, by content (any name), shards in order."""
    if source.kind == "file":
        return source.names() if forced or sniff(source, source.names()[0]) else []
    found = [
        n for n in _sniff.candidates(source, (".json",), limit=None)
        if sniff(source, n) or (_MEMBER.search(n) and not _sniff.head_of(source, n).any_key("item", {"chat_messages"}))
    ]

    def order(n: str) -> tuple:
        match = _MEMBER.search(n)
        return (0, int(match.group(1) or -1), n) if match else (1, 0, n)

    return sorted(found, key=order)


def detect(source: ExportSource) -> float:
    return _sniff.best_json_score(source, sniff)


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = _members(source, forced=True)
    if not members:
        raise ImportFormatError(
            source.path, NAME, "no JSON member holds ChatGPT conversations (a list of objects with a 'mapping')"
        )
    files = _file_index(source)
    salvage = c.Salvage(source, NAME, stats)
    profile = _Profile()
    for member in members:
        cursor.at(member, None)
        head = _sniff.head_of(source, member)
        prefix = _sniff.conversations_at(head)
        if prefix is None:
            lead = c.first_char(source, member)
            raise ImportFormatError(
                source.display(member), NAME,
                "expected a JSON list of conversations or one conversation object" if lead else "empty file",
            )
        label = "conversations" if prefix else "conversation"
        for index, raw in enumerate(c.stream_items(source, member, NAME, prefix, label)):
            where = f"conversations[{index}]" if prefix else "conversation"
            cursor.at(member, where)
            conv = salvage.take(
                raw, where, member,
                lambda r, local, w=where, m=member: _conversation(r, files, local, source, m, w, profile),
                "id",
            )
            if conv is not None:
                yield conv
    if profile.found:
        yield profile.conversation()
    salvage.finish(members[0])


class _Profile:
    """The custom instructions met in any conversation: each distinct text
    once, with the earliest time it was seen (its message's time, else its
    conversation's)."""

    def __init__(self) -> None:
        self.found: dict[tuple[str, str], Any] = {}

    def add(self, content: dict, when: Any) -> bool:
        """Take a ``user_editable_context``; False when it holds no words."""
        took = False
        for key, what in _PROFILE_FIELDS.items():
            text = _own_words(c.text_of(content.get(key), key))
            if not text:
                continue
            took = True
            seen = self.found.get((what, text))
            if (what, text) not in self.found or (when is not None and (seen is None or when < seen)):
                self.found[(what, text)] = when
        return took

    def conversation(self) -> Conversation:
        order = sorted(self.found.items(), key=lambda kv: (kv[1] is None, kv[1] or 0, kv[0]))
        messages = [
            Message(
                external_id=c.stable_id(PROFILE_ID, what, text),
                speaker="User",
                text=text,
                timestamp=when,
                role="user",
                extra={"custom_instructions": what},
            )
            for (what, text), when in order
        ]
        return Conversation(external_id=PROFILE_ID, title="ChatGPT custom instructions", messages=messages)


def _own_words(text: str) -> str:
    """The user's words in a custom-instructions field. Newer exports wrap
    them in the preamble ChatGPT showed the model ("The user provided the
    following information about themselves...") with the words in a fenced
    block; older ones hold the words alone."""
    fenced = _FENCED.findall(text)
    return (fenced[-1] if fenced else text).strip()


def _file_index(source: ExportSource) -> dict[str, str]:
    """file-id -> member name of the uploaded/generated file beside the JSON."""
    index: dict[str, str] = {}
    for name in source.names():
        base = c.basename(name)
        match = _FILE_ID.match(base)
        if match and not base.endswith(".json"):
            index.setdefault(match.group(1), base)
    return index


def _conversation(
    raw: Any, files: dict[str, str], stats: ParseStats, source: ExportSource | None = None,
    member: str | None = None, where: str = "conversation", profile: _Profile | None = None,
) -> Conversation:
    conv = c.dict_of(raw, "conversation")
    conv_id = c.id_of(conv.get("conversation_id") or conv.get("id"), "conversation id")
    contexts: list[tuple[dict, Any]] = []
    mapping = c.dict_of(conv.get("mapping"), "mapping")
    nodes: dict[str, dict] = {}
    parent_of: dict[str, str | None] = {}
    for key, node in mapping.items():
        node = c.dict_of(node, f"mapping[{key!r}]")
        parent = node.get("parent")
        parent_of[key] = parent if isinstance(parent, str) else None
        nodes[key] = node
    current = conv.get("current_node")
    if not isinstance(current, str) or current not in nodes:
        current = _newest_leaf(nodes)
    order, main = c.tree_order(list(nodes), parent_of, current)

    messages: list[Message] = []
    kept_parent: dict[str, str | None] = {}  # node -> nearest kept ancestor
    for node_id in order:
        parent = parent_of.get(node_id)
        inherited = kept_parent.get(parent) if parent is not None else None
        args = (node_id, nodes[node_id].get("message"), node_id in main, inherited, files, stats, contexts)
        if source is None:
            msg = _message(*args)
        else:
            msg = c.read_one(stats, source, member, NAME, f"{where}.mapping[{node_id!r}]", _message, *args)
        if msg is not None:
            messages.append(msg)
            kept_parent[node_id] = msg.external_id
        else:
            kept_parent[node_id] = inherited
    messages = c.unique_by_id(messages, stats)
    started = c.from_unix(conv.get("create_time"), "create_time") if contexts else None
    for content, when in contexts:
        if profile is None or not profile.add(content, when or started):
            stats.skip("empty")
    title = c.text_of(conv.get("title"), "title").strip() or c.fallback_title(
        [m for m in messages if m.on_main_branch]
    )
    return Conversation(external_id=conv_id, title=title, kind="chat", messages=messages)


def _newest_leaf(nodes: dict[str, dict]) -> str | None:
    """Where the shown path ends when ``current_node`` is missing or wrong."""
    best: tuple[float, int] | None = None
    best_id = None
    for pos, (node_id, node) in enumerate(nodes.items()):
        if node.get("children"):
            continue
        msg = c.maybe_dict(node.get("message"))
        when = msg.get("create_time")
        key = (when if isinstance(when, (int, float)) and not isinstance(when, bool) else 0.0, pos)
        if best is None or key > best:
            best, best_id = key, node_id
    return best_id


def _message(
    node_id: str,
    raw: Any,
    on_main: bool,
    parent: str | None,
    files: dict[str, str],
    stats: ParseStats,
    contexts: list[tuple[dict, Any]] | None = None,
) -> Message | None:
    if raw is None:
        return None  # structural node (the root)
    msg = c.dict_of(raw, "message")
    author = c.maybe_dict(msg.get("author"))
    role = c.text_of(author.get("role"), "author.role") or "unknown"
    content = c.maybe_dict(msg.get("content"))
    ctype = c.text_of(content.get("content_type"), "content_type")
    meta = c.maybe_dict(msg.get("metadata"))
    recipient = msg.get("recipient")

    if ctype == "user_editable_context":
        # The user's profile: gathered into one conversation of its own (_Profile).
        if contexts is not None:
            contexts.append((content, c.from_unix(msg.get("create_time"), "create_time")))
        return None
    if ctype in _THOUGHTS:
        stats.skip("thoughts")
        return None
    if meta.get("is_visually_hidden_from_conversation"):
        stats.skip("hidden")
        return None
    if role == "system" and not meta.get("is_user_system_message"):
        stats.skip("system")
        return None
    if role == "tool" or (role == "assistant" and recipient not in (None, "all")):
        stats.skip("tool")
        return None

    attachments: list[str] = []
    named = dict(files)  # this message's uploads by id take their upload name
    for att in c.list_of(meta.get("attachments"), "metadata.attachments"):
        att = c.maybe_dict(att)
        name = att.get("name")
        if isinstance(name, str) and name and name not in attachments:
            attachments.append(name)
            if isinstance(att.get("id"), str):
                named[att["id"]] = name
    text, captions = _content(content, named)
    if not text.strip() and not captions and not attachments:
        stats.skip("empty")
        return None
    external_id = c.id_of(msg.get("id") or node_id, "message id")
    speaker = _SPEAKERS.get(role) or c.text_of(author.get("name"), "author.name") or role
    extra: dict[str, Any] = {}
    model = meta.get("model_slug")
    if isinstance(model, str) and model:
        extra["model"] = model
    return Message(
        external_id=external_id,
        speaker=speaker,
        text=text,
        timestamp=c.from_unix(msg.get("create_time"), "create_time"),
        role=role if role in ("user", "assistant", "system", "tool") else "other",
        attachments=tuple(attachments),
        captions=tuple(captions),
        parent_external_id=parent,
        on_main_branch=on_main,
        extra=extra or None,
    )


def _content(content: dict, files: dict[str, str]) -> tuple[str, list[str]]:
    """(text, image captions) of one message's content."""
    texts: list[str] = []
    captions: list[str] = []
    if isinstance(content.get("text"), str):  # code, tether_quote, execution_output...
        texts.append(content["text"])
    for part in c.list_of(content.get("parts"), "content.parts"):
        if isinstance(part, str):
            if part:
                texts.append(part)
        elif isinstance(part, dict):
            kind = part.get("content_type")
            if kind == "audio_transcription":
                texts.append(c.text_of(part.get("text"), "audio_transcription.text"))
            elif kind == "image_asset_pointer" or ("asset_pointer" in part and kind != "audio_asset_pointer"):
                pointer = c.text_of(part.get("asset_pointer"), "asset_pointer")
                captions.append(f"image: {_file_name(pointer, files)}")
            elif kind == "real_time_user_audio_video_asset_pointer":
                # Voice mode: the transcription comes as its own part; the
                # audio itself is not imported.
                continue
        elif part is not None:
            texts.append(c.text_of(part, "part"))
    return c.text_of("\n".join(t for t in texts if t), "text"), captions


def _file_name(pointer: str, files: dict[str, str]) -> str:
    """file-service://file-abc -> the exported file's name when it is there."""
    ref = pointer.split("://", 1)[-1]
    match = _FILE_ID.search(ref)
    if match:
        return files.get(match.group(1), match.group(1))
    return ref or "unknown"
