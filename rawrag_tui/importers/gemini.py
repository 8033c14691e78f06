"""Google Gemini Apps activity from Google Takeout (My Activity > Gemini Apps).

Takeout writes ``MyActivity.json`` (or ``MyActivity.html``, its default)
with one record per prompt: the prompt in ``title`` after a verb such as
"Prompted", Gemini's answer as rendered HTML in ``safeHtmlItem`` (several
items are regenerated drafts; some exports put the answer in
``description`` instead, as text or HTML), one time for both. The HTML
page's time line is in the account's locale and is found by its structure. Folder names, the file
name and even the verbs are translated, so both are recognised by content.

Records carry no conversation, except that newer exports link each to its
chat (``https://gemini.google.com/app/<id>`` in ``details``; a branched
turn names every branch it belongs to and is imported into each). Records
without a link are grouped by UTC day, and such a conversation says so in
its title. Conversations are sorted by time, since the file is not.

Kept: the prompt (verb removed), the answer as text (the first draft on the
main branch, other drafts marked off it), attached file names. Skipped,
counted: activity that is not a prompt (Canvas, feedback, draft choice),
other Google products' records in an all-of-My-Activity export. A record
that cannot be read is skipped and reported with its place (``records[i]``
or ``card i``); a file that is mostly unreadable is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import Any

from ..errors import ImportFormatError
from . import _common as c
from . import _sniff
from ._calendars import parse_stamp
from .records import UNREADABLE_SHARE, Conversation, Message, ParseStats, TooManyUnreadable
from .source import ExportSource

NAME = "gemini"
#: A file name that breaks a tie between equally sure detectors (content decides first).
NAME_HINT = re.compile(r"my\s*activity\.(?:json|html?)$", re.I)

#: Bytes of an HTML member the sniff reads (the page opens with a style sheet).
HTML_SNIFF_BYTES = 256 * 1024

_APP_URL = re.compile(r"https?://gemini\.google\.com/app/([A-Za-z0-9_-]+)")
_PRODUCT = re.compile(r"gemini|bard", re.I)
#: English verbs before the prompt, longest first (older exports: "Asked Bard: ").
_PROMPT_VERBS = (
    "Prompted with: ", "Asked Bard: ", "Asked Gemini: ", "Prompted ", "Branched ", "Answered ", "Asked ", "Said ",
)
_OTHER_VERBS = (
    "Created ", "Used ", "Added ", "Selected preferred draft", "Gave feedback", "Deleted ", "Canceled ", "Shared ",
)
_ATTACHED = re.compile(r"\s*Attached \d+ files?\.\s*$")
#: Zone abbreviations Takeout writes after an HTML time (the exporting
#: machine's zone) -> offset in minutes.
_ZONES = {
    "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 60, "BST": 60, "IST": 330, "CET": 60, "CEST": 120,
    "EET": 120, "EEST": 180, "MSK": 180, "PST": -480, "PDT": -420, "MST": -420, "MDT": -360, "CST": -360,
    "CDT": -300, "EST": -300, "EDT": -240, "AKST": -540, "AKDT": -480, "HST": -600, "JST": 540, "KST": 540,
    "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "SGT": 480, "HKT": 480,
    # as other locales write them: Czech, German, French, Thai/Vietnamese, Indonesian
    "SEČ": 60, "SELČ": 120, "MEZ": 60, "MESZ": 120, "HNEC": 60, "HAEC": 120, "ICT": 420, "WIB": 420,
}


# -- answer HTML to text ---------------------------------------------------------


class _HtmlText(HTMLParser):
    """Gemini's rendered Markdown (p, lists, code, tables, links) back to readable text."""

    _BLOCK = frozenset("p div h1 h2 h3 h4 h5 h6 ul ol pre blockquote table tr hr".split())
    _KEEP = "\x00"  # marks a line inside <pre>, whose indentation is kept

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.images: list[str] = []
        self.links: list[str] = []
        self._pre = 0
        self._skip = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag == "pre":
            self._pre += 1
            self.out.append("\n\n")
        elif tag == "li":
            self.out.append("\n- ")
        elif tag in ("td", "th"):
            self.out.append(" | ")
        elif tag in self._BLOCK:
            self.out.append("\n\n")
        if tag == "img":
            src = dict(attrs).get("src") or ""
            alt = dict(attrs).get("alt") or ""
            self.images.append(alt or src.rsplit("/", 1)[-1] or "image")
        elif tag == "a":
            href = dict(attrs).get("href")
            if href:
                self.links.append(href)

    def handle_startendtag(self, tag: str, attrs) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip = max(0, self._skip - 1)
        elif tag == "pre":
            self._pre = max(0, self._pre - 1)
            self.out.append("\n\n")
        elif tag in self._BLOCK:
            self.out.append("\n\n")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._pre:
            self.out.append(self._KEEP + data.replace("\n", "\n" + self._KEEP))
        else:
            self.out.append(re.sub(r"\s+", " ", data))

    def text(self) -> str:
        joined = "".join(self.out).replace("\u202f", " ").replace("\xa0", " ")
        lines = [line.rstrip() for line in joined.split("\n")]
        text = "\n".join(line.lstrip(" ") if not line.startswith(self._KEEP) else line for line in lines)
        return re.sub(r"\n{3,}", "\n\n", text.replace(self._KEEP, "")).strip()


