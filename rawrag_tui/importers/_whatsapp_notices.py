"""WhatsApp's deleted-message notices, from a table of its own UI strings.

Android writes "This message was deleted" (or "Diese Nachricht wurde
gelöscht", "このメッセージは削除されました", ...) as a plain body with no mark,
so nothing in the export's structure tells it from words a person typed.
WhatsApp's notices are fixed strings of the app, one per language, so a table
of them (``data/whatsapp_deleted_notices.json``, by language, with where each
came from) is exact where a pattern would guess. A body is a notice only when
*all* of it equals an entry once direction marks, spaces and one closing full
stop are trimmed and case is folded: "I think this message was deleted" stays
words.
"""

from __future__ import annotations

import json
import unicodedata
from functools import lru_cache
from importlib import resources

NOTICES_FILE = "whatsapp_deleted_notices.json"
#: The table's lists of notices: someone else's deleted message, your own,
#: and wordings matched before the table that no string resource confirmed.
PARTS = ("incoming", "outgoing", "unverified")

_MARKS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff\u061c \t\u00a0\u202f"
#: Apostrophes a phone may type for WhatsApp's "'" (str.translate is slow: replaced one by one).
_QUOTES = "\u2019\u2018\u02bc"
#: A closing full stop in any script (Latin, CJK, Devanagari, Urdu): phones
#: and app versions differ on whether the notice ends with one.
_CLOSING = ".\u3002\u0964\u06d4"


def notice_key(text: str) -> str:
    """The form a body and a table entry are compared in."""
    key = text.strip(_MARKS)
    if not key.isascii():
        key = unicodedata.normalize("NFC", key)
        for quote in _QUOTES:
            if quote in key:
                key = key.replace(quote, "'")
    if key[-1:] in _CLOSING:
        key = key[:-1].rstrip(_MARKS)
    if "  " in key or "\u00a0" in key or "\u202f" in key:
        key = " ".join(key.split())
    return key.casefold()


@lru_cache(maxsize=1)
def table() -> dict[str, dict[str, list[str]]]:
    """The notices by part and language, as the data file holds them."""
    raw = (resources.files("rawrag_tui") / "data" / NOTICES_FILE).read_text(encoding="utf-8")
    data = json.loads(raw)
    return {part: data[part] for part in PARTS}


class _Keys:
    """The table's entries in compared form, and the shortest and longest of
    them: a body outside those lengths (most messages) is never normalised."""

    def __init__(self) -> None:
        entries = (text for part in table().values() for texts in part.values() for text in texts)
        self.keys = frozenset(map(notice_key, entries))
        self.shortest = min(map(len, self.keys))
        self.longest = max(map(len, self.keys)) + 8  # room for marks, spaces and a full stop


@lru_cache(maxsize=1)
def _keys() -> _Keys:
    return _Keys()


def is_deleted_notice(body: str) -> bool:
    """Whether a whole message body is WhatsApp's deleted-message notice, in any language it ships."""
    keys = _keys()
    if not keys.shortest <= len(body) <= keys.longest or "\n" in body:
        return False
    return notice_key(body) in keys.keys
