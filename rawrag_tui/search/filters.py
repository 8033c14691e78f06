"""Search filters: dates, speakers, a source, conversations and their kind, resolved against one store.

:class:`~rawrag_tui.search.types.Filters` is what a face passes (the words
the user typed); :func:`narrow` checks each against the store (an unknown
speaker, source or conversation is one line naming the near matches) and
turns them into a :class:`Scope`: one SQL condition on messages. The store
lays the windows holding a passing message into a temporary table, and both
channels search inside it (the FTS query and the vector candidates), so a
filter restricts the candidates before the top-K cut, never after it.

Dates: ``2016``, ``2016-03``, ``2016-03-14``, or ``30d``/``6w``/``6m``/``2y``
before today. Both bounds include the period they name: ``after 2016-03``
keeps messages from 1 March 2016 on, ``before 2016`` keeps them up to the end
of 31 December 2016. They compare with the day each message carries (UTC for
exports that say UTC, the wall clock otherwise); a message with no time
passes no date filter.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from ..errors import UserError
from ..storage.store import Store
from .types import Filters

#: Conversation kinds a filter names, as the store's kinds and formats make them.
AGENT_FORMATS = ("claude_code", "codex")
KINDS = {"chat": ("chat", "dm"), "channel": ("channel", "thread"), "group": ("group",), "agent": ()}

_RELATIVE = re.compile(r"^\s*(\d+)\s*([dwmy])\s*$", re.I)
_DATE_HELP = "give 2016, 2016-03, 2016-03-14, or 30d / 6w / 6m / 2y for that long ago"


def _months_back(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 - months
    year, month = divmod(index, 12)
    for d in (day.day, 30, 29, 28):
        try:
            return date(year, month + 1, d)
        except ValueError:
            continue
    raise AssertionError("unreachable")


def period(value: str, name: str, today: date | None = None) -> tuple[date, date]:
    """The first day of the period ``value`` names and the first day after it."""
    text = value.strip()
    today = today or date.today()
    rel = _RELATIVE.match(text)
    try:
        if rel:
            n, unit = int(rel.group(1)), rel.group(2).lower()
            if unit in "dw":
                day = today - timedelta(days=n * (7 if unit == "w" else 1))
            else:
                day = _months_back(today, n * (12 if unit == "y" else 1))
            return day, day + timedelta(days=1)
        if re.fullmatch(r"\d{4}", text):
            return date(int(text), 1, 1), date(int(text) + 1, 1, 1)
        if re.fullmatch(r"\d{4}-\d{1,2}", text):
            year, month = map(int, text.split("-"))
            first = date(year, month, 1)
            return first, _months_back(first, -1)
        day = date.fromisoformat(text)
        return day, day + timedelta(days=1)
    except (ValueError, OverflowError):
        raise UserError(f"{name}: {value!r} is not a date ({_DATE_HELP})") from None


def fold(text: str) -> str:
    """A name as people type it: no accents, no case, single spaces, no leading @."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().lstrip("@").split())


def _near(typed: str, names: Iterable[str], what: str) -> UserError:
    names = sorted(set(names))
    folded = {fold(n): n for n in names}
    key = fold(typed)
    close = difflib.get_close_matches(key, list(folded), n=5, cutoff=0.5)
    close += [k for k in folded if key[:3] and k.startswith(key[:3]) and k not in close][: 5 - len(close)]
    hint = f"; near: {', '.join(folded[k] for k in close)}" if close else ""
    return UserError(f"no {what} named {typed!r}{hint}")


def match_speakers(typed: str, speakers: Iterable[str]) -> list[str]:
    """The stored speaker names ``typed`` names: the whole name, or its first words ("neeraj" -> "Neeraj Kumar")."""
    want = fold(typed).split()
    if not want:
        return []
    return [s for s in speakers if fold(s).split()[: len(want)] == want]


def resolve_source(store: Store, typed: str) -> list[int]:
    sources = store.sources()
    text = typed.strip()
    if text.isdigit():
        ids = [s["id"] for s in sources if s["id"] == int(text)]
        if ids:
            return ids
        raise UserError(f"no source with id {text}" + (
            f"; sources: {', '.join(str(s['id']) for s in sources[:20])}" if sources else ""))
    key = fold(text)
    ids = [s["id"] for s in sources if key in (fold(s["format"]), fold(Path(s["path"]).name), fold(s["path"]))]
    if ids:
        return ids
    raise _near(text, [s["format"] for s in sources] + [Path(s["path"]).name for s in sources], "source")


