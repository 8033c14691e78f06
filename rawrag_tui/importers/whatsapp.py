"""WhatsApp "Export chat" text files (Android and iOS, any language).

The export is plain text, one message per header line, with continuation
lines for multi-line messages. Nothing in it says the locale: whether
``03/04/21`` is the 3rd of April or the 4th of March is decided over the
whole file (a first field above 12 means day first, a second above 12 means
month first), so the file is read twice. Times are local wall-clock with no
zone, so timestamps stay naive (the store marks them local).

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

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from .records import Conversation, Message, ParseStats
from .source import ExportSource

NAME = "whatsapp"

_BIDI = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
_SP = r"[ \u202f\u00a0\u2009]"
#: Day, month and year in any order, separated by / . - (Korean: "2020. 3. 15.").
_DATE = r"(?P<date>\d{1,4}[./\-] ?\d{1,2}[./\-] ?\d{1,4})\.?"
#: Morning/afternoon markers: a.m./p.m. in their dotted and spaced forms,
#: Japanese 午前/午後, Korean 오전/오후, Chinese 上午/下午.
_CJK_AMPM = r"午前|午後|오전|오후|上午|下午"
_AMPM = rf"[AaPp]\.?{_SP}?[Mm]\.?|{_CJK_AMPM}"
_TIME = (
    rf"(?:(?P<pre>{_CJK_AMPM}){_SP}?)?"
    r"(?P<time>\d{1,2}[:.]\d{2}(?:[:.]\d{2})?)"
    rf"(?:{_SP}*(?P<ampm>{_AMPM}))?"
)
_IOS = re.compile(rf"^\[{_DATE},?{_SP}{_TIME}\]{_SP}?(?P<rest>.*)$")
_ANDROID = re.compile(rf"^{_DATE},?{_SP}{_TIME}{_SP}[-–]{_SP}(?P<rest>.*)$")
_PM = ("p", "P", "午後", "오후", "下午")
#: Lines a sniff reads for a header when the first line is not one.
_SNIFF_LINES = 40

_MEDIA_OMITTED = re.compile(
    r"^<(media omitted|medien ausgelassen|multimedia omitido|médias omis|media weggelaten|"
    r"mídia oculta|media omessi|медиа отсутствует|без медиафайлов|medya dahil edilmedi|media tidak disertakan|"
    r"pominięto multimedia|média omitida|archivo omitido)>$",
    re.IGNORECASE,
)
_KIND_OMITTED = re.compile(
    r"^(?P<kind>image|video|audio|sticker|gif|document|contact card|bild|dokument|imagen|documento|"
    r"vidéo|autocollant|imagem|vídeo|áudio|figurinha)"
    r" (omitted|weggelassen|omitid[oa]|absente?|omise?|ocultad?[oa])$",
    re.IGNORECASE,
)
_ATTACHED = re.compile(
    r"^<(attached|anhang|adjunto|pièce jointe|anexo|allegato|bijlage) ?: (?P<file>[^<>]+)>$", re.IGNORECASE
)
_FILE_ATTACHED = re.compile(
    r"^(?P<file>\S.*?\.\w{2,5}) \((file attached|datei angehängt|archivo adjunto|fichier joint|"
    r"arquivo anexado|file allegato|bestand bijgevoegd)\)$",
    re.IGNORECASE,
)
_DELETED = re.compile(
    r"^(this message was deleted|you deleted this message|diese nachricht wurde gelöscht|"
    r"du hast diese nachricht gelöscht|se eliminó este mensaje|eliminaste este mensaje|"
    r"ce message a été supprimé|vous avez supprimé ce message|esta mensagem foi apagada|"
    r"você apagou esta mensagem|questo messaggio è stato eliminato|dit bericht is verwijderd)\.?$",
    re.IGNORECASE,
)
_EDITED = re.compile(
    r"\s*<(this message was edited|diese nachricht wurde bearbeitet|se editó este mensaje|"
    r"ce message a été modifié|mensagem editada|messaggio modificato|dit bericht is bewerkt)\.?>$",
    re.IGNORECASE,
)
_GROUP_HINT = re.compile(r"\b(group|gruppe|grupo|groupe|groep|gruppo)\b", re.IGNORECASE)
_TITLE_PREFIX = re.compile(
    r"^(whatsapp[ -]chat(?: with| mit| con| avec| met| com| -)?|chat de whatsapp con|"
    r"discussion whatsapp avec|conversa do whatsapp com)\s*[-–]?\s*",
    re.IGNORECASE,
)


def _header(line: str) -> re.Match | None:
    line = line.lstrip(_BIDI)
    return _IOS.match(line) or _ANDROID.match(line)


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
        match = _header(line) if line is not None else None
        if not match:
            continue
        a, b, _ = _date_parts(match.group("date"))
        if len(a) == 4:
            continue
        year_first = False
        first_big |= int(a) > 12
        second_big |= int(b) > 12
        ampm |= match.group("ampm") is not None or match.group("pre") is not None
        if first_big and second_big:
            raise ImportFormatError(
                source.display(member), NAME, "dates mix day-first and month-first order", f"line {number}"
            )
    if year_first:
        return None
    if first_big or second_big:
        return first_big
    return not ampm  # undecidable: 12-hour clocks go with US month-first dates


def _date_parts(text: str) -> list[str]:
    return [p.strip() for p in re.split(r"[./\-] ?", text.strip().rstrip("."))]


def _timestamp(match: re.Match, day_first: bool | None) -> datetime:
    parts = _date_parts(match.group("date"))
    if len(parts[0]) == 4:
        year, month, day = (int(p) for p in parts)
    else:
        a, b, year = (int(p) for p in parts)
        day, month = (a, b) if day_first else (b, a)
    if year < 100:
        year += 2000
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
        if entry["author"] is None:
            stats.skip("system")
            group_hint |= bool(_GROUP_HINT.search(entry["lines"][0]))
            return
        msg = _message(entry, occurrences, stats)
        if msg is not None:
            messages.append(msg)
            authors.add(msg.speaker)

    for number, line in _lines(source, member):
        if line is None:
            stats.bad(display, NAME, f"line {number}", "not UTF-8 text")
            continue
        match = _header(line)
        if match is None:
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
            when = _timestamp(match, day_first)
        except ValueError as exc:
            stats.bad(
                display, NAME, f"line {number}",
                f"bad date or time {match.group('date')} {match.group('time')}: {exc}",
            )
            dropping = True
            continue
        dropping = False
        stats.ok()
        author, text = _split_author(match.group("rest"))
        current = {"when": when, "author": author, "lines": [text], "line": number}
    finish(current)
    kind = "group" if len(authors) > 2 or group_hint else "dm"
    return Conversation(external_id=f"whatsapp:{title}", title=title, kind=kind, messages=messages)


def _split_author(rest: str) -> tuple[str | None, str]:
    """(author, text); author None for a system line."""
    author, sep, text = rest.partition(": ")
    if not sep:
        if rest.endswith(":") and " " not in rest.strip():
            return rest[:-1].strip(_BIDI), ""
        return None, rest
    author = author.strip(_BIDI + " ")
    if not author:
        return None, rest
    # iOS writes system events as if the chat itself said them, marked by U+200E.
    if text.startswith("\u200e"):
        plain = text.strip(_BIDI + " ")
        if not (_is_placeholder(plain) or _DELETED.match(plain)):
            return None, plain
    return author, text


def _is_placeholder(text: str) -> bool:
    return bool(
        _MEDIA_OMITTED.match(text) or _KIND_OMITTED.match(text) or _ATTACHED.match(text) or text.lower() == "null"
    )


def _message(entry: dict, occurrences: dict[tuple, int], stats: ParseStats) -> Message | None:
    lines = [line.strip(_BIDI) if i == 0 else line for i, line in enumerate(entry["lines"])]
    text = "\n".join(lines).rstrip()
    extra: dict = {}
    edited = _EDITED.search(text)
    if edited:
        text = text[: edited.start()]
        extra["edited"] = True
    first, _, tail = text.partition("\n")
    first = first.strip(_BIDI + " ")
    attachments: list[str] = []
    if _DELETED.match(text.strip(_BIDI + " ")):
        stats.skip("deleted")
        return None
    if _MEDIA_OMITTED.match(first):
        attachments.append("media (omitted)")
        text = tail
    elif (kind := _KIND_OMITTED.match(first)) is not None:
        attachments.append(f"{kind.group('kind').lower()} (omitted)")
        text = tail
    elif (attached := _ATTACHED.match(first) or _FILE_ATTACHED.match(first)) is not None:
        attachments.append(attached.group("file").strip())
        text = tail
    elif first.lower() == "null" and not tail:
        attachments.append("view-once media")
        text = ""
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
        extra=extra or None,
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
