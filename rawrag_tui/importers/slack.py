"""Slack workspace export (Workspace settings > Import/export data > Export).

A workspace export is a folder per conversation (public channels by name,
private channels by name, DMs by id, group DMs ``mpdm-...``) holding one
JSON array per day, plus ``users.json`` and the conversation lists. The
export is naturally split, so we read one conversation's day files at a time.

What the reader needs is text a person can read: ``<@U1>`` becomes
``@name`` from users.json (in messages and file comments alike),
``<url|text>`` becomes ``text (url)``, entities are decoded, and the
join/leave noise Slack writes into every channel is left out (counted).
Thread replies stay in their channel, right after their parent and linked to
it by ``parent_external_id``, so a thread reads as one passage. Message ids
are the ``ts`` strings, unique within a channel and the same in every export.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "slack"

_LISTS = {"channels.json": "channel", "groups.json": "channel", "dms.json": "dm", "mpims.json": "group"}
_USER_LISTS = ("users.json", "org_users.json")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}\.json$")
_TS = re.compile(r"^\d{1,12}(\.\d{1,9})?$")
_JOIN_LEAVE = {
    "channel_join",
    "channel_leave",
    "group_join",
    "group_leave",
    "member_joined_channel",
    "member_left_channel",
}
#: Housekeeping Slack writes as messages; not something anyone said.
_SYSTEM = {
    "channel_topic",
    "channel_purpose",
    "channel_name",
    "channel_archive",
    "channel_unarchive",
    "group_topic",
    "group_purpose",
    "group_name",
    "group_archive",
    "group_unarchive",
    "pinned_item",
    "unpinned_item",
    "channel_convert_to_private",
    "channel_convert_to_public",
    "reminder_add",
    "bot_add",
    "bot_remove",
    "app_conversation_join",
}
_MARKUP = re.compile(r"<([^<>\n]*)>")


def _root(source: ExportSource) -> str | None:
    """The folder holding the export's lists (exports are sometimes nested one deep)."""
    names = source.names()
    candidates = sorted(
        {c.dirname(n) for n in names if n.endswith(".json") and c.basename(n) in _LISTS and "__MACOSX" not in n},
        key=len,
    )
    for root in candidates:
        prefix = f"{root}/" if root else ""
        has_users = any(f"{prefix}{u}" in names for u in _USER_LISTS)
        has_days = any(
            n.startswith(prefix) and n.count("/") == prefix.count("/") + 1 and _DAY.match(c.basename(n))
            for n in names
        )
        if has_users or has_days:
            return root
    return None


def sniff_day(source: ExportSource, name: str) -> float:
    """A day file by content: an array of ``{"type": "message", "ts": ...}``."""
    head = _sniff.head_of(source, name)
    if head.top == "array" and head.has("item", "ts") and head.value_in("item.type", {"message"}):
        return 0.9
    return 0.0


def detect(source: ExportSource) -> float:
    if source.kind != "file" and _root(source) is not None:
        return 1.0
    return max((sniff_day(source, n) for n in _sniff.candidates(source, (".json",))), default=0.0)


def _loose_days(source: ExportSource, forced: bool) -> dict[str, list[str]]:
    """Day files without the export's lists (a channel folder, or one day file), by folder."""
    if source.kind == "file":
        name = source.names()[0]
        folder = source.path.parent.name or "slack"
        return {folder: [name]} if forced or sniff_day(source, name) else {}
    days: dict[str, list[str]] = {}
    for name in _sniff.candidates(source, (".json",), limit=None):
        if sniff_day(source, name):
            days.setdefault(c.dirname(name) or source.path.stem, []).append(name)
    return days