def resolve_conversations(store: Store, typed: str) -> list[dict]:
    """The conversations an id or a title names: an exact title (any case), else titles holding the words."""
    conversations = store.conversations()
    text = typed.strip()
    if text.isdigit():
        found = [c for c in conversations if c["id"] == int(text)]
        if found:
            return found
    key = fold(text)
    found = [c for c in conversations if fold(c["title"]) == key] or [
        c for c in conversations if key and key in fold(c["title"])]
    if found:
        return found
    if text.isdigit():
        raise UserError(f"no conversation with id {text}")
    raise _near(text, [c["title"] for c in conversations], "conversation")


@dataclass
class Scope:
    """The filters checked against the store: one SQL condition on messages (alias ``m``)."""

    filters: Filters
    #: The condition a message shown in a hit meets (dates, source, conversations, kind).
    shown: tuple[str, list[Any]] = ("1", [])
    #: The condition a message that selects a window meets (``shown`` and the speakers).
    matched: tuple[str, list[Any]] = ("1", [])
    #: Windows holding a matching message (set by :meth:`lay_out`).
    windows: int = 0
    described: list[str] = field(default_factory=list)

    def lay_out(self, store: Store) -> int:
        """Fill the store's table of allowed windows; returns how many there are."""
        self.windows = store.allow_windows(*self.matched)
        return self.windows

    def nothing_passes(self) -> str:
        return f"no message passes the filters ({', '.join(self.described)})"


def narrow(store: Store, filters: Filters, today: date | None = None) -> Scope:
    """The checked filters (one UserError line for a bad date or an unknown name)."""
    shown: list[str] = []
    args: list[Any] = []
    described: list[str] = []
    if filters.after:
        first, _ = period(filters.after, "after", today)
        shown.append("m.ts >= ?")
        args.append(first.isoformat())
        described.append(f"after {first.isoformat()}")
    if filters.before:
        _, end = period(filters.before, "before", today)
        shown.append("m.ts < ?")
        args.append(end.isoformat())
        described.append(f"before {(end - timedelta(days=1)).isoformat()} inclusive")
        if filters.after and args[0] >= end.isoformat():
            raise UserError(f"after {args[0]} is later than before {(end - timedelta(days=1)).isoformat()}")
    if filters.source:
        ids = resolve_source(store, filters.source)
        shown.append(f"m.source_id IN ({','.join('?' * len(ids))})")
        args += ids
        described.append(f"source {filters.source}")
    conversations: set[int] | None = None
    if filters.conversation:
        conversations = {c["id"] for c in resolve_conversations(store, filters.conversation)}
        described.append(f"conversation {filters.conversation}")
    if filters.kind:
        kind = filters.kind.strip().lower()
        if kind not in KINDS:
            raise UserError(f"kind: {filters.kind!r} is not one of {', '.join(KINDS)}")
        agent = kind == "agent"
        of_kind = {c["id"] for c in store.conversations()
                   if (c["format"] in AGENT_FORMATS) == agent and (agent or c["kind"] in KINDS[kind])}
        conversations = of_kind if conversations is None else conversations & of_kind
        described.append(f"kind {kind}")
    if conversations is not None:
        shown.append(f"m.conversation_id IN ({','.join('?' * len(conversations)) or 'NULL'})")
        args += sorted(conversations)
    where = " AND ".join(shown) or "1"
    matched, matched_args = where, list(args)
    if filters.speakers:
        known = store.speakers()
        names: list[str] = []
        for typed in filters.speakers:
            found = match_speakers(typed, known)
            if not found:
                raise _near(typed, known, "speaker")
            names += found
        matched += f" AND m.speaker IN ({','.join('?' * len(names))})"
        matched_args += names
        described.append("speaker " + ", ".join(sorted(set(names))))
    return Scope(filters, (where, args), (matched, matched_args), described=described)


def conversations_passing(store: Store, scope: Scope) -> set[int]:
    """The conversations holding a message that ``scope`` matches (its speakers included): what a
    listing of conversations keeps for the filters a search takes."""
    where, args = scope.matched
    rows = store.conn.cursor().execute(f"SELECT DISTINCT m.conversation_id FROM messages m WHERE {where}", args)
    return {row[0] for row in rows}
