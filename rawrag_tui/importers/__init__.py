"""Export formats: detect which one a path holds, and parse it into records.

Each format is one module exposing ``NAME``, ``detect(source)`` and
``parse(source, stats) -> Iterator[Conversation]``. ``detect`` looks at the
content (the JSON shape of the first items, or the line grammar; never the
whole file) and returns a confidence between 0 and 1, or a bool (True counts
as 1.0). The most confident format wins; on a tie, the one whose optional
``NAME_HINT`` regex matches a member's name, then the earlier in
:data:`FORMATS`. Modules are imported on demand, so adding a format never
slows start-up.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType

from ..errors import ImportFormatError, UserError
from .records import MAX_MESSAGE_CHARS, Conversation, Message, ParseStats
from .source import ExportSource

#: Format name -> module. Order only breaks ties between equally confident
#: detectors that no file-name hint separates.
FORMATS: dict[str, str] = {
    "locomo": "rawrag_tui.importers.locomo",
    "chatgpt": "rawrag_tui.importers.chatgpt",
    "claude": "rawrag_tui.importers.claude",
    "claude_code": "rawrag_tui.importers.claude_code",
    "codex": "rawrag_tui.importers.codex",
    "gemini": "rawrag_tui.importers.gemini",
    "open_webui": "rawrag_tui.importers.open_webui",
    "slack": "rawrag_tui.importers.slack",
    "discord": "rawrag_tui.importers.discord",
    "telegram": "rawrag_tui.importers.telegram",
    "whatsapp": "rawrag_tui.importers.whatsapp",
    "jsonl": "rawrag_tui.importers.jsonl",
}


def load(name: str) -> ModuleType:
    try:
        return importlib.import_module(FORMATS[name])
    except KeyError:
        raise UserError(f"unknown format {name!r}; known: {', '.join(sorted(FORMATS))}") from None


#: A detector's confidence at which its verdict stands on its own.
SURE = 0.9


def _confidence(value: object) -> float:
    if value is True:
        return 1.0
    if not value:
        return 0.0
    try:
        return max(0.0, min(1.0, float(value)))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 1.0


def _hinted(module: ModuleType, source: ExportSource) -> bool:
    hint = getattr(module, "NAME_HINT", None)
    if hint is None:
        return False
    names = [source.path.name] + source.names()[:1000]
    return any(hint.search(n) for n in names)


def scores(source: ExportSource) -> list[tuple[str, float]]:
    """Every format that recognises the source, most likely first."""
    found = []
    for order, name in enumerate(FORMATS):
        module = load(name)
        confidence = _confidence(module.detect(source))
        if confidence > 0:
            found.append((confidence, _hinted(module, source), -order, name))
    found.sort(reverse=True)
    return [(name, confidence) for confidence, _, _, name in found]


def detect(source: ExportSource) -> str:
    """The name of the format the source's content looks most like."""
    found = scores(source)
    if found:
        return found[0][0]
    raise ImportFormatError(
        source.path, "auto",
        f"no known export format recognised in its content (tried {', '.join(FORMATS)})",
    )


def resolve(source: ExportSource, fmt: str) -> str:
    """The format to parse with: detected for "auto"; for a forced one,
    itself unless the content clearly is another format, which is named."""
    if fmt == "auto":
        return detect(source)
    own = _confidence(load(fmt).detect(source))
    if own >= SURE:
        return fmt
    other = [(name, conf) for name, conf in scores(source) if name != fmt and conf >= SURE and conf > own]
    if other:
        name = other[0][0]
        raise ImportFormatError(
            source.path, fmt,
            f"its content looks like a {name} export; use --format {name} (or leave --format out)",
        )
    return fmt


def parse(fmt: str, source: ExportSource, stats: ParseStats) -> Iterator[Conversation]:
    """The format's conversations, with what every format shares: messages
    too long to be real are skipped and placed, and a file where most
    records were unreadable ends in one error (see ``ParseStats.verdict``)."""
    for conv in load(fmt).parse(source, stats):
        if any(len(m.text) > MAX_MESSAGE_CHARS for m in conv.messages):
            kept = []
            for m in conv.messages:
                if len(m.text) > MAX_MESSAGE_CHARS:
                    stats.bad(
                        source.path, fmt, f"conversation {conv.external_id!r}, message {m.external_id!r}",
                        f"message of {len(m.text):,} characters is longer than {MAX_MESSAGE_CHARS:,}",
                        counted=True,
                    )
                else:
                    kept.append(m)
            conv.messages = kept
            if not kept:
                continue
        yield conv
    stats.verdict(source.path, fmt)


__all__ = [
    "FORMATS", "Conversation", "ExportSource", "Message", "ParseStats", "detect", "load", "parse", "resolve", "scores",
]
