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
from collections import Counter
from typing import Iterator

from ..errors import ImportFormatError
from ._json import parse_time
from .records import KINDS, Conversation, Message, ParseStats
from .source import ExportSource

NAME = "jsonl"
REQUIRED = ("conversation", "speaker", "text")
SUFFIXES = (".jsonl", ".ndjson", ".jsonlines")


def detect(source: ExportSource) -> bool:
    if source.kind != "file":
        return False
    if source.path.suffix.lower() in SUFFIXES:
        return True
    try:
        for raw in source.iter_lines(source.names()[0]):
            if raw.strip():
                obj = json.loads(raw)
                return isinstance(obj, dict) and all(k in obj for k in REQUIRED)
    except (ValueError, UnicodeDecodeError, OSError):
        return False
    return False


def _str_list(value, where: str, path) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ImportFormatError(path, NAME, "must be a list of strings", where)
    return tuple(value)


def parse(source: ExportSource, stats: ParseStats) -> Iterator[Conversation]:
    path = source.path
    conversations: dict[str, Conversation] = {}
    seen: Counter = Counter()
    any_line = False
    for lineno, raw in enumerate(source.iter_lines(source.names()[0]), start=1):
        if not raw.strip():
            continue
        any_line = True
        where = f"line {lineno}"
        try:
            obj = json.loads(raw.decode("utf-8-sig" if lineno == 1 else "utf-8"))
        except UnicodeDecodeError:
            raise ImportFormatError(path, NAME, "not UTF-8 text", where) from None
        except json.JSONDecodeError as exc:
            raise ImportFormatError(path, NAME, f"invalid JSON: {exc.msg}", f"{where}, column {exc.colno}") from None
        if not isinstance(obj, dict):
            raise ImportFormatError(path, NAME, "each line must be a JSON object", where)
        missing = [k for k in REQUIRED if k not in obj]
        if missing:
            raise ImportFormatError(path, NAME, f"missing field(s) {', '.join(missing)}", where)
        conv_id, speaker, text = obj["conversation"], obj["speaker"], obj["text"]
        if not isinstance(conv_id, (str, int)) or isinstance(conv_id, bool):
            raise ImportFormatError(path, NAME, "'conversation' must be a string or number", where)
        if not isinstance(speaker, str) or not isinstance(text, str):
            raise ImportFormatError(path, NAME, "'speaker' and 'text' must be strings", where)
        try:
            ts = parse_time(obj.get("timestamp"))
        except (ValueError, OverflowError, OSError):
            raise ImportFormatError(path, NAME, f"bad timestamp {obj.get('timestamp')!r}", where) from None
        kind = obj.get("kind", "chat")
        if kind not in KINDS:
            raise ImportFormatError(path, NAME, f"unknown kind {kind!r} (one of {', '.join(KINDS)})", where)
        conv_key = str(conv_id)
        conv = conversations.get(conv_key)
        if conv is None:
            title = obj.get("title") or conv_key
            conv = conversations[conv_key] = Conversation(conv_key, str(title), kind)
        msg_id = obj.get("id")
        if msg_id is None:
            basis = json.dumps([conv_key, obj.get("timestamp"), speaker, text], ensure_ascii=False)
            seen[basis] += 1
            msg_id = hashlib.sha256(f"{basis}#{seen[basis]}".encode()).hexdigest()[:24]
        conv.messages.append(
            Message(
                external_id=str(msg_id), speaker=speaker, text=text, timestamp=ts,
                role=str(obj.get("role", "user")),
                attachments=_str_list(obj.get("attachments"), where, path),
                captions=_str_list(obj.get("captions"), where, path),
                parent_external_id=str(obj["reply_to"]) if obj.get("reply_to") is not None else None,
            )
        )
    if not any_line:
        raise ImportFormatError(path, NAME, "the file holds no messages")
    yield from conversations.values()
