"""Telegram Desktop JSON export (Settings > Advanced > Export Telegram data).

Two shapes share one message format: the full export (``result.json`` with
``chats.list`` and ``left_chats.list``) and a single chat exported from the
chat's menu (``{name, type, id, messages}``). A full export of years of
history is one JSON file of gigabytes, so it is streamed chat by chat (and a
single chat message by message) with ijson.

``date_unixtime`` is UTC and preferred; older exports have only ``date``,
local wall-clock without a zone, kept naive. Service messages (joins, pins,
calls) are left out and counted. Message ids are Telegram's, unique within a
chat (a message exported without one gets an id made from its chat, time,
sender, text and rank among identical ones); chat ids are the account's,
stable across exports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "telegram"

_CHAT_TYPE = re.compile(
    r'"type"\s*:\s*"(personal_chat|bot_chat|private_group|private_supergroup|public_supergroup|'
    r'private_channel|public_channel|saved_messages|replies)"'
)
_KINDS = {
    "personal_chat": "dm",
    "bot_chat": "dm",
    "private_group": "group",
    "private_supergroup": "group",
    "public_supergroup": "group",
    "private_channel": "channel",
    "public_channel": "channel",
    "saved_messages": "chat",
    "replies": "chat",
}
_MEDIA = {
    "voice_message": "voice message",
    "video_message": "video message",
    "animation": "GIF",
    "audio_file": "audio",
    "video_file": "video",
}


NAME_HINT = re.compile(r"(?:^|/)result\.json$")
_CHAT_TYPES = frozenset(_KINDS)
_MESSAGE_KEYS = frozenset({"date_unixtime", "from_id", "text_entities", "actor_id", "reply_to_message_id"})


def sniff(source: ExportSource, name: str) -> float:
    """Telegram's JSON by its keys, whichever subset of the top level is there."""
    head = _sniff.head_of(source, name)
    if head.top != "map":
        return 0.0
    if head.has("chats", "list") or head.has("left_chats", "list") or head.has("", "personal_information"):
        return 1.0
    if not head.has("", "messages") or head.any_key("", {"guild", "channel"}):
        return 0.0
    if head.any_key("messages.item", _MESSAGE_KEYS) or head.value_in("type", _CHAT_TYPES):
        return 1.0
    if head.value_in("messages.item.type", {"message", "service"}) and head.has("messages.item", "date"):
        return 0.9
    return 0.0


def detect(source: ExportSource) -> float:
    return _sniff.best_json_score(source, sniff)


def _shape(source: ExportSource, member: str) -> str:
    """'full' (chats.list) or 'single' (messages at the top)."""
    import ijson

    head = _sniff.head_of(source, member)
    if head.any_key("", {"chats", "left_chats"}):
        return "full"
    if head.has("", "messages"):
        return "single"
    with c.json_stream(source, member, NAME) as fh:
        for prefix, event, value in ijson.parse(fh):
            if prefix == "" and event == "map_key":
                if value in ("chats", "left_chats"):
                    return "full"
                if value == "messages":
                    return "single"
    return "none"


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = _sniff.json_members(source, sniff, forced=True)
    if not members:
        raise ImportFormatError(source.path, NAME, "no JSON member holds Telegram chats or messages")
    seen: set[str] = set()
    chats = 0
    for member in members:
        cursor.at(member, None)
        if _sniff.head_of(source, member).top != "map" and c.first_char(source, member) != "{":
            raise ImportFormatError(source.display(member), NAME, "expected a JSON object (result.json)")
        shape = _shape(source, member)
        place = _Place(source, member)
        if shape == "full":
            for section in ("chats", "left_chats"):
                for index, raw in enumerate(
                    c.stream_items(source, member, NAME, f"{section}.list.item", f"{section}.list")
                ):
                    chats += 1
                    where = f"{section}.list[{index}]"
                    cursor.at(member, where)
                    if not isinstance(raw, dict) or not isinstance(raw.get("messages", []), list):
                        stats.bad(place.display, NAME, where, "a chat that is not an object with a messages list")
                        continue
                    conv = _conversation(raw, raw.get("messages") or [], stats, cursor, where, place)
                    if conv is not None and conv.external_id not in seen:
                        seen.add(conv.external_id)
                        yield conv
        elif shape == "single":
            chats += 1
            header = c.scalars_before(source, member, "messages", {"name", "type", "id"}, NAME)
            messages = c.stream_items(source, member, NAME, "messages.item", "messages")
            conv = _conversation(header, messages, stats, cursor, "", place)
            if conv is not None and conv.external_id not in seen:
                seen.add(conv.external_id)
                yield conv
    if chats == 0:
        raise ImportFormatError(source.display(members[0]), NAME, "the export holds no chats")


class _Place:
    """Which member a message came from, for the report."""

    def __init__(self, source: ExportSource, member: str):
        self.source, self.member, self.display = source, member, source.display(member)