def html_text(html: str) -> tuple[str, list[str]]:
    """(text, image names) of an HTML fragment."""
    parser = _HtmlText()
    parser.feed(html)
    parser.close()
    return parser.text(), parser.images


# -- records ----------------------------------------------------------------------


@dataclass
class _Record:
    when: datetime
    prompt: str
    answers: list[str]
    conversations: list[str]
    attachments: list[str] = field(default_factory=list)
    captions: list[str] = field(default_factory=list)


def _prompt_of(title: str, has_answer: bool) -> str | None:
    """The prompt without its verb; None for activity that is not a prompt."""
    title = _ATTACHED.sub("", title)
    if title.startswith(_OTHER_VERBS):
        return None
    for verb in _PROMPT_VERBS:
        if title.startswith(verb):
            return title[len(verb):].strip()
    # A translated verb we do not know: the whole title is the prompt when answered.
    return title.strip() if has_answer else None


# -- detection --------------------------------------------------------------------


def _json_sniff(head: _sniff.JsonHead) -> bool:
    """Some of the first records have ``title`` and ``time`` and say Gemini: a chat
    link, an answer, or Gemini/Bard in ``header``/``products`` (translated too)."""
    if head.top != "array" or not head.has("item", "title", "time"):
        return False
    if head.any_key("item", {"safeHtmlItem"}):
        return True
    if any(isinstance(u, str) and _APP_URL.match(u) for u in head.values.get("item.details.item.url", ())):
        return True
    names = head.values.get("item.header", []) + head.values.get("item.products.item", [])
    return any(isinstance(n, str) and _PRODUCT.search(n) for n in names)


def _html_sniff(text: str) -> bool:
    if "outer-cell" not in text:
        return False
    return "gemini.google.com/app/" in text or bool(
        re.search(r'mdl-typography--title">\s*[^<]*(?:Gemini|Bard)', text)
    )


def _kind(source: ExportSource, name: str) -> str | None:
    """'json', 'html' or None for a member, by its first bytes."""
    lead = _sniff.read_head(source, name).lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if lead == b"[":
        return "json" if _json_sniff(_sniff.head_of(source, name)) else None
    if lead == b"<":
        # Takeout's page starts with its style sheet: look further than a JSON sniff.
        text = _sniff.read_head(source, name, HTML_SNIFF_BYTES).decode("utf-8", "replace")
        return "html" if _html_sniff(text) else None
    return None


def _candidates(source: ExportSource, limit: int | None = _sniff.MAX_MEMBERS) -> list[str]:
    names = _sniff.candidates(source, (".json", ".html", ".htm"), limit=limit)
    # Takeout's own names first: "My Activity/Gemini Apps/MyActivity.json".
    return sorted(names, key=lambda n: (not re.search(r"my\s*activity", n, re.I), not _PRODUCT.search(n)))


def detect(source: ExportSource) -> bool:
    return any(_kind(source, n) for n in _candidates(source))


# -- parse ------------------------------------------------------------------------


def tolerant_items(source: ExportSource, member: str, fmt: str, label: str, stats: ParseStats) -> Iterator[Any]:
    """The items of a JSON array, where a file cut short (a partial download, an
    export still being written) keeps the items before the cut and reports it."""
    count = 0
    try:
        for item in c.stream_items(source, member, fmt, "item", label):
            count += 1
            yield item
    except ImportFormatError as exc:
        if count == 0:
            raise
        where = exc.where or f"{label}[{count}]"
        stats.bad(source.display(member), fmt, where, f"{exc.problem} (items before it kept)")


