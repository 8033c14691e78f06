"""Values every language writes alike: phone numbers, e-mail addresses, clock times, money.

Evidence selection (the numbers and addresses a question asks for), the
timeline (a subject's latest statement of one) and the later-values check
(answer/checks/later_values.py) read them with the same patterns; money also
in the words of the text's language (rawrag_tui/lang).
"""

from __future__ import annotations

import re

from .. import lang

#: The kinds every language writes alike; money also in the words of the text's language.
#: Letters and digits of the Latin script only: a CJK character is a word
#: character too, and "打我电话13812345678" or "换成wanglei.work@outlook.com了" writes
#: the value right against one.
KINDS: dict[str, re.Pattern[str]] = {
    lang.EMAIL: re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+"),
    lang.PHONE: re.compile(r"(?<![A-Za-z0-9_:.])\+?\d(?:[ -]?\d){7,}(?![A-Za-z0-9_:])"),
    "clock": re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),
}
MONEY = "money"


def _patterns(kind: str, text: str) -> list[re.Pattern[str]]:
    return lang.money_patterns([text]) if kind == MONEY else [KINDS[kind]]


def values_in(kind: str, text: str) -> list[re.Match[str]]:
    """The values of ``kind`` in ``text``, in the order it writes them."""
    return sorted((m for rx in _patterns(kind, text) for m in rx.finditer(text)), key=lambda m: m.start())


def holds(kind: str, text: str) -> bool:
    """Whether ``text`` states a value of ``kind`` (``phone``, ``email``, ...)."""
    return bool(values_in(kind, text))
