"""Small text helpers shared by screens: dates, snippets with highlights."""

from __future__ import annotations

from pathlib import Path

from rich.style import Style
from rich.text import Text

from ..display import format_timestamp, match_spans


def short_date(ts: str | None) -> str:
    return ts[:10] if ts else "—"


def when(ts: str | None) -> str:
    return format_timestamp(ts)


def source_label(source: dict) -> str:
    name = Path(source.get("path") or "?").name
    count = source.get("messages", 0)
    return f"{name} · {source.get('format')} · {count:,} msg{'s' if count != 1 else ''}"


def snippet(text: str, query: str, width: int, match_style: Style | str) -> Text:
    """``text`` on one line, cut to ``width`` around its first match, matches styled."""
    flat = " ".join(text.split())
    spans = match_spans(query, flat) if query else []
    start = 0
    if len(flat) > width and spans and spans[0][0] > width // 3:
        start = spans[0][0] - width // 3
    piece = flat[start:start + width]
    out = Text(("…" if start else "") + piece + ("…" if start + width < len(flat) else ""))
    shift = 1 if start else 0
    for a, b in spans:
        a, b = a - start, b - start
        if b <= 0 or a >= len(piece):
            continue
        out.stylize(match_style, max(a, 0) + shift, min(b, len(piece)) + shift)
    return out