@c.guarded(NAME)
def parse(source: ExportSource, stats: ParseStats, *, cursor: c.Cursor) -> Iterator[Conversation]:
    members = [(n, k) for n in _candidates(source, limit=None) for k in [_kind(source, n)] if k]
    if not members:
        raise ImportFormatError(source.path, NAME, "no Gemini Apps activity found (Takeout MyActivity.json or .html)")
    records: list[_Record] = []
    for member, kind in members:
        cursor.at(member, None)
        records.extend(_json_records(source, member, stats, cursor) if kind == "json"
                       else _html_records(source, member, stats, cursor))
    groups: dict[str, list[_Record]] = {}
    for rec in records:
        for conv in rec.conversations or ["day:" + rec.when.strftime("%Y-%m-%d")]:
            groups.setdefault(conv, []).append(rec)
    if not groups:
        raise ImportFormatError(source.display(members[0][0]), NAME, "the activity holds no prompts")
    ordered = sorted(groups.items(), key=lambda kv: (min(r.when for r in kv[1]), kv[0]))
    for conv_id, recs in ordered:
        yield _conversation(conv_id, recs, stats)


def _conversation(conv_id: str, recs: list[_Record], stats: ParseStats) -> Conversation:
    recs = sorted(recs, key=lambda r: r.when)
    messages: list[Message] = []
    seen: set[str] = set()
    for rec in recs:
        base = c.stable_id(NAME, rec.when.replace(microsecond=0).isoformat(), " ".join(rec.prompt.split()))
        if base in seen:
            stats.skip("duplicate")  # the same record in the JSON and the HTML export
            continue
        seen.add(base)
        prompt_id = base + ":p"
        if rec.prompt or rec.attachments:
            messages.append(Message(
                external_id=prompt_id, speaker="User", text=rec.prompt, timestamp=rec.when, role="user",
                attachments=tuple(rec.attachments),
                parent_external_id=messages[-1].external_id if messages else None,
            ))
        parent = prompt_id if messages and messages[-1].external_id == prompt_id else None
        for i, answer in enumerate(rec.answers):
            messages.append(Message(
                external_id=f"{base}:a{i}", speaker="Gemini", text=answer, timestamp=rec.when, role="assistant",
                captions=tuple(rec.captions) if i == 0 else (), parent_external_id=parent, on_main_branch=i == 0,
                extra={"draft": i + 1, "drafts": len(rec.answers)} if len(rec.answers) > 1 else None,
            ))
    if conv_id.startswith("day:"):
        title = f"Gemini, {conv_id[4:]} (grouped by day)"
        external = conv_id
    else:
        title = c.fallback_title([m for m in messages if m.role == "user"] or messages, "(Gemini chat)")
        external = conv_id
    return Conversation(external_id=external, title=title, kind="chat", messages=messages)


class _Tally:
    """Records of one member: each read or unreadable (reported with its place
    through ``ParseStats``); the file is refused when most are unreadable."""

    def __init__(self, source: ExportSource, member: str, stats: ParseStats):
        self.source, self.member, self.stats = source, member, stats
        self.good = self.bad = 0
        self.first: str | None = None

    def ok(self) -> None:
        self.good += 1
        self.stats.ok()

    def fail(self, where: str, reason: str) -> None:
        self.bad += 1
        self.first = self.first or f"{where}: {reason}"
        self.stats.bad(self.source.display(self.member), NAME, where, reason)

    def finish(self) -> None:
        total = self.good + self.bad
        if total == 0:
            raise ImportFormatError(self.source.display(self.member), NAME, "the activity file holds no records")
        if self.bad > UNREADABLE_SHARE * total:
            raise TooManyUnreadable(self.source.display(self.member), NAME,
                                    f"{self.bad} of {total} records unreadable, so this is probably not "
                                    f"Gemini activity (first: {self.first})")


def _collect(source: ExportSource, member: str, stats: ParseStats, cursor: c.Cursor,
             items: Iterable[tuple[str, Any]], read: Callable[[Any, ParseStats], _Record | None]) -> list[_Record]:
    """The records ``read`` makes of (place, item) pairs; one it cannot read is counted at its place."""
    tally = _Tally(source, member, stats)
    out: list[_Record] = []
    for where, item in items:
        cursor.at(member, where)
        try:
            rec = read(item, stats)
        except c.STRUCTURAL_ERRORS as exc:
            tally.fail(where, c.describe(exc))
            continue
        tally.ok()
        if rec is not None:
            out.append(rec)
    tally.finish()
    return out


