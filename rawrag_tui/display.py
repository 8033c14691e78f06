"""The one display-formatting module every face shares (CLI, app, MCP, eval).

A message is shown the way it was serialised for search (``[date] speaker:
text``), and a date the way that line writes it, so a hit reads the same in
the terminal, the app and an agent's context. The reader's prompt words its
dates for a small model instead (``8 May 2023``): that is the prompt's
business (answer/packing.py), not a display format.
"""

from __future__ import annotations

from .index.serialise import format_timestamp, message_line
from .search.highlight import best_messages, match_spans

__all__ = ["best_messages", "format_timestamp", "match_spans", "message_line"]
