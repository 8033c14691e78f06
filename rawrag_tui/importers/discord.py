"""Discord channel exports made with DiscordChatExporter (JSON format).

Discord itself offers no readable history export; DiscordChatExporter is
what people use. One file holds one channel (``{guild, channel, messages}``);
a big channel exported with a partition limit is split into
``... [part N].json`` files that we join back into one conversation, in part
order, streaming each file's messages with ijson. DMs sit under guild id
"0". Message and channel ids are Discord snowflakes: stable forever.
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

NAME = "discord"

_CUSTOM_EMOJI = re.compile(r"<a?(:\w+:)\d+>")
_HEAD = re.compile(r'^\s*\{\s*"guild"\s*:')
_PART = re.compile(r"\[part (\d+)\]", re.IGNORECASE)
_KEEP = {"Default", "Reply", "ChatInputCommand", "ContextMenuCommand", "ThreadStarterMessage"}
_JOIN_LEAVE = {"GuildMemberJoin", "RecipientAdd", "RecipientRemove"}
_KINDS = {
    "GuildTextChat": "channel",
    "GuildNewsChat": "channel",
    "GuildNews": "channel",
    "GuildVoiceChat": "channel",
    "GuildStageVoice": "channel",
    "GuildForum": "channel",
    "GuildPublicThread": "thread",
    "GuildPrivateThread": "thread",
    "GuildNewsThread": "thread",
    "DirectTextChat": "dm",
    "DirectGroupTextChat": "group",
}


NAME_HINT = re.compile(r"\[\d+\](?: \[part \d+\])?\.json$", re.IGNORECASE)
_MESSAGE_KEYS = frozenset({"timestampEdited", "isPinned", "callEndedTimestamp", "mentions", "reactions"})


def sniff(source: ExportSource, name: str) -> float:
    """DiscordChatExporter's ``{guild, channel, messages}``, or its messages alone."""
    head = _sniff.head_of(source, name)
    if head.top != "map":
        return 0.0
    if head.has("", "guild") and head.has("", "channel"):
        return 1.0
    if head.has("messages.item", "author") and head.any_key("messages.item", _MESSAGE_KEYS):
        return 0.9
    return 0.0


def detect(source: ExportSource) -> float:
    return _sniff.best_json_score(source, sniff)


def _object(source: ExportSource, member: str, key: str) -> dict:
    """One top-level object (``guild``/``channel``) without reading the messages."""
    import ijson

    head = _sniff.head_of(source, member)
    if head.top == "map" and head.keys.get("") and key not in head.keys[""] and "messages" in head.keys[""]:
        return {}  # a partial export without it: the head already passed the messages
    with c.json_stream(source, member, NAME) as fh:
        for value in ijson.items(fh, key, use_float=True):
            return c.dict_of(value, key)
    return {}


def _part(member: str) -> int:
    match = _PART.search(c.basename(member))
    return int(match.group(1)) if match else 1


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = _sniff.json_members(source, sniff, forced=True)
    if not members:
        raise ImportFormatError(source.path, NAME, "no DiscordChatExporter JSON ({guild, channel, messages}) found")
    groups: dict[str, list[tuple[int, str, dict, dict]]] = {}
    for member in members:
        cursor.at(member, "channel")
        guild = _object(source, member, "guild")
        channel = _object(source, member, "channel")
        if channel.get("id") in (None, ""):
            # A channel object missing (a cut-down export): the file's name stands for it.
            stem = _PART.sub("", c.basename(member)).rsplit(".", 1)[0].strip()
            channel = {**channel, "id": f"file:{c.stable_id(stem)}", "name": channel.get("name") or stem}
        channel_id = c.id_of(channel.get("id"), "channel.id")
        groups.setdefault(channel_id, []).append((_part(member), member, guild, channel))
    yielded = 0
    for channel_id, parts in groups.items():
        parts.sort(key=lambda p: (p[0], p[1]))
        _, _, guild, channel = parts[0]
        messages: list[Message] = []
        seen: set[str] = set()
        for _, member, _, _ in parts:
            for index, raw in enumerate(c.stream_items(source, member, NAME, "messages.item", "messages")):
                cursor.at(member, f"messages[{index}]")
                msg = c.read_one(stats, source, member, NAME, f"messages[{index}]", _message, raw, channel_id, stats)
                if msg is None:
                    continue
                if msg.external_id in seen:
                    stats.skip("duplicate")
                    continue
                seen.add(msg.external_id)
                messages.append(msg)
        if not messages:
            stats.skip("empty_conversation")
            continue
        yielded += 1
        yield Conversation(
            external_id=channel_id, title=_title(guild, channel), kind=_kind(guild, channel), messages=messages
        )
    if yielded == 0:
        raise ImportFormatError(source.display(members[0]), NAME, "the export holds no messages")


