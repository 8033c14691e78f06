"""The normalised records every importer yields and the store consumes.

Importers know only these types: they never touch the database. A timestamp
is timezone-aware (UTC) when the export states the zone, naive when the
export gives local wall-clock time with no zone (WhatsApp, Telegram ``date``),
and ``None`` when the export gives none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterator

#: Conversation kinds the store and the UI know.
KINDS = ("chat", "channel", "dm", "group", "thread")


@dataclass(frozen=True)
class Message:
    external_id: str
    speaker: str
    text: str
    timestamp: datetime | None = None
    role: str = "user"  # user | assistant | system | tool | other
    attachments: tuple[str, ...] = ()
    captions: tuple[str, ...] = ()
    parent_external_id: str | None = None  # reply / thread parent in the export
    on_main_branch: bool = True  # False for ChatGPT/Claude branches not shown
    extra: dict | None = None  # format-specific details worth keeping (JSON-able)


@dataclass
class Conversation:
    external_id: str
    title: str
    kind: str = "chat"
    messages: list[Message] = field(default_factory=list)


@dataclass
class ParseStats:
    """What an importer saw but did not import, by reason (countable, reported)."""

    skipped: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)  # broken parts skipped, one line each

    def skip(self, kind: str, n: int = 1) -> None:
        self.skipped[kind] += n


ConversationStream = Iterator[Conversation]
