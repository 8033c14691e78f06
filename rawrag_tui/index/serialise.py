"""The paper's serialisation: one line per message, the raw text untouched.

``[{date}] {speaker}: {text}`` plus `` [shares {caption}]`` per image caption;
a missing date is written ``unknown``. This line is what gets windowed,
embedded, indexed and shown to the reader, so it lives in exactly one place.
Changing it means bumping ``WindowSettings.serialisation``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

#: Weekday included because relative dates ("last Friday") are common in chat.
DATE_FORMAT = "%Y-%m-%d %a %H:%M"


def format_timestamp(ts: str | None) -> str:
    if not ts:
        return "unknown"
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00")).strftime(DATE_FORMAT)
    except ValueError:
        return ts


def message_line(ts: str | None, speaker: str, text: str, captions: Iterable[str] = ()) -> str:
    line = f"[{format_timestamp(ts)}] {speaker}: {text}"
    for caption in captions:
        line += f" [shares {caption}]"
    return line
