"""WhatsApp "Export chat" text files (Android and iOS, any language).

The export is plain text, one message per header line, with continuation
lines for multi-line messages. Nothing in it says the locale: whether
``03/04/21`` is the 3rd of April or the 4th of March is decided over the
whole file (a first field above 12 means day first, a second above 12 means
month first), so the file is read twice. Times are local wall-clock with no
zone, so timestamps stay naive (the store marks them local). Headers are read
in any script and calendar: the first characters are folded (RTL marks out,
Arabic-Indic and Persian digits to 0-9) and Buddhist-era, Japanese era and
Solar Hijri dates become Gregorian (``_calendars``). Whether a body is words, a file, a
placeholder or a notice is decided by its structure (``_whatsapp_body``),
since WhatsApp translates its own phrases into every language.

Messages have no ids, so each gets a stable one: a hash of (time, author,
text, how many identical messages came before). Re-importing the same chat,
or a later export of it, gives the same ids and the store adds only the new.
The chat itself is named by the export's file name ("WhatsApp Chat with
Alice"), which is also its id: WhatsApp keeps that name across exports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from functools import lru_cache
from typing import NamedTuple

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from . import _whatsapp_body as _body
from ._calendars import SOLAR_HIJRI_YEARS, ascii_digits, era_year, gregorian_year, solar_hijri_date
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "whatsapp"

_BIDI = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
#: Marks a header may carry between its fields (RTL locales put U+200F after
#: each date part, Arabic one U+061C): dropped before the grammar reads it.
_HEAD_MARKS = dict.fromkeys(map(ord, _BIDI + "\u061c"))
#: Characters of a line the header grammar may need (the longest headers,
#: Arabic with its marks, are about 40).
_HEAD_CHARS = 80
#: What folding changes: a header without any is read as it is (fast path).
_FOLDABLE = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\u061c\u060c\u0660-\u0669\u06f0-\u06f9]")
_SP = r"[ \u202f\u00a0\u2009]"
#: Japanese era before a year (R4/03/18, 令和4年3月18日; 元 is year 1).
_ERA = r"明治|大正|昭和|平成|令和|[MTSHR]"
#: Day, month and year in any order, separated by / . - (Korean: "2020. 3. 15.");
#: or year-month-day in kanji; a Japanese era before it, a Buddhist "BE" after.
_DATE = (
    rf"(?P<date>(?P<era>{_ERA})?"
    r"(?:\d{1,4}[./\-] ?\d{1,2}[./\-] ?\d{1,4}|(?:\d{1,4}|元)年 ?\d{1,2}月 ?\d{1,2}日))\.?"
    rf"(?:{_SP}?(?P<be>BE|B\.E\.|พ\.ศ\.))?"
)
#: Morning/afternoon markers: a.m./p.m. in their dotted and spaced forms,
#: Japanese 午前/午後, Korean 오전/오후, Chinese 上午/下午, Arabic ص/م,
#: Persian ق.ظ./ب.ظ.
_WORD_AMPM = r"午前|午後|오전|오후|上午|下午|ص|م|ق\.ظ\.?|ب\.ظ\.?"
_AMPM = rf"[AaPp]\.?{_SP}?[Mm]\.?|{_WORD_AMPM}"
_TIME = (
    rf"(?:(?P<pre>{_WORD_AMPM}){_SP}?)?"
    r"(?P<time>\d{1,2}[:.]\d{2}(?:[:.]\d{2})?)"
    rf"(?:{_SP}*(?P<ampm>{_AMPM}))?"
)
_IOS = re.compile(rf"^\[{_DATE},?{_SP}{_TIME}\]{_SP}?(?P<rest>.*)$")
_ANDROID = re.compile(rf"^{_DATE},?{_SP}{_TIME}{_SP}[-–]{_SP}(?P<rest>.*)$")
_NUMBERS = re.compile(r"\d+|元")
_PM = ("p", "P", "午後", "오후", "下午", "م", "ب")
#: Lines a sniff reads for a header when the first line is not one.
_SNIFF_LINES = 40

_GROUP_HINT = re.compile(r"\b(group|gruppe|grupo|groupe|groep|gruppo)\b", re.IGNORECASE)
_TITLE_PREFIX = re.compile(
    r"^(whatsapp[ -]chat(?: with| mit| con| avec| met| com| -)?|chat de whatsapp con|"
    r"discussion whatsapp avec|conversa do whatsapp com)\s*[-–]?\s*",
    re.IGNORECASE,
)


class _Head(NamedTuple):
    """A header line read: its grammar match (on the folded header) and the
    rest of the line (author and text) exactly as exported."""

    match: re.Match
    rest: str


def _header(line: str) -> _Head | None:
    """A message header, in any script: the first characters are folded (direction
    marks dropped, any script's digits made 0-9, the Arabic comma a comma) for
    the grammar; what follows the header is taken from the line as it was."""
    plain = line.lstrip(_BIDI)
    match = _IOS.match(plain) or _ANDROID.match(plain)
    if match:
        return _Head(match, match.group("rest"))
    head = line[:_HEAD_CHARS]
    if not _FOLDABLE.search(head):
        return None
    folded: list[str] = []
    where: list[int] = []  # folded index -> index in line
    for i, ch in enumerate(head):
        if ord(ch) in _HEAD_MARKS:
            continue
        folded.append("," if ch == "\u060c" else ascii_digits(ch))
        where.append(i)
    text = "".join(folded) + line[len(head):]
    match = _IOS.match(text) or _ANDROID.match(text)
    if match is None:
        return None
    start = match.start("rest")
    if start == 0:
        origin = 0
    elif start <= len(where):
        origin = where[start - 1] + 1  # marks right before the rest stay with it
    else:
        origin = len(head) + start - len(where)
    return _Head(match, line[origin:])


def sniff(source: ExportSource, name: str) -> float:
    """1.0 when the first line is a message header; 0.7 when one of the first
    lines is (an export cut at its start, or a note pasted above it)."""
    lines = _sniff.text_lines(source, name, _SNIFF_LINES)
    if not lines:
        return 0.0
    if _header(lines[0]):
        return 1.0
    return 0.7 if any(_header(line) for line in lines[1:]) else 0.0


def _chat_members(source: ExportSource, forced: bool = False, limit: int | None = None) -> list[str]:
    """The text members that read like a WhatsApp chat, whatever their name."""
    if source.kind == "file":
        return source.names() if forced or sniff(source, source.names()[0]) else []
    return [n for n in _sniff.candidates(source, (".txt",), limit=limit) if sniff(source, n)]


def detect(source: ExportSource) -> float:
    return max((sniff(source, n) for n in _sniff.candidates(source, (".txt",))), default=0.0)


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = _chat_members(source, forced=True)
    if not members:
        raise ImportFormatError(
            source.path, NAME, "no chat text file whose first line is a WhatsApp message (date, time, author)"
        )
    seen: set[str] = set()
    for member in members:
        cursor.at(member)
        title = _title(source, member)
        day_first = _day_first(source, member)
        conv = _read(source, member, title, day_first, stats, cursor)
        if conv.external_id in seen:
            conv.external_id = f"{conv.external_id}:{c.stable_id(member)}"
        seen.add(conv.external_id)
        if conv.messages:
            yield conv
        else:
            stats.skip("empty_conversation")


def _lines(source: ExportSource, member: str) -> Iterator[tuple[int, str | None]]:
    """(line number, text); text None for a line that is not UTF-8."""
    for number, raw in enumerate(source.iter_lines(member), 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            yield number, None
            continue
        if number == 1:
            line = line.lstrip("\ufeff")
        yield number, line.rstrip("\r\n")


def _day_first(source: ExportSource, member: str) -> bool | None:
    """Day before month? None when the dates are year-first."""
    first_big = second_big = ampm = False
    year_first = True
    for number, line in _lines(source, member):
        head = _header(line) if line is not None else None
        if not head:
            continue
        leads, (a, b, _) = _date_fields(head.match)
        if leads:
            continue
        year_first = False
        first_big |= a > 12
        second_big |= b > 12
        ampm |= head.match.group("ampm") is not None or head.match.group("pre") is not None
        if first_big and second_big:
            raise ImportFormatError(
                source.display(member), NAME, "dates mix day-first and month-first order", f"line {number}"
            )
    if year_first:
        return None
    if first_big or second_big:
        return first_big
    return not ampm  # undecidable: 12-hour clocks go with US month-first dates


def _date_fields(match: re.Match) -> tuple[bool, tuple[int, ...]]:
    """(year first?, the date's three numbers as written). Year first when a
    Japanese era leads, in kanji dates (年月日) and when the first is 4 digits."""
    return _fields_of(match.group("date"), match.group("era"))


@lru_cache(maxsize=4096)  # a chat repeats each day's date on every message of it
def _fields_of(date: str, era: str | None) -> tuple[bool, tuple[int, ...]]:
    text = date[len(era):] if era else date
    parts = _NUMBERS.findall(text)
    if len(parts) != 3:
        raise ValueError(f"date {date!r} is not day, month and year")
    values = tuple(1 if p == "元" else int(p) for p in parts)
    return bool(era) or "年" in text or len(parts[0]) == 4, values


def _timestamp(match: re.Match, day_first: bool | None) -> datetime:
    leads, (x, y, z) = _date_fields(match)
    if leads:
        year, month, day = x, y, z
    else:
        day, month = (x, y) if day_first else (y, x)
        year = z
    era = match.group("era")
    if era:
        year = era_year(era, year)  # R4 -> 2022, H31 -> 2019
    else:
        if year < 100:
            year += 2500 if match.group("be") else 2000
        year = gregorian_year(year, bool(match.group("be")))  # Buddhist era: 2565 -> 2022
    clock = [int(p) for p in re.split(r"[:.]", match.group("time"))]
    hour, minute, second = clock[0], clock[1], clock[2] if len(clock) > 2 else 0
    ampm = match.group("ampm") or match.group("pre")
    if ampm:
        pm = ampm.startswith(_PM)
        if hour > 12:
            raise ValueError(f"hour {hour} with a 12-hour clock marker {ampm!r}")
        # 12 AM is midnight and 12 PM noon; some phones (Spanish Android,
        # Japanese) write midnight as 00 AM and noon as 0 PM: same hours.
        hour = hour % 12 + (12 if pm else 0)
    if year in SOLAR_HIJRI_YEARS:  # Persian phones: 1401/12/27 is 2023-03-18
        day_of = solar_hijri_date(year, month, day)
        year, month, day = day_of.year, day_of.month, day_of.day
    return datetime(year, month, day, hour, minute, second)


def _read(
    source: ExportSource, member: str, title: str, day_first: bool | None, stats: ParseStats, cursor: c.Cursor
) -> Conversation:
    messages: list[Message] = []
    occurrences: dict[tuple, int] = {}
    authors: set[str] = set()
    group_hint = False
    current: dict | None = None
    display = source.display(member)
    dropping = False  # continuation lines of a message whose header was unreadable

    def finish(entry: dict | None) -> None:
        nonlocal group_hint
        if entry is None:
            return
        body = _body.read(entry["lines"]) if entry["author"] is not None else _body.Body("system")
        if body.kind != "text":
            stats.skip(body.kind)  # media, system or deleted
            if body.kind == "system":
                group_hint |= bool(_GROUP_HINT.search(entry["lines"][0]))
            return
        msg = _message(entry, body, occurrences, stats)
        if msg is not None:
            messages.append(msg)
            authors.add(msg.speaker)

    for number, line in _lines(source, member):
        if line is None:
            stats.bad(display, NAME, f"line {number}", "not UTF-8 text")
            continue
        head = _header(line)
        if head is None:
            if current is None:
                if not line.strip(_BIDI + " \t") or dropping:
                    continue
                stats.bad(display, NAME, f"line {number}", "text before the first message line")
                continue
            current["lines"].append(line)
            continue
        finish(current)
        current = None
        cursor.at(member, f"line {number}")
        try:
            when = _timestamp(head.match, day_first)
        except ValueError as exc:
            stats.bad(
                display, NAME, f"line {number}",
                f"bad date or time {head.match.group('date')} {head.match.group('time')}: {exc}",
            )
            dropping = True
            continue
        dropping = False
        stats.ok()
        author, text = _split_author(head.rest)
        current = {"when": when, "author": author, "lines": [text], "line": number}
    finish(current)
    kind = "group" if len(authors) > 2 or group_hint else "dm"
    return Conversation(external_id=f"whatsapp:{title}", title=title, kind=kind, messages=messages)


def _split_author(rest: str) -> tuple[str | None, str]:
    """(author, text); author None for a system line (Android writes those
    without an author; iOS writes them under the chat's name, and the body's
    U+200E tells them apart, see ``_whatsapp_body``)."""
    author, sep, text = rest.partition(": ")
    if not sep:
        if rest.endswith(":") and " " not in rest.strip():
            return rest[:-1].strip(_BIDI), ""
        return None, rest
    author = author.strip(_BIDI + " ")
    if not author:
        return None, rest
    return author, text


def _message(entry: dict, body: _body.Body, occurrences: dict[tuple, int], stats: ParseStats) -> Message | None:
    text = body.text
    attachments = [body.attachment] if body.attachment else []
    if not text.strip() and not attachments:
        stats.skip("empty")
        return None
    author = entry["author"]
    key = (entry["when"].isoformat(), author, text, tuple(attachments))
    occurrence = occurrences.get(key, 0)
    occurrences[key] = occurrence + 1
    return Message(
        external_id=c.stable_id(*key, occurrence),
        speaker=author,
        text=text,
        timestamp=entry["when"],
        role="user",
        attachments=tuple(attachments),
        extra={"edited": True} if body.edited else None,
    )


def _title(source: ExportSource, member: str) -> str:
    """The chat's name, from the export's file name ("WhatsApp Chat with Alice.txt").

    iOS names the text ``_chat.txt`` and puts the chat's name on the zip (or
    the folder it was unpacked into), so look there instead.
    """
    stem = c.basename(member).rsplit(".", 1)[0]
    if stem.strip("_ ").lower() == "chat":
        if c.dirname(member):
            stem = c.basename(c.dirname(member))
        elif source.kind == "zip":
            stem = source.path.stem
        elif source.kind == "folder":
            stem = source.path.name
        else:
            stem = source.path.parent.name
    title = _TITLE_PREFIX.sub("", stem).strip() or stem.strip() or "WhatsApp chat"
    return c.text_of(title, "title")
