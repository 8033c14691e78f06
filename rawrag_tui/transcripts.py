"""Conversations as a person reads them: ``rawrag show`` and ``rawrag export``.

A transcript is a list of sections, one per conversation, each with its
messages in time order (the shape every format writes). Three formats:
Markdown, one self-contained HTML file (inline style, no script, no link to
anything outside it: it reads offline and keeps nothing from escaping the
page, every text escaped), and JSON lines (one message per line, exactly as
stored). Dates are written the way the app and the search lines write them.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .display import format_timestamp
from .errors import UserError
from .search.filters import Scope, resolve_conversations, resolve_source
from .search.types import SearchResult
from .storage.store import Store

FORMATS = ("md", "html", "jsonl")


@dataclass
class Section:
    """One conversation's messages (all of it, a window of it, or the ones a search kept)."""

    conversation_id: int
    title: str
    kind: str = ""
    messages: list[dict] = field(default_factory=list)


def _message(row: dict, section: Section) -> dict:
    """A stored message row as every format writes it (lists decoded, the conversation named)."""
    def listed(value) -> list[str]:
        if isinstance(value, (list, tuple)):
            return [str(v) for v in value]
        return json.loads(value) if value else []

    return {
        "message_id": row.get("id", row.get("message_id")), "external_id": row["external_id"],
        "conversation_id": section.conversation_id, "conversation": section.title, "seq": row["seq"],
        "timestamp": row.get("ts", row.get("timestamp")), "speaker": row["speaker"], "role": row["role"],
        "text": row["text"], "captions": listed(row.get("captions")), "attachments": listed(row.get("attachments")),
        "on_main_branch": bool(row.get("on_main_branch", 1)),
    }


def conversation(store: Store, conversation_id: int, around: str | None = None, context: int = 10,
                 source_id: int | None = None) -> Section:
    """A conversation's messages, all of them or ``context`` on each side of the one whose export id is ``around``."""
    conv = store.conversation(conversation_id)
    if conv is None:
        raise UserError(f"no conversation with id {conversation_id}")
    section = Section(conversation_id, conv["title"], conv["kind"])
    rows = store.messages(conversation_id)
    if source_id is not None:
        rows = [r for r in rows if r["source_id"] == source_id]
    if around is not None:
        at = next((i for i, r in enumerate(rows) if r["external_id"] == around), None)
        if at is None:
            raise UserError(f"no message with external id {around!r} in conversation {conversation_id}")
        rows = rows[max(0, at - context): at + context + 1]
    section.messages = [_message(r, section) for r in rows]
    return section


def source(store: Store, source_id: int) -> list[Section]:
    """Every message one import added, by conversation."""
    return [s for c in store.conversations(source_id)
            if (s := conversation(store, c["id"], source_id=source_id)).messages]


def hits(result: SearchResult) -> list[Section]:
    """A search's kept messages (each once), by conversation then time."""
    sections: dict[int, Section] = {}
    for m in result.evidence():
        section = sections.setdefault(m.conversation_id, Section(m.conversation_id, m.conversation))
        section.messages.append(_message(m.to_json(), section))
    return list(sections.values())


def one_conversation(store: Store, typed: str) -> int:
    """The id of the one conversation an id or a title names (several titles: one line naming them)."""
    found = resolve_conversations(store, typed)
    if len(found) > 1:
        named = "; ".join(f"{c['id']} {c['title']!r}" for c in found[:8])
        raise UserError(f"{len(found)} conversations match {typed!r} ({named}): give its id")
    return int(found[0]["id"])


