"""Names a question asks about that no message holds: "not in your history", before any reading.

Asked about a person or a place the history never mentions, a reader answers
from the nearest person's facts ("What is Xavier's job?" gets Caroline's).
No reader is needed to know better: a name is a capitalised word that does
not start a sentence (in every script that has capitals), and the lexical
index says whether any message holds it (``Store.mentions``, lenient with
inflected endings). One such name that is nowhere is enough to abstain.

Scripts without capitals (Chinese, Japanese) are not checked: a name there
cannot be told from a word without a language's help.
"""

from __future__ import annotations

import re

from .history import History

#: A word: letters, then letters, digits, apostrophes or hyphens.
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
#: What ends a sentence before a new one starts with a capital.
_SENTENCE_END = re.compile(r"[.!?¿¡:;\"«»“”„]\s*$")
#: The letters a name's check looks up: up to a possessive or hyphen ("Ines's" -> "Ines").
_NAME_PART = re.compile(r"[^\W\d_]+")


def named(question: str) -> list[str]:
    """The capitalised words of ``question`` that do not start a sentence, in order."""
    names: list[str] = []
    for match in _WORD.finditer(question):
        before = question[: match.start()]
        if not before.strip() or _SENTENCE_END.search(before):
            continue
        part = _NAME_PART.match(match.group())
        word = part.group() if part else ""
        if len(word) >= 2 and word[0].isupper() and word not in names:
            names.append(word)
    return names


def unknown_names(question: str, history: History) -> list[str]:
    """The names ``question`` asks about that no message of the history holds."""
    return [name for name in named(question) if not history.mentions(name)]
