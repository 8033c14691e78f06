"""Export formats: detect which one a path holds, and parse it into records.

Each format is one module exposing ``NAME``, ``detect(source) -> bool`` and
``parse(source, stats) -> Iterator[Conversation]``. Modules are imported on
demand, so adding a format never slows start-up.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import ImportFormatError, UserError
from .records import Conversation, Message, ParseStats
from .source import ExportSource

#: Format name -> module, in detection order (most specific first). Each
#: detector looks at member names and the first bytes only, and none of ours
#: claims a LoCoMo JSON or a JSON-lines file.
FORMATS: dict[str, str] = {
    "locomo": "rawrag_tui.importers.locomo",
    "chatgpt": "rawrag_tui.importers.chatgpt",
    "claude": "rawrag_tui.importers.claude",
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


def detect(source: ExportSource) -> str:
    """The name of the first format whose detector accepts the source."""
    for name in FORMATS:
        if load(name).detect(source):
            return name
    raise ImportFormatError(
        source.path, "auto", f"no known export format recognised (tried {', '.join(FORMATS)})"
    )


__all__ = ["Conversation", "Message", "ParseStats", "ExportSource", "FORMATS", "detect", "load"]