def selected(store: Store, conversation_: str | None, source_: str | None,
             scope: Scope | None = None) -> tuple[list[Section], str]:
    """The sections ``rawrag export --conversation``/``--source`` writes, and a title for them.

    ``scope``: the checked filters (:func:`~rawrag_tui.search.filters.narrow`); only the messages
    that pass them are kept (dates, kind, and with speakers, only those people's messages), by the
    same SQL condition a filtered search uses."""
    if (conversation_ is None) == (source_ is None):
        raise UserError("export: give one of --conversation, --source or --search")
    if conversation_ is not None:
        section = conversation(store, one_conversation(store, conversation_))
        sections, title = [section], section.title
    else:
        ids = resolve_source(store, source_)  # type: ignore[arg-type]
        named = {s["id"]: s for s in store.sources()}
        sections = [sec for i in ids for sec in source(store, i)]
        title = ", ".join(f"{named[i]['format']} source {i}" for i in ids)
    if scope is None or not scope.described:
        return sections, title
    passing = store.messages_where(*scope.matched)
    for section in sections:
        section.messages = [m for m in section.messages if m["message_id"] in passing]
    sections = [s for s in sections if s.messages]
    if not sections:
        raise UserError(f"nothing to export: {scope.nothing_passes()}")
    return sections, f"{title} ({', '.join(scope.described)})"


# -- formats -------------------------------------------------------------------


def _day(ts: str | None) -> str:
    return format_timestamp(ts)[:14] if ts else "no date"


def _time(ts: str | None) -> str:
    return format_timestamp(ts)[15:] if ts else ""


def to_jsonl(sections: Sequence[Section]) -> str:
    return "".join(json.dumps(m, ensure_ascii=False) + "\n" for s in sections for m in s.messages)


def to_markdown(sections: Sequence[Section], title: str) -> str:
    out = [f"# {title}", ""]
    for s in sections:
        out += [f"## {s.title}", ""]
        day = None
        for m in s.messages:
            if _day(m["timestamp"]) != day:
                day = _day(m["timestamp"])
                out += [f"### {day}", ""]
            branch = " (other branch)" if not m["on_main_branch"] else ""
            out.append(f"**{m['speaker']}** {_time(m['timestamp'])} `{m['external_id']}`{branch}")
            out.append("")
            out += [f"> {line}" if line else ">" for line in m["text"].split("\n")]
            out += [f"> [image] {c}" for c in m["captions"]] + [f"> [attachment] {a}" for a in m["attachments"]]
            out.append("")
    return "\n".join(out)


_STYLE = """body{font:15px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#222}
h2{border-bottom:1px solid #ccc;padding-bottom:.2rem}h3{color:#666;font-size:.95rem;margin:1.5rem 0 .5rem}
.m{margin:.4rem 0 .9rem}.h{font-size:.85rem;color:#555}.s{font-weight:600;color:#222}.id{color:#999}
.t{white-space:pre-wrap;margin:.15rem 0 0 1rem}.x{color:#777;margin-left:1rem;font-size:.9rem}.b{opacity:.6}"""


def to_html(sections: Sequence[Section], title: str) -> str:
    e = html.escape
    out = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8">', f"<title>{e(title)}</title>",
           f"<style>{_STYLE}</style></head><body>", f"<h1>{e(title)}</h1>"]
    for s in sections:
        out.append(f"<section><h2>{e(s.title)}</h2>")
        day = None
        for m in s.messages:
            if _day(m["timestamp"]) != day:
                day = _day(m["timestamp"])
                out.append(f"<h3>{e(day)}</h3>")
            cls = "m" if m["on_main_branch"] else "m b"
            extra = "".join(f'<div class="x">[image] {e(c)}</div>' for c in m["captions"])
            extra += "".join(f'<div class="x">[attachment] {e(a)}</div>' for a in m["attachments"])
            out.append(f'<div class="{cls}"><div class="h"><span class="s">{e(m["speaker"])}</span> '
                       f'{e(_time(m["timestamp"]))} <span class="id">{e(m["external_id"])}</span></div>'
                       f'<div class="t">{e(m["text"])}</div>{extra}</div>')
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def render(sections: Sequence[Section], fmt: str, title: str) -> str:
    if fmt == "jsonl":
        return to_jsonl(sections)
    if fmt == "md":
        return to_markdown(sections, title)
    if fmt == "html":
        return to_html(sections, title)
    raise UserError(f"format: {fmt!r} is not one of {', '.join(FORMATS)}")


def count(sections: Iterable[Section]) -> int:
    return sum(len(s.messages) for s in sections)