class _Directory:
    """Names for ids: users (display name first), channels and bots.

    A bot's name is found, in this order, on the message (``username``,
    ``bot_profile.name``), on the bot's user in users.json (``profile.bot_id``)
    or in ``integration_logs.json`` (the entry that installed it); only a bot
    named nowhere shows as ``bot B0...``.
    """

    def __init__(self, users: list, channels: dict[str, str], logs: Any = None):
        self.users: dict[str, str] = {}
        self.bots: dict[str, str] = {}
        for user in users:
            user = c.dict_of(user, "user")
            uid = user.get("id")
            if not isinstance(uid, str):
                continue
            profile = c.maybe_dict(user.get("profile"))
            name = next(
                (
                    v.strip()
                    for v in (
                        profile.get("display_name"),
                        profile.get("real_name"),
                        user.get("real_name"),
                        user.get("name"),
                    )
                    if isinstance(v, str) and v.strip()
                ),
                None,
            )
            if name is None:
                name = f"deleted user {uid}" if user.get("deleted") else f"user {uid}"
            self.users[uid] = c.text_of(name, "user name")
            bot_id = profile.get("bot_id")
            if isinstance(bot_id, str) and bot_id and not name.startswith(("user ", "deleted user ")):
                self.bots.setdefault(bot_id, self.users[uid])
        self.channels = channels
        entries = logs.get("logs") if isinstance(logs, dict) else logs
        for entry in entries if isinstance(entries, list) else []:
            entry = c.maybe_dict(entry)
            bot_id = entry.get("bot_id")
            if not isinstance(bot_id, str) or not bot_id or bot_id in self.bots:
                continue
            for key in ("bot_name", "service_name", "app_type", "service_type"):
                value = entry.get(key)
                if isinstance(value, str) and value.strip() and value.strip().lower() != "bot":
                    self.bots[bot_id] = c.text_of(value.strip(), key)
                    break

    def bot(self, bot_id: Any) -> str | None:
        return self.bots.get(bot_id) if isinstance(bot_id, str) else None

    def user(self, uid: Any, profile: Any = None) -> str:
        if isinstance(uid, str) and uid in self.users:
            return self.users[uid]
        prof = c.maybe_dict(profile)
        for key in ("display_name", "real_name", "name"):
            value = prof.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
        return f"unknown user {uid}" if isinstance(uid, str) and uid else "unknown user"


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    root = _root(source)
    if root is None:
        loose = _loose_days(source, forced=True)
        directory = _Directory([], {})
        for folder, day_members in sorted(loose.items()):
            found = _read_channel(source, sorted(day_members), directory, stats, cursor)
            if found:
                label = c.basename(folder) or folder
                yield Conversation(external_id=label, title=f"#{label}", kind="channel", messages=found)
        if loose:
            return
        raise ImportFormatError(source.path, NAME, "no channels.json/dms.json with users.json or day files found")
    prefix = f"{root}/" if root else ""
    names = set(source.names())

    users: list = []
    for user_list in _USER_LISTS:
        if prefix + user_list in names:
            cursor.at(prefix + user_list)
            users += c.list_of(c.load_json(source, prefix + user_list, NAME), user_list, allow_none=False)

    # Every conversation the lists name: (folder, external id, title, kind).
    listed: list[tuple[str, str, str | None, str, list]] = []
    channel_names: dict[str, str] = {}
    for list_name, kind in _LISTS.items():
        member = prefix + list_name
        if member not in names:
            continue
        cursor.at(member)
        for i, entry in enumerate(c.list_of(c.load_json(source, member, NAME), list_name, allow_none=False)):
            cursor.at(member, f"[{i}]")
            entry = c.dict_of(entry, "conversation entry")
            conv_id = c.id_of(entry.get("id"), "id")
            name = entry.get("name")
            name = c.text_of(name, "name") if isinstance(name, str) and name else None
            if name and kind == "channel":
                channel_names[conv_id] = name
            members = [m for m in c.list_of(entry.get("members"), "members") if isinstance(m, str)]
            if kind == "dm" and not members:
                members = [m for m in (entry.get("user"),) if isinstance(m, str)]
            listed.append((name or conv_id, conv_id, name, kind, members))
    logs = None
    if prefix + "integration_logs.json" in names:
        cursor.at(prefix + "integration_logs.json")
        logs = c.load_json(source, prefix + "integration_logs.json", NAME)
    directory = _Directory(users, channel_names, logs)

    day_files: dict[str, list[str]] = {}
    for name in names:
        rel = name[len(prefix):] if name.startswith(prefix) else None
        if rel and rel.count("/") == 1 and _DAY.match(c.basename(rel)):
            day_files.setdefault(c.dirname(rel), []).append(name)

    done: set[str] = set()
    yielded = 0
    plan = [(folder, conv_id, name, kind, members) for folder, conv_id, name, kind, members in listed]
    listed_folders = {p[0] for p in plan}
    # Folders no list names (a partial export): import them as channels by folder name.
    plan += [(folder, folder, folder, "channel", []) for folder in sorted(day_files) if folder not in listed_folders]
    for folder, conv_id, name, kind, members in plan:
        if conv_id in done or folder not in day_files:
            continue
        done.add(conv_id)
        messages = _read_channel(source, sorted(day_files[folder]), directory, stats, cursor)
        if not messages:
            continue
        title = _title(kind, name, members, directory)
        yielded += 1
        yield Conversation(external_id=conv_id, title=title, kind=kind, messages=messages)
    if yielded == 0 and not any(day_files.values()):
        raise ImportFormatError(source.path, NAME, "the export holds no day files (no messages)")