def _json_records(source: ExportSource, member: str, stats: ParseStats, cursor: c.Cursor) -> list[_Record]:
    items = tolerant_items(source, member, NAME, "records", stats)
    return _collect(source, member, stats, cursor, ((f"records[{i}]", raw) for i, raw in enumerate(items)),
                    _json_record)


def _json_record(raw: Any, stats: ParseStats) -> _Record | None:
    rec = c.dict_of(raw, "record")
    header = c.text_of(rec.get("header"), "header")
    products = " ".join(p for p in c.list_of(rec.get("products"), "products") if isinstance(p, str))
    urls: list[str] = []
    for detail in c.list_of(rec.get("details"), "details"):
        match = _APP_URL.match(c.text_of(c.maybe_dict(detail).get("url"), "details.url"))
        if match and match.group(1) not in urls:
            urls.append(match.group(1))
    answers_html = c.list_of(rec.get("safeHtmlItem"), "safeHtmlItem")
    description = c.text_of(rec.get("description"), "description").strip()
    if not answers_html and description:
        # Some exports carry the answer as ``description`` (text or HTML) instead.
        answers_html = [{"html": description if _TAG.search(description) else _as_html(description)}]
    if not (urls or answers_html or _PRODUCT.search(header) or _PRODUCT.search(products)):
        stats.skip("other_product")
        return None
    when = c.from_iso(rec.get("time"), "time")
    if when is None:
        raise ValueError("record has no time")
    answers: list[str] = []
    captions: list[str] = []  # images in the answer: Gemini generated them
    for item in answers_html:
        text, images = html_text(c.text_of(c.dict_of(item, "safeHtmlItem[]").get("html"), "safeHtmlItem.html"))
        if text:
            answers.append(text)
        captions.extend(f"image: {name}" for name in images)
    prompt = _prompt_of(c.text_of(rec.get("title"), "title"), bool(answers_html))
    if prompt is None:
        stats.skip("not_a_prompt")
        return None
    attachments = [a for a in c.list_of(rec.get("attachedFiles"), "attachedFiles") if isinstance(a, str) and a]
    if isinstance(rec.get("imageFile"), str) and rec["imageFile"]:
        attachments.append(rec["imageFile"])
    if not prompt and not answers and not attachments:
        stats.skip("empty")
        return None
    return _Record(when, prompt, answers, urls, attachments, captions)


_TAG = re.compile(r"<(?:[a-zA-Z][a-zA-Z0-9]*|/[a-zA-Z][a-zA-Z0-9]*)(?:\s[^<>]*)?/?>")


def _as_html(text: str) -> str:
    """Plain text as HTML that reads back the same: its line breaks kept."""
    import html

    return "<br>".join(html.escape(line) for line in text.split("\n"))


# -- HTML ---------------------------------------------------------------------------


@dataclass
class _Card:
    header: str = ""
    body: list[tuple] = field(default_factory=list)
    links: list[str] = field(default_factory=list)
    caption: str = ""


