"""Generic JSON lines: one message per line, for anything we have no importer for.

Each line is an object with ``conversation`` (id or name), ``speaker``,
``text`` and optionally ``timestamp`` (ISO-8601 or Unix seconds; null when
unknown), ``id`` (the message's id in its source), ``title``, ``kind``,
``role``, ``attachments`` and ``captions`` (lists of strings). A message
without an ``id`` gets a stable one from its content, so re-importing the
same lines adds nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator

from ..errors import ImportFormatError
from . import _sniff
from ._json import parse_time
from .records import KINDS, MAX_MESSAGE_CHARS, Conversation, Message, ParseStats
from .source import ExportSource

NAME = "jsonl"
REQUIRED = ("conversation", "speaker", "text")
SUFFIXES = (".jsonl", ".ndjson", ".jsonlines")
DETECT_LINE_BYTES = 1 << 20


NAME_HINT = re.compile(r"\.(jsonl|ndjson|jsonlines)$", re.IGNORECASE)


def _is_record(raw: bytes) -> bool:
    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    return isinstance(obj, dict) and all(k in obj for k in REQUIRED)


def sniff(source: ExportSource, name: str) -> float:
    """1.0 when the first non-blank line is a record; 0.8 when one of the
    first five is (a damaged first line); a .jsonl name alone says little."""
    lines = []
    try:
        with source.open(name) as fh:
            for _ in range(100):
                raw = fh.readline(DETECT_LINE_BYTES)  # never a whole multi-GB one-line file
                if not raw:
                    break
                if raw.strip():
                    lines.append(raw)
                    if len(lines) == 5:
                        break
    except (OSError, EOFError, ValueError):
        return 0.0
    if lines and _is_record(lines[0]):
        return 1.0
    if any(_is_record(raw) for raw in lines[1:]):
        return 0.8
    return 0.2 if NAME_HINT.search(name) and lines and lines[0].lstrip()[:1] == b"{" else 0.0


#: Member names that may hold JSON lines inside a zip or folder.
_MEMBER_SUFFIXES = (".jsonl", ".ndjson", ".jsonlines", ".txt", ".json", ".log")
#: Members of a zip or folder the detector reads lines from, at most.
_SNIFF_MEMBERS = 200


def detect(source: ExportSource) -> float:
    if source.kind != "file":
        names = _sniff.candidates(source, _MEMBER_SUFFIXES)[:_SNIFF_MEMBERS]
        return max((sniff(source, n) for n in names), default=0.0)
    return sniff(source, source.names()[0])


def _str_list(value, what: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{what} must be a list of strings")
    return tuple(value)


def _members(source: ExportSource) -> list[str]:
    if source.kind == "file":
        return source.names()
    return [n for n in _sniff.candidates(source, _MEMBER_SUFFIXES, limit=None) if sniff(source, n) >= 0.8]


def parse(source: ExportSource, stats: ParseStats) -> Iterator[Conversation]:
    conversations: dict[str, Conversation] = {}
    seen: Counter = Counter()
    any_line = False
    members = _members(source)
    if not members:
        raise ImportFormatError(source.path, NAME, "no .jsonl member holds records")
    for member in members:
        display = source.display(member)
        for lineno, raw in enumerate(source.iter_lines(member), start=1):
            if not raw.strip():
                continue
            any_line = True
            try:
                _line(raw, lineno, member, conversations, seen)
            except _Bad as exc:
                stats.bad(display, NAME, f"line {lineno}", str(exc))
            else:
                stats.ok()
    if not any_line:
        raise ImportFormatError(source.path, NAME, "the file holds no messages")
    stats.verdict(source.path, NAME)
    yield from conversations.values()


class _Bad(Exception):
    """One line that cannot be read."""


def _line(raw: bytes, lineno: int, member: str, conversations: dict[str, Conversation], seen: Counter) -> None:
    try:
        obj = json.loads(raw.decode("utf-8-sig" if lineno == 1 else "utf-8"))
    except UnicodeDecodeError:
        raise _Bad("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _Bad(f"invalid JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise _Bad("JSON nested too deeply") from None
    if not isinstance(obj, dict):
        raise _Bad("each line must be a JSON object")
    missing = [k for k in REQUIRED if k not in obj]
    if missing:
        raise _Bad(f"missing field(s) {', '.join(missing)}")
    conv_id, speaker, text = obj["conversation"], obj["speaker"], obj["text"]
    if not isinstance(conv_id, (str, int)) or isinstance(conv_id, bool):
        raise _Bad("'conversation' must be a string or number")
    if not isinstance(speaker, str) or not isinstance(text, str):
        raise _Bad("'speaker' and 'text' must be strings")
    if len(text) > MAX_MESSAGE_CHARS:
        raise _Bad(f"message of {len(text):,} characters is longer than {MAX_MESSAGE_CHARS:,}")
    try:
        ts = parse_time(obj.get("timestamp"))
    except (ValueError, OverflowError, OSError):
        raise _Bad(f"bad timestamp {obj.get('timestamp')!r:.60}") from None
    kind = obj.get("kind", "chat")
    if kind not in KINDS:
        raise _Bad(f"unknown kind {kind!r:.40} (one of {', '.join(KINDS)})")
    try:
        attachments = _str_list(obj.get("attachments"), "'attachments'")
        captions = _str_list(obj.get("captions"), "'captions'")
    except ValueError as exc:
        raise _Bad(str(exc)) from None
    conv_key = str(conv_id)
    msg_id = obj.get("id")
    if msg_id is None:
        basis = json.dumps([conv_key, obj.get("timestamp"), speaker, text], ensure_ascii=False)
        seen[basis] += 1
        msg_id = hashlib.sha256(f"{basis}#{seen[basis]}".encode()).hexdigest()[:24]
    message = Message(
        external_id=str(msg_id), speaker=speaker, text=text, timestamp=ts,
        role=str(obj.get("role", "user")),
        attachments=attachments, captions=captions,
        parent_external_id=str(obj["reply_to"]) if obj.get("reply_to") is not None else None,
    )
    conv = conversations.get(conv_key)
    if conv is None:
        title = obj.get("title") or conv_key
        conv = conversations[conv_key] = Conversation(conv_key, str(title), kind)
    conv.messages.append(message)