def _title(kind: str, name: str | None, members: list[str], directory: _Directory) -> str:
    if kind == "channel":
        return f"#{name}"
    people = ", ".join(directory.user(m) for m in members)
    if kind == "dm":
        return f"DM: {people}" if people else f"DM {name}"
    return f"Group DM: {people}" if people else (name or "group DM")


def _read_channel(
    source: ExportSource, members: list[str], directory: _Directory, stats: ParseStats, cursor: c.Cursor
) -> list[Message]:
    by_ts: dict[str, Message] = {}
    for member in members:
        cursor.at(member)
        day = c.list_of(c.load_json(source, member, NAME), "day file", allow_none=False)
        for i, raw in enumerate(day):
            cursor.at(member, f"[{i}]")
            msg = c.read_one(stats, source, member, NAME, f"[{i}]", _message, raw, directory, stats)
            if msg is None:
                continue
            if msg.external_id in by_ts:
                stats.skip("duplicate")
                continue
            by_ts[msg.external_id] = msg
    return _thread_order(list(by_ts.values()))


def _thread_order(messages: list[Message]) -> list[Message]:
    """Channel messages in time order, each followed by its thread's replies."""
    key = lambda m: (float(m.external_id), m.external_id)  # noqa: E731
    replies: dict[str, list[Message]] = {}
    top: list[Message] = []
    ids = {m.external_id for m in messages}
    for msg in messages:
        if msg.parent_external_id is not None:
            replies.setdefault(msg.parent_external_id, []).append(msg)
        else:
            top.append(msg)
    # A thread whose parent is not in the export stands where its first reply does.
    orphans = {parent: sorted(group, key=key) for parent, group in replies.items() if parent not in ids}
    anchors = [(key(group[0]), parent) for parent, group in orphans.items()]
    entries = [(key(m), m) for m in top] + [(k, parent) for k, parent in anchors]
    out: list[Message] = []
    for _, item in sorted(entries, key=lambda e: e[0]):
        if isinstance(item, Message):  # else the parent id of an orphan thread
            out.append(item)
            out += sorted(replies.get(item.external_id, []), key=key)
        else:
            out += orphans[item]
    return out