def _conversation(
    chat: dict, messages: Iterable[Any], stats: ParseStats, cursor: c.Cursor, where: str, place: _Place
) -> Conversation | None:
    raw_id = chat.get("id")
    chat_type = str(chat["type"]) if isinstance(chat.get("type"), str) else ""
    name = c.text_of(chat.get("name"), "chat name").strip() if isinstance(chat.get("name"), str) else ""
    read: list[Message] = []
    for index, raw in enumerate(messages):
        cursor.where = f"{where}.messages[{index}]" if where else f"messages[{index}]"
        msg = c.read_one(stats, place.source, place.member, NAME, cursor.where, _message, raw, stats)
        if msg is not None:
            read.append(msg)
    if not read:
        stats.skip("empty_conversation")
        return None
    if isinstance(raw_id, (int, str)) and not isinstance(raw_id, bool) and raw_id != "":
        chat_id = str(raw_id)
    else:
        # A chat exported without its header: the same people give the same id
        # in every export of it, so a later export merges into this one.
        people = sorted({m.speaker for m in read})
        chat_id = f"people:{c.stable_id(*people)}"
    out: list[Message] = []
    seen: set[str] = set()
    for msg in _with_ids(chat_id, read):
        if msg.external_id in seen:
            stats.skip("duplicate")
            continue
        seen.add(msg.external_id)
        out.append(msg)
    if not name:
        name = {"saved_messages": "Saved Messages", "personal_chat": "Deleted Account"}.get(chat_type, "")
    if not name:
        speakers = sorted({m.speaker for m in out})
        name = "Telegram chat: " + ", ".join(speakers[:4]) + (" and others" if len(speakers) > 4 else "")
    return Conversation(external_id=chat_id, title=name, kind=_KINDS.get(chat_type, "chat"), messages=out)


def _with_ids(chat_id: str, messages: list[Message]) -> Iterator[Message]:
    """Give a message exported without ``id`` (some tools and older clients
    leave it out) one made from its content and place: the chat, the time,
    the sender, the text and attachments, and how many identical messages came
    before it in the chat. The same export, or a later one of the same chat,
    gives the same ids, so re-importing adds nothing twice."""
    occurrences: dict[tuple, int] = {}
    for msg in messages:
        if msg.external_id:
            yield msg
            continue
        when = msg.timestamp.isoformat() if msg.timestamp is not None else ""
        key = (chat_id, when, msg.speaker, msg.text, msg.attachments)
        occurrence = occurrences.get(key, 0)
        occurrences[key] = occurrence + 1
        yield replace(msg, external_id="derived:" + c.stable_id(*key, occurrence))


def _text(value: Any) -> str:
    """Telegram text: a string, or a list of strings and entity objects."""
    if isinstance(value, list):
        pieces = []
        for part in value:
            if isinstance(part, dict):
                text = c.text_of(part.get("text"), "text entity")
                href = part.get("href")
                if part.get("type") == "text_link" and isinstance(href, str) and href and href != text:
                    text = f"{text} ({href})"
                pieces.append(text)
            else:
                pieces.append(c.text_of(part, "text"))
        return "".join(pieces)
    return c.text_of(value, "text")


def _file_label(path: Any, fallback: str) -> str:
    if isinstance(path, str) and path and not path.startswith("("):
        return c.basename(path)
    return fallback


def _message(raw: Any, stats: ParseStats) -> Message | None:
    msg = c.dict_of(raw, "message")
    kind = msg.get("type", "message")
    if kind == "service":
        stats.skip("system")
        return None
    if kind != "message":
        stats.skip("other")
        return None
    # No id at all: one is made from the message's content and place (_with_ids).
    mid = "" if msg.get("id") in (None, "") else c.id_of(msg.get("id"), "message id")
    if msg.get("date_unixtime") not in (None, ""):
        when = c.from_unix(msg.get("date_unixtime"), "date_unixtime")
    else:
        when = c.from_iso(msg.get("date"), "date", naive_ok=True)
    text = _text(msg["text"]) if "text" in msg else _text(msg.get("text_entities"))

    attachments: list[str] = []
    media = msg.get("media_type")
    if "photo" in msg:
        attachments.append(_file_label(msg.get("photo"), "photo"))
    if "file" in msg or media:
        if media == "sticker":
            emoji = msg.get("sticker_emoji")
            attachments.append(f"sticker {emoji}" if isinstance(emoji, str) and emoji else "sticker")
        else:
            name = msg.get("file_name")
            label = name if isinstance(name, str) and name else _file_label(msg.get("file"), "")
            attachments.append(c.text_of(label or _MEDIA.get(media or "", "file"), "file name"))
    poll = c.maybe_dict(msg.get("poll"))
    if poll:
        answers = [c.text_of(c.maybe_dict(a).get("text"), "poll answer")
                   for a in c.list_of(poll.get("answers"), "answers")]
        question = c.text_of(poll.get("question"), "poll question")
        text = "\n".join(p for p in (text, f"Poll: {question}", *(f"- {a}" for a in answers)) if p)
    if isinstance(msg.get("location_information"), dict):
        attachments.append("location")
    contact = c.maybe_dict(msg.get("contact_information"))
    if contact:
        person = " ".join(
            c.text_of(contact.get(k), "contact") for k in ("first_name", "last_name") if contact.get(k)
        )
        attachments.append(f"contact {person}".strip())
    if not text.strip() and not attachments:
        stats.skip("empty")
        return None

    sender = msg.get("from")
    speaker = c.text_of(sender, "from").strip() if sender is not None else ""
    if not speaker:
        from_id = msg.get("from_id")
        speaker = f"Deleted Account {from_id}" if isinstance(from_id, str) and from_id else "Deleted Account"
    reply = msg.get("reply_to_message_id")
    extra: dict[str, Any] = {}
    if msg.get("edited"):
        extra["edited"] = True
    forwarded = msg.get("forwarded_from")
    if isinstance(forwarded, str) and forwarded:
        extra["forwarded_from"] = c.text_of(forwarded, "forwarded_from")
    return Message(
        external_id=mid,
        speaker=speaker,
        text=text,
        timestamp=when,
        role="user",
        attachments=tuple(attachments),
        parent_external_id=str(reply) if isinstance(reply, (int, str)) and not isinstance(reply, bool) else None,
        extra=extra or None,
    )