class _Cards(HTMLParser):
    """Takeout's My Activity page: one ``outer-cell`` card per record."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.cards: list[_Card] = []
        self._divs: list[str] = []  # role of each open div: card, header, body, caption, other
        self._card: _Card | None = None
        self._in_title = False

    def _role(self) -> str | None:
        for role in reversed(self._divs):
            if role in ("body", "caption"):
                return role
        return None

    def handle_starttag(self, tag: str, attrs) -> None:
        attr = dict(attrs)
        cls = attr.get("class") or ""
        if tag == "div":
            if "outer-cell" in cls:
                self._card = _Card()
                self.cards.append(self._card)
                self._divs.append("card")
            elif self._card is not None and "content-cell" in cls and "body-1" in cls and "text-right" not in cls:
                self._divs.append("body")
            elif self._card is not None and "content-cell" in cls and "caption" in cls:
                self._divs.append("caption")
            else:
                self._divs.append("other")
            return
        if self._card is None:
            return
        if tag == "p" and "mdl-typography--title" in cls:
            self._in_title = True
        if tag == "a" and attr.get("href"):
            self._card.links.append(attr["href"])
        if self._role() == "body":
            self._card.body.append(("start", tag, attrs))

    def handle_startendtag(self, tag: str, attrs) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in ("br", "img", "hr") and self._card is not None and self._role() == "body":
            self._card.body.append(("end", tag))

    def handle_endtag(self, tag: str) -> None:
        if tag == "div":
            if self._divs:
                role = self._divs.pop()
                if role == "card":
                    self._card = None
            return
        if self._card is None:
            return
        if tag == "p":
            self._in_title = False
        if self._role() == "body":
            self._card.body.append(("end", tag))

    def handle_data(self, data: str) -> None:
        if self._card is None:
            return
        if self._in_title:
            self._card.header += data
        role = self._role()
        if role == "body":
            self._card.body.append(("text", data))
        elif role == "caption":
            self._card.caption += data


def _html_time(text: str) -> tuple[datetime, bool] | None:
    """(aware UTC time, zone known) of a card's time line, or None.

    The line is written in the account's locale (``Aug 3, 2026, 9:14:05 AM
    PDT``, ``18. 3. 2022 14:56:01 SEČ``, ``2022/03/18 14:56:01 JST``): it is
    recognised by its structure (:func:`_calendars.parse_stamp`), not by
    English month names.
    """
    found = parse_stamp(text)
    if found is None:
        return None
    local, zone = found
    zone = zone or ""
    offset = re.fullmatch(r"(?:GMT|UTC)([+-])(\d{1,2}):?(\d{2})?", zone)
    if offset:
        sign = 1 if offset.group(1) == "+" else -1
        minutes, known = sign * (int(offset.group(2)) * 60 + int(offset.group(3) or 0)), True
    else:
        minutes, known = _ZONES.get(zone, 0), zone in _ZONES
    return (local - timedelta(minutes=minutes)).replace(tzinfo=UTC), known


def _html_records(source: ExportSource, member: str, stats: ParseStats, cursor: c.Cursor) -> list[_Record]:
    try:
        html = source.read_bytes(member).decode("utf-8-sig", "replace")
    except (OSError, EOFError) as exc:
        raise ImportFormatError(source.display(member), NAME, f"cannot read: {exc}") from None
    parser = _Cards()
    parser.feed(html)
    parser.close()
    return _collect(source, member, stats, cursor, ((f"card {i}", card) for i, card in enumerate(parser.cards, 1)),
                    _html_record)


def _html_record(card: _Card, stats: ParseStats) -> _Record | None:
    urls = []
    for link in card.links:
        match = _APP_URL.match(link)
        if match and match.group(1) not in urls:
            urls.append(match.group(1))
    if not (urls or _PRODUCT.search(card.header) or _PRODUCT.search(card.caption)):
        stats.skip("other_product")
        return None
    split = None
    for i, event in enumerate(card.body):
        if event[0] == "text":
            found = _html_time(event[1].strip())
            if found:
                split = i, found
                break
    if split is None:
        raise ValueError("no time line in the card")
    i, (when, known) = split
    if not known:
        stats.skip("time_zone_assumed_utc")
    prompt_parts = []
    for event in card.body[:i]:
        if event[0] == "text":
            prompt_parts.append(event[1])
        elif event[0] == "start" and event[1] == "br":
            prompt_parts.append("\n")
    answer = _HtmlText()
    attachments: list[str] = []
    for event in card.body[i + 1:]:
        if event[0] == "text":
            answer.handle_data(event[1])
        elif event[0] == "start":
            answer.handle_starttag(event[1], event[2])
            href = dict(event[2]).get("href") or dict(event[2]).get("src") or ""
            if href and "://" not in href and not href.startswith(("data:", "#", "mailto:")):
                attachments.append(href.rsplit("/", 1)[-1])
        else:
            answer.handle_endtag(event[1])
    text = answer.text()
    raw_prompt = "\n".join(line.strip() for line in "".join(prompt_parts).split("\n")).strip()
    prompt = _prompt_of(raw_prompt, bool(text))
    if prompt is None:
        stats.skip("not_a_prompt")
        return None
    if not prompt and not text:
        stats.skip("empty")
        return None
    # A relative image in a card is the user's upload beside the HTML, not Gemini's.
    images = [f"image: {n}" for n in answer.images if n not in attachments]
    return _Record(when, prompt, [text] if text else [], urls, list(dict.fromkeys(attachments)), images)
