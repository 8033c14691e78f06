"""Dates in a message's text, for the reader and the answer checks: one door to the language modules.

Relative times ("yesterday", "last week") are resolved against the
message's own date and stated dates ("Saturday 3 May", "3月21日",
"2026-05-03") are found, each by the module of the message's own language
(rawrag_tui/lang): this module holds no word of any language. The raw text
in the store is never changed: this runs only on the copy a reader is shown.
"""

from __future__ import annotations

from ..lang import annotate, dates_in, long_date, message_date, planned_dates

__all__ = ["annotate", "dates_in", "long_date", "message_date", "planned_dates"]