def _message(raw: Any, directory: _Directory, stats: ParseStats) -> Message | None:
    msg = c.dict_of(raw, "message")
    if msg.get("type", "message") != "message":
        stats.skip("other")
        return None
    subtype = msg.get("subtype")
    if subtype in _JOIN_LEAVE:
        stats.skip("join_leave")
        return None
    if subtype in _SYSTEM:
        stats.skip("system")
        return None
    ts = msg.get("ts")
    if not isinstance(ts, str) or not _TS.match(ts):
        raise ValueError(f"message ts missing or not epoch seconds ({ts!r:.40})")
    thread_ts = msg.get("thread_ts")
    parent = thread_ts if isinstance(thread_ts, str) and thread_ts != ts and _TS.match(thread_ts) else None

    role = "user"
    extra: dict[str, Any] = {}
    comment = c.maybe_dict(msg.get("comment"))
    if subtype == "bot_message" or msg.get("bot_id"):
        bot = c.maybe_dict(msg.get("bot_profile"))
        name = msg.get("username") or bot.get("name") or directory.bot(msg.get("bot_id") or bot.get("id"))
        if not (isinstance(name, str) and name) and isinstance(msg.get("user"), str):
            name = directory.user(msg["user"], msg.get("user_profile"))
        speaker = (c.text_of(name, "username") if isinstance(name, str) and name
                   else f"bot {msg.get('bot_id') or ''}".strip())
        role = "other"
        extra["bot"] = True
    elif subtype == "tombstone":
        speaker = "deleted"
        role = "other"
    else:
        # An old file comment names its author only inside ``comment``.
        speaker = directory.user(msg.get("user") or comment.get("user"), msg.get("user_profile"))

    text = decode(c.text_of(msg.get("text"), "text"), directory)
    if not text.strip() and comment:
        text = decode(c.text_of(comment.get("comment"), "comment"), directory)
    if not text.strip():
        # Old integrations put everything in legacy attachments.
        pieces = []
        for att in c.list_of(msg.get("attachments"), "attachments"):
            att = c.maybe_dict(att)
            piece = att.get("fallback") or att.get("text") or att.get("pretext")
            if isinstance(piece, str) and piece.strip():
                pieces.append(decode(piece, directory))
        text = "\n".join(pieces)
    files = []
    single = msg.get("file")  # older exports: one shared or commented file
    for f in c.list_of(msg.get("files"), "files") + ([single] if isinstance(single, dict) else []):
        f = c.maybe_dict(f)
        name = f.get("name") or f.get("title")
        if isinstance(name, str) and name:
            files.append(c.text_of(name, "file name"))
        elif f.get("mode") == "tombstone":
            files.append("(file deleted)")
        elif f.get("mode") == "hidden_by_limit":
            files.append("(file hidden by limit)")
    if not text.strip() and not files:
        stats.skip("empty")
        return None
    if isinstance(msg.get("edited"), dict):
        extra["edited"] = True
    if subtype == "thread_broadcast":
        extra["broadcast"] = True
    return Message(
        external_id=ts,
        speaker=speaker,
        text=text,
        timestamp=c.from_unix(ts, "ts"),
        role=role,
        attachments=tuple(files),
        parent_external_id=parent,
        extra=extra or None,
    )


def decode(text: str, directory: _Directory) -> str:
    """Slack's mrkdwn escapes and link markup -> what the user saw."""

    def replace(match: re.Match) -> str:
        inner = match.group(1)
        target, _, label = inner.partition("|")
        if target.startswith("@"):
            return "@" + (html.unescape(label) or directory.user(target[1:]))
        if target.startswith("#"):
            return "#" + (html.unescape(label) or directory.channels.get(target[1:], target[1:]))
        if target.startswith("!"):
            command = target[1:]
            if command in ("here", "channel", "everyone"):
                return "@" + command
            if label:  # <!subteam^S1|@team>, <!date^...|fallback>
                return html.unescape(label)
            return "@" + command.split("^", 1)[0]
        if label:
            if label == target or target == f"mailto:{label}":
                return html.unescape(label)
            return f"{html.unescape(label)} ({html.unescape(target)})"
        return html.unescape(target.removeprefix("mailto:")) if target else match.group(0)

    out: list[str] = []
    pos = 0
    for match in _MARKUP.finditer(text):
        out.append(html.unescape(text[pos : match.start()]))
        out.append(replace(match))
        pos = match.end()
    out.append(html.unescape(text[pos:]))
    return "".join(out)
