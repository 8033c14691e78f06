"""The normalised records every importer yields and the store consumes.

Importers know only these types: they never touch the database. A timestamp
is timezone-aware (UTC) when the export states the zone, naive when the
export gives local wall-clock time with no zone (WhatsApp, Telegram ``date``),
and ``None`` when the export gives none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from ..errors import ImportFormatError

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


#: Longest message imported, in characters (about 250,000 tokens, ~1,100
#: windows). A longer "message" is a paste of a whole file or a broken
#: export; windowing and embedding it would take hours, so it is skipped and
#: reported as unreadable instead.
MAX_MESSAGE_CHARS = 1_000_000
#: Unreadable records kept with their place for the report (the count is exact).
MAX_PLACES = 50
#: More than this share of records unreadable: probably not this format.
UNREADABLE_SHARE = 0.5
#: The first this many records all unreadable: stop early, same verdict.
EARLY_VERDICT = 20


class TooManyUnreadable(ImportFormatError):
    """So much of a file failed that it is probably not the format tried."""


@dataclass
class ParseStats:
    """What an importer saw but did not import, by reason (countable, reported).

    ``records`` counts every message/line an importer tried to read and
    ``unreadable`` those it could not; each unreadable one is skipped, counted
    under ``skipped["unreadable"]`` and its place kept (the first
    :data:`MAX_PLACES`) so the report can say where. :meth:`verdict` turns a
    file where most records fail into one error: one bad line is a damaged
    export, a majority of bad lines is the wrong format.
    """

    skipped: Counter = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)  # broken parts skipped, one line each
    records: int = 0
    unreadable: int = 0
    places: list[dict] = field(default_factory=list)  # {"file", "where", "problem"}
    #: Stop at the first EARLY_VERDICT records all failing (off for the
    #: throw-away stats of one conversation; the file's stats decide).
    early_verdict: bool = True

    def skip(self, kind: str, n: int = 1) -> None:
        self.skipped[kind] += n

    def ok(self, n: int = 1) -> None:
        """``n`` records read (imported or deliberately left out)."""
        self.records += n

    def bad(self, file: object, fmt: str, where: str, problem: str, *, counted: bool = False) -> None:
        """One record that could not be read: skipped, counted, its place kept.

        ``counted`` is for a record already counted by :meth:`ok` (e.g. a
        message refused later for its size). Raises :class:`TooManyUnreadable`
        when the first :data:`EARLY_VERDICT` records have all failed, so a
        multi-GB file of the wrong format is not read to its end.
        """
        if not counted:
            self.records += 1
        self.unreadable += 1
        self.skipped["unreadable"] += 1
        if len(self.places) < MAX_PLACES:
            self.places.append({"file": str(file), "where": where, "problem": problem})
            self.errors.append(f"{file} ({where}): skipped: {problem}")
        elif len(self.places) == MAX_PLACES and self.unreadable == MAX_PLACES + 1:
            self.errors.append(f"{file}: more unreadable records; only the first {MAX_PLACES} are listed")
        if self.early_verdict and self.unreadable == self.records and self.records >= EARLY_VERDICT:
            raise self._too_many(file, fmt)

    def absorb(self, other: ParseStats) -> None:
        """Take over what a sub-parse (one conversation) counted."""
        self.skipped.update(other.skipped)
        self.records += other.records
        self.unreadable += other.unreadable
        room = MAX_PLACES - len(self.places)
        self.places += other.places[:max(room, 0)]
        self.errors += other.errors[:max(room, 0)] if other.unreadable else other.errors

    def verdict(self, path: object, fmt: str) -> None:
        """Raise when more than half of the records were unreadable."""
        if self.unreadable and self.unreadable > UNREADABLE_SHARE * self.records:
            raise self._too_many(path, fmt)

    def _too_many(self, path: object, fmt: str) -> TooManyUnreadable:
        first = self.places[0] if self.places else {"where": "?", "problem": "?"}
        return TooManyUnreadable(
            path, fmt,
            f"{self.unreadable} of {self.records} records unreadable, so this is probably not a {fmt} export "
            f"(first: {first['where']}: {first['problem']})",
        )


ConversationStream = Iterator[Conversation]