def _kind(guild: dict, channel: dict) -> str:
    kind = _KINDS.get(channel.get("type"))  # type: ignore[arg-type]
    if kind:
        return kind
    return "dm" if str(guild.get("id")) == "0" else "channel"


def _title(guild: dict, channel: dict) -> str:
    name = c.text_of(channel.get("name"), "channel.name").strip() or c.text_of(channel.get("id"), "channel.id")
    if str(guild.get("id")) == "0":
        return name
    guild_name = c.text_of(guild.get("name"), "guild.name").strip()
    shown = name if _KINDS.get(channel.get("type")) == "thread" else f"#{name}"  # type: ignore[arg-type]
    return f"{guild_name} / {shown}" if guild_name else shown


def _message(raw: Any, channel_id: str, stats: ParseStats) -> Message | None:
    msg = c.dict_of(raw, "message")
    kind = msg.get("type", "Default")
    if kind in _JOIN_LEAVE:
        stats.skip("join_leave")
        return None
    if kind not in _KEEP:
        stats.skip("system")
        return None
    mid = c.id_of(msg.get("id"), "message id")
    author = c.maybe_dict(msg.get("author"))
    speaker = next(
        (c.text_of(v, "author") for v in (author.get("nickname"), author.get("name"))
         if isinstance(v, str) and v.strip()),
        "Deleted User",
    )
    text = _CUSTOM_EMOJI.sub(r"\1", c.text_of(msg.get("content"), "content"))
    if not text.strip():
        pieces = []
        for embed in c.list_of(msg.get("embeds"), "embeds"):
            embed = c.maybe_dict(embed)
            for key in ("title", "description"):
                if isinstance(embed.get(key), str) and embed[key].strip():
                    pieces.append(c.text_of(embed[key], "embed"))
        text = "\n".join(pieces)
    attachments = [
        c.text_of(a.get("fileName"), "fileName")
        for a in map(c.maybe_dict, c.list_of(msg.get("attachments"), "attachments"))
        if isinstance(a.get("fileName"), str) and a.get("fileName")
    ]
    attachments += [
        f"sticker {c.text_of(s.get('name'), 'sticker')}"
        for s in map(c.maybe_dict, c.list_of(msg.get("stickers"), "stickers"))
        if isinstance(s.get("name"), str)
    ]
    if not text.strip() and not attachments:
        stats.skip("empty")
        return None
    reference = c.maybe_dict(msg.get("reference"))
    parent = reference.get("messageId")
    same_channel = reference.get("channelId") in (None, channel_id)
    extra: dict[str, Any] = {}
    if author.get("isBot") is True:
        extra["bot"] = True
    if msg.get("timestampEdited"):
        extra["edited"] = True
    return Message(
        external_id=mid,
        speaker=speaker,
        text=text,
        timestamp=c.from_iso(msg.get("timestamp"), "timestamp"),
        role="other" if extra.get("bot") else "user",
        attachments=tuple(attachments),
        parent_external_id=parent if isinstance(parent, str) and parent and same_channel else None,
        extra=extra or None,
    )
